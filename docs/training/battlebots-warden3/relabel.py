"""Relabels the warden3 imitation data under DIR: where the warden's seat-0 opening fires (round 0; round 1
on a quiet board, nothing in flight, no paralysis, itself on (2,2) and the enemy on (7,7); round 2, the
same with the enemy on (6,6)) the label stays the warden's (SE, wait, bullet SE); on every other board the
label becomes battlebots-seat0's arg-max over the legal actions, so that the imitation term keeps the
opening where the warden plays it and holds the baseline's own play on the boards where the warden does not
(the counter-cases, which the warden2 run's student waited on).
Usage: relabel.py DIR POLICY [opening|path]; "path" (branch C) keeps the warden's label in round 0 and on
every board where the student stands on (2,2), the cell the opening waits and fires from."""
import pathlib
import sys

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq
import torch

from botarena.policy import load_policy

root, policy = pathlib.Path(sys.argv[1]), sys.argv[2]
RULE = sys.argv[3] if len(sys.argv) > 3 else "opening"  # "opening" (branch B) or "path" (branch C)
net = load_policy(policy).eval()
kept = changed = total = 0
for f in sorted(root.rglob("*.parquet")):
    t = pq.read_table(f)
    n = len(t)
    planes = t["planes"].combine_chunks().flatten().to_numpy(zero_copy_only=False).reshape(n, 19, 10, 10)
    scalars = t["scalars"].combine_chunks().flatten().to_numpy(zero_copy_only=False).reshape(n, 4).astype(np.float32)
    mask = t["mask"].combine_chunks().flatten().to_numpy(zero_copy_only=False).reshape(n, 34)
    step = t["step"].to_numpy()
    label = t["label"].to_numpy().copy()
    teacher = t["agent"].to_numpy(zero_copy_only=False) == "teacher"
    quiet = (planes[:, 2:18].reshape(n, -1).sum(1) == 0) & (scalars[:, 2] == 0)
    me22 = planes[:, 0, 2, 2] > 0
    if RULE == "path":
        # the warden's path: round 0, and every board with the student on (2,2), the cell the opening
        # waits and fires from (rounds 1-3: the wait, the bullet, and the step out of the diagonal or
        # the dodge of a missile that follows them)
        fired = (step == 0) | me22
    else:
        fired = (step == 0) | (quiet & me22 & (((step == 1) & (planes[:, 1, 7, 7] > 0)) | ((step == 2) & (planes[:, 1, 6, 6] > 0))))
    with torch.no_grad():
        logits, _ = net(torch.from_numpy(planes.copy()), torch.from_numpy(scalars))
        lp = net.log_probs(logits, torch.from_numpy(mask.astype(np.uint8)))
        base = lp.argmax(1).numpy()
    swap = teacher & ~fired
    total += int(teacher.sum())
    kept += int((teacher & fired).sum())
    changed += int((swap & (base != label)).sum())
    label[swap] = base[swap]
    t = t.set_column(t.schema.get_field_index("label"), t.schema.field("label"), pa.array(label.astype(np.int32), type=pa.int32()))
    pq.write_table(t, f)
print(f"{total} teacher rows: the warden's opening kept on {kept}; battlebots-seat0's arg-max on the other {total - kept}, "
      f"{changed} of them different from the warden's label")
