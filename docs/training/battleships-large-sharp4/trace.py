"""ships11: how a recorded Battleships loss ended: trace.py SEAT FILE... (SEAT: the policy's seat in each file,
or 'auto' = the seat whose agent starts with policy:). For the opponent's last ship: the round it became the last,
its kind, cells hit, our shots after, shield-hit cells on its map, the opponent's shield uses."""
import json, sys
for f in sys.argv[2:]:
    L = [json.loads(l) for l in open(f)]
    hdr = L[0]; seat = hdr["agents"].index([a for a in hdr["agents"] if a.startswith("policy:")][0])
    st = [x for x in L[1:] if "state" in x]
    key = {0: "Player1Map", 1: "Player2Map"}; opk = key[1 - seat]; myk = key[seat]
    last_round = None; shots_after = 0; my_cmds_after = []; opp_shield_cmds = []; my_last = None
    for x in st:
        s = x["state"]
        if s["Phase"] != 2: continue
        afloat = [sh for sh in s[opk]["Owner"]["Ships"] if not sh["Destroyed"]]
        cmds = x.get("commands") or ["", ""]
        if cmds[1 - seat] and cmds[1 - seat].startswith("8,"): opp_shield_cmds.append((s["Round"], cmds[1 - seat]))
        if len(afloat) == 1 and last_round is None: last_round = s["Round"]; kind = afloat[0]["ShipType"]
        if last_round is not None and cmds[seat]: my_cmds_after.append(cmds[seat])
        if len([sh for sh in s[myk]["Owner"]["Ships"] if not sh["Destroyed"]]) == 1 and my_last is None: my_last = s["Round"]
    fin = st[-1]["state"]
    sh_hit = sum(1 for c in fin[opk]["Cells"] if c["ShieldHit"])
    afl = [sh for sh in fin[opk]["Owner"]["Ships"] if not sh["Destroyed"]]
    cells = afl[0]["Cells"] if afl else []
    print(f"{f.split('/')[-1]} seat {seat} rounds {fin['Round']}: opp's last ship from round {last_round} ({kind if last_round else '-'}, "
          f"{sum(1 for c in cells if c['Hit'])}/{len(cells)} hit at the end), our shots after {len(my_cmds_after)}, shield-hit cells {sh_hit}, "
          f"opp shields {opp_shield_cmds}, our last ship from round {my_last}")
