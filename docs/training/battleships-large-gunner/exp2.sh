#!/bin/bash
# rounds for a shooter to sink admiral's fleet (sitter: admiral's placement, then harmless off-map shots), seed 7102 (new), 200 games a seating
cd /work/main
export BOTARENA_SPEND="x0:0:0,x25:0.25:0,x50:0.5:0,rich100:1:100,rich60:1:60,x25r100:0.25:100,x10:0.1:0"
for v in admiral x0 x10 x25 x50 rich60 rich100 x25r100; do
  nice -n 5 bin/botarena tournament battleships/large --config '{"placement":"learn"}' --agents $v,sitter --games 200 --seed 7102 --workers 2 2>/dev/null | grep -E "mean length|^$v " 
done
