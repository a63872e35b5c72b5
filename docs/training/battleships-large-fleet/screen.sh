#!/bin/sh
# ships14 screen.sh POLICY LABEL [GAMES] [SEED] [OPPS]: medium-fleet's screen.sh on 14x14 (battleships/large):
# sampling (POLICY may carry its own ?query) against admiral (and OPPS), GAMES a seating (default 100), seed 6161
# (new), botarena on PATH; CFG the config (default large-sharp4's + fleet_planes). JSON under screen/.
M=${CFG:-'{"placement":"learn","shot_mask":true,"density_plane":true,"shield_mask":true,"fleet_planes":true}'}
G=${3:-100}; S=${4:-6161}; OPPS=${5:-admiral}; case "$1" in *\?*) AG="policy:$1";; *) AG="policy:$1?sample";; esac
mkdir -p screen
for o in $OPPS; do
  nice -n 5 botarena tournament battleships/large --workers 1 --config "$M" --agents "p=$AG,$o" --focus p --games $G --seed $S --json 2>/dev/null > screen/$2-$o-$S.json
  python3 -c "
import json,sys; d=json.load(open('screen/$2-$o-$S.json')); s=d['pairs'][0]['sides'][0]
print('$2 vs $o seed $S', s['wins'], '/', d['pairs'][0]['games'], '%.1f%% [%.1f, %.1f]' % (100*s['win_rate'], 100*s['win_rate_95'][0], 100*s['win_rate_95'][1]))"
done
