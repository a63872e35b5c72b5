#!/bin/bash
# gunner: unopposed rounds to sink admiral's fleet (seed 7102, as exp2/exp3) and head to head with admiral, marksman, hunter (seed 7103, new), 200 games a seating
cd /work/main
# (rerun at 04:28 for the diagonal-cross-only gunner; the first run, corner shot and diagonal cross, is exp4-corner.log / exp4-h2h-corner.json)
export BOTARENA_SITTER=1
nice -n 5 bin/botarena tournament battleships/large --config '{"placement":"learn"}' --agents gunner,sitter --games 200 --seed 7102 --workers 2 2>/dev/null | grep -E "mean length|^gunner "
nice -n 5 bin/botarena tournament battleships/large --config '{"placement":"learn"}' --agents gunner,admiral,marksman,hunter --focus gunner --games 200 --seed 7103 --workers 2 --json > /work/runs/ships15/exp4-h2h.json 2>/work/runs/ships15/exp4-h2h.err
