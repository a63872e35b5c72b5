"""ships13: fleets of recorded games (rec/TAG-fleet-*.jsonl, seat 0) grouped by shape up to the board's 8 symmetries:
for each shape, the games and the distinct orientations used.  shapes.py TAG"""
import json, glob, sys, collections
N = 10  # ships14: set from each game's MapDimension below (any map size)
T = [lambda x, y: (x, y), lambda x, y: (N-1-x, y), lambda x, y: (x, N-1-y), lambda x, y: (N-1-x, N-1-y),
     lambda x, y: (y, x), lambda x, y: (N-1-y, x), lambda x, y: (y, N-1-x), lambda x, y: (N-1-y, N-1-x)]
by = collections.defaultdict(collections.Counter)
for f in glob.glob(f"rec/{sys.argv[1]}-fleet-*.jsonl"):
    L = [json.loads(l) for l in open(f)]
    st = [x["state"] for x in L if "state" in x][-1]
    N = st["MapDimension"]
    cells = frozenset((c["X"], c["Y"]) for c in st["Player1Map"]["Cells"] if c["Occupied"])
    canon = min(tuple(sorted(t(x, y) for x, y in cells)) for t in T)
    by[canon][cells] += 1
rows = sorted(by.values(), key=lambda c: -sum(c.values()))
print(f"{sys.argv[1]}: {len(rows)} shapes (cell sets up to symmetry) in {sum(sum(c.values()) for c in rows)} games; top: " +
      ", ".join(f"{sum(c.values())} games in {len(c)} orientations" for c in rows[:4]))
