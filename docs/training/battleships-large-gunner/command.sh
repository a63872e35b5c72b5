#!/bin/sh
# battleships-large-gunner (helper ships15, issue 34, 2026-12-02): the 14x14 endgame's unspent energy, a built-in
# bot that spends it (gunner), and DAgger of large-sharp4's special-weapon decisions toward it. Shared 2-core
# machine (another engineer's benchmarks alongside), nice -n 5, OMP_NUM_THREADS=1, .venv from `make train-venv`,
# BOTARENA_BIN=bin/botarena (go build -o bin/botarena ./cmd/botarena). SH4 is a copy of
# policies/battleships-large-sharp4.policy.safetensors. Work files in /work/runs/ships15 (not committed).
# Seeds: scripted screens 7101 (head to head, dropped: too noisy), 7102 (unopposed rounds, every variant and
# policy on the same fleets), 7103 (gunner head to head); DAgger games 1501 (g1-g3, round r: 1501 + 7919 r + k),
# 1511 (g4); policy screen 7474; gauntlet 7171, 7272, 7373. None used before.
SH4=/work/runs/ships15/sharp4.policy.safetensors
export BOTARENA_BIN=bin/botarena OMP_NUM_THREADS=1
D=docs/training/battleships-large-gunner
# 1. Scripted variants of hunter's energy price (exp1.sh, exp2.sh, exp3.sh). They ran on an experimental build:
#    Hunter had a spendRule {scale, richAt, codes} (energyWorth x scale; 0 at energy >= richAt; only the special codes
#    listed), registered as admiral variants from BOTARENA_SPEND="name:scale:richAt[:codes]", and the `sitter`
#    agent of exp_agents.go.txt (admiral's fleet, then harmless off-map single shots, so that a tournament's mean
#    length is the rounds a shooter needs to sink admiral's fleet unopposed; registered with BOTARENA_SITTER=1).
#    That file is not in the tree; copy it to env/battleships/ to rebuild the sitter (the spend variants are
#    gunner's specials field now: codes 5 = d0, 45 = dc0).
sh $D/exp1.sh   # head to head with admiral, seed 7101, 100 a seating (x0, x25 only; stopped: +-7 points of noise)
sh $D/exp2.sh   # unopposed rounds, seed 7102, 200 a seating: admiral, x0, x10, x25, x50, rich60, rich100, x25r100
sh $D/exp3.sh   # the same for the checkerboard patterns at price 0: d0, dc0, dcs0, dcs25, dcx0
# 2. The built-in gunner (env/battleships/gunner.go), first as dc0 (corner shot and diagonal cross), then as d0
#    (diagonal cross only: what a policy's factored action head can copy). exp4.sh: unopposed (seed 7102) and head
#    to head with admiral, marksman and hunter (seed 7103, 200 a seating); exp4-corner.* is the first version's.
sh $D/exp4.sh
# 3. DAgger (dagger.py): large-sharp4 plays (sampling) 200 games against each of admiral and marksman as
#    dagger:gunner:policy:STUDENT?sample, gunner labels each state; refit from large-sharp4; 2 rounds.
#    g1: every phase-2 decision labelled by gunner (dc0 version), 4 epochs.
python $D/dagger.py $SH4 gunner /work/runs/ships15/g1.policy.safetensors 2 200 4 1501
#    g2: only the special decisions gunner's (dc0), the rest the student's own samples; round 0's games reused.
LABELS=specials REUSE=/work/runs/ships15/g1.policy.safetensors.work python $D/dagger.py $SH4 gunner /work/runs/ships15/g2.policy.safetensors 2 200 4 1501
#    g3: the special decisions gunner's (dc0), KL to large-sharp4 elsewhere; round 0 reused; stopped after round 0.
LABELS=specials-kl REUSE=/work/runs/ships15/g1.policy.safetensors.work python $D/dagger.py $SH4 gunner /work/runs/ships15/g3.policy.safetensors 2 200 3 1501
#    g4: as g3 with the d0 gunner (diagonal cross only), fresh games, seed 1511.
LABELS=specials-kl python $D/dagger.py $SH4 gunner /work/runs/ships15/g4.policy.safetensors 2 200 3 1511
# 4. Screens (screen.sh: sampling vs admiral, 100 a seating, seed 7474; unopposed vs sitter, seed 7102).
sh $D/screen.sh sharp4 $SH4
sh $D/screen.sh r0 /work/runs/ships15/g1.policy.safetensors.r0
sh $D/screen.sh g2r0 /work/runs/ships15/g2.policy.safetensors.r0
sh $D/screen.sh g3r0 /work/runs/ships15/g3.policy.safetensors.r0
sh $D/screen.sh g4r0 /work/runs/ships15/g4.policy.safetensors.r0
#    (screen.sh, exp4.sh and the sitter need a build with exp_agents.go.txt copied in as env/battleships/*.go.)
#    (g4's round-1 fit was stopped for time after 2 of 3 epochs; g4 round 0 is the candidate, g4r0.)
# 5. gunner3 (exp_agents.go.txt, BOTARENA_SITTER=1): gunner with the diagonal cross, the cross and the seeker.
BOTARENA_SITTER=1 bin/botarena tournament battleships/large --config '{"placement":"learn"}' --agents gunner3,admiral,marksman,gunner,sitter --focus gunner3 --games 200 --seed 7103 --workers 2
# 6. Is the seeker masked? The mask's special blocks in large-sharp4's own states (round 0 of g4: 200 games vs admiral).
python $D/masklegal.py /work/runs/ships15/g4.policy.safetensors.work/r0-admiral/data
# 7. Recorded games, analysis only (seeds 130000-130029, ships14's analysis set; not an evaluation):
#    ../battleships-large-fleet/fleetcheck.sh (CFG = large-sharp4's config) and games.py, 30 games each.
cd /work/runs/ships15/scratch && CFG='{"placement":"learn","shot_mask":true,"density_plane":true,"shield_mask":true}' \
  sh /work/main/$D/../battleships-large-fleet/fleetcheck.sh $SH4 sharp4 30 && \
  CFG='{"placement":"learn","shot_mask":true,"density_plane":true,"shield_mask":true}' \
  sh /work/main/$D/../battleships-large-fleet/fleetcheck.sh /work/runs/ships15/g4r0.policy.safetensors g4r0 30 && \
  python3 /work/main/$D/../battleships-large-fleet/games.py sharp4 && python3 /work/main/$D/../battleships-large-fleet/games.py g4r0
cd /work/main
# 8. Gauntlet (seeds 7171, 7272, 7373): g4r0 is a copy of g4.policy.safetensors.r0.
bash $D/gauntlet.sh sharp4=$SH4
bash $D/gauntlet.sh g4r0=/work/runs/ships15/g4r0.policy.safetensors
python3 docs/training/battleships-medium-fleet/table.py $D/gauntlet > $D/gauntlet.md
# 9. seeker0 / dseeker0 (exp_agents.go.txt): gunner with the seeker only / the seeker and the diagonal cross.
BOTARENA_SITTER=1 bin/botarena tournament battleships/large --config '{"placement":"learn"}' --agents seeker0,dseeker0,marksman,sitter --focus seeker0,dseeker0 --games 200 --seed 7103 --workers 2
# 10. gunner (d0) head to head on a second seed, 7104 (new), 200 games a seating.
bin/botarena tournament battleships/large --config '{"placement":"learn"}' --agents gunner,marksman,admiral --focus gunner --games 200 --seed 7104 --workers 2 --json > $D/exp5-h2h.json
