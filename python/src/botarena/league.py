"""Leagues from Python: :class:`League` talks to the league RPCs of ``botarena.v1.MatchService``.

A league is a directory (a bbolt store) of named agents of one game that play
each other for Glicko-2 ratings; see ``botarena league --help``. A
``botarena serve --leagues-dir DIR`` keeps the leagues in DIR and plays their
runs (rpc/proto/botarena/v1/match.proto: CreateLeague ... RunLeague), with the
semantics of the ``botarena league`` commands: the same games, seeds and
ratings. :class:`League` is a client of those RPCs; without ``address`` it
starts a local server for its directory. It also computes prioritised
fictitious self-play (PFSP) weights from the stored games for
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
import secrets
import time
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping, Sequence, TypeVar

import grpc

from botarena._closing import Closing, release_quietly
from botarena.client import Client
from botarena.errors import (
    AlreadyExistsError,
    BotarenaError,
    DeadlineExceededError,
    FailedPreconditionError,
    InvalidArgumentError,
    NotFoundError,
    PermissionDeniedError,
    ResourceExhaustedError,
    ServerUnavailableError,
    UnauthenticatedError,
    from_rpc_error,
)
from botarena.pool import Opponent
from botarena.server import Server
from botarena.v1 import match_pb2, match_pb2_grpc

#: How many times :meth:`League.run` repeats a call whose stream broke with
#: the server unavailable (each with the call's one request_id).
RUN_RETRIES = 2

__all__ = [
    "League",
    "LeagueError",
    "LeagueRow",
    "RunSummary",
    "RunProgress",
    "Record",
    "pfsp_win_rate",
    "pfsp_weight",
    "RULES",
]

#: Opponent weighting rules of :meth:`League.opponent_weights`.
RULES = ("pfsp", "variance", "uniform")

T = TypeVar("T")


class LeagueError(BotarenaError, RuntimeError):
    """A league operation failed.

    An error of the server is raised as a subclass that also derives from
    the :mod:`botarena.errors` class of its status code, so that both
    ``except LeagueError`` and, say, ``except NotFoundError`` (no such league
    or agent) or ``except PermissionDeniedError`` (an agent the server does
    not allow) catch it. ``code`` is the gRPC status code (None for errors
    raised here) and ``message`` the server's text.
    """

    @property
    def stderr(self) -> str:
        """The error's text (the name is from when League ran the command line)."""
        return self.message

    @property
    def returncode(self) -> int:
        """1 (from when League ran the command line, whose exit status it was)."""
        return 1


class LeagueNotFoundError(LeagueError, NotFoundError):
    """No such league, agent or game."""


class LeagueExistsError(LeagueError, AlreadyExistsError):
    """A league or agent name that is taken."""


class LeagueInvalidError(LeagueError, InvalidArgumentError):
    """A bad name, spec, count, config or matchmaking."""


class LeaguePreconditionError(LeagueError, FailedPreconditionError):
    """The league cannot do it now: a run plays, another process holds it, an unfinished run, too few agents."""


class LeaguePermissionError(LeagueError, PermissionDeniedError):
    """An agent the server's capability flags do not allow."""


class LeagueResourceError(LeagueError, ResourceExhaustedError):
    """A server limit (memory budget) was reached."""


class LeagueUnavailableError(LeagueError, ServerUnavailableError):
    """The server is unreachable or shutting down (a run's stored games are kept)."""


class LeagueDeadlineError(LeagueError, DeadlineExceededError):
    """A call did not finish within the client's timeout."""


class LeagueUnauthenticatedError(LeagueError, UnauthenticatedError):
    """The server wants a bearer token."""


_BY_CLASS: dict[type[BotarenaError], type[LeagueError]] = {
    NotFoundError: LeagueNotFoundError,
    AlreadyExistsError: LeagueExistsError,
    InvalidArgumentError: LeagueInvalidError,
    FailedPreconditionError: LeaguePreconditionError,
    PermissionDeniedError: LeaguePermissionError,
    ResourceExhaustedError: LeagueResourceError,
    ServerUnavailableError: LeagueUnavailableError,
    DeadlineExceededError: LeagueDeadlineError,
    UnauthenticatedError: LeagueUnauthenticatedError,
}


def _league_error(err: BotarenaError) -> LeagueError:
    """The LeagueError subclass of err's class, with its message and code."""
    cls = _BY_CLASS.get(type(err), LeagueError)
    return cls(err.message, err.code)


@dataclass(frozen=True)
class LeagueRow:
    """One agent of the leaderboard (LeagueTable, ``botarena league table --json``)."""

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
    #: How the agent played of late: its mean actions per game and seat by the game's kinds, in the
    #: game's order (the do-nothing kind first), over its seats in the league's last 1000 games, as
    #: ``botarena league table`` prints them; empty for a game without action kinds.
    mean_actions: Mapping[str, float] = field(default_factory=dict, hash=False)

    @classmethod
    def from_json(cls, d: Mapping[str, Any]) -> LeagueRow:
        """A row from ``botarena league table --json``."""
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
            mean_actions={str(k): float(v) for k, v in (d.get("mean_actions") or {}).items()},
        )

    @classmethod
    def from_proto(cls, r: match_pb2.LeagueRow) -> LeagueRow:
        """A row of a LeagueTableResponse."""
        return cls(
            rank=r.rank,
            name=r.agent,
            spec=r.spec,
            rating=r.rating,
            rd=r.rd,
            elo=r.elo,
            games=r.games,
            wins=r.wins,
            draws=r.draws,
            losses=r.losses,
            win_rate=r.win_rate,
            tag=r.tag,
            mean_actions={a.kind: a.mean for a in r.mean_actions},
        )


@dataclass(frozen=True)
class RunSummary:
    """A finished run (RunLeague's summary; ``botarena league run --json``'s last line)."""

    run: int
    games: int  # games asked for
    played: int
    skipped: int
    seconds: float
    match: str
    png: str = ""  # the ratings chart: a path on this machine for a local server, else relative to the league's folder
    resumed: bool = False  # the call finished an interrupted run (skipped games were played before)
    duplicate: bool = False  # a retry: the run of this request_id had already finished, nothing was played


@dataclass(frozen=True)
class RunProgress:
    """A run's progress (RunLeague's progress messages), for :meth:`League.run`'s ``progress``."""

    run: int
    done: int  # games of the run stored, including those of an interrupted call
    total: int
    played: int  # games this call played, in seconds
    seconds: float


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


def _standing_dict(s: match_pb2.MatchStanding) -> dict[str, Any]:
    """One seat's standing as ``botarena league games --json`` prints it: how its player ended when the
    game says (``death``: "alive", "own bomb", ...; docs/recording-format.md), its external bot's faults
    by kind when it had some, its actions by kind (the game's order) when the game has action kinds."""
    d: dict[str, Any] = {"seat": s.seat, "agent": s.agent, "rank": s.rank, "score": s.score, "alive": s.alive}
    if s.death:
        d["death"] = s.death
    if s.HasField("faults"):
        f = s.faults
        d["faults"] = {"timed_out": f.timed_out, "crashed": f.crashed, "invalid": f.invalid}
    if s.actions:
        d["actions"] = {a.kind: a.count for a in s.actions}
    return d


def _game_dict(g: match_pb2.LeagueGame) -> dict[str, Any]:
    """A stored game as ``botarena league games --json`` prints it."""
    return {
        "index": g.index,
        "seed": g.seed,
        "rounds": g.rounds,
        "winner": g.winner,
        "draw": g.draw,
        "standings": [_standing_dict(s) for s in g.standings],
        "forfeit": g.forfeit,
        "run": g.run,
        "seats": [{"agent": s.name, "spec": s.spec} for s in g.seats],
        "time": g.time.ToJsonString(),
    }


def _absolute_spec(spec: str) -> str:
    """spec with the path of a ``policy:`` or ``dir:`` agent made absolute (a query kept)."""
    for prefix in ("policy:", "dir:"):
        if spec.startswith(prefix):
            path, sep, query = spec[len(prefix) :].partition("?")
            return prefix + os.path.abspath(path) + sep + query
    return spec


#: The league calls that only read, retried when the server is unavailable.
_READS = frozenset({"GetLeague", "ListLeagueAgents", "LeagueTable", "LeagueGames"})


class League(Closing):
    """A league kept by a botarena server, through MatchService's league RPCs.

    Args:
        directory: the league. Without ``address`` or ``client``, its
            directory on this machine: League starts a local ``botarena
            serve --leagues-dir PARENT`` (:class:`botarena.Server`, owned by
            the League) and names the league by the directory's name.
            With ``address`` or ``client``, its name in that server's
            leagues folder (a relative path such as ``"bb"`` or
            ``"team/bb"``).
        game: the game of a new league: when the server has no league of
            that name, one is made (``league init``); without ``game`` that
            is a :class:`LeagueError`. Ignored for an existing league.
        seed: the league seed of a new league (default: the server draws
            one; see :attr:`seed`).
        config: the game config of a new league (a JSON object's fields).
        binary: the ``botarena`` executable of the local server (default:
            :func:`botarena.server.find_binary`, which honours BOTARENA_BIN).
        address: ``host:port`` of a ``botarena serve --leagues-dir DIR``.
        client: an existing :class:`Client` to use instead of ``address``.

    The local server lets the league play what ``botarena league`` would:
    policy files and bot folders anywhere, command-line and HTTP bots
    (``--bots-dir / --allow-cmd-bots --allow-http-bots``), behind a random
    bearer token that only this League knows (passed to the server in its
    environment, never on its command line). A remote server plays only
    the agents its flags allow (PermissionDeniedError otherwise).

    Every failed call raises a :class:`LeagueError` with the server's
    message. A League may be used from several threads; the server runs one
    writer (add, remove, run) of a league at a time and refuses the others
    while a run plays. Close it (or use it as a context manager) to stop
    the local server; it also stops when this process ends.
    """

    def __init__(
        self,
        directory: str | os.PathLike[str],
        *,
        game: str | None = None,
        seed: int | None = None,
        config: Mapping[str, Any] | None = None,
        binary: str | None = None,
        address: str | None = None,
        client: Client | None = None,
    ) -> None:
        self._server: Server | None = None
        self._own_client = client is None
        self._client: Client | None = client
        #: The league's directory on this machine (None for a remote server's league).
        self.directory: pathlib.Path | None = None
        try:
            if client is None and address is None:
                self.directory = pathlib.Path(directory).absolute()
                self.directory.parent.mkdir(parents=True, exist_ok=True)
                self.name = self.directory.name
                anchor = self.directory.anchor or "/"
                # Its random token (Server's, in the environment) is what keeps
                # others out: with --allow-cmd-bots a caller runs any command,
                # so a narrower --bots-dir would protect nothing more.
                self._server = Server(
                    binary=binary,
                    args=[
                        "--leagues-dir", str(self.directory.parent),
                        "--bots-dir", anchor, "--allow-cmd-bots", "--allow-http-bots",
                    ],
                    token=secrets.token_urlsafe(32),
                ).start()
                self._client = Client(self._server.address, token=self._server.token)
            else:
                self.name = pathlib.PurePath(directory).as_posix()
                if self._client is None:
                    assert address is not None
                    self._client = Client(address)
            self._stub = match_pb2_grpc.MatchServiceStub(self.client.channel)
            self.info = self._open(game, seed, config)
        except BaseException:
            self.close()
            raise

    @property
    def client(self) -> Client:
        """The connection to the server."""
        if self._client is None:
            raise LeagueError("the league is closed")
        return self._client

    def _open(self, game: str | None, seed: int | None, config: Mapping[str, Any] | None) -> match_pb2.LeagueInfo:
        if game:
            req = match_pb2.CreateLeagueRequest(
                league=self.name, game=game, config_json=json.dumps(dict(config)) if config else "", open_existing=True
            )
            if seed is not None:
                req.seed = int(seed) & 0xFFFFFFFFFFFFFFFF
            info: match_pb2.LeagueInfo = self._call("CreateLeague", self._stub.CreateLeague, req).league
            return info
        try:
            resp = self._call("GetLeague", self._stub.GetLeague, match_pb2.GetLeagueRequest(league=self.name))
        except LeagueNotFoundError as e:
            raise LeagueNotFoundError(f"{self._where()}: no league here; give game= to make one ({e.message})", e.code) from None
        league: match_pb2.LeagueInfo = resp.league
        return league

    # Plumbing ----------------------------------------------------------------

    def _call(self, method: str, fn: Callable[..., T], request: Any) -> T:
        """One unary call; failures raise LeagueError. The reads are retried when the server is unavailable (see Client)."""
        try:
            return self.client._invoke(method, fn, request, idempotent=method in _READS)
        except BotarenaError as e:
            raise _league_error(e) from None

    def _where(self) -> str:
        return str(self.directory) if self.directory is not None else f"{self.name} on {self.client.address}"

    @property
    def game(self) -> str:
        """The league's game."""
        return str(self.info.game)

    @property
    def seed(self) -> int:
        """The league seed."""
        return int(self.info.seed)

    # Agents ----------------------------------------------------------------

    def add(self, name: str, spec: str, *, tag: str = "") -> None:
        """Adds agent ``spec`` (a built-in name, ``policy:/abs/path.safetensors``, ``cmd:...``) as ``name``.

        A name already in the league is a :class:`LeagueError`
        (AlreadyExists). With the local server, relative ``policy:`` and
        ``dir:`` paths are made absolute, since games run from any
        directory; a remote server looks them up in its bots folders.
        """
        if self.directory is not None:
            spec = _absolute_spec(spec)
        req = match_pb2.AddLeagueAgentRequest(league=self.name, name=name, spec=spec, tag=tag)
        self._call("AddLeagueAgent", self._stub.AddLeagueAgent, req)

    def remove(self, name: str) -> None:
        """Removes an agent (its games stay in the history and the ratings)."""
        self._call("RemoveLeagueAgent", self._stub.RemoveLeagueAgent, match_pb2.RemoveLeagueAgentRequest(league=self.name, name=name))

    def agents(self) -> dict[str, str]:
        """The league's agents: name → spec, in the order they were added."""
        resp = self._call("ListLeagueAgents", self._stub.ListLeagueAgents, match_pb2.ListLeagueAgentsRequest(league=self.name))
        return {a.name: a.spec for a in resp.agents}

    def __contains__(self, name: object) -> bool:
        return name in self.agents()

    def __len__(self) -> int:
        return len(self.agents())

    # Ratings and games -----------------------------------------------------

    def _table(self, png: bool = False) -> match_pb2.LeagueTableResponse:
        req = match_pb2.LeagueTableRequest(league=self.name, png=png)
        resp: match_pb2.LeagueTableResponse = self._call("LeagueTable", self._stub.LeagueTable, req)
        return resp

    def table(self) -> list[LeagueRow]:
        """The leaderboard, best first."""
        return [LeagueRow.from_proto(r) for r in self._table().rows]

    def table_text(self, *, png: str | os.PathLike[str] | None = None) -> str:
        """The leaderboard as ``botarena league table`` prints it; with ``png``, also the ratings chart there.

        The server draws the chart (rating ± 2·RD per agent) and sends it;
        it is written to ``png`` on this machine. A league without agents
        has no chart (:class:`LeagueError`).
        """
        resp = self._table(png=png is not None)
        if png is not None:
            if not resp.png:
                raise LeagueError(f"{self._where()}: no ratings chart: the league has no agents")
            path = pathlib.Path(png)
            tmp = path.with_name(f".{path.name}.tmp{os.getpid()}")
            tmp.write_bytes(resp.png)
            os.replace(tmp, path)
        return str(resp.text)

    def games(self, last: int = 1_000_000_000) -> list[dict[str, Any]]:
        """The last ``last`` stored games, oldest first, as ``botarena league games --json`` prints them
        (index, seed, rounds, winner, draw, standings [{seat, agent, rank, score, alive, death, faults, actions}], forfeit, run,
        seats [{agent, spec}], time)."""
        if last < 1:
            raise ValueError(f"last must be 1 or more, got {last}")
        resp = self._call("LeagueGames", self._stub.LeagueGames, match_pb2.LeagueGamesRequest(league=self.name, last=int(last)))
        want = min(int(last), int(resp.total))
        out = [_game_dict(g) for g in resp.games]
        while out and len(out) < want:
            req = match_pb2.LeagueGamesRequest(league=self.name, start=int(out[-1]["index"]) + 1)
            resp = self._call("LeagueGames", self._stub.LeagueGames, req)
            if not resp.games:
                break
            out.extend(_game_dict(g) for g in resp.games)
        return out[:want]

    def run(
        self,
        games: int,
        *,
        match: str = "round-robin",
        target: str | None = None,
        workers: int = 0,
        envs_per_worker: int = 0,
        max_rounds: int = 0,
        fresh: bool = False,
        png: bool = True,
        progress: Callable[[RunProgress], None] | None = None,
        request_id: str | None = None,
    ) -> RunSummary:
        """Plays ``games`` games on the server (RunLeague) and returns the run's summary.

        match is ``"round-robin"``, ``"uniform"`` or ``"pfsp"`` (which needs
        ``target``, seated in every game). The games run on the server's
        vecenv pools: up to ``workers`` of its match slots (0: as many as
        are free) playing ``envs_per_worker`` games each (0: 16), with the
        policies' decisions batched; results do not depend on either.
        Ratings update as games are stored. ``progress`` is called with
        each progress message (a few per second at most). With ``png`` the
        server redraws the ratings chart in the league's folder
        (ratings.png), as ``botarena league run`` does.

        An interrupted run (KeyboardInterrupt, a lost server) keeps its
        stored games; the same call again finishes it. A call with other
        options refuses until ``fresh=True`` abandons it.

        Every call sends a ``request_id`` (a new random one unless given),
        which makes it safe to retry: when the stream breaks with the server
        unavailable, the call is repeated with the same id (up to
        :data:`RUN_RETRIES` times), and the server attaches it to the run
        still playing, or returns the finished run's summary
        (``duplicate``) instead of playing a second run. Pass your own id to
        retry across processes.
        """
        rid = request_id if request_id is not None else secrets.token_hex(16)
        req = match_pb2.RunLeagueRequest(
            request_id=rid,
            league=self.name,
            games=int(games),
            match=match,
            target=target or "",
            workers=int(workers),
            envs_per_worker=int(envs_per_worker),
            max_rounds=int(max_rounds),
            fresh=fresh,
            png=png,
        )
        client = self.client
        summary: match_pb2.LeagueRunSummary | None = None
        for attempt in range(RUN_RETRIES + 1):
            call = self._stub.RunLeague(req, metadata=client._metadata)
            try:
                for msg in call:
                    if msg.HasField("summary"):
                        summary = msg.summary
                    elif progress is not None:
                        p = msg.progress
                        progress(RunProgress(run=p.run, done=p.done, total=p.total, played=p.played, seconds=p.seconds))
                break
            except grpc.RpcError as e:
                err = from_rpc_error(e, "RunLeague", client.address)
                if isinstance(err, ServerUnavailableError) and attempt < RUN_RETRIES:
                    time.sleep(0.25 * (attempt + 1))
                    continue  # the same request_id: the server never plays the run twice
                raise _league_error(err) from None
            except BaseException:
                call.cancel()  # the server stops the run; its stored games stay
                raise
        if summary is None:
            raise LeagueError("RunLeague: the server ended the stream without a summary")
        chart = str(summary.png)
        if chart and self.directory is not None:
            chart = str(self.directory / chart)
        return RunSummary(
            run=summary.run,
            games=summary.games,
            played=summary.played,
            skipped=summary.skipped,
            seconds=summary.seconds,
            match=summary.match,
            png=chart,
            resumed=summary.resumed,
            duplicate=summary.duplicate,
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
                raise KeyError(f"{n!r} is not an agent of the league {self._where()}")
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
            raise LeagueError(f"{self._where()}: no opponent with a positive weight for {target!r}")
        top = max(w.values())
        return [Opponent(spec=specs[n], weight=max(v, floor * top), name=n) for n, v in w.items()]

    # Lifetime --------------------------------------------------------------

    def close(self) -> None:
        """Closes the connection (one League made) and stops the local server. Safe to call twice."""
        client, self._client = self._client, None
        if client is not None and self._own_client:
            client.close()
        server, self._server = self._server, None
        if server is not None:
            server.stop()

    def __del__(self) -> None:
        release_quietly(self.close)

    def __repr__(self) -> str:
        if self.directory is not None:
            return f"League({str(self.directory)!r})"
        address = self._client.address if self._client is not None else "closed"
        return f"League({self.name!r}, address={address!r})"
