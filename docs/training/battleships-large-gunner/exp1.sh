#!/bin/bash
# scripted spend-rule screen: admiral variants vs admiral, seed 7101 (new), 100 games a seating
cd /work/main
export BOTARENA_SPEND="x0:0:0,x25:0.25:0,x50:0.5:0,rich100:1:100,rich150:1:150,x50r100:0.5:100,x25r100:0.25:100"
for v in x25 x50 rich100 rich150 x50r100 x25r100; do
  nice -n 5 bin/botarena tournament battleships/large --config '{"placement":"learn"}' --agents $v,admiral --games 100 --seed 7101 --workers 2 --json > /work/runs/ships15/exp1-$v.json 2>/dev/null
  python3 -c "
import json,sys;d=json.load(open('/work/runs/ships15/exp1-$v.json'));print('$v', json.dumps(d)[:0])" 
done
