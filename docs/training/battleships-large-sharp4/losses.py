"""ships11: where a policy's losses come from: losses.py SPEC OPP SEED N (N games a seat; seat 0 seeds SEED..,
seat 1 seeds SEED+1000..), under the shield_mask config. Records every game to rec/ (botarena play --record)."""
import json, os, subprocess, sys, statistics as st
spec, opp, seed0, N = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
M = '{"placement":"learn","shot_mask":true,"density_plane":true,"shield_mask":true}'
B = os.environ.get("BOTARENA_BIN", "botarena")
os.makedirs("rec", exist_ok=True)
tag = os.path.basename(spec).split(".")[0] + ("-s" if "sample" in spec else "")
rows = []
for seat in (0, 1):
    for i in range(N):
        seed = seed0 + 1000 * seat + i
        f = f"rec/{tag}-{opp}-{seed}.jsonl"
        if not os.path.exists(f):
            ag = [spec, opp] if seat == 0 else [opp, spec]
            subprocess.run([B, "play", "battleships/large", "--config", M, "--agents", ",".join(ag), "--seed", str(seed), "--record", f],
                           capture_output=True, text=True, check=True)
        L = [json.loads(l) for l in open(f)]
        res = L[-1]["result"]; last = [x for x in L if "state" in x][-1]["state"]
        maps = {0: last["Player1Map"], 1: last["Player2Map"]}
        def hits(s):  # ship cells of seat s's map that are hit
            return sum(1 for c in maps[s]["Cells"] if c["Occupied"] and c["Hit"])
        def afloat(s): return sum(1 for sh in maps[s]["Owner"]["Ships"] if not sh["Destroyed"])
        rows.append(dict(seat=seat, seed=seed, won=res["winner"] == seat, rounds=res["rounds"], my_hits=hits(1 - seat),
                         their_ships_left=afloat(1 - seat), my_ships_left=afloat(seat), file=f))
W = [r for r in rows if r["won"]]; Lo = [r for r in rows if not r["won"]]
print(f"{tag} vs {opp}: won {len(W)} of {len(rows)} (seat 0 {sum(r['won'] for r in rows if r['seat']==0)}/{N}, seat 1 {sum(r['won'] for r in rows if r['seat']==1)}/{N})")
print(f"  rounds: wins mean {st.mean(r['rounds'] for r in W):.1f}, losses mean {st.mean(r['rounds'] for r in Lo) if Lo else 0:.1f}")
print(f"  in losses: enemy cells it had hit (of 17) {sorted(r['my_hits'] for r in Lo)}; enemy ships afloat {sorted(r['their_ships_left'] for r in Lo)}")
print(f"  loss rounds {sorted(r['rounds'] for r in Lo)}")
print(f"  in wins: its ships left {st.mean(r['my_ships_left'] for r in W):.2f}")
print("  losses:", " ".join(r["file"] for r in Lo[:8]))
