"""record_student.py POLICY OUT: the student's own states (DAgger with history2 as the soft labeller, labelled in
distill.py): the student alone (sampling) against three stalkers in 240 one-task cubes, three teebots in 24,
and stalker and teebot in 120 2-player games each; record_demonstrations with alone_in (--imitate-alone)."""
import pathlib, sys
from botarena.server import find_binary
from botarena.train.imitate import record_demonstrations
CFG = {"history": True, "tasks_scalar": True}
pol, out = sys.argv[1], pathlib.Path(sys.argv[2])
PLAN = [("battlecube", "stalker", 240, 4), ("battlecube", "teebot", 24, 4), ("battlecube/2p", "stalker", 120, 2), ("battlecube/2p", "teebot", 120, 2)]
if len(sys.argv) > 3:  # round 3 (PREFIX): one-task cubes, most against three teebots
    PLAN = [("battlecube", "teebot", 80, 4), ("battlecube", "stalker", 120, 4)]
for i, (game, opp, n, seats) in enumerate(PLAN):
    where = out / f"{sys.argv[3] + '-' if len(sys.argv) > 3 else ''}student-{game.replace('/', '-')}-{opp}"
    if not (where / "data").is_dir():
        record_demonstrations(find_binary(), game, f"policy:{pol}?sample", opp, n, where, seed=7100 + i, config=CFG, alone_in=seats)
    print("recorded", where, flush=True)
