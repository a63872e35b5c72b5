"""deaths3.py RECORDING...: for the policy seat of each `botarena play battlecube/tasks3 --record` cube,
the tick and cycle phase (tick mod 3; teebot plans its three tasks at phase 0: one move, then two bombs)
it was lost in, its task then, the cause (a bomb placed that tick, by whom, on which cell relative to the
policy's cell at the cycle's start; a bomb already there; out of the cube), and its tasks by phase."""
import json
import sys
from collections import Counter

MOVES = {1: (1, 0, 0), 2: (-1, 0, 0), 3: (0, 1, 0), 4: (0, -1, 0), 5: (0, 0, 1), 6: (0, 0, -1)}


def cell(a):
    c = a - 7
    return (c % 8, (c // 8) % 8, c // 64)


def dist(a, b):
    return sum(abs(i - j) for i, j in zip(a, b))


kinds = Counter()
by_phase = [Counter(), Counter(), Counter()]
tb_bombs = Counter()
for f in sys.argv[1:]:
    L = [json.loads(line) for line in open(f)]
    P = [i for i, a in enumerate(L[0]["agents"]) if a.startswith("policy")][0]
    names = L[0]["config"]["names"]
    res = L[-1]["result"]
    start = {}  # seat -> cell at the cycle's start
    tasks = ""
    lost = "in play at the end"
    for r in L[1:]:
        if "actions" not in r:
            continue
        st = r["state"]
        t = st["gameInfo"]["currentTick"]
        ph = t % 3
        pos = {names.index(p["name"]): (p["x"], p["y"], p["z"]) for p in st["players"]}
        if ph == 0:
            start = dict(pos)
        bombs = {(b["x"], b["y"], b["z"]) for b in st["items"] if "x" in b}
        placed = {}
        for s, a in enumerate(r["actions"]):
            if s in pos and a >= 7:
                placed.setdefault(cell(a), []).append(s)
                if s != P:  # a teebot's bomb: on whose cycle-start cell?
                    c = cell(a)
                    on = [o for o, sc in start.items() if sc == c and o != s]
                    tb_bombs["on a target's cycle-start cell" if on else "elsewhere (implode shell or neighbour)"] += 1
        if P not in pos:
            break
        a = r["actions"][P]
        k = "B" if a >= 7 else ("." if a == 0 else "m")
        by_phase[ph][k] += 1
        tasks += k if ph else "|" + k
        if r["rewards"][P] == -1:
            me = pos[P]
            end = tuple(m + d for m, d in zip(me, MOVES.get(a, (0, 0, 0))))
            if not all(0 <= v < 8 for v in end):
                why = "moved out of the cube"
            elif end in bombs:
                why = f"walked onto a bomb already there (d={dist(end, start.get(P, end))} from its cycle-start cell)"
            elif end in placed:
                who = ",".join(str(s) for s in placed[end])
                why = (f"on a cell bombed this tick by seat {who}, d={dist(end, start.get(P, end))} from its cycle-start cell"
                       f" ({'its own start cell' if end == start.get(P) else 'another bot start cell' if end in start.values() else 'no bot start cell'})")
            else:
                why = "collision with a bot"
            lost = f"lost at tick {t} phase {ph} {'moving' if k == 'm' else 'standing still'}: {why}"
            kinds[f"phase {ph} {'moving' if k == 'm' else 'still'}: {why.split(' (')[0].split(',')[0]}"] += 1
            break
    tag = "win" if res.get("winner") == P else "not won"
    print(f"{f.split('/')[-1]} seat {P} {tag}: {lost}; tasks {tasks[:48]}")
print("deaths:", dict(kinds))
print("policy tasks by phase (m move, B bomb, . noop):", [dict(c) for c in by_phase])
print("teebot bombs:", dict(tb_bombs))
