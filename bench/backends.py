"""The Go pool, Python's native and remote backends and their peers, interleaved in one run.

    .venv/bin/python bench/backends.py --bin bin/botarena --rounds 3 --seconds 5 [--no-peers]

Each round measures, one after the other, for every game: the Go pool alone
(``botarena bench``), the native backend (the Go pool in this Python process,
``python -m botarena.bench --backend native``) and the remote backend (a
local ``botarena serve``, unary Step), all stepping every seat of 1024 envs
with uniformly random actions on the same number of workers; the native
backend async in batches of each ``--async-batch`` size B (16 and 256) over 4B
envs (at most 1024), against sync steps of the same envs and of B envs (the
same rows per call) in the same round (``native_async_B_over_sync_N``); the
native backend with a simulated policy that sleeps ``--policy-us`` per row (a
GPU forward pass: sync adds it to the step, async overlaps the two); then the median step of one env from Python on both
backends. With ``--peers`` (the default) the same round then measures, where
installed, what a user would otherwise pick: Gymnasium's SyncVectorEnv and
AsyncVectorEnv over a dummy env whose observation has the byte size of one
agent's observation in that game and whose step does nothing, Pommerman FFA
beside Bomberman, and, once per round, EnvPool's CartPole-v1 and Pong-v5 in
sync mode as a reference for the per-step overhead of a C++ pool.

Peers that need an environment of their own (Pommerman pins gym 0.10.5;
PufferLib) run with ``--peer NAME`` in it, one round at a time (``--round``),
printing their rows, or a row saying why they are not measured;
``bench/figures.sh`` makes those environments and runs everything, and
``--table FILE`` prints the table of the rows in its output.

Interleaving (A, B, C, A, B, C, ...) spreads the noise of a shared machine
over every figure; the table reports each figure's median and range over the
rounds, the native backend's share of the Go pool's agent-steps/s within each
round, and for every throughput figure the cores it is counted against, its
agent-steps/s per core and the observation bytes of one agent step.

Cores: the workers, threads or processes that step envs at the same time,
capped at os.cpu_count(): the pool's workers for botarena (the remote
client's thread waits for the reply), EnvPool's threads, AsyncVectorEnv's
subprocesses, 1 for SyncVectorEnv and Pommerman.
"""

from __future__ import annotations

import argparse
import datetime
import functools
import importlib
import json
import os
import platform
import statistics
import subprocess
import sys
import time
import warnings
from typing import Any, Callable

import numpy as np
import numpy.typing as npt

import gymnasium as gym

# botarena is imported inside the functions that use it, so that the workers
# AsyncVectorEnv spawns, and a peer's own environment (--peer), import this
# file with only numpy, gymnasium and the peer.

#: How to install each peer, printed when it is missing. Pommerman is not on
#: PyPI: pip finds no distribution of that name.
PEER_INSTALL = {
    "gymnasium": "pip install 'gymnasium>=1.1' (a dependency of botarena)",
    "envpool": "pip install -e 'python[peers]' (or pip install envpool; Linux, Python 3.11+)",
    "pommerman": "pip install pommerman finds no distribution on PyPI; install it from its source repository (pip install .) to include its row",
    "pufferlib": "pip install pufferlib-core==3.0.5 (its own environment: bench/figures.sh makes one; later releases require PyTorch)",
}

#: The figures of the table, in its order.
FIGURES = [
    "go",
    "native",
    "native_16",
    "native_64",
    "native_256",
    "native_async_16",
    "native_async_16_over_sync_64",
    "native_async_16_over_sync_16",
    "native_async_256",
    "native_async_256_over_sync_1024",
    "native_async_256_over_sync_256",
    "remote",
    "native_share",
    "native_policy",
    "native_async_policy",
    "native_1env_us",
    "remote_1env_us",
    "gymnasium_sync",
    "gymnasium_async",
    "pommerman_ffa",
    "pufferlib_serial",
    "pufferlib_multiprocessing",
    "envpool_cartpole",
    "envpool_pong",
    "trainer_after",
    "trainer_after-x",
]


def cores_used(parallel: int) -> int:
    """The cores a figure is counted against: parallel (workers, threads or processes) capped at os.cpu_count()."""
    return max(1, min(parallel, os.cpu_count() or 1))


def rate_row(game: str, figure: str, envs: int, agent_steps_per_sec: float, parallel: int, obs_bytes: int, note: str = "") -> dict[str, Any]:
    """One throughput figure: agent-steps/s, the cores it is counted against, per core, and observation bytes per agent step."""
    cores = cores_used(parallel)
    row: dict[str, Any] = {
        "game": game,
        "figure": figure,
        "envs": envs,
        "agent_steps_per_sec": round(agent_steps_per_sec, 1),
        "cores": cores,
        "agent_steps_per_sec_per_core": round(agent_steps_per_sec / cores, 1),
        "obs_bytes_per_agent_step": obs_bytes,
    }
    if note:
        row["note"] = note
    return row


def timed(step: Callable[[], None], seconds: float) -> tuple[int, float]:
    """Calls step for seconds after a warm-up of a fifth of that (at most 1 s); returns the calls and the seconds they took."""
    warm_end = time.perf_counter() + min(1.0, seconds / 5)
    while time.perf_counter() < warm_end:
        step()
    steps = 0
    start = time.perf_counter()
    end = start + seconds
    now = start
    while now < end:
        step()
        steps += 1
        now = time.perf_counter()
    return steps, now - start


def missing_peer(module: str) -> str | None:
    """Why peer module cannot be measured here, with how to install it; None when it imports."""
    try:
        importlib.import_module(module)
    except ImportError as e:
        return f"{module} is not importable ({e}): {PEER_INSTALL.get(module.split('.')[0], f'pip install {module}')}"
    return None


class DummyEnv(gym.Env[npt.NDArray[np.uint8], np.int64]):
    """A single-agent env whose observation is obs_bytes bytes and whose step does nothing: Gymnasium's own overhead per step.

    It never ends an episode. Every step returns the same observation array; the vector env copies it into its batch.
    """

    def __init__(self, obs_bytes: int) -> None:
        self.observation_space = gym.spaces.Box(0, 255, (obs_bytes,), np.uint8)
        self.action_space = gym.spaces.Discrete(6)
        self._obs = np.zeros(obs_bytes, np.uint8)

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[npt.NDArray[np.uint8], dict[str, Any]]:
        super().reset(seed=seed)
        return self._obs, {}

    def step(self, action: np.int64) -> tuple[npt.NDArray[np.uint8], float, bool, bool, dict[str, Any]]:
        return self._obs, 0.0, False, False, {}


def timed_dummy_vector(vec: Any, envs: int, seconds: float, seed: int) -> tuple[Any, float]:
    """Resets a vector env of envs DummyEnvs with seed, steps it with random actions (of its six) under :func:`timed`, and
    closes it, even when a call fails. Returns what reset returned and the env steps per second."""
    rng = np.random.default_rng(seed)
    try:
        first = vec.reset(seed=seed)

        def step() -> None:
            vec.step(rng.integers(0, 6, envs))

        steps, elapsed = timed(step, seconds)
    finally:
        vec.close()
    return first, steps * envs / elapsed


def gymnasium_vector(game: str, obs_bytes: int, envs: int, seconds: float, mode: str, seed: int = 1) -> dict[str, Any]:
    """Gymnasium's SyncVectorEnv (mode "sync") or AsyncVectorEnv ("async", one spawned subprocess per env) over envs DummyEnvs.

    Defaults otherwise (observations copied out of the vector env, next-step autoreset); random actions drawn every step.
    """
    fns = [functools.partial(DummyEnv, obs_bytes)] * envs
    vec: gym.vector.VectorEnv[Any, Any, Any]
    if mode == "sync":
        vec, parallel = gym.vector.SyncVectorEnv(fns), 1
    elif mode == "async":
        vec, parallel = gym.vector.AsyncVectorEnv(fns, context="spawn"), envs
    else:
        raise ValueError(f"mode must be 'sync' or 'async', got {mode!r}")
    first, rate = timed_dummy_vector(vec, envs, seconds, seed)
    obs: npt.NDArray[np.uint8] = first[0]
    note = f"{envs} envs, one subprocess each" if mode == "async" else ""
    return rate_row(game, f"gymnasium_{mode}", envs, rate, parallel, int(obs[0].nbytes), note)


def envpool_env(task: str, envs: int, seconds: float, threads: int, seed: int = 1, note: str = "") -> dict[str, Any]:
    """EnvPool's task ("CartPole-v1", "Pong-v5") in sync mode (batch_size = num_envs) on threads threads, random actions."""
    import envpool

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # Gymnasium warns about the float64 bounds of EnvPool's spaces
        pool = envpool.make(task, env_type="gymnasium", num_envs=envs, batch_size=envs, num_threads=threads, seed=seed)
        actions = int(pool.action_space.n)
        obs, _ = pool.reset()
    rng = np.random.default_rng(seed)

    def step() -> None:
        pool.step(rng.integers(0, actions, envs, dtype=np.int32))

    steps, elapsed = timed(step, seconds)
    pool.close()
    name = task.split("-")[0].lower()
    return rate_row("reference", f"envpool_{name}", envs, steps * envs / elapsed, threads, int(obs[0].nbytes), note)


def pommerman_ffa(seconds: float, seed: int = 1) -> dict[str, Any]:
    """Pommerman's PommeFFACompetition-v0: one env, four agents, uniformly random actions passed to step (the env's agents are not asked).

    Observation bytes count the numpy arrays and numbers in one agent's observation dict. Not run where it was
    written: Pommerman is not on PyPI, so this follows its documented make/reset/step API.
    """
    import pommerman  # type: ignore[import]  # not installable here: not on PyPI

    env = pommerman.make("PommeFFACompetition-v0", [pommerman.agents.RandomAgent() for _ in range(4)])
    rng = np.random.default_rng(seed)
    obs = env.reset()
    obs_bytes = sum(np.asarray(v).nbytes for v in obs[0].values() if isinstance(v, (np.ndarray, int, float)))

    def step() -> None:
        _, _, done, _ = env.step(rng.integers(0, 6, 4).tolist())
        if done:
            env.reset()

    steps, elapsed = timed(step, seconds)
    env.close()
    return rate_row("bomberman", "pommerman_ffa", 1, steps * 4 / elapsed, 1, obs_bytes)


def pufferlib_vector(game: str, obs_bytes: int, envs: int, seconds: float, mode: str, seed: int = 1) -> dict[str, Any]:
    """PufferLib's vectorization (pufferlib-core) over envs DummyEnvs, each wrapped as a PufferEnv (its Gymnasium emulation).

    mode "serial": pufferlib.vector.Serial, in this process. mode "multiprocessing": pufferlib.vector.Multiprocessing, one
    worker process per core, each stepping envs / workers envs, observations in shared memory. Random actions every step.
    """
    import pufferlib.emulation
    import pufferlib.vector

    def make(*args: Any, **kwargs: Any) -> Any:
        return pufferlib.emulation.GymnasiumPufferEnv(env=DummyEnv(obs_bytes), buf=kwargs.get("buf"), seed=kwargs.get("seed", 0))

    parallel = 1
    if mode == "serial":
        vec = pufferlib.vector.make(make, backend=pufferlib.vector.Serial, num_envs=envs)
    elif mode == "multiprocessing":
        parallel = cores_used(os.cpu_count() or 1)
        vec = pufferlib.vector.make(make, backend=pufferlib.vector.Multiprocessing, num_envs=envs, num_workers=parallel)
    else:
        raise ValueError(f"mode must be 'serial' or 'multiprocessing', got {mode!r}")
    _, rate = timed_dummy_vector(vec, envs, seconds, seed)
    return rate_row(game, f"pufferlib_{mode}", envs, rate, parallel, obs_bytes)


#: The observation bytes of one agent per game, as the native backend measures
#: them (obs_bytes_per_agent): the dummy envs of the peers run in their own
#: environments (--peer), where botarena is not installed.
OBS_BYTES = {"bomberman": 5324, "battlebots": 1916}


def peer_rows(peer: str, r: int, args: argparse.Namespace) -> list[dict[str, Any]]:
    """One round of one peer alone (--peer), in whatever environment runs this file; a row saying why when it is missing."""
    module = {"envpool": "envpool", "pommerman": "pommerman", "pufferlib": "pufferlib.vector"}[peer]
    reason = missing_peer(module)
    if peer == "envpool":
        names, game = ["envpool_cartpole", "envpool_pong"], "reference"
    elif peer == "pommerman":
        names, game = ["pommerman_ffa"], "bomberman"
    else:
        names, game = ["pufferlib_serial", "pufferlib_multiprocessing"], ""
    games = [game] if game else args.games.split(",")
    if reason:
        return [{"game": g, "figure": n, "not_measured": reason} for g in games for n in names]
    if peer == "envpool":
        threads = args.workers or os.cpu_count() or 1
        pong = min(args.envs, args.pong_envs)
        note = f"{pong} envs, an Atari emulator each" if pong < args.envs else ""
        return [envpool_env("CartPole-v1", args.envs, args.seconds, threads, seed=r + 1), envpool_env("Pong-v5", pong, args.seconds, threads, seed=r + 1, note=note)]
    if peer == "pommerman":
        return [pommerman_ffa(args.seconds, seed=r + 1)]
    return [pufferlib_vector(g, OBS_BYTES[g], args.envs, args.seconds, mode, seed=r + 1) for g in games for mode in ("serial", "multiprocessing")]


def read_rows(path: str) -> list[dict[str, Any]]:
    """The figure rows in a file: JSON objects one per line, bare or after a "python " prefix (bench/figures.sh's output)."""
    rows = []
    with open(path) as f:
        for line in f:
            line = line.removeprefix("python ").strip()
            if line.startswith("{"):
                row = json.loads(line)
                if "figure" in row:
                    rows.append(row)
    return rows


def go_pool(binary: str, game: str, envs: int, seconds: float, workers: int) -> dict[str, Any]:
    """botarena bench's JSON result for one game."""
    out = subprocess.run(
        [binary, "bench", "--game", game, "--envs", str(envs), "--workers", str(workers), "--seconds", str(seconds), "--json"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    res: dict[str, Any] = json.loads(out.splitlines()[-1])
    return res


def botarena_round(game: str, r: int, args: argparse.Namespace, address: str) -> list[dict[str, Any]]:
    """One round's botarena figures for game. Observation bytes are the Python side's (the action mask not counted)."""
    from botarena import bench

    common: dict[str, Any] = dict(seconds=args.seconds, actions="uniform", workers=args.workers, seed=r + 1)
    batches = [min(int(b), args.envs) for b in str(args.async_batch).split(",") if int(b)]
    batch = batches[-1] if batches else 0
    go = go_pool(args.bin, game, args.envs, args.seconds, args.workers)
    res = {"native": bench.run(game, args.envs, backend="native", **common)}
    res["remote"] = bench.run(game, args.envs, backend="remote", address=address, **common)
    shares = []
    for b in batches:
        # Send/recv of E envs in batches of b (E = 4b, at most --envs) against sync
        # steps of the same E envs, and of b envs (the same rows per call), in this round.
        e = min(args.envs, 4 * b)
        asy = res[f"native_async_{b}"] = bench.run(game, e, backend="native", batch_size=b, **common)
        for n in (e, b):
            if f"native_{n}" not in res and n != args.envs:
                res[f"native_{n}"] = bench.run(game, n, backend="native", **common)
            sync = res["native"] if n == args.envs else res[f"native_{n}"]
            share = asy["agent_steps_per_sec"] / sync["agent_steps_per_sec"]
            shares.append({"game": game, "figure": f"native_async_{b}_over_sync_{n}", "share": share, "note": f"async {e} envs, sync {n} envs"})
    if batch and args.policy_us:
        # A policy that sleeps (a GPU forward pass): sync adds it to the step, async overlaps them.
        pol = dict(common, policy_us_per_row=args.policy_us)
        res["native_policy"] = bench.run(game, args.envs, backend="native", **pol)
        res["native_async_policy"] = bench.run(game, args.envs, backend="native", batch_size=batch, **pol)
    obs_bytes = int(res["native"]["obs_bytes_per_agent"])
    rows = [rate_row(game, "go", args.envs, go["agent_steps_per_sec"], go["workers"], obs_bytes)]
    for figure, v in res.items():
        rows.append(rate_row(game, figure, v["envs"], v["agent_steps_per_sec"], v["server_workers"], v["obs_bytes_per_agent"]))
    rows.append({"game": game, "figure": "native_share", "share": res["native"]["agent_steps_per_sec"] / go["agent_steps_per_sec"]})
    rows += shares
    one: dict[str, Any] = dict(seconds=min(args.seconds, 3.0), actions="uniform", seed=r + 1)
    rows.append({"game": game, "figure": "native_1env_us", "envs": 1, "step_us": 1e3 * bench.run(game, 1, backend="native", **one)["median_step_ms"]})
    remote_us = 1e3 * bench.run(game, 1, backend="remote", address=address, transport="stream", **one)["median_step_ms"]
    rows.append({"game": game, "figure": "remote_1env_us", "envs": 1, "step_us": remote_us})
    return rows


def peer_round(game: str, obs_bytes: int, r: int, args: argparse.Namespace, missing: dict[str, str]) -> list[dict[str, Any]]:
    """One round's peer figures beside game ("reference": EnvPool's tasks)."""
    rows = []
    if game == "reference":
        if "envpool" not in missing:
            threads = args.workers or os.cpu_count() or 1
            rows.append(envpool_env("CartPole-v1", args.envs, args.seconds, threads, seed=r + 1))
            pong = min(args.envs, args.pong_envs)
            note = f"{pong} envs, an Atari emulator each" if pong < args.envs else ""
            rows.append(envpool_env("Pong-v5", pong, args.seconds, threads, seed=r + 1, note=note))
        return rows
    if "gymnasium" not in missing:
        rows.append(gymnasium_vector(game, obs_bytes, args.envs, args.seconds, "sync", seed=r + 1))
        if args.async_envs:
            rows.append(gymnasium_vector(game, obs_bytes, min(args.envs, args.async_envs), args.seconds, "async", seed=r + 1))
    if game == "bomberman" and "pommerman" not in missing:
        rows.append(pommerman_ffa(args.seconds, seed=r + 1))
    return rows


def formatter(row: dict[str, Any], median: float) -> Callable[[float], str]:
    """How a figure's values print: a share, microseconds, or agent-steps/s in M or k (chosen by the median)."""
    if "share" in row:
        return lambda v: f"{v:.0%}"
    if "step_us" in row:
        return lambda v: f"{v:.1f} µs"
    if median >= 1e5:
        return lambda v: f"{v / 1e6:.2f}M"
    return lambda v: f"{v / 1e3:.1f}k"


def value(row: dict[str, Any]) -> float:
    for key in ("share", "step_us", "agent_steps_per_sec", "learner_steps_per_sec"):
        if key in row:
            return float(row[key])
    return 0.0


def table(rows: list[dict[str, Any]], rounds: int) -> list[str]:
    """The Markdown table: per game and figure, the median and range over rounds, cores, median per core, observation bytes."""
    lines = [
        f"| game | figure | median | range ({rounds} rounds) | cores | median per core | obs bytes per agent step |",
        "| --- | --- | --- | --- | --- | --- | --- |",
    ]
    games = list(dict.fromkeys(row["game"] for row in rows))
    figures = list(dict.fromkeys(FIGURES + [row["figure"] for row in rows]))
    for game in games:
        for figure in figures:
            sel = [row for row in rows if row["game"] == game and row["figure"] == figure]
            if not sel:
                continue
            if "not_measured" in sel[0]:
                lines.append(f"| {game} | {figure} | not measured: {sel[0]['not_measured']} | | | | |")
                continue
            vals = [value(row) for row in sel]
            fmt = formatter(sel[0], statistics.median(vals))
            med, lo, hi = fmt(statistics.median(vals)), fmt(min(vals)), fmt(max(vals))
            cores = per_core = obs = ""
            if "cores" in sel[0]:
                cores = "–".join(dict.fromkeys(str(row["cores"]) for row in sel))
                per_core = fmt(statistics.median(row["agent_steps_per_sec_per_core"] for row in sel))
                obs = f"{sel[0]['obs_bytes_per_agent_step']:,}"
            note = f" ({sel[0]['note']})" if "note" in sel[0] else ""
            lines.append(f"| {game} | {figure}{note} | {med} | {lo}–{hi} | {cores} | {per_core} | {obs} |")
    return lines


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    p.add_argument("--bin", default="bin/botarena", help="the botarena binary (go build -o bin/botarena ./cmd/botarena)")
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--seconds", type=float, default=5.0, help="measured seconds per figure")
    p.add_argument("--envs", type=int, default=1024)
    p.add_argument("--workers", type=int, default=0, help="pool workers and EnvPool threads (0: all cores)")
    p.add_argument("--games", default="bomberman,battlebots")
    p.add_argument(
        "--async-batch",
        default="16,256",
        help="batch sizes of the native async figures, comma-separated (each against sync steps of 4× as many envs, at most --envs; 0: none)",
    )
    p.add_argument("--policy-us", type=float, default=1.0, help="simulated policy time per row for the policy figures (0: none)")
    p.add_argument("--peers", action=argparse.BooleanOptionalAction, default=True, help="also measure the installed peers (Gymnasium, EnvPool, Pommerman)")
    p.add_argument("--async-envs", type=int, default=8, help="envs (one subprocess each) of Gymnasium's AsyncVectorEnv (0: none)")
    p.add_argument("--pong-envs", type=int, default=64, help="envs of EnvPool's Pong-v5 (an Atari emulator each)")
    p.add_argument("--json", help="also write every measurement to this JSON Lines file")
    p.add_argument(
        "--peer-modules",
        default=",".join(m for m in PEER_INSTALL if m != "pufferlib"),
        help="with --peers, the peers measured in this environment [gymnasium,envpool,pommerman] (bench/figures.sh runs the others with --peer)",
    )
    p.add_argument("--round", type=int, default=0, help="the first round's number (seeds and the rows' round field), when a driver runs one round at a time")
    p.add_argument(
        "--peer",
        choices=["envpool", "pommerman", "pufferlib"],
        help="measure only this peer (numpy and the peer imported, not botarena), in the environment running this file; print its rows",
    )
    p.add_argument("--table", metavar="FILE", help="print the table of the rows in FILE (this script's or bench/figures.sh's output) and exit")
    args = p.parse_args(argv)
    if args.table:
        read = read_rows(args.table)
        print("\n".join(table(read, len({row.get("round", 0) for row in read}))))
        return 0
    if args.peer:
        for r in range(args.round, args.round + args.rounds):
            for row in peer_rows(args.peer, r, args):
                row["round"] = r
                print(json.dumps(row), flush=True)
        return 0
    games = args.games.split(",")
    missing: dict[str, str] = {}
    if args.peers:
        here = args.peer_modules.split(",")
        for module in PEER_INSTALL:
            if module not in here:
                missing[module] = "not in --peer-modules"
                continue
            reason = missing_peer(module)
            if reason:
                missing[module] = reason
                print(f"peer skipped: {reason}", flush=True)
        if args.async_envs and args.async_envs < args.envs and "gymnasium" not in missing:
            print(f"gymnasium_async runs {args.async_envs} envs, not {args.envs}: one subprocess per env on {os.cpu_count()} cores", flush=True)
    from botarena.server import Server

    rows: list[dict[str, Any]] = []
    with Server(binary=args.bin) as server:
        for r in range(args.round, args.round + args.rounds):
            for game in games:
                measured = botarena_round(game, r, args, server.address)
                if args.peers:
                    obs_bytes = next(row["obs_bytes_per_agent_step"] for row in measured if row["figure"] == "native")
                    measured += peer_round(game, obs_bytes, r, args, missing)
                for row in measured:
                    row["round"] = r
                    print(json.dumps(row), flush=True)
                rows += measured
            if args.peers:
                for row in peer_round("reference", 0, r, args, missing):
                    row["round"] = r
                    print(json.dumps(row), flush=True)
                    rows.append(row)
    if args.json:
        with open(args.json, "w") as f:
            meta = {
                "date": datetime.date.today().isoformat(),
                "machine": platform.machine(),
                "cpus": os.cpu_count(),
                "python": platform.python_version(),
                "envs": args.envs,
                "seconds": args.seconds,
                "peers_missing": missing if args.peers else "not measured (--no-peers)",
            }
            f.write(json.dumps({"meta": meta}) + "\n")
            for row in rows:
                f.write(json.dumps(row) + "\n")
    print()
    print("\n".join(table(rows, args.rounds)))
    print()
    print("cores: the workers, threads or processes stepping envs at once, capped at os.cpu_count() =", os.cpu_count())
    return 0


if __name__ == "__main__":
    sys.exit(main())
