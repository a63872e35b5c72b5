"""The warden's seat-0 opening decisions with their counter-cases, as imitation match data for
`botarena.train --resume auto --imitate warden --imitate-coef C` (issue 34, helper bots5).

Plays 4-round bouts (config {"hp_reward": 0.1, "max_rounds": 4}) against duelist, gambit, warden and
the seat0 and gambit policies (sampling), in OUT/imitation/vs_KK (the warden's own games) and
OUT/imitation/dagger/round_RR/vs_KK (each student in STUDENTS plays, sampling, the warden labels its
states: dagger:warden:policy:STUDENT?sample). Then keeps only the seat-0 rows of rounds 0 to $LAST_ROUND
(default 2: the opening, and the boards where the warden does not wait: something in flight, the enemy
elsewhere; branch C used 3, the round after the opening bullet) and rescales the round fraction from
round/4 to round/1000, the fraction those rounds show in a full bout.
Usage: [LAST_ROUND=3] opening_data.py OUT GAMES STUDENT [STUDENT ...]
"""
import pathlib
import sys

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from botarena.server import find_binary
from botarena.train.imitate import record_demonstrations

out, games, students = pathlib.Path(sys.argv[1]), int(sys.argv[2]), sys.argv[3:]
P = pathlib.Path("../policies").absolute()
OPPONENTS = ["duelist", "gambit", "warden", f"policy:{P}/battlebots-seat0.policy.safetensors?sample",
             f"policy:{P}/battlebots-gambit.policy.safetensors?sample"]
CFG = {"hp_reward": 0.1, "max_rounds": 4}
ROUNDS = 4
LAST = int(__import__("os").environ.get("LAST_ROUND", "2"))  # the last round kept


def keep_opening(folder: pathlib.Path) -> tuple[int, int]:
    kept = total = 0
    for f in sorted(folder.rglob("*.parquet")):
        t = pq.read_table(f)
        total += len(t)
        t = t.filter(pc.and_(pc.equal(t["seat"], 0), pc.less_equal(t["step"], LAST)))
        col = t["scalars"].combine_chunks()
        x = col.flatten().to_numpy(zero_copy_only=False).astype(np.float32).reshape(-1, col.type.list_size).copy()
        x[:, 3] *= ROUNDS / 1000  # round/4 -> round/1000
        arr = pa.FixedSizeListArray.from_arrays(pa.array(x.reshape(-1), type=col.type.value_type), type=col.type)
        t = t.set_column(t.schema.get_field_index("scalars"), t.schema.field("scalars"), arr)
        pq.write_table(t, f)
        kept += len(t)
    return kept, total


teachers = [("warden", out / "imitation")] + [
    (f"dagger:warden:policy:{pathlib.Path(s).absolute()}?sample", out / "imitation" / "dagger" / f"round_{r:02d}")
    for r, s in enumerate(students, 1)
]
for k, (teacher, root) in enumerate(teachers):
    for i, opp in enumerate(OPPONENTS):
        where = root / f"vs_{i:02d}"
        if (where / "data").is_dir():
            continue
        record_demonstrations(find_binary(), "battlebots", teacher, opp, games, where, seed=8800 + 97 * k + i, config=CFG)
        kept, total = keep_opening(where / "data")
        print(f"{teacher} vs {opp}: kept {kept} of {total} rows (seat 0, rounds 0-2)", flush=True)
