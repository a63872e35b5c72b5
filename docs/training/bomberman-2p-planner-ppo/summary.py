"""Summarise eval.sh's tournament JSON (json/*.json): win rate with its 95% Wilson interval, deaths by cause
(the policy's own, and the opponent's in the policy's wins: league/gauntlet.go's loser_deaths),
actions per game, mean points and rounds (helper bomber12, issue 34). Prints a Markdown table."""
import glob, json, os

print("| run | opponent | games | win rate [95%] | points (opp.) | its deaths: own bomb / opponent's / both | its wins by the opponent's death: opponent's own bomb / its bomb / both | nothing / move / bomb / trigger per game | rounds |")
print("| --- | --- | --- | --- | --- | --- | --- | --- | --- |")
for f in sorted(glob.glob("json/*.json")):
    try:
        d = json.load(open(f))
    except Exception:
        continue
    p = d["pairs"][0]
    me, op = p["sides"]
    lo, hi = me["win_rate_95"]
    de, ld, a = me["deaths"], me["loser_deaths"], me["mean_actions"]
    k = ("own bomb", "opponent's bomb", "own and opponent's bomb")
    print(f"| {me['agent']} | {op['agent']} | {p['games']} | {100*me['win_rate']:.1f}% [{100*lo:.1f}, {100*hi:.1f}] | "
          f"{me['mean_points']:.0f} ({op['mean_points']:.0f}) | {' / '.join(str(de[x]) for x in k)} | "
          f"{' / '.join(str(ld[x]) for x in k)} | {a['nothing']:.1f} / {a['move']:.1f} / {a['bomb']:.1f} / {a['trigger']:.1f} | {p['mean_rounds']:.0f} |")
