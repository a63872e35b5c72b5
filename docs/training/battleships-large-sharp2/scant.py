"""ships7: race model for any policy specs (not only ?sample): scant.py GAME SPEC... (seed 77)"""
import json, os, subprocess, sys, collections
from race import pwin, mean
game = sys.argv[1]; games = 200 if game == "battleships" else 100
def race(shooter, fleet):
    out = subprocess.run([os.environ.get("RACE_BIN", "race"), "-game", game, "-shooter", shooter, "-fleet", fleet,
                          "-games", str(games), "-seed", "77"], capture_output=True, text=True, check=True).stdout
    return json.loads(out)
for s in sys.argv[2:]:
    ph, pa = race(s, "hunter"), race(s, "admiral")
    hp, ap = race("hunter", s), race("admiral", s)
    fl = hp["fleets"]; c = collections.Counter(fl)
    print(s.split("/")[-1], f"shoots hunter {mean(ph['rounds']):.1f} admiral {mean(pa['rounds']):.1f} | hunter on its fleets {mean(hp['rounds']):.1f} admiral {mean(ap['rounds']):.1f} |"
          f" pred vs hunter {100*pwin(ph['rounds'], hp['rounds']):.1f} vs admiral {100*pwin(pa['rounds'], ap['rounds']):.1f} |"
          f" fleets distinct {len(c)}/{len(fl)} top {c.most_common(1)[0][1]} edge {mean(hp['edge_cells']):.1f} touching {sum(1 for t in hp['touching_pairs'] if t)}", flush=True)
