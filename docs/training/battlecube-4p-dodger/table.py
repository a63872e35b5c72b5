"""table.py NEW_DIR NEW BASE_DIR BASE: eval.sh's JSON files as one Markdown table, policy NEW (NEW-*.json
in NEW_DIR) beside the baseline BASE (BASE-*.json in BASE_DIR) on the same seeds and pairings: W/D/L,
first places alone with the tournament's 95% interval, first places per seat, actions a cube (NEW's)."""
import json
import sys
from pathlib import Path

ROWS = [("battlecube-tasks3-{}", "`tasks3`"), ("battlecube-{}", "one task"),
        ("stalker-{}-1000", "one task, 1,000 cubes"), ("2p-{}", "2 players")]


def cells(path: Path, agent: str, opponent: str, actions: bool) -> list[str]:
    """The row cells of agent's side in the pair against opponent, or blanks."""
    n = 4 if actions else 3
    try:
        pairs = [p for p in json.loads(path.read_text())["pairs"] if opponent in p["agents"]]
    except (OSError, ValueError):  # not there, or still being written
        return [""] * n
    if not pairs:
        return [""] * n
    pair = pairs[0]
    k = pair["agents"].index(agent)
    side = next(x for x in pair["sides"] if x["agent"] == agent)
    lo, hi = side["win_rate_95"]
    out = [f"{side['wins']}/{side['draws']}/{side['losses']}",
           f"**{100 * side['win_rate']:.1f}%** [{100 * lo:.1f}, {100 * hi:.1f}]",
           ", ".join(str(st["wins"][k]) for st in pair.get("seatings", []))]
    if actions:
        a = side["mean_actions"]
        out.append(", ".join(f"{kind} {a.get(kind, 0):.1f}" for kind in ("noop", "move", "bomb")))
    return out


def main() -> None:
    new_dir, new, base_dir, base = Path(sys.argv[1]), sys.argv[2], Path(sys.argv[3]), sys.argv[4]
    print(f"| cubes | opponents | policy | {new} W/D/L | first place [95%] | per seat | actions a cube | {base} W/D/L | first place [95%] | per seat |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    for pattern, label in ROWS:
        for opponent in ("teebot", "stalker"):
            for mode, word in (("sample", "sampling"), ("argmax", "arg-max")):
                name = pattern.format(mode) + ".json"
                row = cells(new_dir / f"{new}-{name}", new, opponent, True) + cells(base_dir / f"{base}-{name}", base, opponent, False)
                if not any(row):
                    continue
                who = opponent if label == "2 players" else f"three {opponent}s"
                print(f"| {label} | {who} | {word} | " + " | ".join(row) + " |")


if __name__ == "__main__":
    main()
