#!/usr/bin/env python3
"""A small Entelect Challenge 2016 Bomberman bot (Python 3, standard library).

The harness runs it once per round as

    python3 bot.py <PlayerKey> <round folder>

with the bot folder as working directory. It reads <round folder>/state.json
and writes one command code to <round folder>/move.txt:
1 up, 2 left, 3 right, 4 down, 5 place bomb, 6 trigger bomb, 0 nothing.

Strategy (crude on purpose): get out of blast lines; otherwise bomb a
destructible wall next to it when an escape exists; otherwise walk to the
nearest power-up or wall-adjacent cell, avoiding blast lines.
"""
import json
import os
import sys
from collections import deque

MOVES = [(1, 0, -1), (2, -1, 0), (3, 1, 0), (4, 0, 1)]  # code, dx, dy


def entity_type(cell):
    e = cell.get("Entity")
    if not e:
        return None
    t = e.get("$type", "")
    if "IndestructibleWall" in t:
        return "#"
    if "DestructibleWall" in t:
        return "+"
    return "P"


def main():
    key = sys.argv[1] if len(sys.argv) > 1 else "A"
    folder = sys.argv[2] if len(sys.argv) > 2 else "."
    with open(os.path.join(folder, "state.json"), encoding="utf-8-sig") as f:
        state = json.load(f)
    move = decide(state, key)
    with open(os.path.join(folder, "move.txt"), "w") as f:
        f.write(str(move))
    print("round", state["CurrentRound"], "player", key, "move", move)


def decide(state, key):
    w, h = state["MapWidth"], state["MapHeight"]
    blocks = state["GameBlocks"]

    def cell(x, y):
        return blocks[x - 1][y - 1]

    def inside(x, y):
        return 1 <= x <= w and 1 <= y <= h

    me = None
    for p in state["RegisteredPlayerEntities"]:
        if p["Key"] == key:
            me = p
    if me is None or me["Killed"]:
        return 0
    mx, my = me["Location"]["X"], me["Location"]["Y"]

    def blocked(x, y):
        c = cell(x, y)
        return entity_type(c) in ("#", "+") or c.get("Bomb") is not None

    def blast(bx, by, radius):
        out = {(bx, by)}
        for _, dx, dy in MOVES:
            for i in range(1, radius + 1):
                x, y = bx + dx * i, by + dy * i
                if not inside(x, y):
                    break
                t = entity_type(cell(x, y))
                if t == "#":
                    break
                out.add((x, y))
                if t == "+":
                    break
        return out

    danger = set()
    my_bombs = 0
    for x in range(1, w + 1):
        for y in range(1, h + 1):
            b = cell(x, y).get("Bomb")
            if b:
                danger |= blast(x, y, b["BombRadius"])
                if b["Owner"]["Key"] == key:
                    my_bombs += 1

    def bfs(start, avoid, goal, max_depth=60):
        seen = {start: None}
        q = deque([(start, 0)])
        while q:
            (x, y), d = q.popleft()
            if (x, y) != start and goal(x, y):
                # walk back to the first step
                pos = (x, y)
                while seen[pos] != start:
                    pos = seen[pos]
                for code, dx, dy in MOVES:
                    if (start[0] + dx, start[1] + dy) == pos:
                        return code, d
            if d >= max_depth:
                continue
            for _, dx, dy in MOVES:
                n = (x + dx, y + dy)
                if inside(*n) and n not in seen and not blocked(*n) and n not in avoid:
                    seen[n] = (x, y)
                    q.append((n, d + 1))
        return None, None

    # 1. Flee blast lines.
    if (mx, my) in danger:
        code, _ = bfs((mx, my), set(), lambda x, y: (x, y) not in danger)
        return code or 0

    # 2. Bomb an adjacent destructible wall if we can escape.
    next_to_wall = any(
        inside(mx + dx, my + dy) and entity_type(cell(mx + dx, my + dy)) == "+" for _, dx, dy in MOVES
    )
    if next_to_wall and my_bombs < me["BombBag"] and cell(mx, my).get("Bomb") is None:
        new = blast(mx, my, me["BombRadius"])
        code, d = bfs((mx, my), danger, lambda x, y: (x, y) not in new, max_depth=3)
        if code:
            return 5

    # 3. Trigger our bombs when we are safe.
    if my_bombs > 0:
        return 6

    # 4. Walk to a power-up, else next to a destructible wall.
    def powerup(x, y):
        c = cell(x, y)
        return c.get("PowerUp") is not None and entity_type(c) is None

    def wall_adjacent(x, y):
        return any(inside(x + dx, y + dy) and entity_type(cell(x + dx, y + dy)) == "+" for _, dx, dy in MOVES)

    for goal in (powerup, wall_adjacent):
        code, _ = bfs((mx, my), danger, goal)
        if code:
            return code
    return 0


if __name__ == "__main__":
    main()
