#!/bin/sh
# The tactician is a built-in bot (env/battlebots/tactician.go): nothing is
# trained. This builds botarena at this commit and plays its gauntlet
# (eval.sh: 100 full-length bouts per pairing and seating on seeds
# 1414141414, 2424242424 and 3535353535),
# then the cost of one decision (BenchmarkTacticianAct, beside the duelist's
# and the warden's). Run from the repository root.
set -e
mkdir -p /tmp/tactician-bin
go build -o /tmp/tactician-bin/botarena ./cmd/botarena
BOTARENA_BIN=/tmp/tactician-bin/botarena sh docs/training/battlebots-tactician/eval.sh
go test ./env/battlebots/ -run XXX -bench TacticianAct -benchtime 3000x
