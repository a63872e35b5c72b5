"""Leagues from Python: :class:`League` drives ``botarena league`` with ``--json``.

A league is a directory (a bbolt store) of named agents of one game that play
each other for Glicko-2 ratings; see ``botarena league --help``. This module
runs the CLI with :mod:`subprocess` and parses its JSON Lines, and computes
prioritised fictitious self-play (PFSP) weights from the stored games for
:meth:`botarena.Pool.set_opponents`::

    league = League("runs/bb/league", game="battlebots", seed=1)
    league.add("sniper", "sniper")
    league.add("snap_10", "policy:/abs/path/update_00010.policy.safetensors")
    league.run(40, match="pfsp", target="snap_10")
    pool.set_opponents(league.mixture("snap_10"))

The league's PFSP weight of an opponent is (1 − p)², p being the target's
win rate against it with a prior of one draw: (wins + draws/2 + 1/2) /
(games + 1), as the Go matchmaker computes it.
"""

from __future__ import annotations

import json
import os
import pathlib
import random
import subprocess
from dataclasses import dataclass
from typing import Any, Mapping, Sequence

from botarena.pool import Opponent
from botarena.server import find_binary

__all__ = ["League", "LeagueError", "LeagueRow", "RunSummary", "Record", "pfsp_win_rate", "pfsp_weight", "RULES"]

#: Opponent weighting rules of :meth:`League.opponent_weights`.
RULES = ("pfsp", "variance", "uniform")


class LeagueError(RuntimeError):
    """A ``botarena league`` command failed.

    Attributes:
        cmd: the command line.
        returncode: its exit status.
        stderr: what it wrote to stderr (the CLI's error message).
    """

    def __init__(self, cmd: Sequence[str], returncode: int, stderr: str) -> None:
        self.cmd = list(cmd)
        self.returncode = returncode
        self.stderr = stderr
        msg = stderr.strip().splitlines()[-1] if stderr.strip() else f"exit status {returncode}"
        super().__init__(f"{' '.join(self.cmd[1:3])}: {msg}")


@dataclass(frozen=True)
class LeagueRow:
    """One agent of the leaderboard (``botarena league table --json``)."""

    rank: int
    name: str
    spec: str
    rating: float  # Glicko-2
    rd: float  # rating deviation; rating ± 2·rd is a 95% interval
    elo: float
    games: int
    wins: int
    draws: int
    losses: int
    win_rate: float  # draws count half
    tag: str = ""

    @classmethod
    def from_json(cls, d: Mapping[str, Any]) -> LeagueRow:
        return cls(
            rank=int(d["rank"]),
            name=str(d["agent"]),
            spec=str(d.get("spec", "")),
            rating=float(d["rating"]),
            rd=float(d["rd"]),
            elo=float(d.get("elo", 0.0)),
            games=int(d.get("games", 0)),
            wins=int(d.get("wins", 0)),
            draws=int(d.get("draws", 0)),
            losses=int(d.get("losses", 0)),
            win_rate=float(d.get("win_rate", 0.0)),
            tag=str(d.get("tag", "")),
        )


@dataclass(frozen=True)
class RunSummary:
    """The summary line of ``botarena league run --json``."""

    run: int
    games: int  # games asked for
    played: int
    skipped: int
    seconds: float
    match: str
    png: str = ""


@dataclass(frozen=True)
class Record:
    """A target agent's results against one opponent."""

    wins: int = 0
    draws: int = 0
    games: int = 0


def pfsp_win_rate(r: Record) -> float:
    """The target's win rate with a prior of one draw: (wins + draws/2 + 1/2) / (games + 1)."""
    return (r.wins + r.draws / 2 + 0.5) / (r.games + 1)


def pfsp_weight(p: float) -> float:
    """AlphaStar's "hard" PFSP weight, (1 − p)²: opponents the target beats least weigh most."""
    return (1 - p) * (1 - p)


class League:
    """A league directory driven through the ``botarena`` binary.

    Args:
        directory: the league's directory. When it holds no league yet, one
            is made (``league init``) for ``game``; without ``game`` that is
            a :class:`LeagueError`.
        game: the game of a new league (ignored for an existing one).
        seed: the league seed of a new league (default: the CLI's random
            seed, printed by ``init``).
        config: the game config of a new league (a JSON object's fields).
        binary: the ``botarena`` executable (default:
            :func:`botarena.server.find_binary`, which honours BOTARENA_BIN).

    Every method runs one CLI command and raises :class:`LeagueError`, with
    the CLI's stderr, when it fails. Not safe for concurrent use on one
    directory (bbolt locks the store for one writer).
    """

    def __init__(
        self,
        directory: str | os.PathLike[str],
        *,
        game: str | None = None,
        seed: int | None = None,
        config: Mapping[str, Any] | None = None,
        binary: str | None = None,
    ) -> None:
        self.directory = pathlib.Path(directory).absolute()
        self.binary = binary or find_binary()
        if not (self.directory / "league.db").exists():
            if not game:
                raise LeagueError(
                    [self.binary, "league", "open", str(self.directory)], 1, f"{self.directory}: no league here; give game= to make one"
                )
            args = ["init", str(self.directory), "--game", game]
            if seed is not None:
                args += ["--seed", str(int(seed))]
            if config:
                args += ["--config", json.dumps(dict(config))]
            self._run(args)

    # Plumbing ----------------------------------------------------------------

    def _run(self, args: Sequence[str]) -> str:
        cmd = [self.binary, "league", *args]
        p = subprocess.run(cmd, capture_output=True, text=True)
        if p.returncode != 0:
            raise LeagueError(cmd, p.returncode, p.stderr)
        return p.stdout

    def _json_lines(self, args: Sequence[str]) -> list[dict[str, Any]]:
        out = self._run(args)
        return [json.loads(line) for line in out.splitlines() if line.strip()]

    # Agents ----------------------------------------------------------------

    def add(self, name: str, spec: str, *, tag: str = "") -> None:
        """Adds agent ``spec`` (a built-in name, ``policy:/abs/path.safetensors``, ``cmd:...``) as ``name``.

        A name already in the league is a :class:`LeagueError`. Relative
        ``policy:`` paths are made absolute, since games run from any
        directory.
        """
        if spec.startswith("policy:"):
            path, sep, query = spec[len("policy:") :].partition("?")
            spec = "policy:" + os.path.abspath(path) + sep + query
        args = ["add", str(self.directory), name, spec]
        if tag:
            args += ["--tag", tag]
        self._run(args)

    def remove(self, name: str) -> None:
        """Removes an agent (its games stay in the history and the ratings)."""
        self._run(["remove", str(self.directory), name])

    def agents(self) -> dict[str, str]:
        """The league's agents: name → spec."""
        return {r.name: r.spec for r in self.table()}

    def __contains__(self, name: object) -> bool:
        return name in self.agents()

    def __len__(self) -> int:
        return len(self.table())

    # Ratings and games -----------------------------------------------------

    def table(self) -> list[LeagueRow]:
        """The leaderboard, best first (``league table --json``)."""
        return [LeagueRow.from_json(d) for d in self._json_lines(["table", str(self.directory), "--json"])]

    def table_text(self, *, png: str | os.PathLike[str] | None = None) -> str:
        """The leaderboard as the CLI prints it; with ``png``, also draws the ratings chart there."""
        args = ["table", str(self.directory)]
        if png is not None:
            args += ["--png", str(png)]
        return self._run(args)

    def games(self, last: int = 1_000_000_000) -> list[dict[str, Any]]:
        """The last ``last`` stored games, oldest first, as the CLI's JSON objects
        (index, seed, rounds, winner, draw, standings [{seat, agent, rank, score, alive}], seats, ...)."""
        return self._json_lines(["games", str(self.directory), "--last", str(int(last)), "--json"])

    def run(
        self,
        games: int,
        *,
        match: str = "round-robin",
        target: str | None = None,
        workers: int = 0,
        envs_per_worker: int = 0,
        max_rounds: int = 0,
    ) -> RunSummary:
        """Plays ``games`` games (``league run --json``) and returns the run's summary.

        match is ``"round-robin"``, ``"uniform"`` or ``"pfsp"`` (which needs
        ``target``, seated in every game). The games run on Go's vecenv
        pools: ``workers`` goroutines (0: one per core) playing
        ``envs_per_worker`` games each (0: the CLI's default, 16), with the
        policies' decisions batched. Ratings update as games finish; the
        CLI also redraws DIR/ratings.png.
        """
        args = ["run", str(self.directory), "--games", str(int(games)), "--match", match, "--json"]
        if target is not None:
            args += ["--target", target]
        if workers:
            args += ["--workers", str(int(workers))]
        if envs_per_worker:
            args += ["--envs-per-worker", str(int(envs_per_worker))]
        if max_rounds:
            args += ["--max-rounds", str(int(max_rounds))]
        lines = self._json_lines(args)
        s = next((d for d in reversed(lines) if d.get("summary")), None)
        if s is None:
            raise LeagueError([self.binary, "league", *args], 0, "no summary line in the output")
        return RunSummary(
            run=int(s.get("run", 0)),
            games=int(s.get("games", 0)),
            played=int(s.get("played", 0)),
            skipped=int(s.get("skipped", 0)),
            seconds=float(s.get("seconds", 0.0)),
            match=str(s.get("match", match)),
            png=str(s.get("png") or ""),
        )

    # Matchmaking -----------------------------------------------------------

    def records(self, target: str) -> dict[str, Record]:
        """The target's results against every other agent of the league (unplayed: all zero).

        Counted from the stored games as the Go matchmaker does: in each
        game, against each seat played by another agent, a win when the
        target ranks above it, a draw when both share a drawn top.
        """
        wins: dict[str, int] = {}
        draws: dict[str, int] = {}
        played: dict[str, int] = {}
        for g in self.games():
            st = g.get("standings") or []
            if not any(s.get("agent") == target for s in st):
                continue
            top: set[int] = set()
            if g.get("draw") and st:
                top = {int(s["seat"]) for s in st if s.get("rank") == st[0].get("rank")}
            for i, a in enumerate(st):
                if a.get("agent") != target:
                    continue
                for j, b in enumerate(st):
                    opp = b.get("agent")
                    if i == j or opp == target or opp is None:
                        continue
                    played[opp] = played.get(opp, 0) + 1
                    if int(a["seat"]) in top and int(b["seat"]) in top:
                        draws[opp] = draws.get(opp, 0) + 1
                    elif i < j:
                        wins[opp] = wins.get(opp, 0) + 1
        return {
            name: Record(wins.get(name, 0), draws.get(name, 0), played.get(name, 0))
            for name in self.agents()
            if name != target
        }

    def opponent_weights(
        self,
        target: str,
        *,
        rule: str = "pfsp",
        include: Sequence[str] | None = None,
    ) -> dict[str, float]:
        """Weights for the league's agents (other than ``target``) as ``target``'s opponents.

        rule ``"pfsp"``: (1 − p)² with p the target's win rate against the
        agent (:func:`pfsp_win_rate`), so agents the target beats are
        rarely drawn; ``"variance"``: p(1 − p), for even matches;
        ``"uniform"``: 1. include restricts the agents (default: all).
        An unplayed opponent has p = 1/2.
        """
        if rule not in RULES:
            raise ValueError(f"rule must be one of {', '.join(RULES)}, got {rule!r}")
        recs = self.records(target)
        names = [n for n in (include if include is not None else recs) if n != target]
        out: dict[str, float] = {}
        for n in names:
            if n not in recs:
                raise KeyError(f"{n!r} is not an agent of the league at {self.directory}")
            p = pfsp_win_rate(recs[n])
            out[n] = {"pfsp": pfsp_weight(p), "variance": p * (1 - p), "uniform": 1.0}[rule]
        return out

    def sample_opponents(self, k: int, target: str, *, rule: str = "pfsp", seed: int | None = None) -> dict[str, float]:
        """Draws up to ``k`` distinct opponents for ``target`` by weight, without replacement.

        Returns the drawn agents' names with their weights
        (:meth:`opponent_weights`); ``seed`` makes the draw reproducible.
        """
        weights = {n: w for n, w in self.opponent_weights(target, rule=rule).items() if w > 0}
        rng = random.Random(seed)
        # Efraimidis–Spirakis: the k largest u^(1/w).
        keyed = sorted(weights, key=lambda n: rng.random() ** (1.0 / weights[n]), reverse=True)
        return {n: weights[n] for n in keyed[: max(0, k)]}

    def mixture(
        self,
        target: str,
        *,
        rule: str = "pfsp",
        k: int = 0,
        seed: int | None = None,
        floor: float = 0.0,
    ) -> list[Opponent]:
        """The opponents for :meth:`botarena.Pool.set_opponents`: league agents weighted for ``target``.

        Every other agent (or ``k`` of them drawn by :meth:`sample_opponents`
        when k > 0), named by its league name, with its spec and weight; a
        weight below ``floor`` times the largest is raised to it so that no
        member drops out entirely.
        """
        specs = self.agents()
        w = self.sample_opponents(k, target, rule=rule, seed=seed) if k > 0 else self.opponent_weights(target, rule=rule)
        if not w or not any(v > 0 for v in w.values()):
            raise LeagueError(
                [self.binary, "league", "mixture", str(self.directory)], 1, f"no opponent with a positive weight for {target!r}"
            )
        top = max(w.values())
        return [Opponent(spec=specs[n], weight=max(v, floor * top), name=n) for n, v in w.items()]

    def __repr__(self) -> str:
        return f"League({str(self.directory)!r})"
