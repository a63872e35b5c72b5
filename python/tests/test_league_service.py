"""botarena.League over MatchService's league RPCs: a server's leagues folder, its errors, progress, and
equality with ``botarena league`` on the command line."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Iterator

import grpc
import pytest

import botarena
from botarena.errors import FailedPreconditionError, InvalidArgumentError, NotFoundError, PermissionDeniedError
from botarena.league import League, LeagueError, LeagueRow, RunProgress, _standing_dict
from botarena.server import find_binary
from botarena.v1 import match_pb2


def _cli(*args: str) -> str:
    out = subprocess.run([find_binary(), *args], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    return out.stdout


@pytest.fixture(scope="module")
def leagues_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[botarena.Server, Path]]:
    root = tmp_path_factory.mktemp("leagues")
    with botarena.Server(args=["--leagues-dir", str(root)]) as server:
        yield server, root


def test_league_on_a_server_without_leagues_is_failed_precondition(address: str) -> None:
    with pytest.raises(LeagueError, match="--leagues-dir") as e:
        League("lg", address=address, game="battlebots")
    assert isinstance(e.value, FailedPreconditionError) and e.value.code == grpc.StatusCode.FAILED_PRECONDITION


def test_remote_league_errors_are_league_errors_of_their_code(leagues_server: tuple[botarena.Server, Path]) -> None:
    server, root = leagues_server
    with pytest.raises(LeagueError, match="relative path") as e:
        League("../escape", address=server.address, game="battlebots")
    assert isinstance(e.value, InvalidArgumentError) and isinstance(e.value, ValueError)
    with pytest.raises(LeagueError, match="no league") as nf:
        League("missing", address=server.address)
    assert isinstance(nf.value, NotFoundError)

    with League("team/bb", address=server.address, game="battlebots", seed=4) as league:
        assert (root / "team" / "bb" / "league.db").exists() and league.seed == 4 and league.game == "battlebots"
        league.add("nop", "nop")
        with pytest.raises(LeagueError, match="--allow-cmd-bots") as pd:
            league.add("shell", "cmd:true")
        assert isinstance(pd.value, PermissionDeniedError)
        with pytest.raises(LeagueError, match="at least 2 agents") as fp:
            league.run(2)
        assert isinstance(fp.value, FailedPreconditionError)
        league.add("sniper", "sniper")
        seen: list[RunProgress] = []
        s = league.run(6, max_rounds=40, progress=seen.append)
        assert s.played == 6 and s.png == "ratings.png" and (root / "team" / "bb" / "ratings.png").exists()
        assert seen and seen[0].done == 0 and seen[-1].done == seen[-1].total == 6
        assert len(league) == 2 and "sniper" in league
    # The same name from another League sees the same league.
    again = League("team/bb", address=server.address)
    assert len(again.games()) == 6
    again.close()


def test_local_league_plays_what_the_command_line_plays(tmp_path: Path) -> None:
    cli = tmp_path / "cli"
    _cli("league", "init", str(cli), "--game", "battlebots", "--seed", "9")
    league = League(tmp_path / "svc", game="battlebots", seed=9)
    for name in ("huggy", "sniper", "random"):
        _cli("league", "add", str(cli), name, name)
        league.add(name, name)
    _cli("league", "run", str(cli), "--games", "14", "--max-rounds", "60", "--png", "")
    s = league.run(14, max_rounds=60, workers=2)
    assert s.played == 14 and s.png == str(tmp_path / "svc" / "ratings.png")

    keys = ("index", "seed", "rounds", "winner", "draw", "standings", "forfeit", "seats")
    want = [json.loads(line) for line in _cli("league", "games", str(cli), "--last", "100", "--json").splitlines()]
    got = league.games()
    assert [{k: g[k] for k in keys} for g in got] == [{k: g[k] for k in keys} for g in want]
    assert league.table_text() == _cli("league", "table", str(cli))
    # The rows carry each agent's mean actions by kind (BattleBots' kinds, in order), as the command line's do.
    rows = league.table()
    assert rows == [LeagueRow.from_json(json.loads(line)) for line in _cli("league", "table", str(cli), "--json").splitlines()]
    assert all(list(r.mean_actions)[:2] == ["nothing", "move"] for r in rows)
    # The league directory is an ordinary league: the command line reads it too.
    assert _cli("league", "table", str(tmp_path / "svc")) == league.table_text()
    league.close()
    league.close()


def test_a_run_repeated_with_its_request_id_is_played_once(tmp_path: Path) -> None:
    """A retry of a finished run (the same request_id) plays nothing and says so; a new id plays a new run."""
    league = League(tmp_path / "ids", game="battlebots", seed=5)
    try:
        for name in ("huggy", "sniper"):
            league.add(name, name)
        first = league.run(4, max_rounds=30, png=False, request_id="run-a")
        assert first.played == 4 and not first.duplicate
        again = league.run(4, max_rounds=30, png=False, request_id="run-a")
        assert again.duplicate and again.run == first.run and len(league.games()) == 4
        other = league.run(4, max_rounds=30, png=False)  # a fresh id each call
        assert not other.duplicate and other.run != first.run and len(league.games()) == 8
    finally:
        league.close()


def test_a_standing_reads_as_the_command_line_prints_it() -> None:
    """A LeagueGame standing becomes the dict ``league games --json`` prints: faults only when the seat had some."""
    bot = match_pb2.MatchStanding(
        seat=1, agent="bot", rank=2, score=3.0, faults=match_pb2.SeatFaults(timed_out=2, invalid=1),
        actions=[match_pb2.ActionCount(kind="nothing", count=4), match_pb2.ActionCount(kind="move", count=6)],
    )
    assert _standing_dict(bot) == {
        "seat": 1, "agent": "bot", "rank": 2, "score": 3.0, "alive": False,
        "faults": {"timed_out": 2, "crashed": 0, "invalid": 1}, "actions": {"nothing": 4, "move": 6},
    }
    assert "faults" not in _standing_dict(match_pb2.MatchStanding(seat=0, agent="nop", rank=1, alive=True))
    # How the player ended, after alive, where the game says (the Go line's order); absent where it does not.
    dead = _standing_dict(match_pb2.MatchStanding(seat=0, agent="reference", rank=2, death="own bomb"))
    assert list(dead) == ["seat", "agent", "rank", "score", "alive", "death"] and dead["death"] == "own bomb"
    assert "death" not in _standing_dict(bot)
