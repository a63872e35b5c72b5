"""ships7 (copied by ships9): gauntlet.json and the gauntlet.md table from a directory of tournament JSONs.
usage: gmd.py DIR ROW... where ROW is FILE:LABEL (FILE without .json); writes DIR/gauntlet.json, prints the table."""
import json, sys, os
d = sys.argv[1]; rows = [r.split(":", 1) for r in sys.argv[2:]]
allj = {}
def acts(a): return ", ".join(f"{k} {v:.3g}" for k, v in a.items() if v >= 0.05)
print("| agent | opponent | W/D/L | win rate | 95% interval | seat 0 / seat 1 (W/D/L) | mean points (agent / opponent) | length | the agent's actions a game | the opponent's |")
print("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |")
for f, label in rows:
    j = json.load(open(os.path.join(d, f + ".json"))); allj[f] = j
    p = j["pairs"][0]; s = [x for x in p["sides"] if x["agent"] == "p"][0]; o = [x for x in p["sides"] if x["agent"] != "p"][0]
    seat = []
    for st in p["seatings"]:
        i = st["seats"].index("p"); w = st["wins"][p["agents"].index("p")]; dr = st["draws"]; seat.append((i, f"{w}/{dr}/{st['games'] - w - dr}"))
    seat = ", ".join(x for _, x in sorted(seat))
    lo, hi = s["win_rate_95"]
    print(f"| {label} | {o['agent']} | {s['wins']}/{s['draws']}/{s['losses']} | **{100*s['win_rate']:.1f}%** | [{100*lo:.1f}%, {100*hi:.1f}%] | {seat} | "
          f"{s['mean_points']:.1f} / {o['mean_points']:.1f} | {p['mean_rounds']:.1f} | {acts(s['mean_actions'])} | {acts(o['mean_actions'])} |")
    assert s["faults"] == 0 and s["forfeits"] == 0 and o["forfeits"] == 0, f
json.dump(allj, open(os.path.join(d, "gauntlet.json"), "w"), indent=1)
