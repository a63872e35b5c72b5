"""(As run by helper bomber10, issue 34, 2026-12-01; paths under /work/runs/bomber10, see notes.md.)
Fit a student to planner's choices; held-out agreement overall, where planner departs from harvester, and where it agrees."""
import argparse, copy, json, time, sys, numpy as np, torch, torch.nn.functional as F
sys.path.insert(0, "/work/runs/bomber10/py")
import data
from botarena.policy import load_policy, PolicyNet, save_policy

p = argparse.ArgumentParser()
p.add_argument("--train-blocks", type=int, default=4, help="64-game blocks per opponent for training (after the test block)")
p.add_argument("--test-blocks", type=int, default=1)
p.add_argument("--touched", action="store_true")
p.add_argument("--arch", default="init", help="init (harvester-ppo weights), base (same shape, fresh), big (32,64,64 / 512 fresh), abs (whole map, fresh)")
p.add_argument("--epochs", type=int, default=4)
p.add_argument("--lr", type=float, default=1e-3)
p.add_argument("--depart-weight", type=float, default=1.0)
p.add_argument("--teacher", default="planner", help="planner or harvester (labels fitted)")
p.add_argument("--save", default="")
p.add_argument("--seed", type=int, default=0)
p.add_argument("--test-n", type=int, default=8000)
p.add_argument("--evals", type=int, default=2, help="evaluations per epoch")
a = p.parse_args()
torch.set_num_threads(1); torch.manual_seed(a.seed)
dirs = ["/work/runs/bomber10/data/hunter", "/work/runs/bomber10/data/harvester"]
t0 = time.time()
te = data.load(dirs, max_blocks=a.test_blocks)
_k = np.sort(np.random.default_rng(1).choice(len(te["planner"]), size=min(a.test_n, len(te["planner"])), replace=False))
te = {k: v[_k] for k, v in te.items()}
tr = data.load(dirs, max_blocks=a.train_blocks, first_block=a.test_blocks) if a.train_blocks else {k: v[:5000] for k, v in te.items()}
ngames = len(np.unique(tr["game"]))
print(f"train {len(tr['planner']):,} decisions of {ngames} games; test {len(te['planner']):,} of {len(np.unique(te['game']))} games; load {time.time()-t0:.0f}s", flush=True)
for nm, d in (("train", tr), ("test", te)):
    dep = d["planner"] != d["harvester"]
    print(f"{nm}: planner departs from harvester on {dep.mean():.1%} (vs hunter {dep[d['opp']==0].mean():.1%}, vs harvester {dep[d['opp']==1].mean():.1%}); planner's actions {np.bincount(d['planner'], minlength=7)/len(dep)}")

src = load_policy("/work/main/policies/bomberman-2p-harvester-ppo.policy.safetensors")
arch = copy.deepcopy(src.arch)
C = 14 if a.touched else 12
r = 0 if a.arch == "abs" else 11
side = 21 if r == 0 else 23
arch["inputs"]["planes"]["shape"] = [C, side, side]
arch["inputs"]["planes"]["scale"] = list(arch["inputs"]["planes"]["scale"])[:12] + [1.0] * (C - 12)
arch["config"] = {"points_reward": 0.002, "view_radius": r, "safe_mask": True, "safe_mask_wary": True, "safe_mask_strict": True}
if a.arch == "big":
    chans, strides, hidden = [32, 64, 64], [1, 2, 1], 512
else:
    chans, strides, hidden = [16, 32], [1, 2], 256
layers, cin, s = [], C, side
for i, (c, st) in enumerate(zip(chans, strides)):
    layers += [{"op": "conv2d", "weight": f"planes.{2*i}.weight", "bias": f"planes.{2*i}.bias", "out": c, "kernel": 3, "stride": st, "padding": 1}, {"op": "relu"}]
layers.append({"op": "flatten"})
arch["planes"] = layers
arch["trunk"] = [{"op": "linear", "weight": "trunk.0.weight", "bias": "trunk.0.bias", "out": hidden}, {"op": "relu"}]
arch["trained"] = {}
net = PolicyNet(arch)
if a.arch == "init":
    sd = src.state_dict(); own = net.state_dict()
    for k, v in sd.items():
        if k == "planes.0.weight" and own[k].shape != v.shape:
            w = torch.zeros_like(own[k]); w[:, :12] = v; own[k] = w
        elif k in own and own[k].shape == v.shape:
            own[k] = v
    net.load_state_dict(own)
print(f"arch {a.arch}, planes {C}x{side}x{side}, {sum(p.numel() for p in net.parameters()):,} parameters", flush=True)

def inputs(d, idx):
    pl = d["planes"][idx]
    if a.touched:
        pl = np.concatenate([pl, d["touched"][idx]], 1)
    if r:
        pl = data.window(pl, r)
    return torch.from_numpy(pl), torch.from_numpy(d["scalars"][idx])

lab = tr[a.teacher]
wt = np.where(tr["planner"] != tr["harvester"], a.depart_weight, 1.0).astype(np.float32)
opt = torch.optim.Adam(net.parameters(), lr=a.lr)
rng = np.random.default_rng(a.seed)

@torch.no_grad()
def evaluate():
    net.eval(); pred = []
    for s in range(0, len(te["planner"]), 2048):
        idx = np.arange(s, min(s + 2048, len(te["planner"])))
        logits, _ = net(*inputs(te, idx))
        pred.append(net.log_probs(logits, torch.from_numpy(te["mask"][idx])).argmax(1).numpy())
    net.train()
    pr = np.concatenate(pred); pl, hv = te["planner"], te["harvester"]; dep = pl != hv
    res = {"acc": (pr == pl).mean(), "acc_depart": (pr == pl)[dep].mean(), "acc_agree": (pr == pl)[~dep].mean(),
           "says_harvester_on_depart": (pr == hv)[dep].mean(), "acc_vs_hunter": (pr == pl)[te["opp"] == 0].mean(),
           "acc_vs_harvester": (pr == pl)[te["opp"] == 1].mean(), "acc_harvester_label": (pr == hv).mean()}
    return {k: round(float(v), 4) for k, v in res.items()}

print("epoch 0", json.dumps(evaluate()), flush=True)
n = len(lab); mb = 512
for ep in range(a.epochs):
    t1 = time.time(); order = rng.permutation(n); tot = acc = 0.0
    for s in range(0, n, mb):
        idx = np.sort(order[s:s + mb])
        logits, _ = net(*inputs(tr, idx))
        logp = net.log_probs(logits, torch.from_numpy(tr["mask"][idx]))
        y = torch.from_numpy(lab[idx])
        l = (F.nll_loss(logp, y, reduction="none") * torch.from_numpy(wt[idx])).mean()
        opt.zero_grad(); l.backward(); torch.nn.utils.clip_grad_norm_(net.parameters(), 0.5); opt.step()
        tot += l.item() * len(idx); acc += float((logp.argmax(1) == y).float().sum())
        step = s // mb + 1; nsteps = (n + mb - 1) // mb
        if a.evals > 1 and step % max(1, nsteps // a.evals) == 0 and step < nsteps:
            print(f"epoch {ep + step / nsteps:.2f} train loss {tot/(s+len(idx)):.3f} acc {acc/(s+len(idx)):.3f} ({time.time()-t1:.0f}s)", json.dumps(evaluate()), flush=True)
    print(f"epoch {ep+1} train loss {tot/n:.3f} acc {acc/n:.3f} ({time.time()-t1:.0f}s)", json.dumps(evaluate()), flush=True)
if a.save:
    save_policy(net, a.save, trained={"teacher": "planner (second version), behaviour cloning by helper bomber10", "games": int(ngames)})
    print("saved", a.save)
