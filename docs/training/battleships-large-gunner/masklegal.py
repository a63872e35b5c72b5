"""ships15: how often each special is legal (in the mask, under shot_mask and shield_mask) in a policy's phase-2
states of a DAgger round's match data, and how often the policy played the seeker and the diagonal cross.
masklegal.py DATA_DIR (e.g. /work/runs/ships15/g4.policy.safetensors.work/r0-admiral/data: large-sharp4's 200 games
against admiral, seed 1511)"""
import pathlib, sys, types
import numpy as np
from botarena.spec import TensorSpec
from botarena.train.imitate import load_demonstrations
N, G = 14, 20; PLACE0 = 1 + 8 * G * G
spec = types.SimpleNamespace(observations=(TensorSpec("planes", np.dtype("uint8"), (13, N, N), "", ()),
                                           TensorSpec("scalars", np.dtype("float32"), (21,), "", ())), actions=PLACE0 + 4 * N * N)
d = load_demonstrations(pathlib.Path(sys.argv[1]), spec, 0.99, (1, PLACE0))
blk = lambda c: d.masks[:, 1 + (c - 1) * G * G: 1 + c * G * G].any(1)
for c, nm in [(2, "double vertical"), (4, "corner"), (5, "diagonal cross"), (6, "cross"), (7, "seeker"), (8, "shield")]:
    print(f"{nm}: legal in {blk(c).mean():.1%} of {len(d)} phase-2 states")
code = (d.played - 1) // (G * G) + 1
print("played: seeker", int((code == 7).sum()), "diagonal cross", int((code == 5).sum()))
