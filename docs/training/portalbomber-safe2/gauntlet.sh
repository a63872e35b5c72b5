#!/bin/sh
# The gauntlet of portalbomber-safe2: the safe mask on in every game (both players); seeds 20261240
# (raider, greedy), 20261241 (practice, the old portalbomber-safe), 20261242 (random, idle), apart from
# training (--seed 3402, 3403) and the earlier gauntlet (20261201/20261202); 200 games a seating
# (400 a pairing), 100 against random and idle. Sampling against all; arg-max against raider.
set -e
P=${1:-/work/runs/portal2/run/policy.safetensors}
B=/work/runs/portal2/bin/botarena
O=/work/runs/portal2/gauntlet
C='{"safe_mask":true}'
OLD=/work/runs/portal2/src/policies/portalbomber-safe.policy.safetensors
mkdir -p $O
cd /work/runs/portal2/src
$B tournament portalbomber --config "$C" --agents "trained=policy:$P?sample,raider,greedy" --focus trained --games 200 --seed 20261240 --json > $O/sample-bots.json 2> $O/sample-bots.err
$B tournament portalbomber --config "$C" --agents "trained-argmax=policy:$P,raider" --focus trained-argmax --games 200 --seed 20261240 --json > $O/argmax-raider.json 2> $O/argmax-raider.err
$B tournament portalbomber --config "$C" --agents "trained=policy:$P?sample,practice,old=policy:$OLD?sample" --focus trained --games 200 --seed 20261241 --json > $O/sample-rest.json 2> $O/sample-rest.err
$B tournament portalbomber --config "$C" --agents "trained=policy:$P?sample,random,idle" --focus trained --games 100 --seed 20261242 --json > $O/sample-easy.json 2> $O/sample-easy.err
echo done > $O/done
