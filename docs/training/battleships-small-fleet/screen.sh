#!/bin/sh
# screen.sh POLICY LABEL [GAMES] [SEED]: sampling against admiral and marksman (GAMES a seating, default 100), seed 3131.
export PATH=/work/runs/ships12/bin:$PATH
M=${CFG:-'{"placement":"learn","shot_mask":true,"density_plane":true,"shield_mask":true}'}
G=${3:-100}; S=${4:-3131}; case "$1" in *\?*) AG="policy:$1";; *) AG="policy:$1?sample";; esac
mkdir -p /work/runs/ships12/screen
for o in admiral marksman; do
  nice -n 5 botarena tournament battleships/small --workers 1 --config "$M" --agents "p=$AG,$o" --focus p --games $G --seed $S --json 2>/dev/null > /work/runs/ships12/screen/$2-$o-$S.json
done
python3 - "$2" "$S" <<'PY'
import json, sys
out = [sys.argv[1]]
for o in ("admiral", "marksman"):
    d = json.load(open(f"/work/runs/ships12/screen/{sys.argv[1]}-{o}-{sys.argv[2]}.json"))
    s = d["pairs"][0]["sides"][0]
    out.append(f"{o} {s['wins']}/{d['pairs'][0]['games']} {100*s['win_rate']:.1f}% [{100*s['win_rate_95'][0]:.1f},{100*s['win_rate_95'][1]:.1f}]")
print("  ".join(out))
PY
