"""ships12: where small-shield loses to admiral and marksman. Records SPEC against OPP from both seats under
shield_mask (battleships/small) and measures, per game: the winner, the rounds, each side's hits on the other's
17 ship cells, shots stopped by the other's shield (ShieldHit cells), shields raised, special weapons fired,
and the round each side landed its 17th hit (or would have).
losses.py SPEC OPP SEED0 N [TAG]   (seat 0 seeds SEED0.., seat 1 seeds SEED0+1000..; recordings in rec/)"""
import json, os, subprocess, sys, collections
spec, opp, seed0, N = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
tag = sys.argv[5] if len(sys.argv) > 5 else "p"
game = "battleships/small"
C = os.environ.get("CFG") or '{"placement":"learn","shot_mask":true,"density_plane":true,"shield_mask":true}'
B = os.environ.get("BOTARENA_BIN", "botarena")
KEY = {0: "Player1Map", 1: "Player2Map"}
os.makedirs("rec", exist_ok=True)
rows = []
for seat in (0, 1):
    for i in range(N):
        seed = seed0 + 1000 * seat + i
        ag = [spec, opp] if seat == 0 else [opp, spec]
        f = f"rec/{tag}-{opp}-{seed}.jsonl"
        if not os.path.exists(f):
            subprocess.run([B, "play", game, "--config", C, "--agents", ",".join(ag), "--seed", str(seed), "--record", f],
                           capture_output=True, text=True, check=True)
        L = [json.loads(l) for l in open(f)]
        res = L[-1]["result"]; S = [x["state"] for x in L[1:-1]] + [L[-2]["state"]]
        lines = [x for x in L[1:-1] if "commands" in x]
        fin = L[-2]["state"]
        r = {"seed": seed, "seat": seat, "won": res["winner"] == seat and not res["draw"], "draw": res["draw"], "rounds": res["rounds"]}
        for w, s in (("me", seat), ("op", 1 - seat)):
            m = fin[KEY[s]]  # s's own map: hits on it are the other side's
            r[w + "_cells_lost"] = sum(1 for c in m["Cells"] if c["Occupied"] and c["Hit"])
            r[w + "_shieldhits_on_me"] = sum(1 for c in m["Cells"] if c["ShieldHit"])
            cnt = collections.Counter()
            first_phase2 = None; shield_rounds = []
            for x in lines:
                st = x["state"]
                if st["Phase"] != 2: continue
                c = x["commands"][s]
                code = int(c.split(",")[0]) if c and c[0].isdigit() else 0
                cnt[code] += 1
                if code == 8:
                    o = st[KEY[s]]["Owner"]
                    hit = sum(1 for cc in st[KEY[s]]["Cells"] if cc["Occupied"] and cc["Hit"])
                    shield_rounds.append((st["Round"], o["Shield"]["CurrentCharges"], o["ShipsRemaining"], hit))
            r[w + "_cmds"] = dict(cnt)
            r[w + "_shields"] = shield_rounds
            r[w + "_energy_end"] = fin[KEY[s]]["Owner"]["Energy"]
        rows.append(r)
def pct(a, b): return f"{100*a/max(b,1):.1f}%"
n = len(rows); won = sum(r["won"] for r in rows)
print(f"== {tag} vs {opp}: won {won}/{n} ({pct(won,n)}); seat0 {sum(r['won'] for r in rows if r['seat']==0)}/{N}, seat1 {sum(r['won'] for r in rows if r['seat']==1)}/{N}; draws {sum(r['draw'] for r in rows)}")
for lab, sel in (("wins", [r for r in rows if r["won"]]), ("losses", [r for r in rows if not r["won"]])):
    if not sel: continue
    k = len(sel)
    print(f" {lab} ({k}): rounds {sum(r['rounds'] for r in sel)/k:.1f}; our cells lost {sum(r['me_cells_lost'] for r in sel)/k:.1f}/17, their cells lost {sum(r['op_cells_lost'] for r in sel)/k:.1f}/17")
    print(f"   our hits on them in each: {sorted(r['op_cells_lost'] for r in sel)}")
    for w in ("me", "op"):
        c = collections.Counter()
        for r in sel: c.update(r[w + "_cmds"])
        print(f"   {w}: per game single {c[1]/k:.1f} double {(c[2]+c[3])/k:.2f} corner {c[4]/k:.2f} diag {c[5]/k:.2f} cross {c[6]/k:.2f} seeker {c[7]/k:.2f} shield {c[8]/k:.2f} nothing {c[0]/k:.2f}; "
              f"shots it lost to the other's shield {sum(r[('op' if w=='me' else 'me') + '_shieldhits_on_me'] for r in sel)/k:.2f}; energy left {sum(r[w+'_energy_end'] for r in sel)/k:.0f}")
        sh = [s for r in sel for s in r[w + "_shields"]]
        if sh: print(f"   {w} shields (round, charges, ships left, cells hit): {sh[:12]}")
json.dump(rows, open(f"{tag}-{opp}-{seed0}.json", "w"))
