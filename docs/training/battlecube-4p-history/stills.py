# stills.py RECORDING...: for the policy seat of each `botarena play --record` cube, its share of ticks
# stood still (stalker's "stays" evidence: stalker bombs the cell of a bot predicted to stay with chance
# (stayed+1)/(seen+2) >= 1/2), the longest run of ticks it stood still, the tick it was lost, and whether
# it was standing still then. Used for docs/training/battlecube-4p-history.
import json
import sys

for f in sys.argv[1:]:
    L = [json.loads(line) for line in open(f)]
    names = L[0]["config"]["names"]
    P = [i for i, a in enumerate(L[0]["agents"]) if a.startswith("policy")][0]
    res = L[-1]["result"]
    prev = None
    seen = stayed = run = longest = 0
    pattern = ""
    lost = None
    for r in L[1:]:
        if "result" in r or "actions" not in r:
            continue
        st = r["state"]
        pos = {p["name"]: (p["x"], p["y"], p["z"]) for p in st["players"]}
        if names[P] not in pos:
            break
        a = r["actions"][P]
        still = not 1 <= a <= 6
        pattern += "B" if a >= 7 else ("." if a == 0 else "m")
        seen += 1
        stayed += still
        run = run + 1 if still else 0
        longest = max(longest, run)
        if r["rewards"][P] == -1:
            lost = (st["gameInfo"]["currentTick"], "standing still" if still else "moving")
            break
    tag = "win" if res["winner"] == P else "not won"
    print(f"{f.split('/')[-1]} seat {P} {tag}: stood still {stayed}/{seen} ticks, longest run {longest}, "
          + (f"lost at tick {lost[0]} {lost[1]}" if lost else f"in play at the end ({res['rounds']} ticks)") + f"; tasks {pattern[:40]}")
