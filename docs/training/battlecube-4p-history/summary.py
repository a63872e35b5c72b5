"""summary.py DIR [BASE_DIR]: a Markdown table of the eval.sh tournaments in DIR (hist-*.json) against base-*.json in
BASE_DIR (default DIR; for the committed table, docs/training/battlecube-4p-stalker, whose files this binary reproduced; the 2-player
rows: `tournament battlecube/2p --agents "NAME=policy:P[?sample],teebot,stalker" --focus NAME --games 100 --seed 2026112931`).

Per file and opponent: the policy's W/D/L, first places alone with the tournament's 95% interval, the
first places per seat (of the games a seat), and its actions by kind per cube."""

import json
import sys
from pathlib import Path

d = Path(sys.argv[1])
base_dir = Path(sys.argv[2]) if len(sys.argv) > 2 else d
rows = []
for t, label in [
    ("battlecube-{}", "one task"),
    ("battlecube-tasks3-{}", "`tasks3`"),
    ("stalker-{}-1000", "one task, 1,000 cubes (seed 2026112932)"),
    ("2p-{}", "2 players (`battlecube/2p`, 100 a seat)"),
]:
    for opp in ("teebot", "stalker"):
        for mode in ("sample", "argmax"):
            cells = []
            for name in ("hist", "base"):
                p = (d if name == "hist" else base_dir) / f"{name}-{t.format(mode)}.json"
                if not p.exists() or p.stat().st_size == 0:
                    cells.append(None)
                    continue
                j = json.loads(p.read_text())
                pair = next((x for x in j["pairs"] if opp in x["agents"]), None)
                if pair is None:
                    cells.append(None)
                    continue
                s = next(x for x in pair["sides"] if x["agent"] == name)
                k = pair["agents"].index(name)
                per = [st["wins"][k] for st in pair.get("seatings", [])]
                lo, hi = s["win_rate_95"]
                a = s["mean_actions"]
                cells.append(
                    (f"{s['wins']}/{s['draws']}/{s['losses']}", f"{100 * s['win_rate']:.1f}%", f"[{100 * lo:.1f}%, {100 * hi:.1f}%]",
                     ", ".join(map(str, per)), f"noop {a.get('noop', 0):.1f}, move {a.get('move', 0):.1f}, bomb {a.get('bomb', 0):.1f}")
                )
            if all(c is None for c in cells):
                continue
            h, b = cells
            rows.append(
                f"| {label} | {opp if t.startswith('2p') else 'three ' + opp + 's'} | {'sampling' if mode == 'sample' else 'arg-max'} | "
                + (" | ".join(h) if h else " | | | | ")
                + " | "
                + (" | ".join(b[:4]) if b else " | | | ")
                + " |"
            )
print("| config | opponents | policy | this run W/D/L | first place | 95% interval | per seat | actions a cube | battlecube-4p W/D/L | first place | 95% interval | per seat |")
print("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |")
print("\n".join(rows))
