"""ships15 (issue 34): DAgger of a 14x14 Battleships policy's phase-2 decisions toward a built-in shooter.

dagger.py START TEACHER OUT ROUNDS GAMES_PER_OPPONENT EPOCHS SEED [OPPONENTS]

From START (a policy file of the large-sharp4 config), ROUNDS times: the current student plays GAMES_PER_OPPONENT
games (as trained: ?sample) against each of OPPONENTS (comma separated, default admiral,marksman) as
dagger:TEACHER:policy:STUDENT?sample, a league's match data recording beside each of its actions what TEACHER (a
built-in bot) would have done in that state; then START is refitted on every decision so far: the phase-2 ones
(actions 1..3200: shots and shield) labelled with TEACHER's choice, the placements (3201..3984) with the student's
own sampled choice (so that the fleets stay the student's: self-distillation, in expectation its own
distribution). Cross-entropy only (vf_coef 0), EPOCHS passes at 5e-4 in minibatches of 512 (the trainer's clone()).
Round r's games are seeded SEED + r*7919 + k (k the opponent's index). Writes OUT and OUT.rR (each round's fit).

LABELS=specials (env): only the special-weapon decisions are TEACHER's: a phase-2 row is labelled with TEACHER's
choice where TEACHER fires a special (any code but the single shot and the shield) or the student did, and with the
student's own sampled choice elsewhere (its shots and shields stay its own, in expectation); LABELS=specials-only
keeps only those rows (and the placements). LABELS=specials-kl: those rows (TEACHER's label, cross-entropy) and,
on every other row (placements included), the KL divergence from START's own distribution (frozen), in place of
its sampled choice: the student keeps START's shots, shields and fleets, not a sample of them, and learns TEACHER's
special weapons. REUSE=DIR (env): round
0's games are read from DIR (an earlier run's OUT.work) instead of played, when its student was START too."""
import os, pathlib, shutil, sys, types, time
import numpy as np, torch
from botarena.policy import load_policy, save_policy
from botarena.server import find_binary
from botarena.spec import TensorSpec
from botarena.train.imitate import clone, load_demonstrations, record_demonstrations

start, teacher, out, rounds, games, epochs, seed = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5]), int(sys.argv[6]), int(sys.argv[7])
opponents = (sys.argv[8] if len(sys.argv) > 8 else "admiral,marksman").split(",")
N, G, GAME = 14, 20, "battleships/large"
PLACE0 = 1 + 8 * G * G  # 3201
CFG = {"placement": "learn", "shot_mask": True, "density_plane": True, "shield_mask": True}
spec = types.SimpleNamespace(observations=(TensorSpec("planes", np.dtype("uint8"), (13, N, N), "", ()),
                                           TensorSpec("scalars", np.dtype("float32"), (21,), "", ())), actions=PLACE0 + 4 * N * N)
work = pathlib.Path(out + ".work")
student = str(pathlib.Path(start).resolve())
def kl_fit(net, opt, demos, epochs, seed):
    """Cross-entropy on the rows whose label is a special weapon or whose played action was one (TEACHER's label),
    KL(START || net) on the rest, EPOCHS passes in shuffled minibatches of 512 at 5e-4, gradients clipped at 0.5."""
    ref = load_policy(start); ref.eval()
    code = lambda a: (a - 1) // (G * G) + 1
    tc, sc = code(demos.actions), code(demos.played)
    ph2 = (demos.actions >= 1) & (demos.actions < PLACE0)
    special = torch.from_numpy(ph2 & (((tc > 1) & (tc < 8)) | ((sc > 1) & (sc < 8))))
    obs = [torch.from_numpy(demos.obs[k]) for k in net.input_names]
    masks, actions = torch.from_numpy(demos.masks), torch.from_numpy(demos.actions)
    rng = np.random.default_rng(seed)
    n = len(demos)
    print(f"kl_fit: {int(special.sum())} special rows (teacher's label), {n - int(special.sum())} KL rows", flush=True)
    for epoch in range(epochs):
        t0, order = time.time(), rng.permutation(n)
        ce_sum = kl_sum = acc = ns = nk = 0.0
        for st in range(0, n, 512):
            idx = torch.from_numpy(order[st:st + 512])
            x = [o[idx] for o in obs]
            m = masks[idx]
            logp = net.log_probs(net(*x)[0], m)
            with torch.no_grad():
                lref = ref.log_probs(ref(*x)[0], m)
                pref = lref.exp()
            sp = special[idx]
            ce = -logp.gather(1, actions[idx][:, None])[:, 0]
            kl = torch.where(pref > 0, pref * (lref - logp), torch.zeros_like(pref)).sum(1)
            loss = torch.where(sp, ce, kl).mean()
            opt.zero_grad(); loss.backward()
            torch.nn.utils.clip_grad_norm_(net.parameters(), 0.5); opt.step()
            ce_sum += float(ce[sp].sum()); kl_sum += float(kl[~sp].sum())
            acc += float((logp.argmax(1)[sp] == actions[idx][sp]).sum())
            ns += int(sp.sum()); nk += int((~sp).sum())
        print(f"kl_fit epoch {epoch + 1}/{epochs}: special cross-entropy {ce_sum / max(ns, 1):.3f} (arg-max = label {acc / max(ns, 1):.1%}), "
              f"KL {kl_sum / max(nk, 1):.4f} ({time.time() - t0:.0f} s)", flush=True)


demos = None
for r in range(rounds):
    for k, opp in enumerate(opponents):
        d = work / f"r{r}-{opp}"
        t0 = time.time()
        reuse = os.environ.get("REUSE")
        if r == 0 and reuse and not (d / "data").is_dir():
            shutil.copytree(pathlib.Path(reuse) / d.name, d)
        if not (d / "data").is_dir():
            record_demonstrations(find_binary(), GAME, f"dagger:{teacher}:policy:{student}?sample", opp, games, d,
                                  seed=seed + r * 7919 + k, config=CFG)
        shots = load_demonstrations(d / "data", spec, 0.99, (1, PLACE0))
        if os.environ.get("LABELS") == "specials":
            code = lambda a: (a - 1) // (G * G) + 1  # 1 single, 2-3 double, 4 corner, 5 diagonal cross, 6 cross, 7 seeker, 8 shield
            tc, sc = code(shots.actions), code(shots.played)
            special = ((tc > 1) & (tc < 8)) | ((sc > 1) & (sc < 8))
            print(f"  {teacher} fires a special on {int(((tc > 1) & (tc < 8)).sum())} rows, the student on {int(((sc > 1) & (sc < 8)).sum())}; teacher labels kept on {int(special.sum())}", flush=True)
            shots.actions = np.where(special, shots.actions, shots.played)
        if os.environ.get("LABELS") == "specials-only":
            code = lambda a: (a - 1) // (G * G) + 1
            tc, sc = code(shots.actions), code(shots.played)
            special = ((tc > 1) & (tc < 8)) | ((sc > 1) & (sc < 8))
            print(f"  {teacher} fires a special on {int(((tc > 1) & (tc < 8)).sum())} rows, the student on {int(((sc > 1) & (sc < 8)).sum())}; only those {int(special.sum())} rows kept", flush=True)
            shots.obs = {n: v[special] for n, v in shots.obs.items()}
            shots.masks, shots.returns, shots.played, shots.actions = shots.masks[special], shots.returns[special], shots.played[special], shots.actions[special]
        place = load_demonstrations(d / "data", spec, 0.99, None)
        keep = (place.played >= PLACE0)
        place.obs = {n: v[keep] for n, v in place.obs.items()}
        place.masks, place.returns, place.played = place.masks[keep], place.returns[keep], place.played[keep]
        place.actions = place.played.copy()
        print(f"round {r} vs {opp}: {place.games} games, student won {place.wins}; {len(shots)} phase-2 decisions "
              f"(student agreed with {teacher} on {shots.agreement():.1%}), {len(place)} placements; {time.time() - t0:.0f} s", flush=True)
        demos = shots + place if demos is None else demos + shots + place
    net = load_policy(start); net.train()
    opt = torch.optim.Adam(net.parameters(), lr=5e-4, eps=1e-5)
    t0 = time.time()
    if os.environ.get("LABELS") == "specials-kl":
        kl_fit(net, opt, demos, epochs, seed + r)
    else:
        clone(net, opt, demos, epochs=epochs, minibatch=512, vf_coef=0.0, max_grad_norm=0.5, lr=5e-4, device=torch.device("cpu"), seed=seed + r)
    net.eval()
    trained = dict(net.arch.get("trained", {}))
    trained["dagger"] = f"ships15: phase-2 decisions of {teacher} on the states of {r + 1} DAgger rounds ({games} games a round vs each of {','.join(opponents)}), placements as the student sampled them; {epochs} epochs at 5e-4 from {pathlib.Path(start).name}"
    path = f"{out}.r{r}"
    save_policy(net, path, trained=trained)
    student = str(pathlib.Path(path).resolve())
    print(f"round {r}: fitted on {len(demos)} decisions in {time.time() - t0:.0f} s, wrote {path}", flush=True)
save_policy(load_policy(student), out, trained=trained)
print("wrote", out)
