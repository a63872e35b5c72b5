"""ships11: win rate by the policy's own fleet in recorded games: fleetwins.py GLOB"""
import json, glob, sys, collections
by = collections.defaultdict(lambda: [0, 0, []])
for f in sorted(glob.glob(sys.argv[1])):
    L = [json.loads(l) for l in open(f)]
    h = L[0]; seat = [i for i, a in enumerate(h["agents"]) if a.startswith("policy:")][0]
    res = L[-1]["result"]; st = [x for x in L if "state" in x][-1]["state"]
    m = st["Player1Map" if seat == 0 else "Player2Map"]
    fleet = tuple(sorted((c["X"], c["Y"]) for c in m["Cells"] if c["Occupied"]))
    b = by[fleet]; b[0] += 1; b[1] += res["winner"] == seat; b[2].append(res["rounds"] if res["winner"] != seat else None)
rows = sorted(by.items(), key=lambda kv: -kv[1][0])
print(f"{len(rows)} distinct fleets in {sum(v[0] for v in by.values())} games")
for k, (n, w, r) in rows[:8]:
    print(f"  fleet played {n}, won {w}; cells {k[:6]}...")
rest = [v for k, v in rows[8:]]
print(f"  the other fleets: {sum(v[0] for v in rest)} games, won {sum(v[1] for v in rest)}")
