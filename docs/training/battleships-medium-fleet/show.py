"""ships12: one recorded game, round by round: each seat's command, its hits on the other (cells of 17), ships afloat,
energy, shield (charges, active).  show.py FILE"""
import json, sys
L = [json.loads(l) for l in open(sys.argv[1])]
print(L[0]["agents"], "winner", L[-1]["result"]["winner"], "rounds", L[-1]["result"]["rounds"])
K = ["Player1Map", "Player2Map"]
for x in L[1:-1]:
    st = x["state"]
    if st["Phase"] != 2 or "commands" not in x: continue
    out = [f"r{st['Round']:2d}"]
    for s in (0, 1):
        o = st[K[s]]["Owner"]; tm = st[K[1 - s]]
        h = sum(1 for c in tm["Cells"] if c["Occupied"] and c["Hit"])
        sh = o["Shield"]
        out.append(f"{'AB'[s]}: {x['commands'][s]:9s} hits {h:2d} afloat {o['ShipsRemaining']} en {o['Energy']:3d} sh {sh['CurrentCharges']}{'*' if sh['Active'] else ' '}")
    print("  ".join(out))
