"""Battle³ 2p: one clone of stalker on both matchups (issue 34, 2026-11-29).

Starts from the stalker run's final policy and refits it on stalker's decisions against both
opponents: the stalker run's (stalker against stalker, and its DAgger rounds against stalker) and the
first teebot run's (stalker against teebot, and its DAgger rounds against teebot), then DAgger rounds
alternating between the two opponents, each refit on every decision so far. Uses only the
botarena.train.imitate functions the trainer's --imitate/--dagger-rounds use.
Run from python/ with PYTHONPATH=src and BOTARENA_BIN set.
"""
import pathlib, sys, time
import torch
from botarena.client import Client
from botarena.server import Server, find_binary
from botarena.policy import load_policy, save_policy
from botarena.train.imitate import load_demonstrations, record_demonstrations, clone, DAGGER_SEED_STRIDE

GAME, GAMMA, SEED = "battlecube/2p", 0.995, 2
INIT = "/work/runs/battlecube-dagger/policy.safetensors"
OUT = pathlib.Path("/work/runs/battlecube-teebot/mix")
SOURCES = [pathlib.Path("/work/runs/battlecube-dagger/imitation/data")] + sorted(pathlib.Path("/work/runs/battlecube-dagger/imitation/dagger").glob("round_*/data")) \
    + [pathlib.Path("/work/runs/battlecube-teebot/imitation/data")] + sorted(pathlib.Path("/work/runs/battlecube-teebot/imitation/dagger").glob("round_*/data"))
ROUNDS = [("stalker", 2000), ("teebot", 400), ("stalker", 2000), ("teebot", 400)]
torch.set_num_threads(1)
torch.manual_seed(SEED)
log = lambda s: print(time.strftime("%H:%M:%S"), s, flush=True)

with Server() as srv:
    spec = Client(srv.address).game_spec(GAME)
demos = None
for d in SOURCES:
    x = load_demonstrations(d, spec, GAMMA)
    log(f"{d}: {len(x):,} decisions in {x.games} games ({x.wins} won)")
    demos = x if demos is None else demos + x
net = load_policy(INIT)
net.train()
opt = torch.optim.Adam(net.parameters(), lr=2.5e-4, eps=1e-5)
kw = dict(minibatch=512, vf_coef=0.5, max_grad_norm=0.5, lr=1e-3, device=torch.device("cpu"), seed=SEED, log=log)
log(f"refit of the stalker run's policy on all {len(demos):,} decisions")
clone(net, opt, demos, epochs=4, **kw)
binary = find_binary()
for r, (opp, games) in enumerate(ROUNDS, 1):
    folder = OUT / f"round_{r:02d}_{opp}"
    folder.mkdir(parents=True, exist_ok=True)
    student = (folder / "student.policy.safetensors").absolute()
    save_policy(net, student, trained={"mix.py": f"before round {r}"})
    data = record_demonstrations(binary, GAME, f"dagger:stalker:policy:{student}?sample", opp, games, folder, seed=(SEED + DAGGER_SEED_STRIDE * r) % 2**64)
    new = load_demonstrations(data, spec, GAMMA)
    log(f"round {r}: the clone won {new.wins} of {new.games} against {opp} ({new.draws} drawn), played stalker's choice on {new.agreement():.1%} of {len(new):,} decisions")
    demos = demos + new
    clone(net, opt, demos, epochs=2, **kw)
final = OUT / "clone.policy.safetensors"
save_policy(net, final, trained={"mix.py": "after all rounds"})
log(f"wrote {final}")
