"""Throughput of the Python client: ``python -m botarena.bench``.

Steps a pool whose every seat is a learner (self-play, as ``botarena bench``
counts: agent steps = env steps × seats) with random actions, receiving every
observation as numpy, and prints agent and env steps per second and the
median round trip of one step::

    python -m botarena.bench --game bomberman --envs 1024 --seconds 10
    python -m botarena.bench --envs 1 --json                    # single-env latency
    python -m botarena.bench --backend native --envs 1024       # the Go pool in this process
    python -m botarena.bench --backend native --batch-size 256  # async send/recv
    python -m botarena.bench --transport both --rounds 3        # unary Step and StepStream, interleaved
    python -m botarena.bench --batch-size 256 --async-vs-sync   # step and send/recv, interleaved

``--backend remote`` (the default) starts its own ``botarena serve`` unless
``--address`` is given; ``--backend native`` loads the shared library (see
:mod:`botarena.native`). ``--batch-size`` steps asynchronously (either backend):
each round receives ``batch-size`` envs and sends them their actions, and a
"step" in the figures is one such round.

``--transport both`` measures unary Step and StepStream in turn on one
server, ``--rounds`` times each (unary, stream, unary, stream, ...), so that
both see the same machine; it prints every run, each transport's median of
agent steps per second, stream's median as a share of unary's, and the
median of the rounds' own shares (each stream run over the unary run just
before it: steadier when the machine's load drifts), the HTTP version the
Connect stream went over (1.1, or 2 from a server that streams over HTTP/2
only), and the CPU time this
process and the server spent per agent step (the server's when the bench
started it, without ``--address``): what a step costs, which a loaded
machine changes much less than how long it takes. The two pools are open
together and stepped in turn, ``--seconds`` each. ``--async-vs-sync`` does
the same for synchronous steps and send/recv in batches of ``--batch-size``
(either backend), async against sync.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import platform
import resource
import sys
import time
from typing import Any, Iterator, Sequence

import numpy as np
import numpy.typing as npt

from botarena.backend import make_pool
from botarena.client import Client
from botarena.pool import Pool
from botarena.server import Server

__all__ = ["run", "compare", "main"]


def _masked_random(rng: np.random.Generator, mask: npt.NDArray[np.uint8]) -> npt.NDArray[np.int32]:
    # argmax of uniform noise over the legal actions: a uniform legal action
    # (action 0, "nothing", when no action is legal).
    noise = rng.random(mask.shape, dtype=np.float32)
    noise *= mask
    return noise.argmax(axis=1).astype(np.int32)


def _cpu_seconds(pid: int | None) -> float:
    """CPU seconds (user and system) of this process (pid None) or of process pid (Linux: 0.0 where /proc cannot tell)."""
    if pid is None:
        r = resource.getrusage(resource.RUSAGE_SELF)
        return r.ru_utime + r.ru_stime
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return 0.0


class _Stepper:
    """One pool stepped with random legal actions, measured in blocks (the pool stays open between them)."""

    def __init__(self, pool: Pool, client: Client | None, seed: int, actions: str, policy_us_per_row: float, server_pid: int | None) -> None:
        self.pool = pool
        self.client = client
        self.server_pid = server_pid
        self.rng = np.random.default_rng(seed)
        self.actions = actions
        self.policy_us_per_row = policy_us_per_row
        self.obs, info = pool.reset()
        self.rows = info["mask"].shape[0]  # per step: a batch's rows in async mode
        self.mask = info["mask"]

    def _actions(self) -> npt.NDArray[np.int32]:
        if self.actions == "masked":
            return _masked_random(self.rng, self.mask)
        return self.rng.integers(0, self.pool.spec.actions, self.rows, dtype=np.int32)

    def warm(self, seconds: float) -> None:
        """Steps for seconds, unmeasured (connection, server worker start, allocator)."""
        end = time.perf_counter() + seconds
        while time.perf_counter() < end:
            self.obs, _, _, _, info = self.pool.step(self._actions())
            self.mask = info["mask"]

    def measure(self, seconds: float) -> dict[str, Any]:
        """Steps for seconds; returns the figures of :func:`run`."""
        pool = self.pool
        lat: list[float] = []
        steps = 0
        cpu0, server0 = _cpu_seconds(None), _cpu_seconds(self.server_pid)
        start = time.perf_counter()
        end = start + seconds
        now = start
        while now < end:
            if self.policy_us_per_row > 0:
                time.sleep(self.policy_us_per_row * self.rows / 1e6)
            a = self._actions()
            t0 = time.perf_counter()
            self.obs, _, _, _, info = pool.step(a)
            now = time.perf_counter()
            lat.append(now - t0)
            self.mask = info["mask"]
            steps += 1
        elapsed = now - start
        cpu, server = _cpu_seconds(None) - cpu0, _cpu_seconds(self.server_pid) - server0
        rows = self.rows
        return {
            "game": pool.game,
            "backend": pool.backend,
            "envs": pool.num_envs,
            "batch_size": pool.batch_size,
            "seats": len(pool.learner_seats),
            "rows": rows,
            "actions": self.actions,
            "transport": pool.transport,
            "protocol": "in-process" if self.client is None else self.client.protocol,
            "shared_planes": pool.shared_planes,
            "seconds": round(elapsed, 3),
            "steps": steps,
            "policy_us_per_row": self.policy_us_per_row,
            "env_steps_per_sec": round(steps * rows / len(pool.learner_seats) / elapsed, 1),
            "agent_steps_per_sec": round(steps * rows / elapsed, 1),
            "median_step_ms": round(float(np.median(lat)) * 1e3, 4),
            "p99_step_ms": round(float(np.percentile(lat, 99)) * 1e3, 4),
            "client_cpu_ms_per_step": round(cpu / steps * 1e3, 4),
            # The native backend's pool runs in this process: its CPU is the client's.
            "server_cpu_ms_per_step": round(server / steps * 1e3, 4) if self.server_pid else None,
            "obs_bytes_per_agent": sum(v[0].nbytes for v in self.obs.values()),
            "server_workers": pool.workers,
            "cpus": os.cpu_count(),
            "python": platform.python_version(),
        }


@contextlib.contextmanager
def _pools(
    settings: Sequence[dict[str, Any]],
    game: str,
    envs: int,
    *,
    address: str | None,
    backend: str,
    protocol: str,
    seed: int,
    actions: str,
    policy_us_per_row: float,
    **kwargs: Any,
) -> Iterator[list[_Stepper]]:
    """Steppers of one pool per settings dict (make_pool keywords over kwargs), on one server, all open together."""
    if backend not in ("native", "remote"):
        raise ValueError(f"backend must be 'native' or 'remote', got {backend!r}")
    with contextlib.ExitStack() as stack:
        server_pid = None
        if address is None and backend == "remote":
            server = stack.enter_context(Server())
            address, server_pid = server.address, server.pid
        # The remote backend's client; the native backend has none (no wire).
        client = stack.enter_context(Client(address, protocol=protocol)) if backend == "remote" and address is not None else None
        steppers = []
        for s in settings:
            pool = stack.enter_context(make_pool(game, envs, seed=seed, client=client, backend=backend, **{**kwargs, **s}))
            if pool.backend != backend:
                raise RuntimeError(f"asked for the {backend} backend, got {pool.backend}")
            steppers.append(_Stepper(pool, client, seed, actions, policy_us_per_row, server_pid))
        yield steppers


def run(
    game: str = "bomberman",
    envs: int = 1024,
    seconds: float = 10.0,
    *,
    address: str | None = None,
    actions: str = "masked",
    transport: str = "unary",
    seed: int = 1,
    workers: int = 0,
    compression: str | None = None,
    backend: str = "remote",
    batch_size: int | None = None,
    policy_us_per_row: float = 0.0,
    shared_planes: bool = False,
    protocol: str = "connect",
    **config: Any,
) -> dict[str, Any]:
    """Runs the benchmark; returns the figures as a dict.

    policy_us_per_row > 0 sleeps that long per row received before sending
    the next actions: a policy whose forward pass leaves the CPU free (a GPU
    trainer), which async stepping overlaps with the env step.
    """
    setting = {"transport": transport, "batch_size": batch_size}
    common = {"workers": workers, "compression": compression, "shared_planes": shared_planes, **config}
    with _pools(
        [setting], game, envs, address=address, backend=backend, protocol=protocol, seed=seed, actions=actions, policy_us_per_row=policy_us_per_row, **common
    ) as (stepper,):
        stepper.warm(min(1.0, seconds / 5))
        return stepper.measure(seconds)


def _stream_http_version(pool: Pool) -> int | None:
    """The HTTP version (1 or 2) a remote pool's open StepStream goes over; None without one (gRPC, unary)."""
    stream = getattr(getattr(pool, "_stream", None), "_connect", None)
    version = getattr(stream, "http_version", None)
    return version if isinstance(version, int) else None


def compare(rounds: int = 3, *, address: str | None = None, vary: str = "transport", **kwargs: Any) -> dict[str, Any]:
    """Measures two settings in turn, rounds times each, on two pools open together on one server.

    vary "transport": transport unary, then stream. vary "async": synchronous
    steps, then send/recv in batches of kwargs["batch_size"]. Both pools are
    made and warmed up first, then each round steps the first for
    kwargs["seconds"] and the second as long, so that a round's two runs see
    the same machine (no pool is made or closed between them). kwargs are
    :func:`run`'s. Returns {"runs": [each run's figures, in order, with
    "setting"], "median_agent_steps_per_sec": {setting: median}, the ratio of
    the medians, second over first ("stream_over_unary" or
    "async_over_sync"), "median_round_ratio": the median over rounds of the
    second setting's agent steps per second over the first's, and
    "cpu_ns_per_agent_step": {setting: {"client": this process's CPU time,
    "server": the server's (None when it runs elsewhere: address given)}},
    each over all of the setting's runs: the cost of a step, which the
    machine's load changes much less than the time it takes}; with vary
    "transport" also "stream_http_version": 1 or 2, what the Connect
    StepStream went over (None for gRPC).
    """
    if vary == "transport":
        settings: dict[str, dict[str, Any]] = {"unary": {"transport": "unary"}, "stream": {"transport": "stream"}}
        kwargs.pop("transport", None)
    elif vary == "async":
        batch = kwargs.pop("batch_size", None)
        if not batch:
            raise ValueError("compare(vary='async') needs batch_size")
        settings = {"sync": {"batch_size": None}, "async": {"batch_size": batch}}
    else:
        raise ValueError(f"vary must be 'transport' or 'async', got {vary!r}")
    game = kwargs.pop("game", "bomberman")
    envs = kwargs.pop("envs", 1024)
    seconds = kwargs.pop("seconds", 10.0)
    fixed = {k: kwargs.pop(k, d) for k, d in (("backend", "remote"), ("protocol", "connect"), ("seed", 1), ("actions", "masked"), ("policy_us_per_row", 0.0))}
    runs = []
    with _pools(list(settings.values()), game, envs, address=address, **fixed, **kwargs) as steppers:
        for st in steppers:
            st.warm(min(1.0, seconds / 5))
        for _ in range(rounds):
            for name, st in zip(settings, steppers):
                runs.append(dict(st.measure(seconds), setting=name))
        http = [_stream_http_version(st.pool) for st in steppers]
    sps = {name: [r["agent_steps_per_sec"] for r in runs if r["setting"] == name] for name in settings}
    med = {name: float(np.median(v)) for name, v in sps.items()}
    cpu: dict[str, dict[str, float | None]] = {}
    for name in settings:
        mine = [r for r in runs if r["setting"] == name]
        rows = sum(r["steps"] * r["rows"] for r in mine)
        cpu[name] = {
            side: None if mine[0][f"{side}_cpu_ms_per_step"] is None else round(sum(r[f"{side}_cpu_ms_per_step"] * r["steps"] for r in mine) / rows * 1e6, 1)
            for side in ("client", "server")
        }
    first, second = settings
    per_round = float(np.median([b / a for a, b in zip(sps[first], sps[second])]))
    extra: dict[str, Any] = {}
    if vary == "transport":
        extra["stream_http_version"] = http[1]
    return {
        **extra,
        "runs": runs,
        "median_agent_steps_per_sec": med,
        f"{second}_over_{first}": round(med[second] / med[first], 3),
        "median_round_ratio": round(per_round, 3),
        "cpu_ns_per_agent_step": cpu,
    }


def main(argv: Sequence[str] | None = None) -> int:
    """The command line entry point."""
    p = argparse.ArgumentParser(prog="python -m botarena.bench", description=__doc__.split("\n\n")[0] if __doc__ else None)
    p.add_argument("--game", default="bomberman", help="registry name [bomberman]")
    p.add_argument("--envs", type=int, default=1024, help="number of envs [1024]")
    p.add_argument("--seconds", type=float, default=10.0, help="measuring time [10]")
    p.add_argument("--backend", choices=["remote", "native"], default="remote", help="where the pool runs [remote]")
    p.add_argument("--batch-size", type=int, default=None, help="step asynchronously in batches of this many envs (send/recv)")
    p.add_argument("--policy-us-per-row", type=float, default=0.0, help="sleep this long per row before each step (a GPU policy)")
    p.add_argument("--address", help="host:port of a running botarena serve (default: start one)")
    p.add_argument("--actions", choices=["masked", "uniform"], default="masked", help="random legal or uniform actions")
    p.add_argument("--transport", choices=["unary", "stream", "both"], default="unary", help="Step RPC, StepStream, or both interleaved")
    p.add_argument("--rounds", type=int, default=3, help="with --transport both or --async-vs-sync: runs of each [3]")
    p.add_argument("--async-vs-sync", action="store_true", help="step and send/recv (--batch-size) interleaved, --rounds each")
    p.add_argument("--workers", type=int, default=0, help="server goroutines for the pool (0: all cores)")
    p.add_argument("--compression", choices=["none", "zstd"], default=None)
    p.add_argument("--protocol", choices=["connect", "grpc"], default="connect", help="how unary Reset/Step travel [connect]")
    p.add_argument("--shared-planes", action="store_true", help="send the channels every seat sees alike once per env")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--config", default="", help="game config as a JSON object, e.g. '{\"players\": 2}'")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    args = p.parse_args(argv)
    config = json.loads(args.config) if args.config else {}
    # The settings run and compare take alike, each the flag of its name.
    shared = ("game", "envs", "seconds", "address", "actions", "seed", "workers", "compression", "backend", "policy_us_per_row", "shared_planes", "protocol")
    common: dict[str, Any] = {k: getattr(args, k) for k in shared}
    if args.transport == "both" or args.async_vs_sync:
        if args.async_vs_sync and args.transport == "both":
            p.error("--async-vs-sync takes one transport")
        if args.async_vs_sync and not args.batch_size:
            p.error("--async-vs-sync needs --batch-size")
        if args.transport == "both" and args.backend != "remote":
            p.error("--transport both compares the remote backend's transports")
        vary = "async" if args.async_vs_sync else "transport"
        extra: dict[str, Any] = {"batch_size": args.batch_size, "transport": args.transport} if args.async_vs_sync else {}
        cmp = compare(args.rounds, vary=vary, **common, **extra, **config)
        if args.json:
            print(json.dumps(cmp))
        else:
            for r in cmp["runs"]:
                print(f"{r['setting']:<6}  {r['agent_steps_per_sec']:>12.1f} agent steps/s  median step {r['median_step_ms']:.3f} ms")
            for t, v in cmp["median_agent_steps_per_sec"].items():
                print(f"median {t:<6}  {v:.1f} agent steps/s")
            ratio = next(k for k in cmp if k.endswith("_over_" + ("sync" if args.async_vs_sync else "unary")))
            print(f"{ratio.replace('_over_', ' / ')}  {cmp[ratio]}  (median of the rounds' own ratios {cmp['median_round_ratio']})")
            if cmp.get("stream_http_version"):
                print(f"stream over HTTP/{'1.1' if cmp['stream_http_version'] == 1 else '2'}")
            for t, c in cmp["cpu_ns_per_agent_step"].items():
                if c["server"] is not None:
                    server = f"server {c['server']:.1f} ns"
                else:
                    server = "the pool's in the client's (native)" if args.backend == "native" else "server unknown (--address)"
                print(f"CPU per agent step, {t:<6}  client {c['client']:.1f} ns  {server}")
        return 0
    res = run(**common, transport=args.transport, batch_size=args.batch_size, **config)
    if args.json:
        print(json.dumps(res))
    else:
        width = max(len(k) for k in res)
        for k, v in res.items():
            print(f"{k:<{width}}  {v}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
