"""ships12: our fleets in recorded games (rec/TAG-OPP-*.jsonl; our seat 0 below SEED0+1000, else 1): distinct
fleets, the most common one's count, edge cells of 17, games with two ships touching.  fleets.py TAG OPP SEED0"""
import json, sys, glob, collections
tag, opp, seed0 = sys.argv[1], sys.argv[2], int(sys.argv[3])
KEY = {0: "Player1Map", 1: "Player2Map"}
fl = []; edge = []; touch = 0
for f in sorted(glob.glob(f"rec/{tag}-{opp}-*.jsonl")):
    seed = int(f.rsplit("-", 1)[1].split(".")[0]); seat = 0 if seed < seed0 + 1000 else 1
    L = [json.loads(l) for l in open(f)]
    st = [x["state"] for x in L[1:-1] if x["state"]["Phase"] == 2][0]
    ships = [[(c["X"], c["Y"]) for c in sh["Cells"]] for sh in st[KEY[seat]]["Owner"]["Ships"]]
    N = st["MapDimension"]
    fl.append(tuple(tuple(s) for s in ships))
    cells = [c for s in ships for c in s]
    edge.append(sum(1 for x, y in cells if x in (0, N - 1) or y in (0, N - 1)))
    t = False
    for i in range(5):
        for j in range(i + 1, 5):
            if any(abs(a[0] - b[0]) + abs(a[1] - b[1]) == 1 for a in ships[i] for b in ships[j]): t = True
    touch += t
c = collections.Counter(fl)
print(f"{tag} vs {opp}: {len(c)} distinct fleets of {len(fl)}, the most common {c.most_common(1)[0][1]}, edge cells {sum(edge)/len(edge):.1f}/17, touching {touch}/{len(fl)}")
