#!/usr/bin/env python3
"""A small UPE portal Bomberman client (standard library only).

It speaks the Fall 2016 UPE AI competition's protocol: POST
/api/games/practice (or /api/games/search) with {devkey, username}, then
POST /api/games/submit/<gameID> with {devkey, playerID, move} until the
state is no longer "in progress". Bodies are form-encoded, as the original
sample bots sent them.

    python3 client.py --url http://127.0.0.1:8080 --mode practice

Strategies: random (uniform over the 16 moves), wait (always ''),
suicide (the Go sample: 'b' once, then ''), garbage (strings the engine
does not know). --stop-after N stops answering after N moves (to test the
server's timeout). The last line printed is a JSON summary of the game.
"""
import argparse
import json
import random
import sys
import time
import urllib.parse
import urllib.request

MOVES = ["mu", "ml", "mr", "md", "tu", "tl", "tr", "td", "", "b", "op", "bp",
         "buy_count", "buy_range", "buy_pierce", "buy_block"]


def post(url, fields, timeout):
    data = urllib.parse.urlencode(fields).encode()
    req = urllib.request.Request(url, data=data, method="POST")
    req.add_header("Content-Type", "application/x-www-form-urlencoded")
    with urllib.request.urlopen(req, timeout=timeout) as resp:
        return json.loads(resp.read().decode())


def choose(strategy, state, n, rng):
    if strategy == "wait":
        return ""
    if strategy == "suicide":
        return "b" if n == 0 else ""
    if strategy == "garbage":
        return ["x", "BOMB", " b", "move left", "\u00e9"][n % 5]
    return rng.choice(MOVES)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--url", default="http://127.0.0.1:8080")
    ap.add_argument("--mode", choices=["practice", "search"], default="practice")
    ap.add_argument("--devkey", default="581cef76756322705301183e")
    ap.add_argument("--username", default="upe-python")
    ap.add_argument("--strategy", choices=["random", "wait", "suicide", "garbage"], default="random")
    ap.add_argument("--seed", type=int, default=None)
    ap.add_argument("--stop-after", type=int, default=-1,
                    help="stop answering after this many moves (sleep, then exit)")
    ap.add_argument("--http-timeout", type=float, default=120.0)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    base = args.url.rstrip("/")

    state = post(base + "/api/games/" + args.mode,
                 {"devkey": args.devkey, "username": args.username}, args.http_timeout)
    game_id, player_id = state["gameID"], state["playerID"]
    print("game %s: I am player %d" % (game_id, state["playerIndex"]), file=sys.stderr)
    moves = 0
    while isinstance(state, dict) and state.get("state") == "in progress":
        if moves == args.stop_after:
            print("stopping: no more moves", file=sys.stderr)
            time.sleep(args.http_timeout)
            return 3
        move = choose(args.strategy, state, moves, rng)
        reply = post(base + "/api/games/submit/" + game_id,
                     {"devkey": args.devkey, "playerID": player_id, "move": move}, args.http_timeout)
        moves += 1
        if isinstance(reply, dict) and "err" in reply:
            print("refused: %s" % reply["err"], file=sys.stderr)
            continue
        state = reply
    if not isinstance(state, dict):  # e.g. "Game ID is undefined, ..."
        print(json.dumps({"gameID": game_id, "moves": moves, "reply": state}))
        return 1
    me, opp = state["player"], state["opponent"]
    print(json.dumps({"gameID": game_id, "playerIndex": state["playerIndex"], "state": state["state"],
                      "moves": moves, "moveNumber": state["moveNumber"],
                      "alive": me["alive"], "opponentAlive": opp["alive"], "coins": me["coins"]}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
