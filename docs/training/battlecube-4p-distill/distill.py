"""distill.py: the dodger clone of battlecube-4p-dodger (cube4's clone_final, tasks3 against three teebots
47.5% / 58.0%) fitted on to history2's full action distributions (soft targets: KL(history2 || student) over
the legal actions) on history2's own one-task and 2-player states, while it keeps the dodger's hard labels in
tasks3 states (cross-entropy), issue 34, 2026-11-30, helper cube5.

Data: cube4's match data under CUBE4 (/work/runs/cube4/mix): the dodger alone in tasks3 against three teebots
(4,000 cubes) and three stalkers (400), the two DAgger rounds' dodger labels in tasks3, and history2's own
states (arg-max history2 alone against three stalkers, 600 one-task cubes; three teebots, 128; stalker in 384
2-player games). history2 (widened for {"history":true,"tasks_scalar":true}) gives each of its states its
distribution. Each step: a minibatch of B dodger rows (cross-entropy) and B history2 rows (KL × KL_COEF);
the value head is fitted to history2's values on its rows (MSE × 0.5). Adam at LR. A policy file after each
epoch (OUT/distill_eNN.policy.safetensors), stopped at STOP (HH:MM UTC) if set. 2% of each set held out:
each epoch logs the KL and the arg-max agreement with history2, and the dodger accuracy, on them.
Round 2 (DAgger with history2 as the soft labeller): START=OUT/distill_e05 and EXTRA= the folders of
record_student.py (the student's own one-task and 2-player games), whose states history2 labels too.
Run from python/ with PYTHONPATH=src, BOTARENA_BIN set; one torch thread.
"""
import os
import pathlib
import time

import numpy as np
import torch
import torch.nn.functional as F

from botarena.client import Client
from botarena.policy import load_policy, save_policy, widen_inputs
from botarena.server import Server
from botarena.train.imitate import load_demonstrations

CFG = {"history": True, "tasks_scalar": True}
CUBE4 = pathlib.Path(os.environ.get("CUBE4", "/work/runs/cube4/mix"))
OUT = pathlib.Path(os.environ.get("OUT", "/work/runs/cube5/distill"))
HIST2 = os.environ.get("HIST2", "../policies/battlecube-4p-history2.policy.safetensors")
START = os.environ.get("START", str(CUBE4 / "clone_final.policy.safetensors"))
B, LR, KL_COEF, EPOCHS, SEED = 256, float(os.environ.get("LR", "2.5e-4")), float(os.environ.get("KL_COEF", "1.0")), 20, 61
STOP = os.environ.get("STOP", "")
DODGER = ["dodger-tasks3-teebot", "dodger-tasks3-stalker", "round_01_teebot", "round_01_stalker", "round_02_teebot", "round_02_stalker"]
SELF = ["self-stalker", "self-teebot", "self-2p-stalker"]
torch.set_num_threads(1)
torch.manual_seed(SEED)
OUT.mkdir(parents=True, exist_ok=True)


def log(s: str) -> None:
    print(time.strftime("%H:%M:%S"), s, flush=True)


def past_stop() -> bool:
    return bool(STOP) and time.strftime("%H:%M", time.gmtime()) >= STOP


with Server() as srv, Client(srv.address) as c:
    spec = c.game_spec("battlecube/tasks3", CFG)
shapes = {t.name: list(t.shape) for t in spec.observations}


def load(names: list[str]):
    parts = [load_demonstrations((CUBE4 / n if not n.startswith("/") else pathlib.Path(n)) / "data", spec, 0.995) for n in names]
    d = parts[0]
    for p in parts[1:]:
        d = d + p
    return d


# EXTRA: folders (absolute) of the student's own games (record_student.py), labelled by history2 as its own states are
EXTRA = [p for p in os.environ.get("EXTRA", "").split(",") if p]
dod, own = load(DODGER), load(SELF + EXTRA)
log(f"dodger rows {len(dod):,}, history2 rows {len(own):,}")
teacher, notes = widen_inputs(load_policy(HIST2), shapes)
teacher.eval()
names = teacher.input_names
student = load_policy(START)
assert student.input_names == names
# The file records the config it plays with (the start's says {"history":true}: its eighth scalar came from
# widen_inputs); the committed policy's metadata was corrected so after the run, its weights untouched.
student.arch["config"] = dict(CFG)


def tensors(d):
    return [torch.from_numpy(d.obs[n]) for n in names], torch.from_numpy(d.masks)


dobs, dmask = tensors(dod)
dact = torch.from_numpy(dod.actions)
oobs, omask = tensors(own)
# history2's soft targets and values on its own states
t0 = time.monotonic()
tlogp = torch.empty(len(own), spec.actions)
tval = torch.empty(len(own))
with torch.inference_mode():
    for lo in range(0, len(own), 2048):
        sl = slice(lo, lo + 2048)
        logits, v = teacher(*(x[sl] for x in oobs))
        tlogp[sl] = teacher.log_probs(logits, omask[sl])
        tval[sl] = v
log(f"history2's distributions on its {len(own):,} states in {time.monotonic() - t0:.0f} s")
rng = np.random.default_rng(SEED)
dperm, operm = rng.permutation(len(dod)), rng.permutation(len(own))
dhold, dtrain = dperm[: len(dod) // 50], dperm[len(dod) // 50 :]
ohold, otrain = operm[: len(own) // 50], operm[len(own) // 50 :]


def kl_rows(logp_s: torch.Tensor, logp_t: torch.Tensor) -> torch.Tensor:
    p = logp_t.exp()
    return (p * (logp_t - logp_s.clamp(min=-1e4))).sum(1)  # masked actions: p = 0


def heldout() -> str:
    student.eval()
    with torch.inference_mode():
        oi = torch.from_numpy(ohold)
        logits, _ = student(*(x[oi] for x in oobs))
        ls = student.log_probs(logits, omask[oi])
        kl = kl_rows(ls, tlogp[oi]).mean().item()
        agree = (ls.argmax(1) == tlogp[oi].argmax(1)).float().mean().item()
        di = torch.from_numpy(dhold)
        logits, _ = student(*(x[di] for x in dobs))
        acc = (student.log_probs(logits, dmask[di]).argmax(1) == dact[di]).float().mean().item()
    student.train()
    return f"held out: KL to history2 {kl:.3f}, arg-max as history2's {agree:.1%}; dodger accuracy {acc:.1%}"


log(f"start ({START}): {heldout()}")
opt = torch.optim.Adam(student.parameters(), lr=LR, eps=1e-5)
student.train()
for epoch in range(1, EPOCHS + 1):
    t0 = time.monotonic()
    order = rng.permutation(otrain)
    sums = np.zeros(3)
    steps = 0
    for lo in range(0, len(order) - B + 1, B):
        if past_stop():
            break
        oi = torch.from_numpy(order[lo : lo + B])
        di = torch.from_numpy(rng.choice(dtrain, B))
        logits, value = student(*(torch.cat([x[di], y[oi]]) for x, y in zip(dobs, oobs)))
        logp = student.log_probs(logits, torch.cat([dmask[di], omask[oi]]))
        ce = F.nll_loss(logp[:B], dact[di])
        kl = kl_rows(logp[B:], tlogp[oi]).mean()
        vl = F.mse_loss(value[B:], tval[oi])
        loss = ce + KL_COEF * kl + 0.5 * vl
        opt.zero_grad()
        loss.backward()
        torch.nn.utils.clip_grad_norm_(student.parameters(), 0.5)
        opt.step()
        sums += [ce.item(), kl.item(), vl.item()]
        steps += 1
    if steps:
        m = sums / steps
        path = OUT / f"{os.environ.get('PREFIX', 'distill')}_e{epoch:02d}.policy.safetensors"
        save_policy(student, path, trained={"distill.py": f"epoch {epoch}, {steps} steps of {B}+{B} rows", "config": CFG})
        log(f"epoch {epoch}: {steps} steps, dodger CE {m[0]:.3f}, KL to history2 {m[1]:.3f}, value MSE {m[2]:.4f} ({time.monotonic() - t0:.0f} s); {heldout()}; wrote {path.name}")
    if past_stop():
        log("STOP reached")
        break
log("done")
