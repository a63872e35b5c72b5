#!/bin/sh
# after genall.sh's first runs (hunter 128+256, harvester 128): 128-game runs, alternating, to 1024 games each
cd /work/runs/bomber11
while kill -0 19854 2>/dev/null; do sleep 5; done
n() { ls data/$1/data/*.parquet 2>/dev/null | wc -l; }
while [ $(n hunter) -lt 16 ] || [ $(n harvester) -lt 16 ]; do
  [ $(n harvester) -lt 16 ] && ./gen.sh data/harvester harvester 34112 128
  [ $(n hunter) -lt 16 ] && ./gen.sh data/hunter hunter 34111 128
  echo "DONE hunter $(n hunter) harvester $(n harvester) blocks $(date -u +%T)"
done
