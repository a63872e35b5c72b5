#!/bin/sh
# alternate blocks so both opponents grow together; league seeds 34111 (hunter), 34112 (harvester)
cd /work/runs/bomber11
for n in 128 256 384 512 640 768 896 1024; do
  ./gen.sh data/hunter hunter 34111 $n
  ./gen.sh data/harvester harvester 34112 $n
  echo "DONE $n $(date -u +%T)"
done
