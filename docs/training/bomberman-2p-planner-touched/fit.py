"""(helper bomber11, issue 34, 2026-12-01; after docs/training/bomberman-2p-planner-clone/fit.py by bomber10.)
Fit a student to planner's choices from bomberman-2p-harvester-ppo's weights (new inputs' weights start at 0), held-out
agreement overall, where planner departs from harvester, and where it does not; saves a policy file whose config is
the game's (touched_planes / opponent_scalars), so it plays with the env's own planes once they exist."""
import argparse, copy, json, time, sys, os, numpy as np, torch, torch.nn.functional as F
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import data as data2  # data.py beside it (run as data2.py in /work/runs/bomber11/py)
from botarena.policy import load_policy, PolicyNet, save_policy

p = argparse.ArgumentParser()
p.add_argument("--data", default="/work/runs/bomber11/data")
p.add_argument("--train-blocks", type=int, default=4, help="64-game blocks per opponent for training (after the test block)")
p.add_argument("--test-blocks", type=int, default=1)
p.add_argument("--touched", action="store_true")
p.add_argument("--opp-scalars", action="store_true")
p.add_argument("--init", default="/work/main/policies/bomberman-2p-harvester-ppo.policy.safetensors")
p.add_argument("--warm", default="", help="start from this policy of the same shape instead (e.g. the previous round's student)")
p.add_argument("--epochs", type=float, default=1)
p.add_argument("--lr", type=float, default=1e-3)
p.add_argument("--lr-end", type=float, default=None, help="linear decay to this by the end")
p.add_argument("--depart-weight", type=float, default=1.0)
p.add_argument("--save", default="")
p.add_argument("--seed", type=int, default=0)
p.add_argument("--test-n", type=int, default=8000)
p.add_argument("--evals", type=int, default=4, help="evaluations per epoch")
p.add_argument("--cache", default="", help="folder of .npy arrays of the training set (written on first use, memory-mapped after)")
p.add_argument("--dagger", default="", help="comma-separated league folders of DAgger games (view 11, env planes), added to training")
p.add_argument("--dagger-agent", default="student")
p.add_argument("--dagger-weight", type=float, default=1.0, help="loss weight of the DAgger rows")
p.add_argument("--minutes", type=float, default=1e9, help="stop (and save) after this much wall time of training")
a = p.parse_args()
torch.set_num_threads(1); torch.manual_seed(a.seed)
dirs = [f"{a.data}/hunter", f"{a.data}/harvester"]
t0 = time.time()
te = data2.load(dirs, max_blocks=a.test_blocks)
_k = np.sort(np.random.default_rng(1).choice(len(te["planner"]), size=min(a.test_n, len(te["planner"])), replace=False))
te = {k: v[_k] for k, v in te.items()}
KEYS = "planes scalars mask planner harvester game step opp".split()
if a.cache and os.path.exists(f"{a.cache}/done"):
    tr = {k: np.load(f"{a.cache}/{k}.npy", mmap_mode="r" if k == "planes" else None) for k in KEYS}
else:
    import glob
    os.makedirs(a.cache, exist_ok=True); parts = []
    for oi, d in enumerate(dirs):
        for f in sorted(glob.glob(f"{d}/data/*.parquet"))[a.test_blocks:a.test_blocks + a.train_blocks]:
            r = data2.load_file(f, oi * 10**7); r["opp"] = np.full(len(r["planner"]), oi)
            parts.append({k: (v if k != "planes" else None) for k, v in r.items()})
            np.save(f"{a.cache}/part{len(parts)}.npy", r["planes"]); parts[-1]["n"] = len(r["planner"]); del r
            print("loaded", f, f"{time.time()-t0:.0f}s", flush=True)
    N = sum(q["n"] for q in parts)
    big = np.lib.format.open_memmap(f"{a.cache}/planes.npy", mode="w+", dtype=np.uint8, shape=(N, 14, 21, 21))
    o = 0
    for i, q in enumerate(parts):
        x = np.load(f"{a.cache}/part{i+1}.npy"); big[o:o + len(x)] = x; o += len(x); os.remove(f"{a.cache}/part{i+1}.npy")
    big.flush(); del big
    for k in KEYS:
        if k != "planes": np.save(f"{a.cache}/{k}.npy", np.concatenate([q[k] for q in parts]))
    open(f"{a.cache}/done", "w").write("ok")
    tr = {k: np.load(f"{a.cache}/{k}.npy", mmap_mode="r" if k == "planes" else None) for k in KEYS}
dg = data2.load_env(a.dagger.split(","), agent=a.dagger_agent) if a.dagger else None
if dg is not None:
    print(f"dagger: {len(dg['planner']):,} decisions of {len(np.unique(dg['game']))} games; the student played planner's choice on {(dg['student']==dg['planner']).mean():.1%}", flush=True)
ngames = len(np.unique(tr["game"]))
print(f"train {len(tr['planner']):,} decisions of {ngames} games; test {len(te['planner']):,} of {len(np.unique(te['game']))} games; load {time.time()-t0:.0f}s", flush=True)
for nm, d in (("train", tr), ("test", te)):
    dep = d["planner"] != d["harvester"]
    print(f"{nm}: planner departs from harvester on {dep.mean():.1%} (vs hunter {dep[d['opp']==0].mean():.1%}, vs harvester {dep[d['opp']==1].mean():.1%})", flush=True)

src = load_policy(a.init)
arch = copy.deepcopy(src.arch)
C = 14 if a.touched else 12
NS = 11 if a.opp_scalars else 8
arch["inputs"]["planes"]["shape"] = [C, 23, 23]
arch["inputs"]["planes"]["scale"] = list(arch["inputs"]["planes"]["scale"])[:12] + [1.0] * (C - 12)
arch["inputs"]["scalars"]["shape"] = [NS]
arch["inputs"]["scalars"]["scale"] = list(arch["inputs"]["scalars"]["scale"])[:8] + [0.2, 0.00390625, 0.1][:NS - 8]
cfg = {"points_reward": 0.002, "view_radius": 11, "safe_mask": True, "safe_mask_wary": True, "safe_mask_strict": True}
if a.touched: cfg["touched_planes"] = True
if a.opp_scalars: cfg["opponent_scalars"] = True
arch["config"] = cfg
arch["trained"] = {}
net = PolicyNet(arch)
sd = src.state_dict(); own = net.state_dict()
for k, v in sd.items():
    if own[k].shape == v.shape:
        own[k] = v.clone()
    elif k == "planes.0.weight":
        w = torch.zeros_like(own[k]); w[:, :v.shape[1]] = v; own[k] = w
    elif k == "trunk.0.weight":  # flattened conv features first, then the scalars
        w = torch.zeros_like(own[k]); w[:, :v.shape[1]] = v; own[k] = w
    else:
        raise SystemExit(f"shape {k} {v.shape} -> {own[k].shape}")
net.load_state_dict(own)
if a.warm:
    net.load_state_dict(load_policy(a.warm).state_dict())
    print("weights from", a.warm, flush=True)
print(f"planes {C}x23x23, scalars {NS}, {sum(p.numel() for p in net.parameters()):,} parameters; config {json.dumps(cfg)}", flush=True)

def inputs(d, idx):
    pl = d["planes"][idx][:, :C]
    return torch.from_numpy(data2.window(pl, 11)), torch.from_numpy(np.ascontiguousarray(d["scalars"][idx][:, :NS]))

NT = len(tr["planner"])
def batch(idx):
    """training minibatch over the offline rows (idx < NT) and the DAgger rows (idx >= NT)"""
    a_, b_ = idx[idx < NT], idx[idx >= NT] - NT
    xs, ss, ms = [], [], []
    if len(a_):
        x, s_ = inputs(tr, a_); xs.append(x); ss.append(s_); ms.append(tr["mask"][a_])
    if len(b_):
        xs.append(torch.from_numpy(np.ascontiguousarray(dg["planes"][b_][:, :C]))); ss.append(torch.from_numpy(np.ascontiguousarray(dg["scalars"][b_][:, :NS]))); ms.append(dg["mask"][b_])
    return torch.cat(xs), torch.cat(ss), torch.from_numpy(np.concatenate(ms))

lab = np.asarray(tr["planner"])
wt = np.where(tr["planner"] != tr["harvester"], a.depart_weight, 1.0).astype(np.float32)
if dg is not None:
    lab = np.concatenate([lab, dg["planner"]]); wt = np.concatenate([wt, np.full(len(dg["planner"]), a.dagger_weight, np.float32)])
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
           "acc_vs_harvester": (pr == pl)[te["opp"] == 1].mean(), "acc_harvester_label": (pr == hv).mean(),
           "pred_nothing": (pr == 0).mean(), "planner_nothing": (pl == 0).mean()}
    return {k: round(float(v), 4) for k, v in res.items()}

def save(tag=""):
    if a.save:
        path = a.save if not tag else a.save.replace(".policy.safetensors", f"-{tag}.policy.safetensors")
        save_policy(net, path, trained={"teacher": "planner (env/bomberman/planner.go, adaptive), behaviour cloning, helper bomber11",
                                        "games": int(ngames), "decisions": int(len(lab)), "depart_weight": a.depart_weight})
        print("saved", path, flush=True)

print("epoch 0", json.dumps(evaluate()), flush=True)
n = len(lab); mb = 512; nsteps_ep = (n + mb - 1) // mb; total = int(a.epochs * nsteps_ep); done = 0
tstart = time.time(); ep = 0; stop = False
while done < total and not stop:
    order = rng.permutation(n); tot = acc = 0.0; cnt = 0
    for s in range(0, n, mb):
        if done >= total: break
        if a.lr_end is not None:
            for g in opt.param_groups: g["lr"] = a.lr + (a.lr_end - a.lr) * done / total
        idx = np.sort(order[s:s + mb])
        xb, sb, mb_ = batch(idx)
        logits, _ = net(xb, sb)
        logp = net.log_probs(logits, mb_)
        y = torch.from_numpy(lab[idx])
        l = (F.nll_loss(logp, y, reduction="none") * torch.from_numpy(wt[idx])).mean()
        opt.zero_grad(); l.backward(); torch.nn.utils.clip_grad_norm_(net.parameters(), 0.5); opt.step()
        tot += l.item() * len(idx); acc += float((logp.argmax(1) == y).float().sum()); cnt += len(idx); done += 1
        if done % max(1, nsteps_ep // a.evals) == 0 or done == total:
            print(f"epoch {done / nsteps_ep:.2f} train loss {tot/cnt:.3f} acc {acc/cnt:.3f} ({time.time()-tstart:.0f}s)", json.dumps(evaluate()), flush=True)
            save()
        if time.time() - tstart > a.minutes * 60:
            print(f"stopped at epoch {done / nsteps_ep:.2f} (--minutes)", flush=True); stop = True; break
print(f"final epoch {done / nsteps_ep:.2f}", json.dumps(evaluate()), flush=True)
save()
