import re,math,sys
from collections import defaultdict
L=[l for l in open(sys.argv[1]) if 'seed ' in l]
agg=defaultdict(lambda:[0,0]); cats={}
for l in L:
    win=int(re.search(r'win (\d)',l).group(1)); walls=int(re.search(r'walls (\d+)',l).group(1))
    ps=re.findall(r'\[(\d)(\*?) pts (-?\d+) cnt (-?\d+) cov (\d+) bag (\d+) rad (\d+) dead (\w+)@(\d+)\]',l)
    me=[p for p in ps if p[1]=='*'][0]; op=[p for p in ps if p[1]==''][0]
    won=int(me[0])==win
    if me[7]=='true': c='A died'
    elif op[7]=='true': c='B died'
    elif walls>10: c='cap, >10 walls standing'
    else: c='cap, walls cleared'
    d=cats.setdefault(c,[0,0]); d[0]+=1; d[1]+=won
    if c.startswith('cap'):
        pu=lambda p:int(p[5])-1+int(math.log2(int(p[6])))
        k=max(-4,min(4,pu(me)-pu(op))); agg[k][0]+=1; agg[k][1]+=won
print(' '.join(f'{c}: {d[1]}/{d[0]} won;' for c,d in sorted(cats.items())))
print('at the cap, by power-up lead (A-B, clipped ±4):',' '.join(f'{k:+d}: {agg[k][1]}/{agg[k][0]}' for k in sorted(agg)))
