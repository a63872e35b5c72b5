"""table.py NEW_DIR BASE_DIR: eval.sh's tournaments as one Markdown table, this run's policy (hist2-*.json in
NEW_DIR) beside the baseline battlecube-4p-history (hist-*.json in BASE_DIR), on the same seeds: W/D/L, first
places alone with the tournament's 95% interval, first places per seat, and actions a cube (this run)."""
import json
import sys
from pathlib import Path

new_dir, base_dir = Path(sys.argv[1]), Path(sys.argv[2])
SETS = [("battlecube-{}", "one task"), ("stalker-{}-1000", "one task, 1,000 cubes"),
        ("battlecube-tasks3-{}", "`tasks3`"), ("2p-{}", "2 players")]


def side(path, name, opp):
    if not path.exists():
        return None
    pair = next((p for p in json.loads(path.read_text())["pairs"] if opp in p["agents"]), None)
    if pair is None:
        return None
    s = next(x for x in pair["sides"] if x["agent"] == name)
    k = pair["agents"].index(name)
    lo, hi = s["win_rate_95"]
    a = s["mean_actions"]
    return {"wdl": f"{s['wins']}/{s['draws']}/{s['losses']}",
            "rate": f"**{100 * s['win_rate']:.1f}%** [{100 * lo:.1f}, {100 * hi:.1f}]",
            "seats": ", ".join(str(st["wins"][k]) for st in pair.get("seatings", [])),
            "acts": f"noop {a.get('noop', 0):.1f}, move {a.get('move', 0):.1f}, bomb {a.get('bomb', 0):.1f}"}


print("| cubes | opponents | policy | history2 W/D/L | first place [95%] | per seat | actions a cube | history W/D/L | first place [95%] | per seat |")
print("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |")
for pat, label in SETS:
    for opp in ("teebot", "stalker"):
        for mode in ("sample", "argmax"):
            f = pat.format(mode) + ".json"
            n, b = side(new_dir / f"hist2-{f}", "hist2", opp), side(base_dir / f"hist-{f}", "hist", opp)
            if n is None and b is None:
                continue
            cells = [n[k] if n else "" for k in ("wdl", "rate", "seats", "acts")] + [b[k] if b else "" for k in ("wdl", "rate", "seats")]
            who = opp if label == "2 players" else f"three {opp}s"
            print(f"| {label} | {who} | {'sampling' if mode == 'sample' else 'arg-max'} | " + " | ".join(cells) + " |")
