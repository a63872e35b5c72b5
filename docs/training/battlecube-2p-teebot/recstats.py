import json, sys, collections
def stats(files, me):
    c = collections.Counter(); lens = []; wins = 0
    for f in files:
        L = [json.loads(l) for l in open(f)]
        states = [l for l in L[1:] if "state" in l]; res = [l for l in L if "result" in l][0]["result"]
        wins += res.get("winner") == me; lens.append(len(states) - 1)
        for i, l in enumerate(states):
            if l.get("commands") is None: continue
            cmd = json.loads(l["commands"][me])[0]
            pl = {p["name"]: (p["x"], p["y"], p["z"]) for p in l["state"]["players"]}
            names = [p["name"] for p in l["state"]["players"]]
            opp_name = [n for n in names if not n.startswith("Policy")]
            if not opp_name: continue
            opp = pl[opp_name[0]]
            nxt = None
            if i + 1 < len(states):
                for p in states[i + 1]["state"]["players"]:
                    if p["name"] == opp_name[0]: nxt = (p["x"], p["y"], p["z"])
            k = "t0 " if i == 0 else ""
            if cmd["task"] == "BOMB":
                b = (cmd["x"], cmd["y"], cmd["z"])
                if b == opp: c[k + "bomb on its current cell"] += 1
                elif nxt is not None and b == nxt and nxt != opp: c[k + "bomb on its next cell"] += 1
                elif max(abs(a - o) for a, o in zip(b, opp)) + 0 == 1 and sum(abs(a - o) for a, o in zip(b, opp)) == 1: c[k + "bomb on a neighbour of its cell"] += 1
                else: c[k + "bomb elsewhere"] += 1
            else: c[k + cmd["task"].lower()] += 1
    print(f"{len(files)} games, won {wins}, mean length {sum(lens)/len(lens):.1f} ticks")
    for k, v in sorted(c.items()): print(f"  {k}: {v}")
import glob
print("vs stalker (policy seat 0):"); stats(sorted(glob.glob("s-*.jsonl")), 0)
print("vs teebot (policy seat 1):"); stats(sorted(glob.glob("t-*.jsonl")), 1)
