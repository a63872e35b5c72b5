"""Reads the schema message and batch messages an observations.Encoder wrote
and checks them against the raw buffers, the way the Python client will:
pa.ipc.read_schema, pa.ipc.read_record_batch, numpy views without copies.

Usage: read_batches.py DIR, where DIR holds schema.arrow, and for each batch
k: batch<k>.arrow and the raw expected arrays batch<k>.<column>.bin.
Prints one line of JSON on success; exits non-zero on a mismatch.
"""

import json
import pathlib
import sys

import numpy as np
import pyarrow as pa


def main(d):
    d = pathlib.Path(d)
    schema = pa.ipc.read_schema(pa.py_buffer(d.joinpath("schema.arrow").read_bytes()))
    md = {k.decode(): v.decode() for k, v in schema.metadata.items()}
    seats, actions = int(md["seats"]), int(md["actions"])
    tensors = [f for f in schema if f.metadata and b"shape" in f.metadata and f.name != "mask"]
    checked = []
    for path in sorted(d.glob("batch*.arrow")):
        k = path.stem
        buf = pa.py_buffer(path.read_bytes())
        batch = pa.ipc.read_record_batch(buf, schema)
        rows = batch.num_rows

        def expect(name, dtype):
            return np.fromfile(d / f"{k}.{name}.bin", dtype=dtype)

        for f in tensors + [schema.field("mask")]:
            shape = json.loads(f.metadata[b"shape"])
            dtype = np.dtype(f.metadata[b"dtype"].decode())
            col = batch.column(f.name)
            values = col.values.to_numpy(zero_copy_only=True)
            arr = values.reshape((rows, *shape))
            want = expect(f.name, dtype).reshape((rows, *shape))
            if not np.array_equal(arr, want):
                sys.exit(f"{k}: column {f.name} differs")
        for name, dtype in [("reward", np.float32), ("env", np.int32), ("seat", np.int32), ("episode", np.int32)]:
            got = batch.column(name).to_numpy(zero_copy_only=True)
            if got.dtype != dtype or not np.array_equal(got, expect(name, dtype)):
                sys.exit(f"{k}: column {name} differs")
        for name in ["terminated", "truncated"]:
            got = batch.column(name).to_numpy(zero_copy_only=False)
            if not np.array_equal(got, expect(name, np.uint8).astype(bool)):
                sys.exit(f"{k}: column {name} differs")
        checked.append({"batch": k, "rows": rows, "bytes": buf.size})
    print(json.dumps({"pyarrow": pa.__version__, "game": md["game"], "seats": seats, "actions": actions, "batches": checked}))


if __name__ == "__main__":
    main(sys.argv[1])
