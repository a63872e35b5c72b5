"""ships12: is a hard fleet still hard under the board's 8 symmetries? The learner (seat 0 or 1) places FLEET, or one of
its 7 rotations/reflections, then fires single shots at one cell (never enough to win), so the game lasts as long as
OPP takes to sink the fleet (admiral and marksman shoot as hunter does). Rounds to sink, mean over N games a
transform.  symrace.py OPP N"""
import sys, numpy as np
from botarena.env import BotarenaEnv
opp, N = sys.argv[1], int(sys.argv[2])
n = 7; G = n + 6
# c29 / a10's most common fleet (ships in list order: Submarine, Destroyer, Battleship, Carrier, Cruiser)
F = [[(6, 0), (5, 0), (4, 0)], [(6, 6), (5, 6)], [(6, 5), (5, 5), (4, 5), (3, 5)], [(6, 1), (5, 1), (4, 1), (3, 1), (2, 1)], [(6, 4), (5, 4), (4, 4)]]
T = [lambda x, y: (x, y), lambda x, y: (n-1-x, y), lambda x, y: (x, n-1-y), lambda x, y: (n-1-x, n-1-y),
     lambda x, y: (y, x), lambda x, y: (n-1-y, x), lambda x, y: (y, n-1-x), lambda x, y: (n-1-y, n-1-x)]
D = {(0, 1): 0, (1, 0): 1, (0, -1): 2, (-1, 0): 3}
def actions(fl):
    out = []
    for s in fl:
        (x0, y0), (x1, y1) = s[0], s[1]
        out.append(1 + 8 * G * G + (x0 * n + y0) * 4 + D[(x1 - x0, y1 - y0)])
    return out
env = BotarenaEnv("battleships/small", opponents=opp, placement="learn", shot_mask=True, density_plane=True, shield_mask=True)
shot = 1 + (0 + 3) * G + (3 + 3)  # single at (0, 3)
for k, t in enumerate(T):
    fl = [[t(x, y) for x, y in s] for s in F]
    acts = actions(fl); rounds = []
    for g in range(N):
        obs, info = env.reset(seed=500000 + 1000 * k + g)
        steps = 0; done = False
        while not done:
            a = acts[steps] if steps < 5 else shot
            if steps >= 5 and steps % 2 == 1: a = 0  # alternate nothing and the same shot (do-nothing limit is 20)
            obs, r, term, trunc, info = env.step(a); steps += 1; done = term or trunc
        rounds.append(steps)
    print(f"transform {k}: {opp} sank it in {np.mean(rounds):.1f} steps (sd {np.std(rounds):.1f}, {N} games)", flush=True)
env.close()
