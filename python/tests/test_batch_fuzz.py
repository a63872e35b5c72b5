"""Corrupted Reset/Step responses never crash the client: each decodes or raises MalformedResponseError.

Real responses of a started server (several games, the shared form, zstd,
same-step final batches) are mutated a few thousand times, deterministically
(seeded): bytes set or flipped, 4-byte words overwritten with edge values,
the message cut short, bytes inserted or removed, mostly in the protobuf
and Arrow headers. Each one is parsed and decoded as the pool does, and
every array read. The mutations run in a subprocess, so that a segfault
(the client once read outside a message whose lengths lied) fails the test
instead of killing pytest.
"""

from __future__ import annotations

import json
import pickle
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np

MUTATIONS = 4000
EDGE_WORDS = (0, 1, 0x7F, 0x80, 0xFF, 0x7FFF_FFFF, 0x8000_0000, 0xFFFF_FFFF, 0xFFFF_FFF8, 0x1000_0000)


def mutate(raw: bytes, rng: np.random.Generator) -> bytes:
    """One mutation of raw: one to four edits of one kind, mostly within the first 600 bytes."""
    b = bytearray(raw)
    kind = int(rng.integers(6))
    for _ in range(int(rng.integers(1, 5))):
        n = len(b)
        if n < 16:
            break
        head = min(n, 600)
        if kind == 0:  # a byte set
            b[int(rng.integers(head))] = int(rng.integers(256))
        elif kind == 1:  # a bit flipped, anywhere
            b[int(rng.integers(n))] ^= 1 << int(rng.integers(8))
        elif kind == 2:  # cut short
            del b[int(rng.integers(1, n)) :]
        elif kind == 3:  # a little-endian word set to an edge value
            i = int(rng.integers(head - 4))
            b[i : i + 4] = int(EDGE_WORDS[int(rng.integers(len(EDGE_WORDS)))]).to_bytes(4, "little")
        elif kind == 4:  # bytes inserted
            i = int(rng.integers(head))
            b[i:i] = bytes(rng.integers(0, 256, int(rng.integers(1, 9)), dtype=np.uint8))
        else:  # bytes removed
            i = int(rng.integers(head))
            del b[i : i + int(rng.integers(1, 9))]
    return bytes(b)


def run(path: str, seed: int, count: int) -> None:
    """The subprocess: count mutations from seed; prints the outcomes; raises on any other error."""
    from botarena.batch import BatchDecoder, parse_step_message
    from botarena.errors import MalformedResponseError

    with open(path, "rb") as f:
        pools: list[tuple[bytes, int, list[bytes]]] = pickle.load(f)
    decoders = [BatchDecoder(schema) for schema, _, _ in pools]
    outcomes = {"decoded": 0, "refused": 0}
    for k in range(seed, seed + count):
        rng = np.random.default_rng(k)
        p = int(rng.integers(len(pools)))
        _, rows, msgs = pools[p]
        raw = mutate(msgs[int(rng.integers(len(msgs)))], rng)
        # As the Connect transport: a numpy buffer (8-aligned), parsed then decoded.
        buf = np.empty(len(raw), dtype=np.uint8)
        buf[:] = np.frombuffer(raw, dtype=np.uint8)
        try:
            msg = parse_step_message(buf)
            if msg.batch is None:
                raise MalformedResponseError("no batch")
            total = 0.0
            for part in (msg.batch, msg.final_batch):
                if part is None:
                    continue
                b = decoders[p].decode(part, rows)
                for a in (*b.obs.values(), b.mask, b.reward, b.terminated, b.truncated, b.env, b.seat, b.episode):
                    total += float(np.asarray(a).sum(dtype=np.float64))
            if msg.ended is not None:
                total += float(np.frombuffer(msg.ended, dtype=np.uint8).sum())
            outcomes["decoded"] += 1
        except MalformedResponseError:
            outcomes["refused"] += 1
        except Exception as e:
            raise AssertionError(f"mutation {k}: {type(e).__name__}: {e}, not MalformedResponseError") from e
    print(json.dumps(outcomes), flush=True)


def _responses(client: Any) -> list[tuple[bytes, int, list[bytes]]]:
    """(schema, rows, responses) of a few pools: a reset and steps, some with final batches."""
    out = []
    for game, envs, kw in [
        ("battlebots", 3, {"autoreset": "same_step"}),
        ("bomberman", 4, {"shared_planes": True, "autoreset": "same_step"}),
        ("battlebots", 2, {"compression": "zstd"}),
        ("battleships/small", 2, {}),
    ]:
        resp = client.create_pool(game, envs, seed=1, **kw)
        try:
            msgs = [bytes(client.reset(resp.pool_id).raw)]
            rng = np.random.default_rng(0)
            finals = 0
            for i in range(300):
                m = client.step(resp.pool_id, rng.integers(0, resp.spec.actions, resp.rows, dtype="<i4").tobytes())
                if i % 60 == 0 or (m.final_batch is not None and finals < 3):
                    finals += m.final_batch is not None
                    msgs.append(bytes(m.raw))
            out.append((bytes(resp.arrow_schema), int(resp.rows), msgs))
        finally:
            client.close_pool(resp.pool_id)
    return out


def test_mutated_responses_decode_or_raise_malformed_response_error(client: Any, tmp_path: Path) -> None:
    path = tmp_path / "responses.pickle"
    path.write_bytes(pickle.dumps(_responses(client)))
    proc = subprocess.run(
        [sys.executable, __file__, str(path), "0", str(MUTATIONS)], capture_output=True, text=True, timeout=600
    )
    assert proc.returncode == 0, f"the decoding process ended with status {proc.returncode} (-11: a segfault):\n{proc.stdout}{proc.stderr[-3000:]}"
    outcomes = json.loads(proc.stdout.strip().splitlines()[-1])
    assert outcomes["decoded"] + outcomes["refused"] == MUTATIONS
    assert outcomes["refused"] > MUTATIONS // 4, outcomes  # the mutations do hit the headers


if __name__ == "__main__":
    run(sys.argv[1], int(sys.argv[2]), int(sys.argv[3]))
