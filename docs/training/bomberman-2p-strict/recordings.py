"""One JSON line per bomberman/2p recording: the ending, points, walls left, power-ups, stalls."""
import json, sys

def walls(st):
    return sum(1 for col in st["GameBlocks"] for b in col if b.get("Entity") and "DestructibleWall" in b["Entity"].get("$type", ""))

def stalls(pos, acts, minlen=30):
    out, i = [], 0
    while i < len(acts):
        j, cells = i, set()
        while j < len(acts) and len(cells | {pos[j]}) <= 2 and acts[j] not in ("5", "6"):
            cells.add(pos[j]); j += 1
        if j - i >= minlen:
            out.append((i, j)); i = j
        else:
            i += 1
    return out

for path in sys.argv[1:]:
    lines = open(path).read().splitlines()
    head = json.loads(lines[0]); res = json.loads(lines[-1])["result"]
    agents = ["policy" if a.startswith("policy") else a for a in head["agents"]]
    pseat = agents.index("policy")
    rs = [json.loads(l) for l in lines[1:-1]]
    n = len(rs)
    pos = {k: [(r["state"]["RegisteredPlayerEntities"][k]["Location"]["X"], r["state"]["RegisteredPlayerEntities"][k]["Location"]["Y"]) for r in rs] for k in (0, 1)}
    acts = {k: [r["commands"][k] for r in rs if "commands" in r] for k in (0, 1)}
    wl = [walls(r["state"]) for r in rs]
    last = next(i for i in range(n) if wl[i] == wl[-1])
    fin = rs[-1]["state"]["RegisteredPlayerEntities"]
    lb = {e["seat"]: e for e in res["leaderboard"]}
    o = 1 - pseat
    at = lambda t: rs[min(t, n - 1)]["state"]["RegisteredPlayerEntities"]
    st = {k: stalls(pos[k], acts[k]) for k in (0, 1)}
    # a stall while walls stood: the rounds of a policy stall with walls > 0
    stall_walls = [(a, b, wl[a]) for a, b in st[pseat]]
    print(json.dumps({
        "file": path, "seed": head["seed"], "opp": agents[o], "pseat": pseat, "rounds": res["rounds"],
        "won": res["winner"] == pseat, "draw": res["draw"],
        "pts": lb[pseat]["points"], "opp_pts": lb[o]["points"],
        "death": lb[pseat]["death"], "opp_death": lb[o]["death"],
        "walls_start": wl[0], "walls_end": wl[-1], "walls_r200": wl[min(200, n - 1)], "last_wall_round": last,
        "pts_r200": at(200)[pseat]["Points"], "opp_pts_r200": at(200)[o]["Points"],
        "radius_r150": at(150)[pseat]["BombRadius"], "opp_radius_r150": at(150)[o]["BombRadius"],
        "bag_r150": at(150)[pseat]["BombBag"], "opp_bag_r150": at(150)[o]["BombBag"],
        "stalls": stall_walls, "opp_stalls": st[o],
        "bombs": lb[pseat]["actions"]["bomb"], "opp_bombs": lb[o]["actions"]["bomb"],
    }))
