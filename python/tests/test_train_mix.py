"""--mix: several games (variants) in one run, the envs split by weight, one policy."""

from __future__ import annotations

import contextlib
import csv
import json
from pathlib import Path

import pytest

from extras import require

require("torch")

import botarena  # noqa: E402
from botarena.policy import load_policy  # noqa: E402
from botarena.server import find_binary  # noqa: E402
from botarena.train import TrainConfig, main, train  # noqa: E402
from botarena.train.config import MixGroup, parse_mix, split_envs  # noqa: E402
from botarena.train.imitate import load_demonstrations, record_demonstrations  # noqa: E402


@pytest.mark.parametrize(
    ("text", "want"),
    [
        ("", []),
        ("battlebots", [MixGroup("battlebots", 1.0, name="battlebots")]),
        (
            "battlecube*2, battlecube/tasks3",
            [MixGroup("battlecube", 2.0, name="battlecube"), MixGroup("battlecube/tasks3", 1.0, name="battlecube/tasks3")],
        ),
        (
            '[{"game": "battlebots", "opponent": "huggy"}, {"game": "battlebots", "weight": 0.5, "config": {"a": 1}, "imitate": ""}]',
            [
                MixGroup("battlebots", 1.0, opponent="huggy", name="battlebots#0"),
                MixGroup("battlebots", 0.5, config={"a": 1}, imitate="", name="battlebots#1"),
            ],
        ),
        ('[{"game": "battlecube", "name": "one task"}]', [MixGroup("battlecube", 1.0, name="one task")]),
    ],
    ids=["empty", "one game", "weights", "json with a game twice", "json name"],
)
def test_a_mix_is_games_with_optional_weights_or_a_json_list(text: str, want: list[MixGroup]) -> None:
    assert parse_mix(text) == want


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("battlebots*0", "above 0"),
        ("battlebots,battlebots", "named twice"),
        ("[{}]", '"game" string'),
        ('[{"game": "battlebots", "seats": 2}]', "unknown key"),
        ('[{"game": "a", "name": "x"}, {"game": "b", "name": "x"}]', "two groups named 'x'"),
        ("[1", "not JSON"),
    ],
    ids=["zero weight", "a game twice", "no game", "unknown key", "a name twice", "bad json"],
)
def test_a_bad_mix_is_refused(text: str, why: str) -> None:
    with pytest.raises(ValueError, match=why):
        parse_mix(text)


@pytest.mark.parametrize(
    ("num_envs", "weights", "minimum", "want"),
    [
        (12, [2, 1], [2, 2], [8, 4]),
        (10, [1, 1, 1], [1, 1, 1], [4, 3, 3]),
        (8, [10, 1], [2, 4], [4, 4]),  # the light group keeps its learner seats
    ],
    ids=["by weight", "largest remainder", "minimums first"],
)
def test_the_envs_are_split_by_weight_each_group_covering_its_seats(num_envs: int, weights: list[float], minimum: list[int], want: list[int]) -> None:
    groups = [MixGroup("g", w, name=f"g{k}") for k, w in enumerate(weights)]
    assert split_envs(num_envs, groups, minimum) == want


def test_too_few_envs_for_the_groups_seats_is_refused() -> None:
    with pytest.raises(ValueError, match="raise --num-envs"):
        split_envs(3, [MixGroup("a", name="a"), MixGroup("b", name="b")], [2, 2])


def test_a_mixed_run_trains_each_group_and_records_them(tmp_path: Path, address: str) -> None:
    """Two groups of battlebots with their own opponents (and the second alone imitating sniper,
    without a clone: --imitate-epochs 0): the curve has each group's columns, eval.json each
    group's evaluation, and the policy records every group."""
    mix = '[{"game": "battlebots", "name": "vs huggy", "opponent": "huggy", "imitate": ""}, {"game": "battlebots/10x10", "weight": 3, "opponent": "nop"}]'
    args = ["--mix", mix, "--total-steps", "2048", "--num-envs", "16", "--num-steps", "64", "--channels", "8,8", "--hidden", "32"]
    args += ["--imitate", "sniper", "--imitate-games", "4", "--imitate-epochs", "0", "--imitate-coef", "0.5"]
    args += ["--checkpoint-every", "2", "--eval-games", "1", "--gauntlet-games", "0", "--address", address, "--out", str(tmp_path)]
    log = tmp_path / "log.txt"
    with open(log, "w") as f, contextlib.redirect_stdout(f):
        assert main(args) == 0
    text = log.read_text()
    assert "--mix: vs huggy: 4 envs vs huggy; battlebots/10x10: 12 envs vs nop" in text, text
    assert "imitation: 4 games of sniper against nop" in text and "no clone" in text and "imitation epoch" not in text
    assert not (tmp_path / "imitation" / "group_00").exists() and (tmp_path / "imitation" / "group_01" / "data").is_dir()
    with open(tmp_path / "curve.csv") as f:
        rows = list(csv.DictReader(f))
    assert len(rows) == 2 and all(float(r["aux_loss"]) > 0 for r in rows)
    for name in ("vs huggy", "battlebots/10x10"):
        assert {f"{name}/episodes", f"{name}/win_rate", f"{name}/mean_return"} <= set(rows[0])
    assert sum(float(r["vs huggy/episodes"]) + float(r["battlebots/10x10/episodes"]) for r in rows) == sum(float(r["episodes"]) for r in rows)
    report = json.loads((tmp_path / "eval.json").read_text())
    assert sorted(report["groups"]) == ["battlebots/10x10", "vs huggy"]
    assert report["groups"]["vs huggy"]["opponents"]["huggy"]["argmax"]["games"] == 2
    assert report["groups"]["battlebots/10x10"]["game"] == "battlebots/10x10"
    trained = load_policy(tmp_path / "policy.safetensors").arch["trained"]
    assert [(g["name"], g["game"], g["weight"], g["opponent"], g["imitate"]) for g in trained["mix"]] == [
        ("vs huggy", "battlebots", 1.0, "huggy", ""),
        ("battlebots/10x10", "battlebots/10x10", 3.0, "nop", "sniper"),
    ]
    # Resumed, the run reads the group's decisions back rather than playing them again.
    with open(log, "w") as f, contextlib.redirect_stdout(f):
        assert main([*args[: args.index("--total-steps")], "--total-steps", "3072", *args[args.index("--total-steps") + 2 :], "--resume", "auto", "--eval-games", "0"]) == 0
    text = log.read_text()
    assert "games of sniper" not in text and "decisions of sniper in 4 games" in text, text


def test_a_mix_of_games_that_see_differently_is_refused(tmp_path: Path, address: str) -> None:
    cfg = TrainConfig(mix="battlebots,bomberman/2p", total_steps=64, num_envs=4, num_steps=16, out=str(tmp_path), address=address, quiet=True)
    with pytest.raises(ValueError, match="one policy needs one observation spec"):
        train(cfg)


def test_the_command_line_refuses_a_mix_with_game_or_self_play(capsys) -> None:  # type: ignore[no-untyped-def]
    assert main(["--mix", "battlebots", "--game", "battlebots", "--minutes", "1"]) == 2
    assert "not with --game" in capsys.readouterr().err
    assert main(["--mix", "battlebots*x", "--minutes", "1"]) == 2
    assert "--mix:" in capsys.readouterr().err



def test_imitate_alone_seats_the_teacher_once_against_copies_of_the_opponent(tmp_path: Path, client: botarena.Client) -> None:
    """In a 4-player game a league of the teacher and the opponent seats the teacher 2-3 times a game;
    alone_in=4 (--imitate-alone) adds copies of the opponent, so each game has the teacher once."""
    spec = client.game_spec("battlecube/tasks3")
    both = record_demonstrations(find_binary(), "battlecube/tasks3", "dodger", "teebot", 4, tmp_path / "both", seed=5)
    alone = record_demonstrations(find_binary(), "battlecube/tasks3", "dodger", "teebot", 4, tmp_path / "alone", seed=5, alone_in=4)
    assert load_demonstrations(alone, spec, 0.99).games == 4
    assert load_demonstrations(both, spec, 0.99).games > 4


def test_the_trainers_own_server_takes_64_connections_a_group(address: str) -> None:
    """Each group's pools hold a connection per stepping thread: four groups of 4-player cubes outgrew
    the server's default of 64 connections a client (the first step failed with a reset connection)."""
    args = TrainConfig(mix="battlebots,battlebots/10x10", address=address).resolved().server_args()
    assert args[args.index("--max-client-connections") + 1] == "128"
    assert "--max-client-connections" not in TrainConfig(game="battlebots", address=address).resolved().server_args()
