"""Summarise Bomberman recordings (`botarena play --record`): per game, each seat's points, bag and radius at
rounds 50/100/150/200/end, walls left, bombs and triggers; for a game that ends in a death, the last rounds
before it (positions, commands, bombs on the map with owner and fuse)."""
import json, sys

def walls(st):
    return sum(1 for col in st["GameBlocks"] for b in col if b.get("Entity") and "DestructibleWall" in b["Entity"].get("$type", ""))

def bombs(st):
    out = []
    for col in st["GameBlocks"]:
        for b in col:
            bm = b.get("Bomb")
            if bm:
                out.append("%s@(%d,%d) r%d t%d" % (bm["Owner"]["Key"], b["Location"]["X"], b["Location"]["Y"], bm["BombRadius"], bm["BombTimer"]))
    return out

for path in sys.argv[1:]:
    lines = open(path).read().splitlines()
    head = json.loads(lines[0])
    rs = [json.loads(l) for l in lines[1:] if '"round"' in l[:12]]
    agents = head["agents"]
    n = len(rs)
    print("== %s seed %d: %s, %d rounds" % (path, head["seed"], " vs ".join(agents), n - 1))
    for t in (50, 100, 150, 200, n - 1):
        if t >= n:
            continue
        st = rs[t]["state"]
        ps = st["RegisteredPlayerEntities"]
        print("  round %3d walls %3d | " % (t, walls(st)) + " | ".join(
            "%s %4d bag %d r %2d%s" % (agents[k], p["Points"], p["BombBag"], p["BombRadius"], " DEAD" if p["Killed"] else "") for k, p in enumerate(ps)))
    cnt = [{"5": 0, "6": 0} for _ in agents]
    for r in rs:
        for k, c in enumerate(r.get("commands") or []):
            if c in ("5", "6"):
                cnt[k][c] += 1
    print("  bombs/triggers: " + ", ".join("%s %d/%d" % (agents[k], cnt[k]["5"], cnt[k]["6"]) for k in range(len(agents))))
    last = rs[-1]["state"]["RegisteredPlayerEntities"]
    if any(p["Killed"] for p in last):
        print("  the last rounds:")
        for r in rs[max(0, n - 9):]:
            st = r["state"]
            ps = st["RegisteredPlayerEntities"]
            print("   %3d %s cmds %s bombs %s" % (r["round"], " ".join("%s(%d,%d)%s" % (agents[k][0].upper(), p["Location"]["X"], p["Location"]["Y"], "x" if p["Killed"] else "") for k, p in enumerate(ps)), r.get("commands"), bombs(st)))
