"""ships9: recorded games of SPEC (seat 0) against OPP under shield_mask: each shield, what it held off.
shieldgames.py SPEC OPP SEED N [GAME]; GAME defaults to battleships/large (ships10 ran it with battleships/small)."""
import json, os, subprocess, sys
spec, opp, seed0, N = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
game = sys.argv[5] if len(sys.argv) > 5 else "battleships/large"
C = '{"placement":"learn","shot_mask":true,"density_plane":true,"shield_mask":true}'
B = os.environ.get("BOTARENA_BIN", "botarena")
os.makedirs("recm", exist_ok=True)
wins = 0
for i in range(N):
    seed = seed0 + i
    f = f"recm/{opp}-{seed}.jsonl"
    if not os.path.exists(f):
        subprocess.run([B, "play", game, "--config", C, "--agents", f"{spec},{opp}", "--seed", str(seed), "--record", f], check=True, capture_output=True)
    L = [json.loads(l) for l in open(f)]
    res = L[-1]["result"]; S = [x["state"] for x in L[1:-1]]; cmds = [x.get("commands") for x in L[1:-1]]
    wins += res["winner"] == 0
    for t, st in enumerate(S):
        c = cmds[t]
        if not c or not c[0].startswith("8,") or st["Phase"] != 2:
            continue
        me = st["Player1Map"]["Owner"]
        hits = sum(1 for x in st["Player1Map"]["Cells"] if x["Hit"] and x["Occupied"])
        ch = me["Shield"]["CurrentCharges"]
        # opponent shots during the shield: its shield-hit cells at the most, and its hits on us before and after
        end = min(t + ch + 1, len(S) - 1)
        sh = max(sum(1 for x in S[k]["Player1Map"]["Cells"] if x["ShieldHit"]) for k in range(t, end + 1))
        hits_after = sum(1 for x in S[end]["Player1Map"]["Cells"] if x["Hit"] and x["Occupied"])
        print(f"seed {seed}: round {st['Round']}, {me['ShipsRemaining']} ship(s) left, our cells hit {hits}/17 ({game}), shield {c[0]} with {ch} charge(s) radius {me['Shield']['CurrentRadius']}; "
              f"opponent's shots stopped (shield-hit cells) {sh}, our cells hit {ch} rounds later {hits_after}; game ended round {res['rounds']}, winner seat {res['winner']}")
print(f"won {wins} of {N}")
