"""(As run by helper bomber10, issue 34, 2026-12-01; paths under /work/runs/bomber10, see notes.md.)
Planner's decisions (played) with harvester's label, from the league's match data; whole-map planes."""
import glob, numpy as np, pyarrow.parquet as pq, pyarrow.compute as pc

S = 21; R = 11; C = 12

def fixed(col, dtype):
    chunks = [c.flatten().to_numpy(zero_copy_only=False) for c in col.chunks]
    return np.concatenate(chunks).astype(dtype, copy=False)

def load(dirs, max_blocks=None, first_block=0):
    """rows of the teacher seat with a choice: planes [N,12,21,21] u8, touched [N,2,21,21] u8 (own, opponent),
    scalars [N,8] f32, mask [N,7] u8, planner [N], harvester [N], game id [N], opp index [N]"""
    out = {k: [] for k in "planes touched scalars mask planner harvester game opp step".split()}
    for oi, d in enumerate(dirs):
        files = sorted(glob.glob(f"{d}/data/*.parquet"))[first_block:]
        if max_blocks is not None:
            files = files[:max_blocks]
        for f in files:
            t = pq.read_table(f)
            t = t.filter(pc.equal(t["agent"], "teacher"))
            n = t.num_rows
            planes = fixed(t["planes"], np.uint8).reshape(n, C, S, S)
            scal = fixed(t["scalars"], np.float32).reshape(n, 8)
            mask = fixed(t["mask"], np.uint8).reshape(n, 7)
            act = t["action"].to_numpy().astype(np.int64)
            lab = t["label"].to_numpy().astype(np.int64)
            game = t["game"].to_numpy().astype(np.int64)
            step = t["step"].to_numpy().astype(np.int64)
            # touched: union of own / opponents' positions so far in the game (rows in step order per game)
            touched = np.empty((n, 2, S, S), np.uint8)
            starts = np.flatnonzero(np.r_[True, game[1:] != game[:-1]])
            for s0, s1 in zip(starts, np.r_[starts[1:], n]):
                np.maximum.accumulate(planes[s0:s1, :2], axis=0, out=touched[s0:s1])
            ch = (mask.sum(1) > 1) & (np.take_along_axis(mask, act[:, None], 1)[:, 0] > 0)
            for k, v in (("planes", planes), ("touched", touched), ("scalars", scal), ("mask", mask), ("planner", act),
                         ("harvester", lab), ("game", game + oi * 10**7), ("step", step)):
                out[k].append(v[ch])
            out["opp"].append(np.full(int(ch.sum()), oi))
    return {k: np.concatenate(v) for k, v in out.items()}

def window(planes, r=R):
    """player-centred (2r+1)² window of whole-map planes [N,c,21,21] (c = 12 or more), off-map cells indestructible walls."""
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
