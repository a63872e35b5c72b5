"""Leagues on a Ray cluster: a ``botarena serve`` per node, the coordinator on the driver.

:func:`start_servers` places one Ray actor on every alive node (pinned to
it), each starting ``botarena serve`` on the node's address with a token;
:func:`run_league` runs ``botarena league run DIR --servers ADDRS`` on the
driver: the coordinator keeps the league's store, does the matchmaking and
stores every game; the servers play the games (``botarena.v1.MatchService``).

Why the games are not Ray tasks of their own: a game's result depends only
on its request (``league.GameSeed`` of the league seed and the game's
index, and the seats chosen from the index), so what matters is where the
store is and that a game lost with its node is played again, and the Go
coordinator does both already (``matchservice.RemoteRunner`` drops a server
whose calls fail and replays its games on the others; the store keeps one
result per game index). Ray provides the placement, one server per node
and their lifetime: when the driver lets go of the actors, or a node dies,
the servers go with them (``serve --exit-on-stdin-eof``).
"""

from __future__ import annotations

import json
import os
import secrets
import subprocess
import threading
import urllib.request
from dataclasses import dataclass
from typing import Any, Callable, Sequence

import ray
from ray.util.scheduling_strategies import NodeAffinitySchedulingStrategy

from botarena._closing import Running
from botarena.league import League, LeagueError, RunSummary
from botarena.ray.sampling import _limit_cores, node_address
from botarena.server import Server, find_binary

__all__ = ["ServerGroup", "ServerResult", "LeagueRun", "start_servers", "run_league"]

_TOKEN_ENV = "BOTARENA_AUTH_TOKEN"


class _ServerActor:
    """One ``botarena serve`` on the actor's node, listening on the node's address."""

    def __init__(self, *, binary: str | None, token: str, num_cpus: float, args: Sequence[str]) -> None:
        _limit_cores(num_cpus)
        os.environ[_TOKEN_ENV] = token  # serve reads it; never on a command line (ps shows those)
        self.node = node_address()
        self.server = Server(binary=binary, addr=f"{self.node or '127.0.0.1'}:0", args=list(args), token=token).start()

    def describe(self) -> tuple[str, str, int]:
        return self.server.address, self.node, self.server.pid or 0

    def games(self) -> int:
        """MatchService games this server finished (botarena_match_games_total from its /metrics)."""
        req = urllib.request.Request(
            f"http://{self.server.address}/metrics", headers={"authorization": f"Bearer {os.environ[_TOKEN_ENV]}"}
        )
        with urllib.request.urlopen(req, timeout=10) as resp:
            for line in resp.read().decode().splitlines():
                if line.startswith("botarena_match_games_total"):
                    return int(float(line.split()[-1]))
        return 0

    def stop(self) -> None:
        self.server.stop()


class ServerGroup(Running):
    """``botarena serve`` processes on the nodes of a Ray cluster, one Ray actor each (see :func:`start_servers`).

    ``addresses`` are their ``host:port``s, ``nodes`` the node address of
    each, ``token`` the token they require (BOTARENA_AUTH_TOKEN). Stop them
    with :meth:`stop` (or use the group as a context manager); they also
    stop when the driver that started them exits.
    """

    def __init__(self, actors: list[Any], token: str) -> None:
        self.actors = actors
        self.token = token
        try:
            described = ray.get([a.describe.remote() for a in actors])
        except BaseException:
            self.stop()
            raise
        self.addresses: list[str] = [d[0] for d in described]
        self.nodes: list[str] = [d[1] for d in described]
        self.pids: list[int] = [d[2] for d in described]

    def games(self, timeout: float = 10.0) -> list[int | None]:
        """The games each server has finished so far (None for a server that does not answer)."""
        out: list[int | None] = []
        for a in self.actors:
            try:
                out.append(int(ray.get(a.games.remote(), timeout=timeout)))
            except Exception:
                out.append(None)
        return out

    def stop(self) -> None:
        """Stops the servers and ends their actors. Safe to call twice."""
        actors, self.actors = self.actors, []
        refs = []
        for a in actors:
            try:
                refs.append(a.stop.remote())
            except Exception:
                pass
        try:
            ray.get(refs, timeout=30)
        except Exception:
            pass  # an actor whose node is gone
        for a in actors:
            try:
                ray.kill(a)
            except Exception:
                pass

    def __repr__(self) -> str:
        return f"ServerGroup({self.addresses})"


def start_servers(
    *,
    per_node: int = 1,
    num_cpus: float = 1,
    binary: str | None = None,
    token: str | None = None,
    args: Sequence[str] = (),
) -> ServerGroup:
    """Starts ``per_node`` ``botarena serve`` processes on every alive node of the Ray cluster.

    Each is started by a Ray actor pinned to its node (reserving
    ``num_cpus``; the server's GOMAXPROCS, and so its ``--max-matches``,
    follows it) and listens on the node's address on a free port.

    Args:
        per_node: servers per node.
        num_cpus: CPUs each server's actor reserves; the node must have
            them free, or the actor waits for them.
        binary: the ``botarena`` binary on the nodes (default: what
            :func:`botarena.server.find_binary` finds on each node:
            BOTARENA_BIN, a checkout's build, the wheel's bundled binary,
            PATH).
        token: the token the servers require (default: $BOTARENA_AUTH_TOKEN,
            else a new random one). It reaches the actors through Ray (the
            cluster's object store), never a command line.
        args: more ``serve`` flags (``--bots-dir DIR``, ``--allow-cmd-bots``, ...).

    ``ray.init`` must have been called.
    """
    token = token or os.environ.get(_TOKEN_ENV, "").strip() or secrets.token_hex(32)
    cls = ray.remote(_ServerActor)
    actors = []
    for node in ray.nodes():
        if not node.get("Alive"):
            continue
        pin = NodeAffinitySchedulingStrategy(node_id=node["NodeID"], soft=False)
        for _ in range(per_node):
            actors.append(
                cls.options(num_cpus=num_cpus, scheduling_strategy=pin).remote(
                    binary=binary, token=token, num_cpus=num_cpus, args=list(args)
                )
            )
    if not actors:
        raise RuntimeError("start_servers: the Ray cluster has no alive node")
    return ServerGroup(actors, token)


@dataclass(frozen=True)
class ServerResult:
    """What one server did in a run: its address, the games it played and, if it was dropped, why."""

    address: str
    games: int
    error: str = ""


@dataclass(frozen=True)
class LeagueRun:
    """A finished :func:`run_league`: the run's summary and each server's part."""

    summary: RunSummary
    servers: tuple[ServerResult, ...]
    stderr: str = ""

    @property
    def dropped(self) -> tuple[ServerResult, ...]:
        """The servers the coordinator dropped during the run (a node lost, a server killed)."""
        return tuple(s for s in self.servers if s.error)


def run_league(
    league: League | str | os.PathLike[str],
    games: int,
    *,
    servers: ServerGroup | None = None,
    match: str = "round-robin",
    target: str | None = None,
    workers: int = 0,
    max_rounds: int = 0,
    server_batch: int = 0,
    server_window: int = 0,
    data: str | os.PathLike[str] | None = None,
    binary: str | None = None,
    progress: Callable[[str], None] | None = None,
) -> LeagueRun:
    """Plays ``games`` games of the league at ``league`` on the Ray cluster's nodes.

    Runs ``botarena league run DIR --games N --servers ADDRS --json`` here,
    the coordinator, with the servers of ``servers`` (default: one per node
    from :func:`start_servers`, stopped at the end). The results are those
    of a local ``league run`` of the same league: every game is
    deterministic from the league seed and its index, and a game whose
    server is lost mid-run (its node killed) is played again on the others
    and stored once. A run stopped by an error resumes from the stored games
    when called again.

    Args:
        league: a :class:`~botarena.League` or the league's directory.
        games: games to play.
        servers: servers to use (default: start one per node).
        match, target, workers, max_rounds, data: as for ``league run``
            (``--match``, ``--target``, ``--workers``: games in flight,
            default 64; ``--max-rounds``; ``--data DIR``).
        server_batch, server_window: ``--server-batch`` and
            ``--server-window`` (0: the CLI's defaults, 8 and 4).
        binary: the coordinator's ``botarena`` (default:
            :func:`~botarena.server.find_binary`).
        progress: called with each line the coordinator writes to stderr
            (progress lines, dropped servers), from a helper thread.

    Raises :class:`~botarena.LeagueError` when the coordinator fails (every
    server down, a game's own error), with its stderr.
    """
    if isinstance(league, League):
        if league.directory is None:
            raise ValueError("run_league needs the league's directory on this machine, not a League of a remote server")
        directory = str(league.directory)
    else:
        directory = os.fspath(league)
    binary = binary or find_binary()
    own = servers is None
    group = start_servers() if servers is None else servers
    try:
        args = ["league", "run", directory, "--games", str(int(games)), "--match", match, "--json"]
        args += ["--servers", ",".join(group.addresses)]
        if target is not None:
            args += ["--target", target]
        for flag, value in (
            ("--workers", workers),
            ("--max-rounds", max_rounds),
            ("--server-batch", server_batch),
            ("--server-window", server_window),
        ):
            if value:
                args += [flag, str(int(value))]
        if data is not None:
            args += ["--data", os.fspath(data)]
        cmd = [binary, *args]
        proc = subprocess.Popen(
            cmd,
            env={**os.environ, _TOKEN_ENV: group.token},
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        lines: list[str] = []

        def read_stderr() -> None:
            assert proc.stderr is not None
            for line in proc.stderr:
                lines.append(line)
                if progress is not None:
                    progress(line.rstrip("\n"))

        reader = threading.Thread(target=read_stderr, name="botarena-league-stderr", daemon=True)
        reader.start()
        assert proc.stdout is not None
        out = proc.stdout.read()
        proc.wait()
        reader.join()
        stderr = "".join(lines)
        if proc.returncode != 0:
            last = stderr.strip().splitlines()[-1] if stderr.strip() else f"exit status {proc.returncode}"
            raise LeagueError(f"{' '.join(cmd[1:3])}: {last}")
        rows = [json.loads(line) for line in out.splitlines() if line.strip()]
        s: dict[str, Any] | None = next((d for d in reversed(rows) if d.get("summary")), None)
        if s is None:
            raise LeagueError(f"{' '.join(cmd[1:3])}: no summary line in the output")
        summary = RunSummary(
            run=int(s.get("run", 0)),
            games=int(s.get("games", 0)),
            played=int(s.get("played", 0)),
            skipped=int(s.get("skipped", 0)),
            seconds=float(s.get("seconds", 0.0)),
            match=str(s.get("match", match)),
            png=str(s.get("png") or ""),
        )
        results = tuple(
            ServerResult(str(e.get("addr", "")), int(e.get("games", 0)), str(e.get("error", "")))
            for e in s.get("servers") or []
        )
        return LeagueRun(summary, results, stderr)
    finally:
        if own:
            group.stop()
