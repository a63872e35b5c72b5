"""Held-out imitation accuracy of the warden with and without the history scalars (issue 34, bots5).

Records the warden's games once with the battlebots config {"history": H} (the warden's play does not
depend on the field), then fits two networks of the same architecture on the same decisions: one sees the
scalars as recorded, the other with the history scalars zeroed (the observation without the field).
Held out: the decisions of a random 15% of the games. Prints both figures by epoch.
"""
from __future__ import annotations

import argparse
import json
import pathlib
import time

import numpy as np
import torch
import torch.nn.functional as F

from botarena.policy import PolicyNet, default_architecture
from botarena.server import find_binary
from botarena.train.imitate import load_demonstrations, record_demonstrations
from botarena.train.rollout import SeatSplitEnv

p = argparse.ArgumentParser()
p.add_argument("--out", required=True)
p.add_argument("--history", type=int, default=6)
p.add_argument("--games", type=int, default=12, help="games per opponent")
p.add_argument("--opponents", default="duelist,gambit,warden,sniper")
p.add_argument("--max-rounds", type=int, default=1000)
p.add_argument("--epochs", type=int, default=8)
p.add_argument("--seed", type=int, default=5501)
a = p.parse_args()
torch.set_num_threads(1)
out = pathlib.Path(a.out)
cfg = {"history": a.history, "max_rounds": a.max_rounds}
env = SeatSplitEnv("battlebots", 2, (0, 1), opponents="nop", seed=1, address=None, config=cfg, backend="native")
spec = env.game_spec
demos = None
for i, opp in enumerate(a.opponents.split(",")):
    folder = out / f"vs_{i:02d}"
    data = folder / "data"
    t0 = time.monotonic()
    if not data.is_dir():
        record_demonstrations(find_binary(), "battlebots", "warden", opp, a.games, folder, seed=a.seed + i, config=cfg)
    d = load_demonstrations(data, spec, 0.99)
    print(f"{opp}: {len(d):,} decisions from {d.games} games, warden won {d.wins} drew {d.draws} ({time.monotonic()-t0:.0f} s)", flush=True)
    # Tag the game of each row: offset by opponent.
    demos = d if demos is None else demos + d
assert demos is not None
n = len(demos)
# A game id per row: the returns restart... use the match data's game column instead.
import pyarrow.compute as pc
import pyarrow.parquet as pq

gid = []
for i, opp in enumerate(a.opponents.split(",")):
    for f in sorted((out / f"vs_{i:02d}" / "data").glob("*.parquet")):
        t = pq.read_table(f)
        t = t.filter(pc.equal(t["agent"], "teacher"))
        mask = np.stack(t["mask"].to_numpy(zero_copy_only=False)).astype(np.uint8)
        act = t["action"].to_numpy().astype(np.int64)
        choice = (mask.sum(1) > 1) & (mask[np.arange(len(act)), act] > 0)
        g = t["game"].to_numpy()
        gid.extend((f"{i}:{f.name}:{x}" for x in g[choice]))
assert len(gid) == n, (len(gid), n)
games = sorted(set(gid))
rng = np.random.default_rng(a.seed)
held_games = set(rng.choice(len(games), size=max(1, int(0.15 * len(games))), replace=False).tolist())
held = np.array([games.index(x) in held_games for x in gid]) if len(games) < 2000 else None
assert held is not None
print(f"{n:,} decisions, {len(games)} games, {held.sum():,} decisions held out ({len(held_games)} games)", flush=True)
counts = np.bincount(demos.actions, minlength=spec.actions)
print("majority-class accuracy on held-out:", float((demos.actions[held] == counts.argmax()).mean()))

results = {}
for variant in ("with", "without"):
    torch.manual_seed(a.seed)
    arch = default_architecture(spec, config=cfg, channels=(16, 32), strides=(1, 2), hidden=256)
    net = PolicyNet(arch)
    obs = {k: v.copy() for k, v in demos.obs.items()}
    if variant == "without":
        obs["scalars"][:, 4:] = 0
    x = [torch.from_numpy(obs[k]) for k in net.input_names]
    masks, acts = torch.from_numpy(demos.masks), torch.from_numpy(demos.actions)
    tr = np.flatnonzero(~held)
    te = torch.from_numpy(np.flatnonzero(held))
    opt = torch.optim.Adam(net.parameters(), lr=3e-4)
    curve = []
    for ep in range(a.epochs):
        t0 = time.monotonic()
        net.train()
        order = rng.permutation(tr)
        for s in range(0, len(order), 512):
            idx = torch.from_numpy(order[s : s + 512])
            logits, _ = net(*(t[idx] for t in x))
            loss = F.nll_loss(net.log_probs(logits, masks[idx]), acts[idx])
            opt.zero_grad()
            loss.backward()
            opt.step()
        net.eval()
        with torch.no_grad():
            preds, nll = [], 0.0
            for s in range(0, len(te), 2048):
                idx = te[s : s + 2048]
                logits, _ = net(*(t[idx] for t in x))
                lp = net.log_probs(logits, masks[idx])
                preds.append(lp.argmax(1))
                nll += float(F.nll_loss(lp, acts[idx], reduction="sum"))
            pred, truth = torch.cat(preds).numpy(), acts[te].numpy()
        kind = lambda v: np.select([v == 0, v < 9, v < 17, v < 25, v < 33], [0, 1, 2, 3, 4], 5)
        accv = float((pred == truth).mean())
        kacc = float((kind(pred) == kind(truth)).mean())
        mv = (truth >= 1) & (truth < 9)
        mrec = float((pred[mv] == truth[mv]).mean()) if mv.any() else float("nan")
        mkrec = float((kind(pred[mv]) == 1).mean()) if mv.any() else float("nan")
        curve.append({"accuracy": accv, "kind_accuracy": kacc, "nll": nll / len(te), "move_recall": mrec, "move_kind_recall": mkrec, "moves": int(mv.sum())})
        print(f"{variant} history: epoch {ep+1}: held-out accuracy {accv:.1%}, kind accuracy {kacc:.1%}, NLL {nll/len(te):.3f}, "
              f"moves {int(mv.sum())}: exact {mrec:.1%}, as a move {mkrec:.1%} ({time.monotonic()-t0:.0f} s)", flush=True)
    results[variant] = curve
json.dump({"decisions": n, "games": len(games), "held_out": int(held.sum()), "history": a.history, "curves": results}, open(out / "measure.json", "w"), indent=1)
