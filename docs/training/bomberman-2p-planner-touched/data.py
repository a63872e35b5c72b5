"""(helper bomber11, issue 34, 2026-12-01; after docs/training/bomberman-2p-planner-clone/data.py by bomber10.)
Planner's decisions (played) with harvester's label, from the league's match data (whole-map planes), with the
two touched planes (cells each player has occupied so far, as the game's touched_planes option writes them) and the
three opponent scalars (the opponent's bag, radius, points/100 when alive, else 0; opponent_scalars) computed offline."""
import glob, numpy as np, pyarrow.parquet as pq, pyarrow.compute as pc

S = 21; R = 11; C = 12

def fixed(col, dtype):
    chunks = [c.flatten().to_numpy(zero_copy_only=False) for c in col.chunks]
    return np.concatenate(chunks).astype(dtype, copy=False)

def load_file(f, gid_offset):
    t = pq.read_table(f)
    # opponent seat's scalars per (game, step)
    o = t.filter(pc.equal(t["agent"], "opponent")).select(["game", "step", "scalars"])
    og = o["game"].to_numpy().astype(np.int64); os_ = o["step"].to_numpy().astype(np.int64)
    osc = fixed(o["scalars"], np.float32).reshape(len(og), 8)
    t = t.filter(pc.equal(t["agent"], "teacher"))
    n = t.num_rows
    planes = np.empty((n, C + 2, S, S), np.uint8)
    planes[:, :C] = fixed(t["planes"], np.uint8).reshape(n, C, S, S)
    scal = np.zeros((n, 11), np.float32)
    scal[:, :8] = fixed(t["scalars"], np.float32).reshape(n, 8)
    mask = fixed(t["mask"], np.uint8).reshape(n, 7)
    act = t["action"].to_numpy().astype(np.int64)
    lab = t["label"].to_numpy().astype(np.int64)
    game = t["game"].to_numpy().astype(np.int64)
    step = t["step"].to_numpy().astype(np.int64)
    starts = np.flatnonzero(np.r_[True, game[1:] != game[:-1]])
    for s0, s1 in zip(starts, np.r_[starts[1:], n]):
        assert (np.diff(step[s0:s1]) > 0).all()
        np.maximum.accumulate(planes[s0:s1, :2], axis=0, out=planes[s0:s1, C:C + 2])
    key_o = og * 100000 + os_; key_t = game * 100000 + step
    order = np.argsort(key_o); ks = key_o[order]
    pos = np.searchsorted(ks, key_t); pos = np.minimum(pos, len(ks) - 1)
    hit = ks[pos] == key_t
    src = osc[order[pos]]
    alive = hit & (src[:, 5] > 0)
    scal[alive, 8] = src[alive, 1]; scal[alive, 9] = src[alive, 3]; scal[alive, 10] = src[alive, 4]
    ch = (mask.sum(1) > 1) & (np.take_along_axis(mask, act[:, None], 1)[:, 0] > 0)
    return dict(planes=planes[ch], scalars=scal[ch], mask=mask[ch], planner=act[ch], harvester=lab[ch],
                game=game[ch] + gid_offset, step=step[ch])

def load(dirs, max_blocks=None, first_block=0, log=None):
    out = {}
    for oi, d in enumerate(dirs):
        files = sorted(glob.glob(f"{d}/data/*.parquet"))[first_block:]
        if max_blocks is not None:
            files = files[:max_blocks]
        for f in files:
            r = load_file(f, oi * 10**7)
            r["opp"] = np.full(len(r["planner"]), oi)
            for k, v in r.items():
                out.setdefault(k, []).append(v)
            if log:
                log(f"loaded {f}: {len(r['planner'])} decisions")
    return {k: np.concatenate(v) for k, v in out.items()}

def window(planes, r=R):
    """player-centred (2r+1)^2 window of whole-map planes [N,c,21,21]; off-map cells: indestructible wall (plane 2),
    0 elsewhere (the touched planes included, as the game writes them)."""
    n, c = planes.shape[:2]
    d = 2 * r + 1
    pad = np.zeros((n, c, S + 2 * r, S + 2 * r), np.uint8)
    pad[:, :, r:r + S, r:r + S] = planes
    pad[:, 2, :r, :] = 1; pad[:, 2, r + S:, :] = 1; pad[:, 2, :, :r] = 1; pad[:, 2, :, r + S:] = 1
    idx = planes[:, 0].reshape(n, -1).argmax(1)
    py, px = idx // S, idx % S
    yy = py[:, None] + np.arange(d)[None]
    xx = px[:, None] + np.arange(d)[None]
    return pad[np.arange(n)[:, None, None, None], np.arange(c)[None, :, None, None], yy[:, None, :, None], xx[:, None, None, :]]

def load_env(dirs, agent="student", C=14, NS=11, S=23):
    """rows of `agent` with a choice from leagues recorded under the game's own touched_planes/opponent_scalars
    config and view_radius 11 (DAgger: action = the student's, label = planner's): planes [N,C,23,23] as written."""
    out = {}
    for oi, d in enumerate(dirs):
        for f in sorted(glob.glob(f"{d}/data/*.parquet")):
            t = pq.read_table(f)
            t = t.filter(pc.equal(t["agent"], agent))
            n = t.num_rows
            planes = fixed(t["planes"], np.uint8).reshape(n, C, S, S)
            scal = fixed(t["scalars"], np.float32).reshape(n, NS)
            mask = fixed(t["mask"], np.uint8).reshape(n, 7)
            act = t["action"].to_numpy().astype(np.int64)
            lab = t["label"].to_numpy().astype(np.int64)
            game = t["game"].to_numpy().astype(np.int64)
            ch = (mask.sum(1) > 1) & (np.take_along_axis(mask, lab[:, None], 1)[:, 0] > 0)
            r = dict(planes=planes[ch], scalars=scal[ch], mask=mask[ch], planner=lab[ch], student=act[ch],
                     game=game[ch] + (oi + 10) * 10**7, opp=np.full(int(ch.sum()), oi))
            for k, v in r.items():
                out.setdefault(k, []).append(v)
    return {k: np.concatenate(v) for k, v in out.items()}
