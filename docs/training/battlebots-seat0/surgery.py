"""Teach a BattleBots policy one opening from seat 0 by behaviour cloning on two states, keeping
everything else: cross-entropy towards the teacher's action at the opening states plus KL(old || new)
and a value-regression term on states the old policy reaches itself (anchors).

The opening (seat 0, the bout as it stands): round 0 SE to (2,2); round 1, enemy at (7,7) (distance 5
on the diagonal), "nothing" (wait one round); round 2, enemy stepped to (6,6) (distance 4, in line),
"B SE": a bullet, 3 cells a round, meets the enemy that walks to (5,5) in the same round.
usage: surgery.py IN OUT"""
import os, sys, numpy as np, torch
from botarena.vector import BotarenaVectorEnv
from botarena.policy import load_policy, save_policy
torch.set_num_threads(1); torch.manual_seed(0)
src, dst = sys.argv[1], sys.argv[2]
old = load_policy(src); net = load_policy(src); net.train()
P = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "policies") + os.sep  # the repository's policies/ (the run used /work/main/policies/)
def stack(obs_list):
    return {k: np.concatenate([o[k] for o in obs_list]) for k in obs_list[0]}
# anchors: the old policy's own states (sampled play), both seats, a mixture of opponents
anc_obs, anc_mask = [], []
rng = np.random.default_rng(0)
opps = ["duelist", "gambit", "sniper", "huggy", "nop", "random", f"policy:{P}battlebots-gambit.policy.safetensors?sample",
        f"policy:{P}battlebots-duelist.policy.safetensors?sample", f"policy:{P}battlebots-holdout.policy.safetensors?sample"]
for k, opp in enumerate(opps):
    for seat in (0, 1):
        env = BotarenaVectorEnv("battlebots", 16, opponents=opp, seed=1000 + 10 * k + seat, backend="native", learner_seat=seat)
        obs, info = env.reset(seed=1000 + 10 * k + seat)
        mask = info["action_mask"]
        for t in range(60):
            o = {kk: np.array(v) for kk, v in obs.items()}
            anc_obs.append(o); anc_mask.append(np.array(mask))
            with torch.no_grad():
                lp = old.log_probs(old.observe(o)[0], torch.as_tensor(mask)).exp().numpy()
            a = np.array([rng.choice(len(p), p=p / p.sum()) for p in lp])
            obs, r, te, tr, info = env.step(a)
            mask = info["action_mask"]
        env.close()
A = stack(anc_obs); AM = np.concatenate(anc_mask)
print("anchor states", AM.shape[0])
# the opening states
env = BotarenaVectorEnv("battlebots", 1, opponents="gambit", seed=7, backend="native", learner_seat=0)
obs, info = env.reset(seed=7)
obs, *_, info = env.step(np.array([4])); SA = {k: np.array(v) for k, v in obs.items()}; MA = np.array(info["action_mask"])
obs, *_, info = env.step(np.array([0])); SB = {k: np.array(v) for k, v in obs.items()}; MB = np.array(info["action_mask"])
env.close()
T = stack([SA, SB]); TM = np.concatenate([MA, MB]); TY = torch.tensor([0, 12])
At = {k: torch.as_tensor(v) for k, v in A.items()}; AMt = torch.as_tensor(AM)
with torch.no_grad():
    ol, ov = old(*(At[n] for n in old.input_names)); olp = old.log_probs(ol, AMt)
Tt = {k: torch.as_tensor(v) for k, v in T.items()}; TMt = torch.as_tensor(TM)
opt = torch.optim.Adam(net.parameters(), lr=1e-4)
for step in range(400):
    idx = torch.randint(0, AMt.shape[0], (512,))
    l, v = net(*(At[n][idx] for n in net.input_names)); lp = net.log_probs(l, AMt[idx])
    kl = (olp[idx].exp() * (olp[idx] - lp)).sum(1).mean()
    vl = ((v - ov[idx]) ** 2).mean()
    tl, _ = net(*(Tt[n] for n in net.input_names)); tlp = net.log_probs(tl, TMt)
    ce = -tlp[torch.arange(2), TY].mean()
    loss = ce + 10 * kl + vl
    opt.zero_grad(); loss.backward(); opt.step()
    if step % 50 == 0 or step == 399:
        print(f"step {step} ce {ce.item():.3f} p(target) {tlp[torch.arange(2), TY].exp().detach().numpy().round(3)} kl {kl.item():.5f} value {vl.item():.5f}")
    if tlp[torch.arange(2), TY].exp().min() > 0.95 and step >= 50:
        print(f"step {step}: targets reached, p {tlp[torch.arange(2), TY].exp().detach().numpy().round(3)} kl {kl.item():.5f}")
        break
net.eval()
with torch.no_grad():
    l, _ = net(*(At[n] for n in net.input_names)); lp = net.log_probs(l, AMt)
    klall = (olp.exp() * (olp - lp)).sum(1)
    print(f"KL over all anchors: mean {klall.mean().item():.5f} max {klall.max().item():.4f}; arg-max changed on {(lp.argmax(1) != olp.argmax(1)).float().mean().item()*100:.2f}% of anchors")
save_policy(net, dst, trained={"surgery": "seat-0 opening: wait at (2,2) in round 1, then B SE", "from": src})
print("wrote", dst)
