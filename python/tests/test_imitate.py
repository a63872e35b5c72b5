"""botarena.train.imitate on real match data: which of the teacher's rows are decisions to learn."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

torch = pytest.importorskip("torch")

from botarena.policy import PolicyNet, default_architecture  # noqa: E402
from botarena.server import find_binary  # noqa: E402
from botarena.spec import GameSpec  # noqa: E402
from botarena.train.imitate import (  # noqa: E402
    TEACHER,
    fit_scales,
    imitation_loss,
    load_demonstrations,
    opponent_folders,
    parse_action_range,
    record_demonstrations,
    split_games,
)


def test_a_teacher_action_its_mask_rules_out_is_not_a_decision(tmp_path: Path) -> None:
    """A row whose action the mask marks illegal (the engine ignored it: hunter triggers a bomb
    chained to one at timer 1) is left out of the demonstrations: the policy can never take it,
    and its masked log-probability of about -1e9 made the imitation loss about 1e6."""
    data = record_demonstrations(find_binary(), "bomberman/2p", "hunter", "reference", 2, tmp_path, seed=1)
    (path,) = sorted(data.glob("*.parquet"))
    table = pq.read_table(path)
    spec = GameSpec.from_schema_metadata(table.schema)
    before = load_demonstrations(data, spec, 0.99)

    # Rule out the taken action of one teacher decision that keeps two legal actions without it.
    agent = table["agent"].to_numpy(zero_copy_only=False)
    action = table["action"].to_numpy()
    mask = np.concatenate([c.flatten().to_numpy() for c in table["mask"].chunks]).reshape(len(action), spec.actions).copy()
    legal = mask.sum(axis=1)
    rows = np.flatnonzero((agent == TEACHER) & (legal >= 3) & (mask[np.arange(len(action)), action] == 1))
    assert len(rows) > 0, "the teacher never had three legal actions"
    row = int(rows[len(rows) // 2])
    mask[row, action[row]] = 0
    field = table.schema.field("mask")
    column = pa.FixedSizeListArray.from_arrays(pa.array(mask.reshape(-1), type=pa.uint8()), type=field.type)
    pq.write_table(table.set_column(table.schema.get_field_index("mask"), field, column), path)

    after = load_demonstrations(data, spec, 0.99)
    assert len(after) == len(before) - 1
    assert np.all(after.masks[np.arange(len(after)), after.actions] == 1), "a decision's action is illegal under its mask"

    net = PolicyNet(default_architecture(spec, channels=[4], hidden=16))
    loss = imitation_loss(net, after, 256, np.random.default_rng(0), torch.device("cpu")).item()
    assert loss < 2 * np.log(spec.actions), f"an untrained net's cross-entropy is about log(actions), got {loss}"


def test_fit_scales_bring_the_teachers_observations_within_one_and_into_the_architecture(tmp_path: Path) -> None:
    """After fit_scales every scaled input of the demonstrations is at most 1 in magnitude (hunter's
    blast radii and timers are above 1 at scale 1), a scale already smaller is kept, and a network
    built from the architecture alone (a saved policy file, Go) computes what the network does."""
    data = record_demonstrations(find_binary(), "bomberman/2p", "hunter", "reference", 2, tmp_path, seed=1)
    spec = GameSpec.from_schema_metadata(pq.read_table(sorted(data.glob("*.parquet"))[0]).schema)
    demos = load_demonstrations(data, spec, 0.99)
    planes = spec.observations[0].shape[0]
    small = [1.0] * planes
    small[0] = 0.01
    net = PolicyNet(default_architecture(spec, channels=[4], hidden=16, scales={"planes": small}))
    assert any(float(demos.obs[n].max()) > 1 for n in net.input_names), "the demonstrations need an input above 1"

    got = fit_scales(net, demos)
    assert got["planes"][0] == 0.01
    for k, name in enumerate(net.input_names):
        x = demos.obs[name].astype(np.float32)
        scale = np.asarray(got[name], dtype=np.float32).reshape(-1, *([1] * (x.ndim - 2)))
        assert np.abs(x * scale).max() <= 1.0 + 1e-6, name
        assert net.arch["inputs"][name]["scale"] == got[name]
    rebuilt = PolicyNet(net.arch)
    rebuilt.load_state_dict(net.state_dict())
    inputs = [torch.from_numpy(demos.obs[n][:32]) for n in net.input_names]
    torch.testing.assert_close(rebuilt(*inputs), net(*inputs))


def test_a_dagger_seats_decisions_are_its_teachers_choices_in_the_students_states(tmp_path: Path) -> None:
    """dagger:TEACHER:STUDENT plays the student and labels its states with the teacher's choices:
    the demonstrations learn the labels (here sniper's), not what was played (idle's 0), and data
    without a label column (files from before it) learns the actions played."""
    data = record_demonstrations(find_binary(), "battlebots", "dagger:sniper:idle", "huggy", 6, tmp_path, seed=2)
    (path,) = sorted(data.glob("*.parquet"))
    table = pq.read_table(path)
    spec = GameSpec.from_schema_metadata(table.schema)
    demos = load_demonstrations(data, spec, 0.99)
    assert demos.games == 6 and len(demos) > 20
    assert demos.played is not None and (demos.played == 0).all(), "the student (idle) played something else"
    assert (demos.actions != 0).mean() > 0.5, "the labels are not sniper's choices"
    assert demos.agreement() == float((demos.actions == 0).mean())
    assert np.all(demos.masks[np.arange(len(demos)), demos.actions] == 1), "a label is illegal under its mask"

    pq.write_table(table.drop_columns(["label"]), path)
    unlabelled = load_demonstrations(data, spec, 0.99)
    assert (unlabelled.actions == 0).all() and unlabelled.agreement() == 1.0

    both = demos + unlabelled
    assert len(both) == len(demos) + len(unlabelled) and both.games == 12
    assert (both.actions[: len(demos)] == demos.actions).all() and (both.obs["planes"][len(demos) :] == unlabelled.obs["planes"]).all()


@pytest.mark.parametrize(
    ("games", "mixture", "want"),
    [
        (10, [("a", 1.0)], [("a", 10)]),
        (8, [("a", 3.0), ("b", 1.0)], [("a", 6), ("b", 2)]),
        (10, [("a", 1.0), ("b", 1.0), ("c", 1.0)], [("a", 4), ("b", 3), ("c", 3)]),  # the remainder to the first
        (1, [("a", 1.0), ("b", 2.0)], [("a", 0), ("b", 1)]),  # largest remainder: b
        (0, [("a", 1.0)], [("a", 0)]),
    ],
)
def test_split_games_shares_games_by_weight_summing_to_the_total(games: int, mixture: list[tuple[str, float]], want: list[tuple[str, int]]) -> None:
    got = split_games(games, mixture)
    assert got == want and sum(n for _, n in got) == games


def test_split_games_refuses_no_opponents_and_negative_games() -> None:
    with pytest.raises(ValueError):
        split_games(4, [])
    with pytest.raises(ValueError):
        split_games(-1, [("a", 1.0)])


def test_one_opponents_games_keep_the_single_opponent_layout(tmp_path: Path) -> None:
    assert opponent_folders(tmp_path, 1) == [tmp_path]
    assert opponent_folders(tmp_path, 2) == [tmp_path / "vs_00", tmp_path / "vs_01"]


def test_an_action_range_keeps_only_the_teachers_decisions_inside_it(tmp_path: Path) -> None:
    """--imitate-actions LO:HI: of hunter's Battleships decisions in learn placement, the range below
    the placement actions keeps its shots and drops its five placements a game, and the two ranges
    together are every decision."""
    cfg = {"placement": "learn"}
    data = record_demonstrations(find_binary(), "battleships/small", "hunter", "reference", 2, tmp_path, seed=1, config=cfg)
    spec = GameSpec.from_schema_metadata(pq.read_table(sorted(data.glob("*.parquet"))[0]).schema)
    every = load_demonstrations(data, spec, 0.99)
    first_place = spec.actions - 4 * 7 * 7  # Battleships: 4 directions x n^2 placement actions at the end
    shots = load_demonstrations(data, spec, 0.99, parse_action_range(f"0:{first_place}"))
    fleet = load_demonstrations(data, spec, 0.99, parse_action_range(f"{first_place}:{spec.actions}"))
    assert len(shots) + len(fleet) == len(every)
    assert len(fleet) > 0 and np.all(fleet.actions >= first_place)
    assert len(shots) > 0 and np.all(shots.actions < first_place)
    assert shots.games == every.games


@pytest.mark.parametrize("text", ["5", "3:3", "-1:4", "a:b"])
def test_a_bad_action_range_is_refused(text: str) -> None:
    with pytest.raises(ValueError):
        parse_action_range(text)
