"""Battle³ 2p, one policy for both matchups (issue 34, 2026-11-29), second clone.

Starts from the stalker run's final policy (INIT) and fits it to two teachers at once:
- against stalker, INIT's own arg-max decisions (its games against stalker: it wins 45% of them,
  where stalker's own choices only draw against stalker, see mix.log);
- against teebot, stalker's decisions (stalker against teebot, 20,000 games, and the first teebot
  run's three DAgger rounds against teebot: stalker kills teebot in its first tick),
then two DAgger rounds against teebot (stalker labels the clone's states), each refit on everything.
Uses the botarena.train.imitate functions the trainer's --imitate/--dagger-rounds use.
Run from python/ with PYTHONPATH=src and BOTARENA_BIN set.
"""
import pathlib, time
import torch
from botarena.client import Client
from botarena.server import Server, find_binary
from botarena.policy import load_policy, save_policy
from botarena.train.imitate import load_demonstrations, record_demonstrations, clone, DAGGER_SEED_STRIDE

GAME, GAMMA, SEED = "battlecube/2p", 0.995, 5
INIT = "/work/runs/battlecube-dagger/policy.safetensors"
OUT = pathlib.Path("/work/runs/battlecube-teebot/mix2")
TEEBOT = [pathlib.Path("/work/runs/battlecube-teebot/imitation/data")] + sorted(pathlib.Path("/work/runs/battlecube-teebot/imitation/dagger").glob("round_*/data"))
SELF_GAMES, SELF_REPEAT = 4000, 4  # INIT's games against stalker; its decisions counted 4 times
torch.set_num_threads(1)
torch.manual_seed(SEED)
log = lambda s: print(time.strftime("%H:%M:%S"), s, flush=True)

with Server() as srv:
    spec = Client(srv.address).game_spec(GAME)
binary = find_binary()
data = record_demonstrations(binary, GAME, f"policy:{INIT}", "stalker", SELF_GAMES, OUT / "self", seed=SEED)
own = load_demonstrations(data, spec, GAMMA)
log(f"INIT (arg-max) against stalker: {len(own):,} decisions in {own.games} games ({own.wins} won, {own.draws} drawn)")
demos = own
for _ in range(SELF_REPEAT - 1):
    demos = demos + own
for d in TEEBOT:
    x = load_demonstrations(d, spec, GAMMA)
    log(f"{d}: {len(x):,} decisions in {x.games} games ({x.wins} won)")
    demos = demos + x
net = load_policy(INIT)
net.train()
opt = torch.optim.Adam(net.parameters(), lr=2.5e-4, eps=1e-5)
kw = dict(minibatch=512, vf_coef=0.5, max_grad_norm=0.5, lr=1e-3, device=torch.device("cpu"), seed=SEED, log=log)
log(f"fitting INIT on {len(demos):,} decisions")
clone(net, opt, demos, epochs=4, **kw)
for r in (1, 2):
    folder = OUT / f"round_{r:02d}_teebot"
    folder.mkdir(parents=True, exist_ok=True)
    student = (folder / "student.policy.safetensors").absolute()
    save_policy(net, student, trained={"mix2.py": f"before round {r}"})
    data = record_demonstrations(binary, GAME, f"dagger:stalker:policy:{student}?sample", "teebot", 400, folder, seed=(SEED + DAGGER_SEED_STRIDE * r) % 2**64)
    new = load_demonstrations(data, spec, GAMMA)
    log(f"round {r}: the clone won {new.wins} of {new.games} against teebot ({new.draws} drawn), played stalker's choice on {new.agreement():.1%} of {len(new):,} decisions")
    demos = demos + new
    clone(net, opt, demos, epochs=2, **kw)
final = OUT / "clone.policy.safetensors"
save_policy(net, final, trained={"mix2.py": "after both rounds"})
log(f"wrote {final}")
