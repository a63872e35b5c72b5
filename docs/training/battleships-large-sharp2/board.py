"""ships7: print the final boards of a botarena battleships recording: board.py FILE
S = ship cell not hit, X = ship cell hit, o = missed shot on water, . = water. Rows y from top, x across."""
import json, sys
lines = open(sys.argv[1]).read().splitlines()
hdr = json.loads(lines[0]); last = None
for l in lines[1:]:
    j = json.loads(l)
    if "state" in j: last = j
res = json.loads(lines[-1]).get("result", {})
s = last["state"]; n = s["MapDimension"]
print(hdr["agents"], "round", s["Round"], "winner seat", res.get("winner"))
boards = []
for k in ("Player1Map", "Player2Map"):
    m = s[k]; g = [["."] * n for _ in range(n)]
    for c in m["Cells"]:
        ch = "X" if c["Occupied"] and c["Hit"] else "S" if c["Occupied"] else "o" if c["Hit"] else "."
        g[c["Y"]][c["X"]] = ch
    boards.append(g)
    print(k, m["Owner"]["Name"][:40], "ships left", sum(1 for sh in m["Owner"]["Ships"] if not sh["Destroyed"]))
for y in range(n - 1, -1, -1):
    print(" ".join(boards[0][y]) + "    " + " ".join(boards[1][y]))
