"""ships12: gauntlet.md rows and gauntlet.json from eval/NAME-OPP-SEED.json (the gmd.py of ../battleships-large-sharp2, with seeds)."""
import json, sys, os, glob
LABEL = {"sym": "**small-fleet** (s3), sampling, fleet_planes", "dppo": "run d (PPO from s2, 5 fleets), sampling, fleet_planes",
         "fleet": "s2, sampling, fleet_planes", "fleetargmax": "s2, arg-max, fleet_planes",
         "shield": "small-shield, sampling", "c59": "run c update 59 (narrow fleets), sampling"}
def acts(a): return ", ".join(f"{k} {v:.3g}" for k, v in a.items() if v >= 0.05)
allj = {}
print("| agent | opponent | seed | W/D/L | win rate | 95% interval | wins seat 0 / seat 1 (of 200) | mean points (agent / opponent) | length | the agent's actions a game | the opponent's |")
print("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |")
order = {"sym": 0, "shield": 1, "dppo": 2, "fleet": 3, "c59": 4, "fleetargmax": 5}; opp = {"hunter": 0, "admiral": 1, "marksman": 2, "reference": 3}
files = sorted(glob.glob("eval/*.json"), key=lambda f: (order[os.path.basename(f).split("-")[0]], os.path.basename(f).split("-")[2], opp[os.path.basename(f).split("-")[1]]))
for f in files:
    name, o, seed = os.path.basename(f)[:-5].split("-")
    j = json.load(open(f)); allj[os.path.basename(f)[:-5]] = j
    p = j["pairs"][0]; s = [x for x in p["sides"] if x["agent"] == "p"][0]; t = [x for x in p["sides"] if x["agent"] != "p"][0]
    seat = " / ".join(str(st["wins"][p["agents"].index("p")]) for st in p["seatings"])
    lo, hi = s["win_rate_95"]
    assert s["faults"] == 0 and s["forfeits"] == 0 and t["forfeits"] == 0, f
    print(f"| {LABEL[name]} | {o} | {seed} | {s['wins']}/{s['draws']}/{s['losses']} | **{100*s['win_rate']:.1f}%** | [{100*lo:.1f}%, {100*hi:.1f}%] | {seat} | "
          f"{s['mean_points']:.1f} / {t['mean_points']:.1f} | {p['mean_rounds']:.1f} | {acts(s['mean_actions'])} | {acts(t['mean_actions'])} |")
json.dump(allj, open(sys.argv[1], "w"), indent=1)
