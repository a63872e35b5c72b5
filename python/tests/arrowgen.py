"""Builds step-batch messages with pyarrow in the schema the Go server writes
(observations/doc.go), for tests that do not need a server."""

from __future__ import annotations

import json
from typing import Any

import numpy as np
import pyarrow as pa

PLANES = (12, 21, 21)
SCALARS = (8,)
ACTIONS = 7
NAMES = ["nothing", "up", "left", "right", "down", "bomb", "trigger"]


def schema(seats: int = 4) -> pa.Schema:
    def tensor(name: str, typ: pa.DataType, shape: tuple[int, ...], dtype: str) -> pa.Field:
        size = int(np.prod(shape))
        md = {"shape": json.dumps(list(shape)).replace(" ", ""), "dtype": dtype, "layout": f"{name} layout"}
        return pa.field(name, pa.list_(pa.field("item", typ, nullable=False), size), nullable=False, metadata=md)

    fields = [
        tensor("planes", pa.uint8(), PLANES, "uint8"),
        tensor("scalars", pa.float32(), SCALARS, "float32"),
        tensor("mask", pa.uint8(), (ACTIONS,), "uint8"),
        pa.field("reward", pa.float32(), nullable=False),
        pa.field("terminated", pa.bool_(), nullable=False),
        pa.field("truncated", pa.bool_(), nullable=False),
        pa.field("env", pa.int32(), nullable=False),
        pa.field("seat", pa.int32(), nullable=False),
        pa.field("episode", pa.int32(), nullable=False),
    ]
    md = {
        "game": "bomberman",
        "seats": str(seats),
        "actions": str(ACTIONS),
        "action_names": json.dumps(NAMES),
        "max_steps": "442",
        "reward": "+1 win, -1 loss",
    }
    return pa.schema(fields, metadata=md)


def arrays(rows: int, seed: int = 0) -> dict[str, Any]:
    rng = np.random.default_rng(seed)
    return {
        "planes": rng.integers(0, 5, (rows, *PLANES), dtype=np.uint8),
        "scalars": rng.random((rows, *SCALARS), dtype=np.float32),
        "mask": rng.integers(0, 2, (rows, ACTIONS), dtype=np.uint8),
        "reward": rng.random(rows, dtype=np.float32),
        "terminated": rng.random(rows) < 0.3,
        "truncated": rng.random(rows) < 0.3,
        "env": (np.arange(rows) // 4).astype(np.int32),
        "seat": (np.arange(rows) % 4).astype(np.int32),
        "episode": rng.integers(0, 3, rows, dtype=np.int32),
    }


def batch_message(s: pa.Schema, a: dict[str, Any], compression: str | None = None) -> bytes:
    cols = []
    for f in s:
        v = a[f.name]
        if pa.types.is_fixed_size_list(f.type):
            flat = pa.array(v.reshape(-1), type=f.type.value_type)
            cols.append(pa.FixedSizeListArray.from_arrays(flat, type=f.type))
        else:
            cols.append(pa.array(v, type=f.type))
    rb = pa.RecordBatch.from_arrays(cols, schema=s)
    if compression is None:
        return bytes(rb.serialize().to_pybytes())
    sink = pa.BufferOutputStream()
    with pa.ipc.new_stream(sink, s, options=pa.ipc.IpcWriteOptions(compression=compression)) as w:
        w.write_batch(rb)
    reader = pa.ipc.MessageReader.open_stream(sink.getvalue())
    reader.read_next_message()  # the schema
    return bytes(reader.read_next_message().serialize().to_pybytes())


def schema_message(s: pa.Schema) -> bytes:
    return bytes(s.serialize().to_pybytes())
