"""ships5: fleet diversity of placers: fleets.py GAME SPEC... (hunter shooting, seed 77)"""
import json, os, subprocess, sys, collections
from race import mean
game = sys.argv[1]; games = 200 if game == "battleships" else 100
for s in sys.argv[2:]:
    hp = json.loads(subprocess.run([os.environ.get("RACE_BIN", "race"), "-game", game, "-shooter", "hunter", "-fleet", s, "-games", str(games), "-seed", "77"], capture_output=True, text=True, check=True).stdout)
    fl = hp["fleets"]; c = collections.Counter(fl); sets = [set(f.strip(",").split(",")) for f in fl]
    ov = mean([len(a & b) for i, a in enumerate(sets) for b in sets[i + 1:]])
    print(s[-40:], f"hunter needs {hp['mean']:.1f}; distinct {len(c)}/{len(fl)}, top {c.most_common(1)[0][1]}, edge {mean(hp['edge_cells']):.1f}, touching {sum(1 for t in hp['touching_pairs'] if t)}, shared cells a pair {ov:.2f} of 17", flush=True)
