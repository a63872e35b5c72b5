#!/bin/bash
# screen: POLICY (sampling) vs admiral, 100 games a seating, seed 7474 (new); and unopposed rounds vs sitter (seed 7102, 100 a seating)
cd /work/main
C='{"placement":"learn","shot_mask":true,"density_plane":true,"shield_mask":true}'
name=$1; pol=$2
nice -n 5 bin/botarena tournament battleships/large --config "$C" --agents "$name=policy:$pol?sample",admiral --games 100 --seed 7474 --workers 2 --json > /work/runs/ships15/screen-$name.json 2>/dev/null
BOTARENA_SITTER=1 nice -n 5 bin/botarena tournament battleships/large --config "$C" --agents "$name=policy:$pol?sample",sitter --games 100 --seed 7102 --workers 2 2>/dev/null | grep -E "mean length|^$name "
python3 - <<PY
import json
d=json.load(open('/work/runs/ships15/screen-$name.json'))
for p in d['pairs']:
    s=p['sides'][0]
    print('$name vs admiral', s['wins'], s['losses'], s['win_rate'], [round(x,3) for x in s['win_rate_95']], {k:round(v,2) for k,v in s['mean_actions'].items()}, p['mean_rounds'])
PY
