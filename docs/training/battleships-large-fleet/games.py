"""ships14: the recorded fleetcheck games (rec/TAG-fleet-*.jsonl, the policy in seat 0 against admiral), one line a game:
won, rounds, the rounds of our / admiral's 9th, 15th and 17th hit, our commands by kind (single, double, other
special, shield with its rounds), energy left at the end, hits each way at the end.  games.py TAG"""
import json, glob, sys, collections
K = ["Player1Map", "Player2Map"]
KIND = {"1": "single", "2": "double", "3": "double", "4": "other", "5": "other", "6": "other", "7": "seeker", "8": "shield"}
tot = collections.Counter(); n = 0
for f in sorted(glob.glob(f"rec/{sys.argv[1]}-fleet-*.jsonl")):
    L = [json.loads(l) for l in open(f)]
    won = L[-1]["result"]["winner"] == 0; rounds = L[-1]["result"]["rounds"]
    first = {0: {}, 1: {}}; kinds = collections.Counter(); shield_rounds = []; last = None
    for x in L[1:-1]:
        st = x["state"]; last = st
        if st["Phase"] != 2:
            continue
        for s in (0, 1):
            h = sum(1 for c in st[K[1 - s]]["Cells"] if c["Occupied"] and c["Hit"])
            for k in (9, 15, 17):
                if h >= k and k not in first[s]:
                    first[s][k] = st["Round"]
        if "commands" in x:
            c = str(x["commands"][0]); k = KIND.get(c.split(",")[0], "nothing" if c in ("", "nothing") else c.split(",")[0])
            kinds[k] += 1
            if k == "shield":
                shield_rounds.append(st["Round"])
    ours = sum(1 for c in last[K[1]]["Cells"] if c["Occupied"] and c["Hit"]); theirs = sum(1 for c in last[K[0]]["Cells"] if c["Occupied"] and c["Hit"])
    en = last[K[0]]["Owner"]["Energy"]
    tot.update(kinds); n += 1
    hit = lambda s: "/".join(str(first[s].get(k, "-")) for k in (9, 15, 17))
    print(f"{f.rsplit('-', 1)[1][:-6]} {'won ' if won else 'LOST'} r{rounds:3d}  9th/15th/17th hit ours {hit(0):11s} admiral's {hit(1):11s}"
          f" hits {ours:2d}-{theirs:2d}  single {kinds['single']:2d} double {kinds['double']} other {kinds['other']} seeker {kinds['seeker']} shield {shield_rounds} energy left {en}")
print(f"{n} games: " + ", ".join(f"{k} {v / n:.2f}" for k, v in sorted(tot.items())) + " a game")
