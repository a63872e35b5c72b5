"""``python -m botarena.ray``: leagues and sampling on a Ray cluster.

    python -m botarena.ray league DIR --games N [--address ADDR] [--match ...] [--json]
    python -m botarena.ray servers [--address ADDR]          # print the servers' addresses, keep them up
    python -m botarena.ray sample GAME [--address ADDR] [--actors K] [--envs N] [--steps T]

``--address`` is the Ray cluster's (default: $RAY_ADDRESS, else "auto": the
cluster ``ray start`` made on this machine). ``league`` runs the league's
coordinator here with a ``botarena serve`` on every node (see
:func:`botarena.ray.run_league`); ``servers`` starts them for a
``botarena league run DIR --servers ...`` of your own (it needs
$BOTARENA_AUTH_TOKEN, the token the servers then require and ``league run``
sends); ``sample`` measures distributed sampling in agent-steps per second.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import sys
import threading
from typing import Any


def _init(address: str | None) -> None:
    import ray

    if not ray.is_initialized():
        ray.init(address=address or os.environ.get("RAY_ADDRESS") or "auto", include_dashboard=False, log_to_driver=False)


def _league(args: argparse.Namespace) -> int:
    from botarena.league import LeagueError
    from botarena.ray.league import run_league, start_servers

    _init(args.address)
    with start_servers(per_node=args.servers_per_node, num_cpus=args.num_cpus) as servers:
        print(f"botarena: {len(servers.addresses)} servers: {', '.join(servers.addresses)}", file=sys.stderr, flush=True)
        try:
            run = run_league(
                args.dir,
                args.games,
                servers=servers,
                match=args.match,
                target=args.target,
                workers=args.workers,
                max_rounds=args.max_rounds,
                server_batch=args.server_batch,
                server_window=args.server_window,
                data=args.data,
                progress=lambda line: print(line, file=sys.stderr, flush=True),
            )
        except LeagueError as e:
            print(f"botarena: {e}", file=sys.stderr)
            return 1
    s = run.summary
    if args.json:
        print(json.dumps({**s.__dict__, "servers": [r.__dict__ for r in run.servers]}))
    else:
        print(f"run {s.run}: {s.played} games ({s.skipped} stored before) in {s.seconds:.1f}s")
        for r in run.servers:
            print(f"  {r.address}: {r.games} games" + (f", dropped: {r.error}" if r.error else ""))
    return 0


def _servers(args: argparse.Namespace) -> int:
    from botarena.ray.league import start_servers

    if not os.environ.get("BOTARENA_AUTH_TOKEN", "").strip():
        print(
            "botarena: set BOTARENA_AUTH_TOKEN (openssl rand -hex 32): the servers require it, and "
            "`botarena league run --servers` sends it",
            file=sys.stderr,
        )
        return 2
    _init(args.address)
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    with start_servers(per_node=args.servers_per_node, num_cpus=args.num_cpus) as servers:
        print(",".join(servers.addresses), flush=True)
        try:
            while not stop.wait(1.0):
                pass
        except KeyboardInterrupt:
            pass
    return 0


def _sample(args: argparse.Namespace) -> int:
    from botarena.ray.sampling import RaySampler

    _init(args.address)
    config: dict[str, Any] = json.loads(args.config)
    with RaySampler(
        args.game, num_actors=args.actors, envs_per_actor=args.envs, seed=args.seed, num_cpus=args.num_cpus, **config
    ) as sampler:
        sps = sampler.throughput(args.steps, rounds=args.rounds)
        out = {
            "game": args.game,
            "actors": args.actors,
            "envs_per_actor": args.envs,
            "rows": sampler.rows,
            "nodes": sorted(set(sampler.nodes)),
            "agent_steps_per_second": round(sps),
        }
    print(json.dumps(out))
    return 0


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m botarena.ray", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="cmd", required=True)

    def common(q: argparse.ArgumentParser) -> None:
        q.add_argument("--address", default=None, help="the Ray cluster (default: $RAY_ADDRESS, else auto)")
        q.add_argument("--num-cpus", type=float, default=1, help="CPUs each actor reserves (default 1)")

    q = sub.add_parser("league", help="run a league's games on the cluster's nodes")
    common(q)
    q.add_argument("dir")
    q.add_argument("--games", type=int, required=True)
    q.add_argument("--match", default="round-robin")
    q.add_argument("--target", default=None)
    q.add_argument("--workers", type=int, default=0)
    q.add_argument("--max-rounds", type=int, default=0)
    q.add_argument("--server-batch", type=int, default=0)
    q.add_argument("--server-window", type=int, default=0)
    q.add_argument("--servers-per-node", type=int, default=1)
    q.add_argument("--data", default=None)
    q.add_argument("--json", action="store_true")
    q.set_defaults(run=_league)

    q = sub.add_parser("servers", help="start a botarena serve per node, print their addresses, keep them up")
    common(q)
    q.add_argument("--servers-per-node", type=int, default=1)
    q.set_defaults(run=_servers)

    q = sub.add_parser("sample", help="measure distributed sampling (agent-steps/s)")
    common(q)
    q.add_argument("game")
    q.add_argument("--actors", type=int, default=2)
    q.add_argument("--envs", type=int, default=128, help="envs per actor")
    q.add_argument("--steps", type=int, default=64, help="steps per sample call")
    q.add_argument("--rounds", type=int, default=3)
    q.add_argument("--seed", type=int, default=0)
    q.add_argument("--config", default="{}", help="the game's config as JSON")
    q.set_defaults(run=_sample)

    args = p.parse_args(argv)
    code: int = args.run(args)
    return code


if __name__ == "__main__":
    sys.exit(main())
