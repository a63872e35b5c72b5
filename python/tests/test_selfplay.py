"""Self-play plumbing: Pool.set_opponents and botarena.League (no torch needed)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import botarena
from botarena.league import League, LeagueError, Record, pfsp_weight, pfsp_win_rate


def _play(pool: botarena.Pool, steps: int, seed: int = 0) -> None:
    rng = np.random.default_rng(seed)
    _, info = pool.reset()
    for _ in range(steps):
        noise = rng.random(info["mask"].shape) * info["mask"]
        _, _, _, _, info = pool.step(noise.argmax(axis=1))


def test_set_opponents_changes_who_plays(address: str) -> None:
    with botarena.Pool("battlebots", 16, address=address, seed=3, learner_seats=[0], opponents="nop", max_rounds=30) as pool:
        assert pool.opponent_seats == (1,)
        _play(pool, 120)
        before = pool.stats(reset=True)
        assert set(before.by_opponent()) == {"nop"}
        nop = before.by_opponent()["nop"]
        assert nop.episodes > 0 and nop.wins + nop.draws + nop.losses == nop.episodes
        assert nop.episodes == before.seats[0].episodes

        pool.set_opponents({1: "sniper"})
        _play(pool, 120, seed=1)
        after = pool.stats()
        by = after.by_opponent()
        assert by["sniper"].episodes > 0 and by["sniper"].weight == 1.0
        # nop is removed; its episodes in progress at the switch may still count.
        assert "nop" not in by or by["nop"].weight == 0.0
        # A random learner scores better against a bot that does nothing than against sniper.
        assert nop.score > by["sniper"].score, (nop, by["sniper"])


def test_set_opponents_mixture_and_reseed(address: str) -> None:
    with botarena.Pool("battlebots", 8, address=address, seed=5, learner_seats=[0], opponents="nop", max_rounds=20) as pool:
        pool.set_opponents(
            [botarena.Opponent("nop", 1.0, name="idle"), botarena.Opponent("sniper", 2.0), botarena.Opponent("huggy", 0.0)]
        )
        _play(pool, 100)
        by = pool.stats().by_opponent()
        assert by["idle"].episodes > 0 and by["sniper"].episodes > 0
        assert by["huggy"].episodes == 0 and by["huggy"].weight == 0.0
        # The mixture survives reseed (Gymnasium's reset(seed=...)).
        pool.reseed(9)
        _play(pool, 60)
        assert {"idle", "sniper", "huggy"} <= set(pool.stats().by_opponent())


def test_set_opponents_errors(address: str) -> None:
    with botarena.Pool("battlebots", 2, address=address, seed=1, learner_seats=[0], opponents="nop") as pool:
        with pytest.raises(botarena.NotFoundError, match="gopher"):
            pool.set_opponents("gopher")
        with pytest.raises(botarena.InvalidArgumentError, match="learner seat"):
            pool.set_opponents({0: "nop"})
        with pytest.raises(botarena.InvalidArgumentError, match="positive"):
            pool.set_opponents({"nop": 0.0})
        with pytest.raises(botarena.InvalidArgumentError, match="weight"):
            pool.set_opponents({"nop": -1.0, "sniper": 1.0})
        # The session server runs built-in agents only.
        with pytest.raises(botarena.PermissionDeniedError, match="--bots-dir"):
            pool.set_opponents("policy:/nonexistent.safetensors")
    with botarena.Pool("battlebots", 2, address=address, seed=1) as pool:
        with pytest.raises(ValueError, match="no opponent seats"):
            pool.set_opponents("nop")


def test_pfsp_weights() -> None:
    assert pfsp_win_rate(Record()) == 0.5
    assert pfsp_win_rate(Record(wins=9, games=9)) == pytest.approx(0.95)
    assert pfsp_weight(1.0) == 0.0 and pfsp_weight(0.0) == 1.0


def test_league_round_trip(tmp_path: Path) -> None:
    d = tmp_path / "league"
    with pytest.raises(LeagueError, match="no league"):
        League(d)
    league = League(d, game="battlebots", seed=7)
    for name in ("huggy", "sniper", "nop"):
        league.add(name, name)
    assert league.agents() == {"huggy": "huggy", "sniper": "sniper", "nop": "nop"}
    with pytest.raises(LeagueError, match="already has an agent") as e:
        league.add("nop", "nop")
    assert "already has an agent" in e.value.stderr and e.value.returncode != 0
    assert isinstance(e.value, botarena.errors.AlreadyExistsError) and e.value.code is not None
    with pytest.raises(LeagueError, match="--target"):
        league.run(2, match="pfsp")

    summary = league.run(24, match="round-robin", workers=2, envs_per_worker=3)
    assert summary.played == 24 and summary.match == "round-robin"
    rows = league.table()
    assert [r.rank for r in rows] == [1, 2, 3]
    assert sum(r.games for r in rows) == 48 and all(r.wins + r.draws + r.losses == r.games for r in rows)
    assert rows[0].rating >= rows[-1].rating and all(r.rd > 0 for r in rows)
    assert (d / "ratings.png").exists()

    # Reopening finds the same league; PFSP runs seat the target every game.
    again = League(d)
    s = again.run(10, match="pfsp", target="nop")
    assert s.played == 10
    assert len(again.games(last=10)) == 10
    assert all(any(x["agent"] == "nop" for x in g["standings"]) for g in again.games(last=10))

    rec = again.records("nop")
    assert set(rec) == {"huggy", "sniper"} and all(r.games > 0 for r in rec.values())
    w = again.opponent_weights("nop")
    for name, r in rec.items():
        assert w[name] == pytest.approx(pfsp_weight(pfsp_win_rate(r)))
    picked = again.sample_opponents(1, "nop", seed=3)
    assert len(picked) == 1 and set(picked) <= {"huggy", "sniper"}
    mix = again.mixture("nop")
    assert {o.name for o in mix} == {"huggy", "sniper"} and {o.spec for o in mix} == {"huggy", "sniper"}
    assert "RANK" in again.table_text(png=tmp_path / "t.png") and (tmp_path / "t.png").exists()
    again.remove("huggy")
    assert "huggy" not in again.agents()


def test_league_mixture_drives_pool(tmp_path: Path, address: str) -> None:
    league = League(tmp_path / "lg", game="battlebots", seed=2)
    for name in ("sniper", "nop", "huggy"):
        league.add(name, name)
    league.run(12, match="round-robin")
    with botarena.Pool("battlebots", 8, address=address, seed=2, learner_seats=[0], opponents="nop", max_rounds=20) as pool:
        pool.set_opponents(league.mixture("nop"))
        _play(pool, 80)
        by = pool.stats().by_opponent()
        assert set(by) >= {"sniper", "huggy"}
        assert sum(o.episodes for o in by.values()) == pool.stats().seats[0].episodes
