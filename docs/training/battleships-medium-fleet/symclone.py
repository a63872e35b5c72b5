"""ships12, sized by ships13 and ships14 (issue 34): a Battleships policy (SIZE: small 7x7, medium 10x10 or large 14x14, env SIZE, default medium)'s fleets spread over the board's 8 symmetries, the student placing under fleet_planes.

SIZE=medium symclone.py POLICY TEACHER GAMES OUT [EPOCHS] [SEED]

ships13 changed only the size: N and PLACE0 come from SIZE (7x7: 13x13 shot grid, 10x10: 16x16), the map
name from SIZE, and the symclone note in the policy file names ships13. ships14 added SIZE=large (14x14: the 20x20
shot grid, cells -3..16, so the first placement action is 3201 "place 0 0 North" of 3985; `botarena games --json`).

A hard fleet stays as hard under the board's rotations and reflections (symrace.py: admiral needs 36.8-37.8
rounds to sink the narrow fleet of the sharpened runs in each of its 8 images, SE 0.45), but PPO's placements
keep one image. This plays GAMES games of TEACHER (a policy: spec) against admiral under shield_mask (a
league's match data, as --imitate records them), then fits POLICY to the teacher's decisions with every
placement decision (actions PLACE0.., 1353..1548 on 7x7) given in all 8 images (the own-ship planes, the mask and the action
transformed together) and every phase-2 decision as played (so the shots and shields stay the teacher's):
cross-entropy only (vf_coef 0: the league data lacks the training points reward, so the value head is left alone), EPOCHS passes (default 3) at 5e-4 in minibatches of 512, the trainer's own
clone(). The teacher plays without fleet_planes (its placements see no ships) unless TEACHER_FLEET_PLANES=1 (then
the planes it saw are checked against these); its placement rows get the own-ship planes fleet_planes shows (the ships of the game's earlier placement rows), so the student, which plays with
{"fleet_planes": true} added to the config (recorded in OUT), learns to place each ship relative to the ones
before it in the same image. Writes OUT (a policy file)."""
import json, os, pathlib, sys, types
import numpy as np, torch
from botarena.policy import load_policy, save_policy
from botarena.server import find_binary
from botarena.spec import TensorSpec
from botarena.train.imitate import Demonstrations, clone, load_demonstrations, record_demonstrations

pol, teacher, games, out = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
epochs = int(sys.argv[5]) if len(sys.argv) > 5 else 3
seed = int(sys.argv[6]) if len(sys.argv) > 6 else 171
SIZE = os.environ.get("SIZE", "medium")
N, G, GAME = {"small": (7, 13, "battleships/small"), "medium": (10, 16, "battleships"), "large": (14, 20, "battleships/large")}[SIZE]
PLACE0 = 1 + 8 * G * G  # the first placement action: 1353 on 7x7, 2049 on 10x10, 3201 on 14x14
CFG = {"placement": "learn", "shot_mask": True, "density_plane": True, "shield_mask": True}
TEACHER_FP = os.environ.get("TEACHER_FLEET_PLANES") == "1"  # the teacher plays under fleet_planes (its planes are filled in already)
if TEACHER_FP:
    CFG["fleet_planes"] = True
spec = types.SimpleNamespace(observations=(TensorSpec("planes", np.dtype("uint8"), (13, N, N), "", ()),
                                           TensorSpec("scalars", np.dtype("float32"), (21,), "", ())), actions=PLACE0 + 4 * N * N)
work = pathlib.Path(out + ".work")
data = work / "data"
if not data.is_dir():
    record_demonstrations(find_binary(), GAME, teacher, "admiral", games, work, seed=seed, config=CFG)
place = load_demonstrations(data, spec, 0.99, (PLACE0, PLACE0 + 4 * N * N))
shots = load_demonstrations(data, spec, 0.99, (1, PLACE0))
print(f"{len(place)} placement and {len(shots)} phase-2 decisions from {place.games} games ({place.wins} won)", flush=True)

# The own-ship planes fleet_planes shows: row i with k ships chosen marks the ships of rows i-k .. i-1.
LENS = [3, 2, 4, 5, 3]
def ship_cells(a, k):
    p = int(a) - PLACE0; x, y, d = p // 4 // N, p // 4 % N, p % 4
    dx, dy = [(0, 1), (1, 0), (0, -1), (-1, 0)][d]
    return [(x + i * dx, y + i * dy) for i in range(LENS[k])]
ks = np.rint(place.obs["scalars"][:, 18] * 5).astype(int)
planes = place.obs["planes"].copy()
for i, k in enumerate(ks):
    assert k == 0 or ks[i - 1] == k - 1, f"row {i}: {k} ships chosen after a row with {ks[i - 1]}"
    want = np.zeros_like(planes[i, :5])
    for p in range(k):
        for x, y in ship_cells(place.actions[i - k + p], p):
            want[p, y, x] = 1
    if TEACHER_FP:
        assert (planes[i, :5] == want).all(), f"row {i}: the teacher's fleet_planes differ from its earlier placement rows"
    else:
        assert not planes[i, :5].any(), "the teacher's own-ship planes are not empty in phase 1: set TEACHER_FLEET_PLANES=1"
    planes[i, :5] = want
place.obs["planes"] = planes
print(f"own-ship planes filled in on {int((ks > 0).sum())} placement rows", flush=True)

# The 8 symmetries as maps of (x, y) and of the direction vectors (0 North (0,1), 1 East (1,0), 2 South, 3 West).
T = [lambda x, y: (x, y), lambda x, y: (N - 1 - x, y), lambda x, y: (x, N - 1 - y), lambda x, y: (N - 1 - x, N - 1 - y),
     lambda x, y: (y, x), lambda x, y: (N - 1 - y, x), lambda x, y: (y, N - 1 - x), lambda x, y: (N - 1 - y, N - 1 - x)]
DV = [(0, 1), (1, 0), (0, -1), (-1, 0)]
def perms(t):
    """The permutation of the placement actions and of the cells (planes' y*N+x) under t."""
    pa = np.zeros(4 * N * N, dtype=np.int64); pc = np.zeros(N * N, dtype=np.int64)
    for x in range(N):
        for y in range(N):
            nx, ny = t(x, y); pc[y * N + x] = ny * N + nx
            for d, (dx, dy) in enumerate(DV):
                # the direction's image: t is affine, so its linear part maps (dx, dy) to t(p + (dx, dy)) - t(p)
                v = np.subtract(t(2 + dx, 2 + dy), t(2, 2))
                nd = DV.index((int(v[0]), int(v[1])))
                pa[(x * N + y) * 4 + d] = (nx * N + ny) * 4 + nd
    return pa, pc
obs_p, obs_s, masks, acts, rets = [], [], [], [], []
for t in T:
    pa, pc = perms(t)
    pl = place.obs["planes"].reshape(len(place), 13, N * N)
    newp = np.empty_like(pl); newp[:, :, pc] = pl
    obs_p.append(newp.reshape(len(place), 13, N, N)); obs_s.append(place.obs["scalars"])
    m = place.masks.copy(); m[:, PLACE0 + pa] = place.masks[:, PLACE0:]
    masks.append(m)
    acts.append(PLACE0 + pa[place.actions - PLACE0]); rets.append(place.returns)
    assert (np.take_along_axis(m, acts[-1][:, None], 1) > 0).all(), "a transformed placement is not legal under the transformed mask"
aug = Demonstrations(obs={"planes": np.concatenate(obs_p), "scalars": np.concatenate(obs_s)}, masks=np.concatenate(masks),
                     actions=np.concatenate(acts), returns=np.concatenate(rets), games=place.games, wins=place.wins, draws=place.draws)
demos = aug + shots
net = load_policy(pol); net.train()
opt = torch.optim.Adam(net.parameters(), lr=5e-4, eps=1e-5)
clone(net, opt, demos, epochs=epochs, minibatch=512, vf_coef=0.0, max_grad_norm=0.5, lr=5e-4, device=torch.device("cpu"), seed=seed)
net.eval()
net.arch["config"] = {**net.arch.get("config", {}), "fleet_planes": True}
trained = dict(net.arch.get("trained", {}))
trained["symclone"] = f"ships12/ships13/ships14 ({SIZE}): placements (under fleet_planes) of {teacher} in {games} games vs admiral in all 8 board symmetries, phase-2 decisions as played; {epochs} epochs at 5e-4"
save_policy(net, out, trained=trained)
print("wrote", out)
