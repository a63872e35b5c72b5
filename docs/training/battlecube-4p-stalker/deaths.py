# deaths.py RECORDING...: how the policy seat of each `botarena play --record` game ended: the tick it was
# lost, whether its own task was a move or standing still (bomb or noop), who bombed the cell and in which
# tick, and whether a free cell (no bomb, no bot, in the cube) was one move away. Used for
# docs/training.md, "The 4-player Battle³ run against stalker".
# Per recorded game: how seat P (the policy) ended; who bombed the cell it died on and when.
import json,sys,collections
E=8
MV=[(1,0,0),(-1,0,0),(0,1,0),(0,-1,0),(0,0,1),(0,0,-1)]
def cell(a):
    c=a-7; return (c%E,(c//E)%E,c//(E*E))
stats=collections.Counter(); lines=[]
for f in sys.argv[1:]:
    L=[json.loads(l) for l in open(f)]
    h=L[0]; names=h["config"]["names"]; ag=h["agents"]
    P=[i for i,a in enumerate(ag) if a.startswith("policy")][0]
    owner={}  # cell -> list of (seat,tick)
    res=L[-1]["result"]
    won=res["winner"]==P
    prev=None; died=None
    for r in L[1:]:
        if "result" in r: continue
        st=r["state"]; t=st["gameInfo"]["currentTick"]
        d={p["name"]:(p["x"],p["y"],p["z"]) for p in st["players"]}
        if "actions" not in r: break
        acts=r["actions"]
        for s,a in enumerate(acts):
            if a>=7 and names[s] in d: owner.setdefault(cell(a),[]).append((s,t))
        if r["rewards"][P]==-1:
            me=d[names[P]]; a=acts[P]
            nxt=me if a<1 or a>6 else tuple(me[i]+MV[a-1][i] for i in range(3))
            who=[(s,tt) for s,tt in owner.get(nxt,[])]
            # did a safe neighbour exist (no bomb at end of tick, no other bot)?
            bombs=set(owner.keys()); others=set(v for n,v in d.items() if n!=names[P])
            safe=[m for m in [me]+[tuple(me[i]+dv[i] for i in range(3)) for dv in MV] if all(0<=c<E for c in m) and m not in bombs and m not in others]
            kind="stay" if nxt==me else "move"
            died=(t,kind,who,len(safe))
    tag="win" if won else ("draw" if res["winner"] is None and res.get("draw") and any(e["seat"]==P and e["rank"]==1 for e in res["leaderboard"]) else "loss")
    stats[tag]+=1
    if died:
        t,kind,who,ns=died
        stats["died_t%s"%("<=3" if t<=3 else ">3")]+=1
        stats["died_"+kind]+=1
        stats["killer_self" if any(s==P for s,_ in who) else ("killer_"+("same_tick" if all(tt==t for _,tt in who) else "earlier"))]+=1
        stats["safe_cells_existed" if ns>0 else "no_safe_cell"]+=1
        lines.append("%s seat%d %s died t%d %s bombs=%s safe=%d"%(f.split('/')[-1],P,tag,t,kind,who,ns))
    else:
        lines.append("%s seat%d %s survived rounds=%d"%(f.split('/')[-1],P,tag,res["rounds"]))
print("\n".join(lines)); print(dict(stats))
