"""ships13: the gauntlet JSONs (gauntlet/NAME-OPP-SEED.json) as a markdown table, each pairing pooled over its seeds
with a Wilson 95% interval, and behaviour figures (actions a game by kind, mean rounds, distinct endings).  table.py DIR"""
import json, glob, sys, collections, math
def wilson(w, n, z=1.96):
    p = w / n; d = 1 + z * z / n; c = p + z * z / (2 * n); h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    return 100 * (c - h) / d, 100 * (c + h) / d
rows = collections.defaultdict(list)
for f in sorted(glob.glob(sys.argv[1] + "/*-*-*.json")):
    name, opp, seed = f.rsplit("/", 1)[1][:-5].split("-")
    try:
        rows[(name, opp)].append((seed, json.load(open(f))))
    except ValueError:  # a tournament still running
        continue
print("| agent | opponent | seeds | W/D/L | win rate [95%] | per seed | wins seated first / second | singles / doubles / other specials / shields a game | mean rounds | distinct endings |")
print("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |")
for (name, opp), L in rows.items():
    if not L:
        continue
    W = D = Lo = 0; per = []; s0 = s1 = 0; act = collections.Counter(); n = 0; rounds = 0; ends = 0
    for seed, d in L:
        p = d["pairs"][0]; s = p["sides"][0]
        W += s["wins"]; D += s["draws"]; Lo += s["losses"]; per.append(f"{seed}: {100*s['win_rate']:.1f}%")
        s0 += p["seatings"][0]["wins"][0]; s1 += p["seatings"][1]["wins"][0]  # wins are listed in the pair's agent order
        for k, v in s["mean_actions"].items(): act[k] += v * p["games"]
        n += p["games"]; rounds += p["mean_rounds"] * p["games"]; ends += p["distinct_endings"]
    lo, hi = wilson(W, n)
    other = sum(act[k] for k in ("corner", "diagonal cross", "cross", "seeker"))
    print(f"| {name} | {opp} | {' '.join(s for s, _ in L)} | {W}/{D}/{Lo} | **{100*W/n:.1f}%** [{lo:.1f}, {hi:.1f}] | {', '.join(per)} | {s0} / {s1} | "
          f"{act['single']/n:.1f} / {act['double']/n:.2f} / {other/n:.2f} / {act['shield']/n:.2f} | {rounds/n:.1f} | {ends} |")
