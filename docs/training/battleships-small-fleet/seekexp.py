"""ships12: what a seeker endgame would be worth. POLICY plays sampling against OPP on battleships/small (shield_mask
config, plus fleet_planes with FP=1) from both seats, N games a seat; with SEEK=1 it fires no double, corner, diagonal
or cross (saving energy; SEEK=2 keeps them) and, once HITS or more of the opponent's 17 cells are damaged, fires the seeker whenever it is
legal at the on-map centre whose reach (Manhattan distance 2) holds the most of the density plane, if that is at least
half of the plane's total; otherwise it plays the policy's sample.  seekexp.py POLICY OPP N SEEK HITS FP SEED"""
import sys, numpy as np, torch
from botarena.env import BotarenaEnv
from botarena.policy import load_policy
pol, opp, N, seek, H, fp, seed0 = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5]), int(sys.argv[6]), int(sys.argv[7])
n, G = 7, 13
def act(c, x, y): return 1 + (c - 1) * G * G + (x + 3) * G + (y + 3)
reach = {}
for x in range(n):
    for y in range(n):
        reach[(x, y)] = [(x + dx, y + dy) for dx in range(-2, 3) for dy in range(-2, 3) if abs(dx) + abs(dy) <= 2 and 0 <= x + dx < n and 0 <= y + dy < n]
special = np.zeros(1 + 8 * G * G + 4 * n * n, dtype=bool)
for c in (2, 3, 4, 5, 6):
    special[1 + (c - 1) * G * G: 1 + c * G * G] = True
net = load_policy(pol)
torch.manual_seed(seed0)
cfg = dict(placement="learn", shot_mask=True, density_plane=True, shield_mask=True)
if fp: cfg["fleet_planes"] = True
won = games = seeks = seekhits = 0
for seat in (0, 1):
    env = BotarenaEnv("battleships/small", opponents=opp, learner_seat=seat, **cfg)
    for g in range(N):
        obs, info = env.reset(seed=seed0 + 1000 * seat + g)
        done = False; r = 0.0
        while not done:
            mask = np.asarray(info["action_mask"]).astype(bool)
            pl = np.asarray(obs["planes"]); sc = np.asarray(obs["scalars"])
            a = None
            if seek:
                if seek == 1:  # seek=2 keeps the other specials
                    mask = mask & ~special
                    if not mask.any(): mask[0] = True
                hits = int(pl[10].sum())
                if hits >= H:
                    dens = pl[12].astype(np.float64); tot = dens.sum()
                    if tot > 0:
                        best, bc = -1.0, None
                        for (x, y), cells in reach.items():
                            m = sum(dens[cy, cx] for cx, cy in cells)
                            if m > best and mask[act(7, x, y)]: best, bc = m, (x, y)
                        if bc is not None and best >= 0.5 * tot:
                            a = act(7, *bc); seeks += 1
            if a is None:
                with torch.no_grad():
                    logits, _ = net(torch.from_numpy(pl[None].astype(np.uint8)), torch.from_numpy(sc[None].astype(np.float32)))
                    logp = net.log_probs(logits, torch.from_numpy(mask[None].astype(np.uint8)))
                    a = int(torch.multinomial(logp.exp()[0], 1))
            before = int(pl[10].sum())
            obs, rew, term, trunc, info = env.step(a); r += rew; done = term or trunc
            if a is not None and seek and 1 + 6 * G * G <= a < 1 + 7 * G * G and not done:
                seekhits += int(np.asarray(obs["planes"])[10].sum()) > before
        games += 1; won += r > 0.5  # terminal reward +1 (the points shaping is off here)
    env.close()
print(f"{pol.split('/')[-1]} vs {opp} seek={seek} hits>={H}: won {won}/{games} = {100*won/games:.1f}%; seekers {seeks/games:.2f}/game, landed {seekhits}")
