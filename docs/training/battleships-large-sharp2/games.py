"""ships7: recorded games against hunter: games.py GAME POLICYSPEC (seeds 12001 seat 0, 12101 seat 1, 20 each)."""
import json, os, subprocess, sys
game, spec = sys.argv[1], sys.argv[2]
C = '{"placement":"learn","shot_mask":true,"density_plane":true}'
B = os.environ.get("BOTARENA_BIN", "botarena")
won = rounds = left = sf = sh = hf = hh = n = 0; lost_hit = []
for seat, seed in ((0, 12001), (1, 12101)):
    ag = [spec, "hunter"] if seat == 0 else ["hunter", spec]
    out = subprocess.run([B, "play", game, "--config", C, "--agents", ",".join(ag), "--seed", str(seed), "--games", "20", "--json"],
                         capture_output=True, text=True, check=True).stdout
    for line in out.splitlines():
        try: r = json.loads(line)
        except ValueError: continue
        if "leaderboard" not in r: continue
        me = [x for x in r["leaderboard"] if x["seat"] == seat][0]; op = [x for x in r["leaderboard"] if x["seat"] != seat][0]
        n += 1; rounds += r["rounds"]; sf += me["shots_fired"]; sh += me["shots_hit"]; hf += op["shots_fired"]; hh += op["shots_hit"]
        if r["winner"] == seat: won += 1; left += me["ships_remaining"]
        else: lost_hit.append(me["shots_hit"])
print(f"{spec.split('/')[-1]}: won {won} of {n}, {rounds/n:.1f} rounds, {left/max(won,1):.2f} ships left when it won; its shots hit {100*sh/sf:.1f}%, hunter's {100*hh/hf:.1f}%; shot hits in its losses {sorted(lost_hit)}")
