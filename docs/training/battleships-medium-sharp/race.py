"""ships5 scratch (issue 34): the race model without return fire, from bin/race.
usage: python3 race.py POLICYSPEC_SAMPLE POLICYSPEC_ARGMAX [games] [seed]"""
import json, os, subprocess, sys, collections

def race(shooter, fleet, games, seed):
    out = subprocess.run([os.environ.get("RACE_BIN", "race"), "-shooter", shooter, "-fleet", fleet,
                          "-games", str(games), "-seed", str(seed)], capture_output=True, text=True, check=True).stdout
    return json.loads(out)["rounds"]

def pwin(a, b):
    """P(a < b) + 0.5 P(a == b), a and b independent draws."""
    ca, cb = collections.Counter(a), collections.Counter(b)
    n = len(a) * len(b)
    w = sum(x * y for ra, x in ca.items() for rb, y in cb.items() if ra < rb)
    t = sum(x * cb.get(ra, 0) for ra, x in ca.items())
    return (w + 0.5 * t) / n

def mean(x): return sum(x) / len(x)

if __name__ == "__main__":
    specs = sys.argv[1:3]
    games = int(sys.argv[3]) if len(sys.argv) > 3 else 200
    seed = int(sys.argv[4]) if len(sys.argv) > 4 else 77
    hh = race("hunter", "hunter", games, seed)
    ha = race("hunter", "admiral", games, seed)
    res = {"hunter->hunter": mean(hh), "hunter->admiral": mean(ha)}
    for s in specs:
        ps_h = race(s, "hunter", games, seed)
        ps_a = race(s, "admiral", games, seed)
        h_ps = race("hunter", s, games, seed)
        a_ps = race("admiral", s, games, seed)
        res[s] = {"policy->hunter fleet": mean(ps_h), "policy->admiral fleet": mean(ps_a),
                  "hunter->policy fleet": mean(h_ps), "admiral->policy fleet": mean(a_ps),
                  "pred vs hunter": pwin(ps_h, h_ps), "pred vs admiral": pwin(ps_a, a_ps)}
    print(json.dumps(res, indent=1))
