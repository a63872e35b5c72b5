"""Keeps, in the imitation match data under DIR, only the warden's seat-0 opening decisions: round 0 SE,
round 1 "nothing" (the wait), round 2 bullet SE, the rows whose label (the warden's choice) is the
opening's action for that round; the warden's other early decisions (its cautious duelist, which the
network fits at about 45%) are dropped, so that the imitation term can be met in full and then pulls
only when PPO drifts from the opening."""
import sys, pathlib
import pyarrow.compute as pc, pyarrow.parquet as pq
OPENING = {0: 4, 1: 0, 2: 12}  # step -> action: SE, NO, B SE (env/battlebots/actionkinds.go's order)
root = pathlib.Path(sys.argv[1])
kept = {k: 0 for k in OPENING}
total = 0
for f in sorted(root.rglob("*.parquet")):
    t = pq.read_table(f)
    total += int(pc.sum(pc.equal(t["agent"], "teacher")).as_py() or 0)
    keep = pc.and_(pc.equal(t["agent"], "teacher"), pc.equal(t["seat"], 0))
    opening = None
    for step, act in OPENING.items():
        m = pc.and_(pc.equal(t["step"], step), pc.equal(t["label"], act))
        opening = m if opening is None else pc.or_(opening, m)
    t = t.filter(pc.and_(keep, opening))
    for step in OPENING:
        kept[step] += int(pc.sum(pc.equal(t["step"], step)).as_py() or 0)
    pq.write_table(t, f)
print(f"kept {sum(kept.values())} of {total} teacher rows under {root}: by round {kept}")
