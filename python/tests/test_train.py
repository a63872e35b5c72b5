"""The training smoke test: PPO for a few thousand steps, export, and the policy played by Go.

CI runs it with PyTorch installed (BOTARENA_REQUIRE_EXTRAS=1); elsewhere it
skips when torch is missing.
"""

from __future__ import annotations

import contextlib
import csv
import dataclasses
import json
import os
import re
import subprocess
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from extras import require

require("torch")
require("matplotlib")

import torch  # noqa: E402

import botarena  # noqa: E402
from botarena.policy import PolicyNet, default_architecture, load_policy, save_policy  # noqa: E402
from botarena.server import find_binary  # noqa: E402
from botarena.train import TrainConfig, evaluate, game_defaults, main, train  # noqa: E402
from botarena.train.config import parse_opponents  # noqa: E402


def _play(game: str, agents: str, seed: int) -> dict[str, Any]:
    """The result line of ``botarena play game --agents agents --seed seed --json``, which must succeed."""
    out = subprocess.run(
        [find_binary(), "play", game, "--agents", agents, "--seed", str(seed), "--json"], capture_output=True, text=True, timeout=120
    )
    assert out.returncode == 0, out.stderr
    result: dict[str, Any] = json.loads(out.stdout.splitlines()[0])
    return result


def _small(out: Path, address: str, **kw: object) -> TrainConfig:
    cfg = dict(
        game="battlebots",
        minutes=0,
        total_steps=4096,
        num_envs=16,
        num_steps=64,
        channels=(8, 8),
        hidden=32,
        checkpoint_every=2,
        eval_games=0,
        out=str(out),
        address=address,
        quiet=True,
    )
    cfg.update(kw)
    return TrainConfig(**cfg)  # type: ignore[arg-type]



POLICIES = Path(__file__).resolve().parents[2] / "policies"


def test_evaluate_plays_a_policy_under_a_config_that_appends_to_its_observations(address: str) -> None:
    """battlebots.policy.safetensors was trained without history: under {"history": 2} its scalars
    are the first 4 of 56, which it reads; battlecube-4p-history2 needs its history and tasks
    scalars, so a config without history is refused before a game is played."""
    r = evaluate(POLICIES / "battlebots.policy.safetensors", "battlebots", "nop", games=2, address=address, config={"history": 2})
    assert r.games == 2 and r.wins + r.draws + r.losses == 2
    with pytest.raises(ValueError, match="do not hold the policy's as prefixes"):
        evaluate(POLICIES / "battlecube-4p-history2.policy.safetensors", "battlecube", "teebot", games=4, address=address, config={"tasks_scalar": True})


def test_training_writes_the_policy_curve_and_checkpoints_and_go_plays_the_policy(tmp_path: Path, address: str) -> None:
    policy = train(_small(tmp_path, address))
    assert policy == tmp_path / "policy.safetensors"
    with open(tmp_path / "curve.csv") as f:
        rows = list(csv.DictReader(f))
    assert [int(float(r["update"])) for r in rows] == [1, 2, 3, 4]  # 4096 steps / (16 envs × 64)
    assert all(float(r["steps_per_s"]) > 0 for r in rows)
    assert sum(int(float(r["episodes"])) for r in rows) > 0
    assert (tmp_path / "curve.png").stat().st_size > 0
    assert sorted(p.name for p in (tmp_path / "checkpoints").iterdir()) == [
        "update_00002.policy.safetensors",
        "update_00002.pt",
        "update_00004.policy.safetensors",
        "update_00004.pt",
    ]
    net = load_policy(policy)
    assert net.arch["game"] == "battlebots" and net.arch["trained"]["env_steps"] == 4096

    # Go loads the exported file and plays a match with it.
    game = _play("battlebots", f"policy:{policy},huggy", 3)
    assert game["game"] == "battlebots"
    assert [e["agent"] for e in sorted(game["leaderboard"], key=lambda e: e["seat"])] == [f"policy:{policy}", "huggy"]

    r = evaluate(policy, "battlebots", "huggy", games=8, address=address)
    assert r.games == 8 and r.wins + r.draws + r.losses == 8
    # The games are split over both seats, the policy playing each.
    assert sorted(r.by_seat) == [0, 1] and [sum(v) for _, v in sorted(r.by_seat.items())] == [4, 4]
    # How it played: the policy's actions by name, one per step of each game.
    assert r.mean_length > 0 and sum(r.actions.values()) == pytest.approx(r.mean_length)
    assert set(r.actions) <= set(game_spec_names("battlebots")) and 0 <= r.do_nothing_share <= 1


def game_spec_names(game: str) -> list[str]:
    """The action names of game, from `botarena games --json`."""
    out = subprocess.run([find_binary(), "games", game, "--json"], capture_output=True, text=True, check=True)
    spec = json.loads(out.stdout)["spec"]
    return list(spec.get("action_names") or spec["actionNames"])


def test_the_evaluations_action_counts_name_the_most_frequent_first() -> None:
    from botarena.spec import ActionFactors, GameSpec
    from botarena.train.evaluate import TOP_ACTIONS, action_counts

    flat = GameSpec(game="g", seats=2, observations=(), actions=20, action_names=tuple(f"a{i}" for i in range(20)))
    chosen = np.arange(20)  # action i chosen i times
    counts = action_counts(flat, chosen, 2)
    assert list(counts)[:3] == ["a19", "a18", "a17"] and counts["a19"] == 9.5 and "a0" not in counts
    assert len(counts) == TOP_ACTIONS + 1 and counts["other"] == sum(range(20 - TOP_ACTIONS)) / 2
    factored = GameSpec(
        game="g", seats=2, observations=(), actions=4, action_names=("nothing", "fire 0", "fire 1", "place 0"),
        action_factors=ActionFactors(commands=("nothing", "fire", "place"), cells=2, command=(0, 1, 1, 2), cell=(0, 0, 1, 0)),
    )
    assert action_counts(factored, np.array([1, 2, 3, 0]), 1) == {"fire": 5, "nothing": 1}


def test_a_run_resumes_from_its_checkpoint(tmp_path: Path, address: str) -> None:
    train(_small(tmp_path, address, total_steps=2048))
    train(_small(tmp_path, address, total_steps=4096, resume=str(tmp_path / "checkpoints" / "update_00002.pt")))
    with open(tmp_path / "curve.csv") as f:
        assert [int(float(r["update"])) for r in csv.DictReader(f)] == [1, 2, 3, 4]


def test_the_command_line_rejects_a_run_without_a_budget(capsys) -> None:  # type: ignore[no-untyped-def]
    assert main(["--game", "battlebots", "--minutes", "0"]) == 2
    assert "--minutes or --total-steps" in capsys.readouterr().err


def test_each_train_config_field_is_the_command_line_flag_of_its_name() -> None:
    """The command line sets every TrainConfig field from the flag of its name, comma lists split."""
    from botarena.train.cli import _parser, _train_config

    dests = {a.dest for a in _parser()._actions}
    assert {f.name for f in dataclasses.fields(TrainConfig)} <= dests
    argv = ["--game", "battlebots", "--lr", "0.01", "--no-anneal-lr", "--channels", "8,16", "--strides", "2, 1", "--hidden", "7"]
    argv += ["--learner-seats", "1", "--track", "tensorboard, wandb,", "--league-bots", "sniper,huggy", "--imitate", "greedy", "--bf16"]
    cfg = _train_config(_parser().parse_args(argv), "battlebots", {"players": 2})
    assert (cfg.game, cfg.config, cfg.lr, cfg.anneal_lr, cfg.channels, cfg.strides, cfg.hidden) == (
        "battlebots",
        {"players": 2},
        0.01,
        False,
        (8, 16),
        (2, 1),
        7,
    )
    assert (cfg.learner_seats, cfg.track, cfg.league_bots, cfg.imitate, cfg.bf16) == ((1,), ("tensorboard", "wandb"), ("sniper", "huggy"), "greedy", True)
    assert cfg.out == os.path.join("runs", "battlebots") and cfg.num_envs == TrainConfig().num_envs


def test_training_defaults_come_from_the_games_spec(address: str) -> None:
    """TrainConfig fills its unset fields from the game's spec (ListGames), not from Python tables."""
    d = game_defaults("portalbomber", address)
    assert (d.opponent, d.league_bots, d.channels, d.strides, d.hidden, dict(d.config)) == (
        "practice",
        ("practice", "greedy", "random"),
        (32, 32),
        (1, 1),
        256,
        {},
    )
    cfg = TrainConfig(game="bomberman/2p", address=address).resolved()
    assert (cfg.opponent, cfg.channels, cfg.strides, cfg.hidden, cfg.config["points_reward"]) == ("reference", (16, 32), (1, 2), 256, 0.002)
    assert cfg.league_bots == ("reference", "random")
    with pytest.raises(ValueError, match="unknown game 'nope'"):
        game_defaults("nope", address)


@pytest.mark.parametrize(
    "flags, hyperparameters, want",
    [
        ([], {"gamma": 0.9, "ent_coef": 0.05}, (0.9, 0.05)),
        (["--gamma", "0.97"], {"gamma": 0.9, "ent_coef": 0.05}, (0.97, 0.05)),
        (["--ent-coef", "0"], {"gamma": 0.9, "ent_coef": 0.05}, (0.9, 0.0)),
        ([], {}, (0.99, 0.01)),
        (["--gamma", "0.9", "--ent-coef", "0.02"], {}, (0.9, 0.02)),
    ],
    ids=["game_values", "gamma_flag_wins", "ent_coef_flag_of_zero_wins", "trainer_defaults", "flags_without_game_values"],
)
def test_a_games_gamma_and_ent_coef_are_defaults_that_the_flags_override(
    monkeypatch: pytest.MonkeyPatch, flags: list[str], hyperparameters: dict[str, float], want: tuple[float, float]
) -> None:
    """The game's gamma and ent_coef (its spec's training defaults, from env.Training) apply when
    --gamma and --ent-coef are not given, the flags win when they are, and a game that sets
    neither gets the trainer's 0.99 and 0.01: here through the command line, with a fake game."""
    from botarena.spec import GameInfo
    from botarena.train import cli, config
    from botarena.v1 import env_pb2

    msg = env_pb2.GameInfo(
        name="fake", training=env_pb2.TrainingDefaults(channels=[8], strides=[1], hidden=32, config_json="{}", **hyperparameters)
    )
    info = GameInfo.from_proto(msg)
    assert (info.training is not None) and (info.training.gamma, info.training.ent_coef) == (
        hyperparameters.get("gamma"),
        hyperparameters.get("ent_coef"),
    )
    monkeypatch.setattr(config, "game_info", lambda game, address=None: info)
    seen: list[TrainConfig] = []

    def fake_train(cfg: TrainConfig, tracker: object = None) -> Path:
        seen.append(cfg)
        return Path("policy.safetensors")

    monkeypatch.setattr(cli, "train", fake_train)
    assert main(["--game", "fake", "--total-steps", "1", "--eval-games", "0", "--gauntlet-games", "0", *flags]) == 0
    assert (seen[0].gamma, seen[0].ent_coef) == want
    assert (game_defaults("fake").gamma, game_defaults("fake").ent_coef) == (
        hyperparameters.get("gamma", 0.99),
        hyperparameters.get("ent_coef", 0.01),
    )
    assert seen[0].resolved() == seen[0], "resolving twice (cli, then Trainer) changes nothing"
    cfg = TrainConfig(game="fake").resolved()
    assert (cfg.gamma, cfg.ent_coef) == (hyperparameters.get("gamma", 0.99), hyperparameters.get("ent_coef", 0.01))


def test_battleships_trains_a_factored_head_that_go_plays(tmp_path: Path, address: str) -> None:
    """The spec of Battleships factors its actions (13 commands × the centre cells), so the trainer
    gives it a factored head (head "auto"); Go plays the exported file, at a temperature too."""
    from botarena.client import Client

    with Client(address) as c:
        f = c.game_spec("battleships/small", None).action_factors
    assert f is not None and len(f.commands) == 13 and f.cells == 13 * 13 and len(f.command) == 1549
    policy = train(_small(tmp_path, address, game="battleships/small", total_steps=1024, checkpoint_every=0))
    net = load_policy(policy)
    assert net.arch["head"]["type"] == "factored" and net.commands == 13
    r = evaluate(policy, "battleships/small", "reference", games=4, address=address, sample=True, temperature=0.5)
    assert r.wins + r.draws + r.losses == 4
    for agent in (f"policy:{policy}", f"policy:{policy}?temp=0.3"):
        assert _play("battleships/small", f"{agent},reference", 2)["game"] == "battleships/small"


@pytest.mark.parametrize("inside", ["update", "rollout"])
def test_a_time_budget_ends_inside_an_update_or_a_rollout(inside: str, tmp_path: Path, address: str) -> None:
    """The budget is checked at every env step and minibatch: a 3-second run whose update (or
    rollout) alone would take hours ends on its budget and still writes its policy; a rollout cut
    short is not learned from."""
    kw: dict[str, object] = {"num_envs": 16, "num_steps": 16, "update_epochs": 100_000} if inside == "update" else {"num_steps": 100_000}
    policy = train(_small(tmp_path, address, minutes=3 / 60, total_steps=0, checkpoint_every=0, **kw))
    assert load_policy(policy).arch["trained"]["env_steps"] == (256 if inside == "update" else 0)
    if inside == "update":
        with open(tmp_path / "curve.csv") as f:
            rows = list(csv.DictReader(f))
        # One update, cut short: its 100,000 epochs would take hours (the test would not end), so
        # ending at all shows the deadline stopped it; no bound on seconds, which a loaded machine stretches.
        assert len(rows) == 1 and int(float(rows[0]["env_steps"])) == 256, rows
    else:
        assert not (tmp_path / "curve.csv").exists()


def test_seat_split_env_steps_its_chunks_concurrently_and_keeps_chunk_order(address: str) -> None:
    import numpy as np

    from botarena.train.rollout import SeatSplitEnv
    from botarena.vector import BotarenaVectorEnv

    split = SeatSplitEnv("battlebots", 6, [0, 1], opponents="huggy", seed=5, address=address)
    # The same chunks stepped one after the other: seat 0 gets the first 3 envs, seat 1 the rest.
    alone = [
        BotarenaVectorEnv("battlebots", 3, opponents="huggy", seed=5 + 7919 * k, address=address, learner_seat=k) for k in range(2)
    ]
    try:
        obs, info = split.reset()
        for k, a in enumerate(alone):
            a_obs, _ = a.reset()
            np.testing.assert_array_equal(obs["planes"][3 * k : 3 * k + 3], a_obs["planes"])
        rng = np.random.default_rng(3)
        for _ in range(40):
            mask = info["action_mask"].astype(bool)
            acts = np.array([rng.choice(np.flatnonzero(m)) for m in mask])
            obs, reward, term, trunc, info = split.step(acts)
            want = [a.step(acts[3 * k : 3 * k + 3]) for k, a in enumerate(alone)]
            for key in obs:
                np.testing.assert_array_equal(obs[key], np.concatenate([w[0][key] for w in want]))
            np.testing.assert_array_equal(reward, np.concatenate([w[1] for w in want]))
            np.testing.assert_array_equal(term | trunc, np.concatenate([w[2] | w[3] for w in want]))
            np.testing.assert_array_equal(info["action_mask"], np.concatenate([w[4]["action_mask"] for w in want]))
    finally:
        split.close()
        for a in alone:
            a.close()


def test_an_overlapped_run_learns_every_rollout_once_and_is_reproducible(tmp_path: Path, address: str) -> None:
    """--overlap collects the next rollout on a thread while the update runs: every update still
    learns from one whole rollout, and a second run with the same seed gives the same weights
    (the rollout thread samples with weights fixed before the update starts)."""
    from botarena.policy import read_safetensors

    runs = [train(_small(tmp_path / f"run{k}", address, overlap=True, threads=1)) for k in range(2)]
    with open(tmp_path / "run0" / "curve.csv") as f:
        rows = list(csv.DictReader(f))
    assert [int(float(r["env_steps"])) for r in rows] == [1024, 2048, 3072, 4096]
    assert load_policy(runs[0]).arch["trained"]["env_steps"] == 4096
    a, b = (read_safetensors(p)[0] for p in runs)
    assert a.keys() == b.keys() and all((a[k] == b[k]).all() for k in a)
    # Without --overlap each rollout uses the newest weights: the run differs.
    plain = read_safetensors(train(_small(tmp_path / "plain", address, threads=1)))[0]
    assert any((a[k] != plain[k]).any() for k in a)


def test_the_command_line_evaluates_eval_games_from_each_seat(tmp_path: Path, address: str) -> None:
    """--eval-games N plays N games from every seat in each mode, into eval.json."""
    policy = train(_small(tmp_path, address))
    assert main(["--evaluate", str(policy), "--eval-games", "3", "--gauntlet-games", "0", "--address", address, "--out", str(tmp_path)]) == 0
    report = json.loads((tmp_path / "eval.json").read_text())
    for mode in ("sample", "argmax"):
        assert report[mode]["games"] == 6
        assert {k: sum(v) for k, v in report[mode]["by_seat"].items()} == {"0": 3, "1": 3}


def test_evaluate_plays_a_policy_with_the_config_it_was_trained_with(tmp_path: Path, address: str, client: botarena.Client) -> None:
    """--evaluate without --config plays the policy on its own config: a centred-view Bomberman policy
    (view_radius 11, planes [12,23,23]) fits only the game with that view."""
    config = {"view_radius": 11, "points_reward": 0.002}
    spec = client.game_spec("bomberman/2p", config)
    assert list(spec.observations[0].shape) == [12, 23, 23]
    path = tmp_path / "centred.policy.safetensors"
    save_policy(PolicyNet(default_architecture(spec, config=config, channels=(4,), hidden=8)), path)
    assert main(["--evaluate", str(path), "--eval-games", "1", "--gauntlet-games", "0", "--address", address, "--out", str(tmp_path)]) == 0
    assert json.loads((tmp_path / "eval.json").read_text())["sample"]["games"] == 2


def test_an_overlapped_run_ends_on_its_time_budget_without_an_empty_update(tmp_path: Path, address: str) -> None:
    """A rollout the overlap thread finishes just before the budget runs out is not logged as an
    update without gradient steps: every row of the curve learned from its rollout."""
    # The first update runs until the budget ends (100,000 epochs) while the next rollout (16 envs × 8
    # steps) is collected long before.
    kw: dict[str, object] = {"num_envs": 16, "num_steps": 8, "update_epochs": 100_000}
    train(_small(tmp_path, address, minutes=3 / 60, total_steps=0, overlap=True, threads=1, checkpoint_every=0, **kw))
    with open(tmp_path / "curve.csv") as f:
        rows = list(csv.DictReader(f))
    assert rows and all(float(r["entropy"]) > 0 for r in rows), rows[-1]


@pytest.mark.parametrize(
    ("text", "mixture"),
    [
        ("sniper", [("sniper", 1.0)]),
        ("sniper*2,nop,huggy", [("sniper", 2.0), ("nop", 1.0), ("huggy", 1.0)]),
        (" nop * 0.5 , huggy ", [("nop", 0.5), ("huggy", 1.0)]),
        ("policy:runs/a.safetensors?temp=0.5*3", [("policy:runs/a.safetensors?temp=0.5", 3.0)]),
    ],
)
def test_an_opponent_mixture_is_agents_with_optional_weights(text: str, mixture: list[tuple[str, float]]) -> None:
    assert parse_opponents(text) == mixture


@pytest.mark.parametrize(
    ("text", "why"),
    [("sniper,,nop", "an empty agent"), ("nop*x", "must be a number"), ("nop*0", "above 0"), ("nop*inf", "above 0"), ("nop,nop", "named twice")],
)
def test_a_bad_opponent_mixture_is_refused_before_training(text: str, why: str, capsys) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(ValueError, match=why):
        parse_opponents(text)
    assert main(["--game", "battlebots", "--minutes", "1", "--opponent", text]) == 2
    assert why in capsys.readouterr().err


def test_a_run_against_a_mixture_trains_against_each_agent_and_evaluates_against_each(tmp_path: Path, address: str) -> None:
    """--opponent a*2,b draws each episode's opponent from the mixture; the log reports results per
    agent and eval.json has each agent's evaluation."""
    log = tmp_path / "log.txt"
    args = ["--game", "battlebots", "--opponent", "huggy*2,nop", "--total-steps", "4096", "--num-envs", "16", "--num-steps", "64"]
    args += ["--channels", "8,8", "--hidden", "32", "--checkpoint-every", "2", "--eval-games", "2", "--gauntlet-games", "0", "--address", address, "--out", str(tmp_path)]
    with open(log, "w") as f, contextlib.redirect_stdout(f):
        assert main(args) == 0
    text = log.read_text()
    assert "training win/draw/loss by opponent in the last 2 updates: huggy " in text and ", nop " in text
    report = json.loads((tmp_path / "eval.json").read_text())
    assert report["opponent"] == "huggy*2,nop" and sorted(report["opponents"]) == ["huggy", "nop"]
    for opp in ("huggy", "nop"):
        for mode in ("sample", "argmax"):
            r = report["opponents"][opp][mode]
            assert r["opponent"] == opp and r["games"] == 4


def test_imitation_fits_the_network_to_a_built_in_agents_decisions_before_ppo(tmp_path: Path, address: str) -> None:
    """--imitate AGENT records AGENT's games against the opponent as match data and fits the network
    to them: its arg-max agrees with the agent more after imitation than before, then PPO goes on."""
    from botarena.client import Client
    from botarena.train.imitate import clone, load_demonstrations, record_demonstrations

    data = record_demonstrations(find_binary(), "battlebots", "sniper", "huggy", 24, tmp_path / "demo", seed=3)
    with Client(address) as c:
        spec = c.game_spec("battlebots")
    demos = load_demonstrations(data, spec, 0.99)
    assert demos.games == 24 and demos.wins + demos.draws <= 24 and len(demos) > 50
    assert (demos.masks[np.arange(len(demos)), demos.actions] == 1).all()  # every action was legal
    assert (demos.masks.sum(axis=1) > 1).all()  # only decisions with a choice
    assert np.abs(demos.returns).max() <= 1.0 + 1e-6

    cfg = _small(tmp_path / "run", address, opponent="huggy", imitate="sniper", imitate_games=8, imitate_epochs=1, imitate_coef=0.5, total_steps=2048)
    log = tmp_path / "log.txt"
    with open(log, "w") as f, contextlib.redirect_stdout(f):
        train(dataclasses.replace(cfg, quiet=False))
    text = log.read_text()
    assert "imitation: 8 games of sniper against huggy" in text and "imitation epoch 1/1" in text
    assert (tmp_path / "run" / "policy.safetensors").exists()
    with open(tmp_path / "run" / "curve.csv") as f:
        rows = list(csv.DictReader(f))
    # --imitate-coef: the imitation term is in every PPO minibatch's loss, and in the curve.
    assert len(rows) == 2 and all(float(r["aux_loss"]) > 0 for r in rows)
    # A resumed run does not imitate again, but reads the match data back for --imitate-coef.
    log.write_text("")
    with open(log, "a") as f, contextlib.redirect_stdout(f):
        resumed = dataclasses.replace(cfg, quiet=False, total_steps=3072, resume=str(tmp_path / "run" / "checkpoints" / "update_00002.pt"))
        train(resumed)
    text = log.read_text()
    assert "games of sniper" not in text and "imitation epoch" not in text and "decisions of sniper in 8 games" in text
    with open(tmp_path / "run" / "curve.csv") as f:
        rows = list(csv.DictReader(f))
    assert [int(float(r["update"])) for r in rows] == [1, 2, 3] and float(rows[-1]["aux_loss"]) > 0

    net = load_policy(tmp_path / "run" / "policy.safetensors")
    torch.manual_seed(0)
    fresh = PolicyNet(net.arch)
    opt = torch.optim.Adam(fresh.parameters(), lr=1e-3)
    first = clone(fresh, opt, demos, epochs=1, minibatch=64, vf_coef=0.5, max_grad_norm=0.5, lr=1e-3, device=torch.device("cpu"), seed=0)
    last = clone(fresh, opt, demos, epochs=60, minibatch=64, vf_coef=0.5, max_grad_norm=0.5, lr=1e-3, device=torch.device("cpu"), seed=1)
    assert last["accuracy"] > first["accuracy"] + 0.2 and last["policy_loss"] < first["policy_loss"] - 0.5, (first, last)


def _train_log(cfg: TrainConfig, log: Path, **kw: Any) -> str:
    """Trains dataclasses.replace(cfg, quiet=False, **kw) with its progress lines written to log
    (emptied first) and returns them."""
    with open(log, "w") as f, contextlib.redirect_stdout(f):
        train(dataclasses.replace(cfg, quiet=False, **kw))
    return log.read_text()


def test_dagger_rounds_refit_the_clone_on_its_own_states_labelled_by_the_teacher(tmp_path: Path, address: str) -> None:
    """--dagger-rounds R: after the clone, R rounds in which the clone plays (dagger:AGENT:policy:CLONE),
    AGENT labels its states, and the clone is refitted on every decision so far; a resumed run reads
    the rounds' data back for --imitate-coef."""
    cfg = _small(
        tmp_path / "run", address, opponent="huggy", imitate="sniper", imitate_games=6, imitate_epochs=1, imitate_coef=0.5,
        dagger_rounds=2, dagger_games=4, dagger_epochs=1, total_steps=1024,
    )
    text = _train_log(cfg, tmp_path / "log.txt")
    for r in (1, 2):
        assert f"dagger round {r}/2: the clone won" in text and "played sniper's choice on" in text, text
        assert (tmp_path / "run" / "imitation" / "dagger" / f"round_{r:02d}" / "student.policy.safetensors").exists()
    assert text.count("imitation epoch 1/1: policy loss") == 3  # the clone, then a refit after each round
    decisions = [int(m.replace(",", "")) for m in re.findall(r"refitting on all ([\d,]+) decisions", text)]
    assert len(decisions) == 2 and decisions[1] > decisions[0], decisions
    text = _train_log(cfg, tmp_path / "log.txt", total_steps=2048, resume="auto")
    assert "dagger round" not in text and "imitation epoch" not in text and "decisions of sniper in 6 games" in text


def test_init_starts_from_a_policys_weights_and_records_this_runs_config(tmp_path: Path, address: str) -> None:
    """--init POLICY: the run starts from the file's weights, and its policy records the config it was
    trained with, not the file's (a run may change a field such as bomberman's safe_mask)."""
    first = train(_small(tmp_path / "a", address, opponent="huggy", config={"hp_reward": 0.0}, total_steps=1024))
    log = tmp_path / "log.txt"
    with open(log, "w") as f, contextlib.redirect_stdout(f):
        second = train(_small(tmp_path / "b", address, opponent="huggy", config={"hp_reward": 0.5}, total_steps=1024, init=str(first), quiet=False))
    assert f"starting from the weights of {first}" in log.read_text()
    assert load_policy(first).arch["config"]["hp_reward"] == 0.0
    assert load_policy(second).arch["config"]["hp_reward"] == 0.5
    # Another variant of the game that sees and acts alike (battlebots/10x10: the same tensors and
    # actions) starts from the file too, and its policy is this game's; another game does not.
    text = _train_log(_small(tmp_path / "c", address, game="battlebots/10x10", opponent="huggy", total_steps=1024, init=str(first)), log)
    assert "(a policy for battlebots, which sees and acts as battlebots/10x10 does)" in text, text
    assert load_policy(tmp_path / "c" / "policy.safetensors").arch["game"] == "battlebots/10x10"
    with pytest.raises(ValueError, match="are not those of 'bomberman/2p'"):
        train(_small(tmp_path / "d", address, game="bomberman/2p", total_steps=1024, init=str(first)))


def test_init_widens_the_scalars_of_a_policy_for_a_game_that_sees_more(tmp_path: Path, address: str) -> None:
    """--init a Battle³ policy (4 scalars) in battlecube with history (7 scalars): the trainer widens
    the trunk's first layer with zero columns, says so, and the run's first network computes the
    file's function (its policy at update 0 plays as the file does)."""
    first = train(_small(tmp_path / "a", address, game="battlecube/2p", opponent="teebot", num_envs=4, num_steps=32, total_steps=128))
    log = tmp_path / "log.txt"
    cfg = _small(tmp_path / "b", address, game="battlecube/2p", opponent="teebot", num_envs=4, num_steps=32, total_steps=128, config={"history": True}, init=str(first), lr=0.0)
    text = _train_log(cfg, log)
    assert "input 'scalars' widened from 4 to 7 entries" in text and "the network starts as the policy's function" in text, text
    old, new = load_policy(first), load_policy(tmp_path / "b" / "policy.safetensors")
    assert new.arch["inputs"]["scalars"]["shape"] == [7] and new.arch["config"] == {"history": True}
    rng = np.random.default_rng(0)
    planes = rng.integers(0, 2, size=(5, 3, 8, 8, 8), dtype=np.uint8)
    scalars = rng.random((5, 4)).astype(np.float32)
    with torch.no_grad():
        want, _ = old(torch.as_tensor(planes), torch.as_tensor(scalars))
        got, _ = new(torch.as_tensor(planes), torch.as_tensor(np.concatenate([scalars, rng.random((5, 3)).astype(np.float32)], axis=1)))
    torch.testing.assert_close(got, want, rtol=0, atol=1e-5)


def test_imitation_and_dagger_share_their_games_over_the_opponent_mixture(tmp_path: Path, address: str) -> None:
    """With an --opponent mixture, the teacher's games and each DAgger round's games are shared over
    its opponents by weight, each opponent's match data in its own folder (vs_00, vs_01, ...), and a
    resumed run reads them all back."""
    cfg = _small(
        tmp_path / "run", address, opponent="huggy*3,nop", imitate="sniper", imitate_games=8, imitate_epochs=1, imitate_coef=0.5,
        dagger_rounds=1, dagger_games=4, dagger_epochs=1, total_steps=1024,
    )
    text = _train_log(cfg, tmp_path / "log.txt")
    assert "imitation: 6 games of sniper against huggy" in text and "imitation: 2 games of sniper against nop" in text, text
    assert "dagger round 1/1: 3 games of the clone against huggy" in text and "dagger round 1/1: 1 game of the clone against nop" in text, text
    run = tmp_path / "run" / "imitation"
    for folder in (run / "vs_00", run / "vs_01", run / "dagger" / "round_01" / "vs_00", run / "dagger" / "round_01" / "vs_01"):
        assert list((folder / "data").glob("*.parquet")), folder
    assert "decisions of sniper in 8 games" in text
    text = _train_log(cfg, tmp_path / "log.txt", total_steps=2048, resume="auto")
    assert "games of sniper against" not in text and "decisions of sniper in 8 games" in text, text


def test_imitating_an_unknown_agent_fails_with_the_leagues_error(tmp_path: Path) -> None:
    from botarena.train.imitate import record_demonstrations

    with pytest.raises(RuntimeError, match="nosuchbot"):
        record_demonstrations(find_binary(), "battlebots", "nosuchbot", "huggy", 2, tmp_path, seed=1)
    with pytest.raises(ValueError, match="at least 1"):
        record_demonstrations(find_binary(), "battlebots", "huggy", "huggy", 0, tmp_path, seed=1)



def _tiny_net(actions: int) -> PolicyNet:
    """A small PolicyNet over 1×2×2 planes and 1 scalar (flattened, no convolution), for ppo_update on a hand-made rollout."""
    lin = lambda name, out: {"op": "linear", "weight": f"{name}.0.weight", "bias": f"{name}.0.bias", "out": out}  # noqa: E731
    return PolicyNet(
        {
            "format": "botarena.policy",
            "version": 1,
            "game": "tiny",
            "actions": actions,
            "inputs": {"planes": {"shape": [1, 2, 2], "scale": [1.0]}, "scalars": {"shape": [1], "scale": [1.0]}},
            "planes": [{"op": "flatten"}],
            "trunk": [lin("trunk", 8), {"op": "relu"}],
            "policy": [lin("policy", actions)],
            "value": [lin("value", 1)],
        }
    )


def test_skip_forced_leaves_one_action_steps_out_of_the_update() -> None:
    """Where half the learner's steps have one legal action (the other seat's turn in portal
    Bomberman's alternating moves), --skip-forced learns from the other half only: half the
    minibatches, and the forced steps' losses never enter."""
    from botarena.train.ppo import ppo_update
    from botarena.train.rollout import Rollout

    T, N, A = 8, 4, 5
    buf = Rollout(T, N, [("planes", (1, 2, 2), np.uint8), ("scalars", (1,), np.float32)], A)
    buf.valid[:] = 1
    buf.masks[:] = 1
    buf.masks[::2, :, 1:] = 0  # even steps: only action 0 is legal
    buf.obs["scalars"][::2] = 1e6  # a forced step in the loss would blow the value loss up
    adv = np.ones((T, N), dtype=np.float32)
    ret = np.zeros((T, N), dtype=np.float32)
    cfg = dataclasses.replace(TrainConfig(), ent_coef=0.01, update_epochs=1, minibatches=4)
    for skip, minibatches in ((False, 4), (True, 2)):
        torch.manual_seed(0)
        net = _tiny_net(A)
        opt = torch.optim.Adam(net.parameters())
        stats = ppo_update(net, opt, buf, adv, ret, dataclasses.replace(cfg, skip_forced=skip), np.random.default_rng(0), torch.device("cpu"))
        assert stats["minibatches"] == minibatches
        assert (stats["value_loss"] < 1e3) == skip, stats


def test_value_only_update_moves_the_value_head_alone() -> None:
    """--value-warmup's update (ppo_update's value_only): the value head learns the returns while every
    other weight, and so every action probability, stays bit for bit as it was, even with an aux
    (imitation) term given, which it leaves out; a normal update after it moves the policy."""
    from botarena.train.ppo import ppo_update
    from botarena.train.rollout import Rollout

    T, N, A = 8, 4, 5
    rs = np.random.default_rng(3)
    buf = Rollout(T, N, [("planes", (1, 2, 2), np.uint8), ("scalars", (1,), np.float32)], A)
    buf.valid[:] = 1
    buf.masks[:] = 1
    buf.obs["planes"][:] = rs.integers(0, 3, buf.obs["planes"].shape)
    buf.obs["scalars"][:] = rs.normal(size=buf.obs["scalars"].shape)
    buf.actions[:] = rs.integers(0, A, (T, N))
    buf.logprobs[:] = np.log(1 / A)
    adv = rs.normal(size=(T, N)).astype(np.float32)
    ret = np.full((T, N), 0.8, dtype=np.float32)
    cfg = dataclasses.replace(TrainConfig(), ent_coef=0.01, update_epochs=4, minibatches=2)
    torch.manual_seed(0)
    net = _tiny_net(A)
    opt = torch.optim.Adam(net.parameters(), lr=1e-2)
    before = {k: v.clone() for k, v in net.state_dict().items()}
    aux_calls: list[int] = []

    def aux() -> torch.Tensor:
        aux_calls.append(1)
        return torch.stack([p.sum() for p in net.policy.parameters()]).sum()

    losses = []
    for i in range(5):
        stats = ppo_update(net, opt, buf, adv, ret, cfg, np.random.default_rng(i), torch.device("cpu"), aux=aux, value_only=True)
        losses.append(stats["value_loss"])
        assert stats["aux_loss"] == 0.0
    assert not aux_calls
    after = net.state_dict()
    for k in before:
        assert torch.equal(before[k], after[k]) != k.startswith("value."), k
    assert losses[-1] < losses[0]
    ppo_update(net, opt, buf, adv, ret, cfg, np.random.default_rng(9), torch.device("cpu"), aux=aux)
    assert aux_calls
    assert not torch.equal(before["policy.0.weight"], net.state_dict()["policy.0.weight"])
    assert not torch.equal(before["trunk.0.weight"], net.state_dict()["trunk.0.weight"])


def test_value_warmup_must_not_be_negative(tmp_path: Path) -> None:
    assert main(["--game", "battlebots", "--total-steps", "1", "--value-warmup", "-1", "--out", str(tmp_path)]) == 2


def test_track_tensorboard_logs_the_curve_and_the_evaluation(tmp_path: Path, address: str) -> None:
    """--track tensorboard: each update's curve row as train/*, the evaluation as eval/*, in OUT/tb."""
    from botarena.train.track import read_scalars

    args = ["--game", "battlebots", "--minutes", "0", "--total-steps", "2048", "--num-envs", "16", "--num-steps", "64"]
    args += ["--channels", "8,8", "--hidden", "32", "--eval-games", "2", "--gauntlet-games", "0", "--address", address, "--out", str(tmp_path)]
    assert main([*args, "--quiet", "--track", "tensorboard"]) == 0
    scalars = read_scalars(tmp_path / "tb")
    for tag in ("train/steps_per_s", "train/agent_steps_per_s", "train/mean_return", "train/entropy", "train/episodes"):
        assert [step for step, _ in scalars[tag]] == [1024, 2048], tag
    assert any(t.startswith("train/") and "loss" in t for t in scalars)
    for mode in ("sample", "argmax"):
        (tag,) = [t for t in scalars if t.startswith("eval/") and t.endswith(f"/{mode}/games")]  # eval/<opponent>/<mode>/games
        assert scalars[tag] == [(2048, 4.0)]  # 2 games from each of the 2 seats, at the run's last step
        assert tag.replace("/games", "/win_rate") in scalars


def test_track_rejects_unknown_trackers(tmp_path: Path) -> None:
    assert main(["--game", "battlebots", "--total-steps", "1", "--track", "mlflow", "--out", str(tmp_path)]) == 2


def test_a_run_plays_the_games_gauntlet_into_gauntlet_json_and_md(tmp_path: Path, address: str) -> None:
    """--gauntlet-games N: the trained policy, sampling and arg-max, against the game's gauntlet (botarena
    tournament --gauntlet --focus), into gauntlet.json and gauntlet.md, its win rates logged as gauntlet/*."""
    from botarena.train.gauntlet import TRAINED, gauntlet_seed
    from botarena.train.track import read_scalars

    args = ["--game", "battlebots", "--minutes", "0", "--total-steps", "1024", "--num-envs", "16", "--num-steps", "64"]
    args += ["--channels", "8,8", "--hidden", "32", "--eval-games", "1", "--gauntlet-games", "1", "--seed", "7"]
    assert main([*args, "--address", address, "--out", str(tmp_path), "--quiet", "--track", "tensorboard"]) == 0
    assert (tmp_path / "eval.json").exists()
    table = json.loads((tmp_path / "gauntlet.json").read_text())
    trained = set(TRAINED.values())
    assert table["seed"] == gauntlet_seed(7) != 7 and table["games_per_seating"] == 1
    assert set(table["focus"]) == trained
    others = [a["agent"] for a in table["agents"] if a["agent"] not in trained]
    assert others, "the gauntlet has the game's own agents"
    assert table["pairs"] and all(trained & set(p["agents"]) for p in table["pairs"])
    assert len(table["pairs"]) == 2 * len(others) + 1  # each mode against each agent, and the two modes
    md = (tmp_path / "gauntlet.md").read_text()
    for opp in others:
        assert f"| trained | {opp} |" in md and f"| trained-argmax | {opp} |" in md
    scalars = read_scalars(tmp_path / "tb")
    assert f"gauntlet/trained/{others[0]}/win_rate" in scalars


def test_bf16_is_ignored_with_a_notice_on_a_cpu_without_bfloat16(monkeypatch: pytest.MonkeyPatch, tmp_path: Path, address: str, capsys) -> None:  # type: ignore[no-untyped-def]
    """--bf16 on a CPU whose cpuinfo lists no bfloat16 instructions trains in float32 (emulated bfloat16 ran ~7x slower)."""
    import botarena.train.ppo as ppo

    cfg = TrainConfig(game="battlebots", opponent="random", num_envs=2, num_steps=8, out=str(tmp_path), channels=(8,), hidden=16, bf16=True, address=address)
    for has, want in ((False, False), (True, True), (None, True)):
        monkeypatch.setattr(ppo, "cpu_has_bfloat16", lambda has=has: has)
        tr = ppo.Trainer(dataclasses.replace(cfg, out=str(tmp_path / str(has))))
        try:
            assert tr.cfg.bf16 is want
        finally:
            tr.close()
        assert ("--bf16 ignored" in capsys.readouterr().out) is (not want)
