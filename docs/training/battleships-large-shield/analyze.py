"""ships9: record games of SPEC against OPP from both seats and measure energy, specials, shields, sinking order.
analyze.py SPEC OPP SEED0 N [GAME]   (seat 0 seeds SEED0.., seat 1 seeds SEED0+1000..)"""
import json, os, subprocess, sys, collections
spec, opp, seed0, N = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
game = sys.argv[5] if len(sys.argv) > 5 else "battleships/large"
C = '{"placement":"learn","shot_mask":true,"density_plane":true}'
B = os.environ.get("BOTARENA_BIN", "botarena")
CODES = {1: "single", 2: "double", 3: "double", 4: "corner", 5: "diag", 6: "cross", 7: "seeker", 8: "shield"}
KINDS = ["Submarine", "Destroyer", "Battleship", "Carrier", "Cruiser"]
agg = {w: collections.defaultdict(float) for w in ("me", "op")}
sunk_order = {w: collections.Counter() for w in ("me", "op")}  # kind sunk last (by the other side) when all 5 sunk
last_kind = {w: collections.Counter() for w in ("me", "op")}
won = n = 0; rounds_won = []; rounds_lost = []; my_hits_in_losses = []; op_hits_in_wins = []
shield_rows = []
for seat in (0, 1):
    for i in range(N):
        seed = seed0 + 1000 * seat + i
        ag = [spec, opp] if seat == 0 else [opp, spec]
        f = f"rec/{os.path.basename(spec).split('.')[0]}-{opp}-{seed}.jsonl"
        if not os.path.exists(f):
            subprocess.run([B, "play", game, "--config", C, "--agents", ",".join(ag), "--seed", str(seed), "--record", f],
                           capture_output=True, text=True, check=True)
        L = [json.loads(l) for l in open(f)]
        res = L[-1]["result"]; states = [x for x in L[1:-1]]
        n += 1
        key = {0: "Player1Map", 1: "Player2Map"}
        who = {"me": seat, "op": 1 - seat}
        if res["winner"] == seat: won += 1; rounds_won.append(res["rounds"])
        else: rounds_lost.append(res["rounds"])
        for w, s in who.items():
            prev = None; destroyed_at = {}
            shield_active_since = None
            for t, x in enumerate(states):
                st = x["state"]
                if st["Phase"] != 2 and prev is None:
                    prev = st; continue
                o = st[key[s]]["Owner"]
                for k, sh in enumerate(o["Ships"]):
                    if sh["Destroyed"] and sh["ShipType"] not in destroyed_at: destroyed_at[sh["ShipType"]] = st["Round"]
                cmd = x.get("commands")
                if cmd is not None and st["Phase"] == 2:
                    c = cmd[s]
                    code = int(c.split(",")[0]) if c and c[0].isdigit() else 0
                    po = st[key[s]]["Owner"]
                    # state after the command is the next state
                    nxt = states[t + 1]["state"] if t + 1 < len(states) else None
                    if nxt is not None and code in CODES:
                        no = nxt[key[s]]["Owner"]
                        name = CODES[code]
                        if no["ShotsFired"] > po["ShotsFired"] or code == 8:
                            agg[w][name + "_n"] += 1
                            agg[w][name + "_hits"] += no["ShotsHit"] - po["ShotsHit"]
                            if code == 8:
                                # protection: opponent shots landing on shielded cells while active
                                shield_rows.append((w, st["Round"], po["Shield"]["CurrentCharges"], po["Shield"]["CurrentRadius"], po["ShipsRemaining"]))
                if x.get("commands") is not None:
                    pass
                prev = st
            fin = L[-2]["state"] if "state" in L[-2] else states[-1]["state"]
            fo = fin[key[s]]["Owner"]
            agg[w]["energy_end"] += fo["Energy"]
            agg[w]["charges_end"] += fo["Shield"]["CurrentCharges"]
            agg[w]["shieldhit_cells"] += 0
            if len(destroyed_at) == 5:
                last_kind[w][max(destroyed_at, key=destroyed_at.get)] += 1
        # cells shielded-hit seen on each map at any time
        for w, s in who.items():
            sh_hits = 0
            for x in states:
                st = x["state"]
                sh_hits = max(sh_hits, sum(1 for c in st[key[s]]["Cells"] if c["ShieldHit"]))
            agg[w]["max_shieldhit_cells"] += sh_hits
        me = [x for x in res["leaderboard"] if x["seat"] == seat][0]; op = [x for x in res["leaderboard"] if x["seat"] != seat][0]
        agg["me"]["hits"] += me["shots_hit"]; agg["op"]["hits"] += op["shots_hit"]
        agg["me"]["shots"] += me["shots_fired"]; agg["op"]["shots"] += op["shots_fired"]
        if res["winner"] == seat: op_hits_in_wins.append(op["shots_hit"])
        else: my_hits_in_losses.append(me["shots_hit"])
name = os.path.basename(spec)
print(f"== {name} vs {opp}: won {won}/{n}; rounds when it won {sum(rounds_won)/max(len(rounds_won),1):.1f}, when it lost {sum(rounds_lost)/max(len(rounds_lost),1):.1f}")
print(f"   its cells hit in its losses {sorted(my_hits_in_losses)}; opp cells hit in its wins mean {sum(op_hits_in_wins)/max(len(op_hits_in_wins),1):.1f}")
for w in ("me", "op"):
    a = agg[w]
    parts = [f"{k}: {a[k+'_n']/n:.2f}/game hits/use {a[k+'_hits']/max(a[k+'_n'],1):.2f}" for k in ("single", "double", "corner", "diag", "cross", "seeker", "shield")]
    print(f"  {w}: " + "; ".join(parts))
    print(f"      energy left at end {a['energy_end']/n:.0f}, shield charges left {a['charges_end']/n:.1f}, max shield-hit cells on its map {a['max_shieldhit_cells']/n:.2f}, hit rate {100*a['hits']/a['shots']:.1f}% per command")
    print(f"      ship kind it lost last (when all 5 sunk): {dict(last_kind[w])}")
sr = collections.Counter((w, r // 10 * 10) for w, r, c, rad, left in shield_rows)
print("  shields (who, round, charges, radius, ships left):", shield_rows[:30])
