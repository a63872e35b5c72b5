"""ships7: where a gain comes from, by the race model (seed 77): decomp.py GAME OLDSPEC NEWSPEC.
Predicts the win rate for each mix of shooting (old/new) and fleets (old/new) against hunter and admiral."""
import json, os, subprocess, sys
from race import pwin, mean
game, old, new = sys.argv[1:4]; games = 200 if game == "battleships" else 100
def race(shooter, fleet):
    out = subprocess.run([os.environ.get("RACE_BIN", "race"), "-game", game, "-shooter", shooter, "-fleet", fleet,
                          "-games", str(games), "-seed", "77"], capture_output=True, text=True, check=True).stdout
    return json.loads(out)["rounds"]
for opp in ("hunter", "admiral"):
    shoot = {k: race(s, opp) for k, s in (("old", old), ("new", new))}
    fleet = {k: race(opp, s) for k, s in (("old", old), ("new", new))}
    for sk in ("old", "new"):
        for fk in ("old", "new"):
            print(f"against {opp}: {sk} shooting ({mean(shoot[sk]):.1f} rounds) with {fk} fleets ({opp} needs {mean(fleet[fk]):.1f}): {100*pwin(shoot[sk], fleet[fk]):.1f}%", flush=True)
