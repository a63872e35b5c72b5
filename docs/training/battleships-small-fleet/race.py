"""ships12: per game (rec/TAG-OPP-*.jsonl), each side's hits on the other's fleet by round; for each game the round each
side reached 12, 15, 17 hits (if it did), and the number of shots the other's shield stopped.  race.py TAG OPP SEED0"""
import json, sys, glob, collections
tag, opp, seed0 = sys.argv[1], sys.argv[2], int(sys.argv[3])
KEY = {0: "Player1Map", 1: "Player2Map"}
reach = {w: collections.defaultdict(list) for w in ("me", "op")}
shots = collections.Counter()
for f in sorted(glob.glob(f"rec/{tag}-{opp}-*.jsonl")):
    seed = int(f.rsplit("-", 1)[1].split(".")[0]); seat = 0 if seed < seed0 + 1000 else 1
    L = [json.loads(l) for l in open(f)]
    S = [x["state"] for x in L[1:-1]]
    for w, s in (("me", seat), ("op", 1 - seat)):
        tgt = KEY[1 - s]
        got = set()
        for st in S:
            if st["Phase"] != 2: continue
            h = sum(1 for c in st[tgt]["Cells"] if c["Occupied"] and c["Hit"])
            for k in (6, 9, 12, 15, 17):
                if h >= k and k not in got:
                    got.add(k); reach[w][k].append(st["Round"])
        o = S[-1][KEY[s]]["Owner"]
        shots[w + "_fired"] += o["ShotsFired"]; shots[w + "_hit"] += o["ShotsHit"]
for w in ("me", "op"):
    print(w, "mean round reaching k hits (games):", {k: f"{sum(v)/len(v):.1f} ({len(v)})" for k, v in sorted(reach[w].items())},
          f"hit rate {100*shots[w+'_hit']/shots[w+'_fired']:.1f}%")
