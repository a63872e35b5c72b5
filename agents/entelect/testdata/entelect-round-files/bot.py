#!/usr/bin/env python3
"""A test bot for botarena's Entelect harness (Bomberman 2016, Battleships 2017).

Like several public entries of 2016 and 2017, it reads the round folder's
files, one level above the player folder it is given:

    python3 bot.py <PlayerKey> <player folder>

Bomberman:   <round>/state.json, map.txt, roundInfo.json; <round>/<Key>/
Battleships: Phase P - Round R/state.json (both maps), "<Key> - map.txt",
             roundInfo.json, roundCommand.json; Phase P - Round R/<Key>/

It fails (a traceback on stderr, exit status 1) when a file is missing, when
the player folder is not an absolute path, or when the round-level state is
not the player's round. Otherwise its move comes from the round-level
state.json, so a test can tell that it read it:

  Bomberman:   move.txt "1".."4": 1 + CurrentRound % 4
  Battleships: phase 1, place.txt (a fixed fleet); phase 2, command.txt
               "1,X,0" (a single shot), X = Round % MapDimension

It also keeps a file in its own folder, rounds.txt, one line per round it
played, as bots that keep state between rounds do.
"""
import json
import os
import sys


def load(path):
    with open(path, encoding="utf-8-sig") as f:
        return json.load(f)


def main():
    key, folder = sys.argv[1], sys.argv[2]
    if not os.path.isabs(folder):
        raise SystemExit("the player folder %r is not absolute" % folder)
    here = os.path.dirname(os.path.abspath(__file__))
    if os.path.abspath(os.getcwd()) != here:
        raise SystemExit("the working directory %r is not the bot folder %r" % (os.getcwd(), here))
    mine = load(os.path.join(folder, "state.json"))
    round_dir = os.path.dirname(folder)
    full = load(os.path.join(round_dir, "state.json"))
    load(os.path.join(round_dir, "roundInfo.json"))
    with open(os.path.join(here, "rounds.txt"), "a") as f:
        f.write(os.path.basename(round_dir) + "\n")
    if "CurrentRound" in full:  # Bomberman
        open(os.path.join(round_dir, "map.txt")).close()
        if full["CurrentRound"] != mine["CurrentRound"]:
            raise SystemExit("round-level state of round %d, player's of %d" % (full["CurrentRound"], mine["CurrentRound"]))
        with open(os.path.join(folder, "move.txt"), "w") as f:
            f.write(str(1 + full["CurrentRound"] % 4))
        return
    open(os.path.join(round_dir, key + " - map.txt")).close()
    load(os.path.join(round_dir, "roundCommand.json"))
    if (full["Phase"], full["Round"]) != (mine["Phase"], mine["Round"]):
        raise SystemExit("round-level state of another round")
    if full["Phase"] == 1:
        with open(os.path.join(folder, "place.txt"), "w") as f:
            f.write("Battleship 0 0 East\nCarrier 0 1 East\nCruiser 0 2 East\nDestroyer 0 3 East\nSubmarine 0 4 East\n")
    else:
        with open(os.path.join(folder, "command.txt"), "w") as f:
            f.write("1,%d,0" % (full["Round"] % full["MapDimension"]))


if __name__ == "__main__":
    main()
