#!/usr/bin/env python3
"""A small Entelect Challenge 2017 Battleships bot (Python 3, standard library).

The harness runs it once per round as

    python3 bot.py <PlayerKey> <round folder>

with the bot folder as working directory. It reads <round folder>/state.json;
in phase 1 it writes place.txt (five lines "<Ship> <x> <y> <Direction>"), in
phase 2 command.txt ("code,x,y"; 1 is a single shot).

Strategy: a fixed legal fleet; then shoot next to damaged cells that still
have unknown neighbours, else on a checkerboard of unknown cells.
"""
import json
import os
import random
import sys


def main():
    key = sys.argv[1] if len(sys.argv) > 1 else "A"
    folder = sys.argv[2] if len(sys.argv) > 2 else "."
    with open(os.path.join(folder, "state.json"), encoding="utf-8-sig") as f:
        state = json.load(f)
    n = state["MapDimension"]
    if state["Phase"] == 1:
        place(folder, n)
    else:
        shoot(folder, state, n)


def place(folder, n):
    # Each ship in its own row (touching is allowed), from x = 0, facing east.
    fleet = [("Battleship", 4), ("Carrier", 5), ("Cruiser", 3), ("Destroyer", 2), ("Submarine", 3)]
    lines = ["%s 0 %d East" % (name, i) for i, (name, _) in enumerate(fleet)]
    with open(os.path.join(folder, "place.txt"), "w") as f:
        f.write("\n".join(lines) + "\n")
    print("placed", lines)


def shoot(folder, state, n):
    cells = {(c["X"], c["Y"]): c for c in state["OpponentMap"]["Cells"]}

    def unknown(x, y):
        c = cells.get((x, y))
        return c is not None and not c["Damaged"] and not c["Missed"]

    targets = []
    for (x, y), c in cells.items():
        if c["Damaged"]:
            for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)):
                if unknown(x + dx, y + dy):
                    targets.append((x + dx, y + dy))
    if not targets:
        targets = [p for p in cells if unknown(*p) and (p[0] + p[1]) % 2 == 0]
    if not targets:
        targets = [p for p in cells if unknown(*p)]
    if not targets:
        targets = [(0, 0)]
    rnd = random.Random(state["Round"])
    x, y = rnd.choice(sorted(targets))
    with open(os.path.join(folder, "command.txt"), "w") as f:
        f.write("1,%d,%d" % (x, y))
    print("round", state["Round"], "shoot", x, y)


if __name__ == "__main__":
    main()
