"""Rescales the round-fraction scalar (scalars[3] = round / max_rounds) of the imitation match data under
DIR from 3-round bouts to the 1000-round bouts of PPO (× 3/1000), so that the warden's opening decisions
are stored with the observation a full-length bout shows in rounds 0-2."""
import sys, pathlib
import numpy as np, pyarrow as pa, pyarrow.parquet as pq
root, old, new = pathlib.Path(sys.argv[1]), float(sys.argv[2]), float(sys.argv[3])
seen = set()
for f in sorted(root.rglob("*.parquet")):
    t = pq.read_table(f)
    col = t["scalars"].combine_chunks()
    width = col.type.list_size
    x = col.flatten().to_numpy(zero_copy_only=False).astype(np.float32).reshape(-1, width).copy()
    seen.update(np.round(x[:, 3], 4).tolist())
    x[:, 3] *= old / new  # round/old -> round/new
    arr = pa.FixedSizeListArray.from_arrays(pa.array(x.reshape(-1), type=col.type.value_type), type=col.type)
    t = t.set_column(t.schema.get_field_index("scalars"), t.schema.field("scalars"), arr)
    pq.write_table(t, f)
print("files rescaled under", root, "; round fractions before:", sorted(seen))
