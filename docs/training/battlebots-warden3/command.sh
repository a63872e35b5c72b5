#!/bin/sh
# battlebots-warden3 (issue 34, helper bots5, 2026-11-30): the warden2 run (PPO from battlebots-seat0 with
# the warden's seat-0 opening kept as an imitation term) given the opening's counter-cases. A negative
# result: three branches, none committed. From python/ of a git archive of 099ca55 (PYTHONPATH=src), one
# torch thread, nice -n 5, BOTARENA_BIN and BOTARENA_LIB built from that commit. As run: OUT=/work/runs/bots5.
set -e
OUT=${OUT:-runs/battlebots-warden3}
P=../policies
D=../docs/training/battlebots-warden3
MIX="duelist*6,gambit*5,warden*6,policy:$P/battlebots-seat0.policy.safetensors?sample*3,policy:$P/battlebots-gambit.policy.safetensors?sample*3,policy:$P/battlebots-duelist.policy.safetensors?sample*2,sniper*3,huggy*2,nop,random,policy:$P/battlebots.policy.safetensors?sample,policy:$P/battlebots-league.policy.safetensors?sample,policy:$P/battlebots-holdout.policy.safetensors?sample,policy:$P/battlebots-sniper.policy.safetensors?sample,policy:$P/battlebots-all.policy.safetensors?sample"
ppo() { # ppo DIR SEED MINUTES: PPO, the learner in seat 0 in 2 envs of 3, full 1000-round bouts, hp_reward 0.1,
        # entropy 0.001, each minibatch adding 0.2 x the cross-entropy on the decisions under DIR/imitation.
  python $D/../battlebots-warden2/seed_ckpt.py $P/battlebots-seat0.policy.safetensors "$1"  # battlebots-seat0, fresh Adam, update 1
  python -m botarena.train --game battlebots --config '{"hp_reward": 0.1}' --opponent "$MIX" --learner-seats 0,0,1 \
    --imitate warden --imitate-coef 0.2 --dagger-rounds 3 \
    --num-envs 256 --num-steps 32 --overlap --threads 1 --seed "$2" --minutes "$3" --ent-coef 0.001 \
    --checkpoint-every 10 --eval-games 0 --gauntlet-games 0 --out "$1" --resume auto
}
# 0. Does the new history field (config {"history": 6}) lift imitation of the whole warden? 40 full-length
#    bouts of the warden (10 each against duelist, gambit, warden, sniper), the same network fitted twice on
#    the same decisions, with the history scalars and with them zeroed (history-imitation.json/.log):
python $D/measure_history.py --out "$OUT/measure" --games 10 --epochs 6
# 1. The decisions (opening_data.py): 4-round bouts, 200 games against each of duelist, gambit, warden and
#    the seat0 and gambit policies, played by the warden, then by students (sampling) whose states the
#    warden labels (dagger:warden:...): battlebots-seat0 and the warden2 run's update-80 policy
#    (WARDEN2: its file; docs/training/battlebots-warden2/command.sh makes it). Seat-0 rows of rounds 0-2.
mkdir -p "$OUT/run/ppo/checkpoints"
python $D/opening_data.py "$OUT/run/ppo" 200 $P/battlebots-seat0.policy.safetensors "$WARDEN2"
# Branch A: the warden's labels on all of them (4,500 decisions). Stopped by hand at update 38.
ppo "$OUT/run/ppo" 3701 40
# Branch B: the same decisions, relabelled (relabel.py): the warden's label where its opening fires (round 0;
#    the quiet round-1 and round-2 boards), battlebots-seat0's arg-max on the other 1,216. Stopped at update 41.
mkdir -p "$OUT/runB/ppo/checkpoints" && cp -r "$OUT/run/ppo/imitation" "$OUT/runB/ppo/"
python $D/relabel.py "$OUT/runB/ppo/imitation" $P/battlebots-seat0.policy.safetensors opening
ppo "$OUT/runB/ppo" 3702 26
# Branch C: rounds 0-3, a third student (branch B's update 40, WARDEN3B), and the warden's label wherever the
#    student stands on (2,2) (the path of its opening: the wait, the bullet, the step out of the diagonal
#    or the dodge after them), battlebots-seat0's arg-max elsewhere: 8,000 decisions, 1,777 relabelled.
mkdir -p "$OUT/runC/ppo/checkpoints"
LAST_ROUND=3 python $D/opening_data.py "$OUT/runC/ppo" 200 $P/battlebots-seat0.policy.safetensors "$WARDEN2" "$WARDEN3B"
python $D/relabel.py "$OUT/runC/ppo/imitation" $P/battlebots-seat0.policy.safetensors path
ppo "$OUT/runC/ppo" 3703 22
# (As run, branches A and B passed --dagger-rounds 2; the flag only matters on a fresh run, and a resumed one
# reads every imitation/dagger/round_* folder.)
#
# Evaluation, from the repository root of the same build (full-length, unshaped bouts; the screen's seed
# 990000 and the key seed 5151515151 are unseen in training; 5151515151 with this agent list is the seed of
# docs/training/battlebots-warden2/baseline-key.json, battlebots-seat0's figures on the same games):
# bin/botarena tournament battlebots --agents "t=policy:CKPT?sample,duelist,gambit,warden" --focus t --games 20 --seed 990000 --workers 1 --json > screen-*.json
# bin/botarena tournament battlebots --agents "trained=policy:CKPT?sample,duelist,gambit,warden" --focus trained --games 100 --seed 5151515151 --json > key-*.json
