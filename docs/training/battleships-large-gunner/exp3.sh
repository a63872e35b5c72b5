#!/bin/bash
# patient specials: only the checkerboard-friendly patterns (codes: 4 corner, 5 diagonal cross, 6 cross, 7 seeker), seed 7102, 200 games a seating vs sitter
cd /work/main
export BOTARENA_SPEND="d0:0:0:5,dc0:0:0:45,dcs0:0:0:457,dcs25:0.25:0:457,dcx0:0:0:456,all25s:0.25:0:4567"
for v in d0 dc0 dcs0 dcs25 dcx0; do
  nice -n 5 bin/botarena tournament battleships/large --config '{"placement":"learn"}' --agents $v,sitter --games 200 --seed 7102 --workers 2 2>/dev/null | grep -E "mean length|^$v " 
done
