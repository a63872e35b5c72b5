"""The Go pool, Python's native backend and Python's remote backend, interleaved in one run.

    .venv/bin/python bench/backends.py --bin bin/botarena --rounds 3 --seconds 5

Each round measures, one after the other, for every game: the Go pool alone
(``botarena bench``), the native backend (the Go pool in this Python process,
``python -m botarena.bench --backend native``) and the remote backend (a
local ``botarena serve``, unary Step), all stepping every seat of 1024 envs
with uniformly random actions on the same number of workers; the native
backend async (``--async-batch``), alone and with a simulated policy that
sleeps ``--policy-us`` per row (a GPU forward pass: sync adds it to the step,
async overlaps the two); then the median step of one env from Python on both
backends. Interleaving (A, B, C,
A, B, C, ...) spreads the noise of a shared machine over every figure; the
table reports each figure's median and range over the rounds, and the native
backend's share of the Go pool's agent-steps/s within each round.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import statistics
import subprocess
import sys
from typing import Any

from botarena import bench
from botarena.server import Server


def go_pool(binary: str, game: str, envs: int, seconds: float, workers: int) -> float:
    out = subprocess.run(
        [binary, "bench", "--game", game, "--envs", str(envs), "--workers", str(workers), "--seconds", str(seconds), "--json"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    return float(json.loads(out.splitlines()[-1])["agent_steps_per_sec"])


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    p.add_argument("--bin", default="bin/botarena", help="the botarena binary (go build -o bin/botarena ./cmd/botarena)")
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--seconds", type=float, default=5.0, help="measured seconds per figure")
    p.add_argument("--envs", type=int, default=1024)
    p.add_argument("--workers", type=int, default=0, help="pool workers (0: all cores)")
    p.add_argument("--games", default="bomberman,battlebots")
    p.add_argument("--async-batch", type=int, default=256, help="batch size of the native async figure (0: none)")
    p.add_argument("--policy-us", type=float, default=1.0, help="simulated policy time per row for the policy figures (0: none)")
    p.add_argument("--json", help="also write every measurement to this JSON Lines file")
    args = p.parse_args()
    games = args.games.split(",")
    rows: list[dict[str, Any]] = []
    with Server(binary=args.bin) as server:
        for r in range(args.rounds):
            for game in games:
                common = dict(seconds=args.seconds, actions="uniform", workers=args.workers, seed=r + 1)
                fig: dict[str, Any] = {"round": r, "game": game}
                fig["go"] = go_pool(args.bin, game, args.envs, args.seconds, args.workers)
                fig["native"] = bench.run(game, args.envs, backend="native", **common)["agent_steps_per_sec"]  # type: ignore[arg-type]
                fig["remote"] = bench.run(game, args.envs, backend="remote", address=server.address, **common)["agent_steps_per_sec"]  # type: ignore[arg-type]
                if args.async_batch:
                    fig["native_async"] = bench.run(game, args.envs, backend="native", batch_size=args.async_batch, **common)["agent_steps_per_sec"]  # type: ignore[arg-type]
                if args.async_batch and args.policy_us:
                    # A policy that sleeps (a GPU forward pass): sync adds it to the step, async overlaps them.
                    pol = dict(common, policy_us_per_row=args.policy_us)
                    fig["native_policy"] = bench.run(game, args.envs, backend="native", **pol)["agent_steps_per_sec"]  # type: ignore[arg-type]
                    fig["native_async_policy"] = bench.run(game, args.envs, backend="native", batch_size=args.async_batch, **pol)["agent_steps_per_sec"]  # type: ignore[arg-type]
                one = dict(seconds=min(args.seconds, 3.0), actions="uniform", seed=r + 1)
                fig["native_1env_us"] = 1e3 * bench.run(game, 1, backend="native", **one)["median_step_ms"]  # type: ignore[arg-type]
                fig["remote_1env_us"] = 1e3 * bench.run(game, 1, backend="remote", address=server.address, transport="stream", **one)["median_step_ms"]  # type: ignore[arg-type]
                fig["native_share"] = fig["native"] / fig["go"]
                print(json.dumps(fig), flush=True)
                rows.append(fig)
    if args.json:
        with open(args.json, "w") as f:
            meta = {"date": datetime.date.today().isoformat(), "machine": platform.machine(), "cpus": os.cpu_count(), "python": platform.python_version(), "envs": args.envs}
            f.write(json.dumps({"meta": meta}) + "\n")
            for row in rows:
                f.write(json.dumps(row) + "\n")
    print()
    print(f"| game | figure | median | range ({args.rounds} rounds) |")
    print("| --- | --- | --- | --- |")
    for game in games:
        for key in ["go", "native", "native_async", "remote", "native_share", "native_policy", "native_async_policy", "native_1env_us", "remote_1env_us"]:
            vals = [row[key] for row in rows if row["game"] == game and key in row]
            if not vals:
                continue
            fmt = (lambda v: f"{v:.0%}") if key == "native_share" else (lambda v: f"{v:.1f}") if key.endswith("_us") else (lambda v: f"{v / 1e6:.2f}M")
            print(f"| {game} | {key} | {fmt(statistics.median(vals))} | {fmt(min(vals))}–{fmt(max(vals))} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
