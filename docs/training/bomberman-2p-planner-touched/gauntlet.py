"""Collect eval.sh's tournament JSON files into gauntlet.json and render gauntlet.md (helper bomber11, issue 34)."""
import glob, json, os, sys
from botarena.train.gauntlet import render_gauntlet_md

src = sys.argv[1] if len(sys.argv) > 1 else "."
tables = {os.path.basename(f)[:-5]: json.load(open(f)) for f in sorted(glob.glob(f"{src}/*.json"))}
json.dump({"tables": tables}, open("gauntlet.json", "w"), indent=1)
out, head = [], None
for name, t in tables.items():
    md = render_gauntlet_md(t).splitlines()
    rows = [l for l in md if l.startswith("| ") and not l.startswith("| agent")]
    if head is None:
        head = [l for l in md if l.startswith("| agent") or l.startswith("|---")]
        out += ["# bomberman/2p: gauntlet of bomberman-2p-planner-touched (and bomberman-2p-harvester-ppo on the same seeds)", "",
                "eval.sh: config " + ("with touched_planes and opponent_scalars for the trained policy (harvester-ppo: without, "
                "its first 12 planes and 8 scalars are the same bytes); mask wary + strict for every seat. ")
                + md[2].split(". ", 1)[1] if ". " in md[2] else md[2], ""] + head
    out += [r.replace("| ", f"| ", 1) for r in rows]
    out[-len(rows):] = [r + f" seed {t['seed']} |" if False else r for r in out[-len(rows):]]
open("gauntlet.md", "w").write("\n".join(out) + "\n\nSeeds: " + ", ".join(f"{k} {t['seed']}" for k, t in tables.items()) + "\n")
