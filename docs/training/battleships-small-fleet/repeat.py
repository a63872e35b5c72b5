"""ships12: single shots at a cell the shooter already saw as a shield hit (ShieldHit on the target map before the
shot), per game, and the shield-hit cells' count; by win/loss.  repeat.py TAG OPP SEED0"""
import json, sys, glob, collections
tag, opp, seed0 = sys.argv[1], sys.argv[2], int(sys.argv[3])
KEY = {0: "Player1Map", 1: "Player2Map"}
agg = collections.Counter(); n = collections.Counter()
for f in sorted(glob.glob(f"rec/{tag}-{opp}-*.jsonl")):
    seed = int(f.rsplit("-", 1)[1].split(".")[0])
    seat = 0 if seed < seed0 + 1000 else 1
    L = [json.loads(l) for l in open(f)]
    res = L[-1]["result"]; won = "won" if (res["winner"] == seat and not res["draw"]) else "lost"
    n[won] += 1
    lines = [x for x in L[1:-1] if "commands" in x]
    for w, s in (("me", seat), ("op", 1 - seat)):
        o = 1 - s
        for x in lines:
            st = x["state"]
            if st["Phase"] != 2: continue
            c = x["commands"][s]
            code = int(c.split(",")[0]) if c and c[0].isdigit() else 0
            if code != 1: continue
            cx, cy = map(int, c.split(",")[1:3])
            cell = [cc for cc in st[KEY[o]]["Cells"] if cc["X"] == cx and cc["Y"] == cy][0]
            if cell["ShieldHit"]:
                agg[(won, w, "repeat_at_shieldhit")] += 1
                agg[(won, w, "repeat_shield_still_up" if st[KEY[o]]["Owner"]["Shield"]["Active"] else "repeat_shield_down")] += 1
for k in sorted(agg): print(k, agg[k], f"{agg[k]/n[k[0]]:.2f}/game")
print(dict(n))
