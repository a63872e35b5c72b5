#!/bin/sh
# maskcheck (issue 34), from the repository root: builds the checker with a go build overlay (adds
# env/bomberman/zz_maskcheck.go and cmd/maskcheck/main.go from the .txt files here, nothing in the tree
# changes) and plays the policy against OPP on play seeds FROM..FROM+N-1, both seatings, config C of eval.sh.
# Output: one DEATH line per own-bomb death of the policy, with the decisions that led to it (-v).
set -e
T=$(mktemp -d); M=docs/training/bomberman-2p-planner-touched/mask; R=$(pwd)
cp $M/zz_maskcheck.go.txt $T/zz_maskcheck.go; cp $M/main.go.txt $T/main.go
printf '{"Replace":{"%s/env/bomberman/zz_maskcheck.go":"%s/zz_maskcheck.go","%s/cmd/maskcheck/main.go":"%s/main.go"}}' "$R" $T "$R" $T > $T/overlay.json
go build -overlay $T/overlay.json -o $T/maskcheck ./cmd/maskcheck
nice -n 5 $T/maskcheck -policy "policy:$R/policies/bomberman-2p-planner-touched.policy.safetensors" -opp ${OPP:-harvester} -from ${FROM:-1} -n ${N:-200} -v
