#!/usr/bin/env python3
"""A BattleBots command-line bot for botarena (and the original control program).

Run as the original runs bots: the arena string is the last command-line
argument; the bot prints its action on stdout and exits. It keeps no state.

Strategy: when the enemy stands on the same row, column or diagonal, shoot
along that line (a bullet when adjacent, where a missile would splash the
shooter too, else a missile); otherwise step toward the nearest cell from
which the enemy is on a line, keeping off the enemy's own lines of fire
when it can.
"""
import sys

DIRS = {"N": (0, -1), "NE": (1, -1), "E": (1, 0), "SE": (1, 1),
        "S": (0, 1), "SW": (-1, 1), "W": (-1, 0), "NW": (-1, -1)}
SIZE = 10  # the arena string is 10x10; the playable cells are 1..9


def parse(arena):
    """Returns (me, enemy) as (x, y) from the 110-char grid."""
    grid = arena[:SIZE * (SIZE + 1)]
    me = grid.index("Y")
    enemy = grid.index("X")
    return (me % (SIZE + 1), me // (SIZE + 1)), (enemy % (SIZE + 1), enemy // (SIZE + 1))


def sign(v):
    return (v > 0) - (v < 0)


def line_dir(a, b):
    """The direction from a to b if b is on a's row, column or diagonal."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    if (dx, dy) == (0, 0) or not (dx == 0 or dy == 0 or abs(dx) == abs(dy)):
        return None
    step = (sign(dx), sign(dy))
    for name, d in DIRS.items():
        if d == step:
            return name
    return None


def inside(p):
    return 1 <= p[0] <= 9 and 1 <= p[1] <= 9


def act(arena):
    me, enemy = parse(arena)
    d = line_dir(me, enemy)
    if d is not None:
        dist = max(abs(enemy[0] - me[0]), abs(enemy[1] - me[1]))
        return ("B " if dist == 1 else "M ") + d
    # Step to a neighbouring cell that lines up with the enemy, nearest first.
    best, best_score = None, None
    for name, (dx, dy) in DIRS.items():
        p = (me[0] + dx, me[1] + dy)
        if not inside(p) or p == enemy:
            continue
        dist = max(abs(enemy[0] - p[0]), abs(enemy[1] - p[1]))
        score = (0 if line_dir(p, enemy) else 1, abs(dist - 3))
        if best_score is None or score < best_score:
            best, best_score = name, score
    return best or "NO"


def main():
    if len(sys.argv) < 2:
        print("NO")
        return
    print(act(sys.argv[-1]))


if __name__ == "__main__":
    main()
