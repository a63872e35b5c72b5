"""gauntlet.py DIR: eval.sh's tournament JSON files in DIR into gauntlet.json and gauntlet.md (helper bomber13, issue 34).
One row per agent and opponent: W/D/L, win rate with its 95% Wilson interval, mean points (the opponent's), deaths of
its 200 seat-games (by its own bomb), the opponent's deaths, and actions a game (bombs, triggers, waits)."""
import glob, json, os, sys

src = sys.argv[1] if len(sys.argv) > 1 else "."
tables = {os.path.basename(f)[:-5]: json.load(open(f)) for f in sorted(glob.glob(f"{src}/*.json"))}
json.dump({"tables": tables}, open("gauntlet.json", "w"), indent=1)
rows = ["| agent | opponent | seed | W/D/L | win rate [95%] | points (opponent's) | died (own bomb) | opponent died | bombs / triggers / waits a game | rounds |",
        "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |"]
for name, t in tables.items():
    p = t["pairs"][0]
    s, o = p["sides"]
    lo, hi = s["win_rate_95"]
    a = s["mean_actions"]
    rows.append(f"| {s['agent']} | {o['agent']} | {t['seed']} | {s['wins']}/{s['draws']}/{s['losses']} | {100*s['win_rate']:.1f}% [{100*lo:.1f}, {100*hi:.1f}] "
                f"| {s['mean_points']:.0f} ({o['mean_points']:.0f}) | {sum(s['deaths'].values())} ({s['deaths']['own bomb']}) | {sum(o['deaths'].values())} "
                f"| {a['bomb']:.1f} / {a['trigger']:.1f} / {a['nothing']:.1f} | {p['mean_rounds']:.0f} |")
open("gauntlet.md", "w").write("# bomberman/2p: gauntlet of bomberman-2p-planner-sharp and its PPO run (eval.sh)\n\n"
    "200 games a pairing, 100 a seating, every agent on the same seeds; mask wary + strict for every seat; config with "
    "touched_planes and opponent_scalars. sharp / ppo sample (?sample); touched is bomberman-2p-planner-touched sampled, "
    "touched-argmax arg-max.\n\n" + "\n".join(rows) + "\n")
