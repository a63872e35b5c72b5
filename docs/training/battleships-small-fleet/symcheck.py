"""ships12: checks symclone.py's transforms on real data: in every transformed placement row after the first of a
game, the own-ship planes must show the previous row's transformed ship exactly where its action puts it."""
import sys, numpy as np
sys.argv = ["symclone.py", "x", "x", "0", "sym/test.policy.safetensors"]
src = open("symclone.py").read().split("demos = aug + shots")[0]
exec(src)
L = [3, 2, 4, 5, 3]
def cells(a, k):
    p = a - PLACE0; x, y, d = p // 4 // N, p // 4 % N, p % 4
    dx, dy = DV[d]; return {(x + i * dx, y + i * dy) for i in range(L[k])}
bad = ok = 0
n = len(place)
for ti in range(8):
    for i in range(n):
        k = int(round(aug.obs["scalars"][ti * n + i][18] * 5))  # ships chosen so far
        if k == 0: continue
        pl = aug.obs["planes"][ti * n + i]
        shown = {(x, y) for y in range(N) for x in range(N) if pl[k - 1, y, x]}
        prev = cells(aug.actions[ti * n + i - 1], k - 1)
        ok += shown == prev; bad += shown != prev
print("consistent", ok, "inconsistent", bad)
