"""ships13: the recorded fleetcheck games (rec/TAG-fleet-*.jsonl, policy seat 0 vs admiral): won, mean rounds,
the most common fleet drawn (cells), and in losses our hits on admiral's 17 cells and the round.  readgames.py TAG"""
import json, glob, sys, collections
K = ["Player1Map", "Player2Map"]
tag = sys.argv[1]
fl = collections.Counter(); wins = collections.Counter(); rounds = []; losses = []; shields = 0; edge = []
for f in sorted(glob.glob(f"rec/{tag}-fleet-*.jsonl")):
    L = [json.loads(l) for l in open(f)]
    st = [x["state"] for x in L if "state" in x][-1]
    N = st["MapDimension"]  # ships14: any map size (10 on 10x10)
    cells = frozenset((c["X"], c["Y"]) for c in st[K[0]]["Cells"] if c["Occupied"])
    won = L[-1]["result"]["winner"] == 0
    fl[cells] += 1; wins[cells] += won; rounds.append(L[-1]["result"]["rounds"])
    edge.append(sum(1 for x, y in cells if x in (0, N - 1) or y in (0, N - 1)))
    shields += sum(1 for x in L[1:-1] if "commands" in x and str(x["commands"][0]).startswith("8"))
    if not won:
        ours = sum(1 for c in st[K[1]]["Cells"] if c["Occupied"] and c["Hit"])
        losses.append(f"{f.rsplit('-', 1)[1][:-6]}: r{L[-1]['result']['rounds']} our hits {ours}/17")
n = len(rounds)
print(f"{tag}: won {sum(wins.values())} of {n}, mean rounds {sum(rounds)/n:.1f}, {len(fl)} distinct cell sets, edge cells {sum(edge)/n:.1f}/17, shields {shields/n:.2f} a game")
for cells, k in fl.most_common(2):
    print(f"fleet drawn {k} times, won {wins[cells]}:")
    print("\n".join("".join("#" if (x, y) in cells else "." for x in range(N)) for y in range(N)))
print("losses:", "; ".join(losses))
