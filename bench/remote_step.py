"""Interleaved Python-over-RPC throughput of one or more botarena builds.

Each build is a ``LABEL=BINARY:PYTHONPATH`` triple: a ``botarena`` binary and
the ``python/src`` of the same checkout. For every round, every build and
every case, the script starts the build's ``botarena serve`` on loopback,
runs ``python -m botarena.bench`` against it with that build's package, and
reads the server's heap allocations and served steps from ``/metrics``
(``go_memstats_alloc_bytes_total``, ``botarena_steps_total``) around the
run, so that it reports the bytes the server allocated per step (pool
creation included, so an upper bound). One JSON line per run::

    python bench/remote_step.py --rounds 3 --seconds 6 \\
        before=/tmp/base-botarena:/tmp/base/python/src \\
        after=bin/botarena:python/src

Cases: Bomberman and BattleBots at 1024 envs (every seat a learner), one
Bomberman env unary and streamed; with ``--extra``, the after-only options
(``--shared-planes``, ``--protocol grpc``) for builds that have them.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import secrets
import socket
import subprocess
import sys
import time
import urllib.request

CASES = [
    ("bomberman-1024", ["--game", "bomberman", "--envs", "1024"]),
    ("battlebots-1024", ["--game", "battlebots", "--envs", "1024"]),
    ("bomberman-1-unary", ["--game", "bomberman", "--envs", "1"]),
    ("bomberman-1-stream", ["--game", "bomberman", "--envs", "1", "--transport", "stream"]),
]
EXTRA = [
    ("bomberman-1024-shared", ["--game", "bomberman", "--envs", "1024", "--shared-planes"]),
    ("battlebots-1024-shared", ["--game", "battlebots", "--envs", "1024", "--shared-planes"]),
    ("bomberman-1024-grpc", ["--game", "bomberman", "--envs", "1024", "--protocol", "grpc"]),
]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def metrics(address: str, token: str) -> tuple[float, float]:
    """The server's heap bytes allocated so far and the Step calls it has served."""
    req = urllib.request.Request(f"http://{address}/metrics", headers={"Authorization": f"Bearer {token}"})
    with urllib.request.urlopen(req, timeout=10) as r:
        text = r.read().decode()
    out = []
    for name in ("go_memstats_alloc_bytes_total", "botarena_steps_total"):
        m = re.search(rf"^{name} ([0-9.e+]+)$", text, re.M)
        out.append(float(m.group(1)) if m else 0.0)
    return out[0], out[1]


def run(label: str, binary: str, pythonpath: str, case: str, args: list[str], seconds: float) -> dict[str, object]:
    address = f"127.0.0.1:{free_port()}"
    # Like every server botarena starts, this one has a token (by the
    # environment, never on the command line), which the bench client
    # reads from $BOTARENA_AUTH_TOKEN.
    env = {**os.environ, "PYTHONPATH": pythonpath, "BOTARENA_AUTH_TOKEN": secrets.token_urlsafe(32)}
    token = env["BOTARENA_AUTH_TOKEN"]
    server = subprocess.Popen([binary, "serve", "--addr", address], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                before, steps_before = metrics(address, token)
                break
            except OSError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.1)
        out = subprocess.run(
            [sys.executable, "-m", "botarena.bench", "--address", address, "--seconds", str(seconds), "--json", *args],
            env=env, capture_output=True, text=True, check=True,
        ).stdout
        res = json.loads(out.strip().splitlines()[-1])
        after, steps_after = metrics(address, token)
        # Everything the server allocated while the bench ran (pool
        # creation and warm-up included) over the steps it served.
        res["server_alloc_bytes_per_step"] = round((after - before) / max(1.0, steps_after - steps_before))
        res.update(label=label, case=case)
        return res
    finally:
        server.terminate()
        server.wait(10)


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("builds", nargs="+", help="LABEL=BINARY:PYTHONPATH")
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--seconds", type=float, default=6.0)
    p.add_argument("--extra", action="append", default=[], help="LABEL that also runs the after-only cases")
    p.add_argument("--cases", default="", help="comma-separated case names to run (default all)")
    a = p.parse_args()
    builds = []
    for b in a.builds:
        label, _, rest = b.partition("=")
        binary, _, pythonpath = rest.partition(":")
        builds.append((label, binary, pythonpath))
    only = set(filter(None, a.cases.split(",")))
    for _ in range(a.rounds):
        for case, args in CASES + EXTRA:
            if only and case not in only:
                continue
            for label, binary, pythonpath in builds:
                if (case, args) in EXTRA and label not in a.extra:
                    continue
                print(json.dumps(run(label, binary, pythonpath, case, args, a.seconds)), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
