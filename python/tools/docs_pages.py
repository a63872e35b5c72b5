"""Writes the docs site's generated pages into docs/gen/ (git ignores it): one page per game and the CLI reference.

    .venv/bin/python python/tools/docs_pages.py [--bin bin/botarena] [--out docs/gen] [--no-animations]

Everything comes from the binary and the committed measurements, so the pages
say what the code does:

- ``games/<game>.md`` for each game (registry names without a ``/``): the
  summary, an animated picture drawn by the game's own painter (the frames of
  ``Pool.render_rgb`` as an animated PNG), the variants, the observation
  tensors, the actions, the reward, the built-in agents and the config
  fields, all from ``botarena games --json`` (read with the Python client's
  own ``GameInfo``); the rules from ``botarena rules
  GAME``; and the gauntlet's win rates from the newest
  ``docs/tournaments/<date>/*.json``. ``games/index.md`` lists the games.
- ``cli.md``: ``botarena --help`` and every subcommand's ``--help``, found by
  walking the "Available Commands" of each help text.
- ``index.md``: the README, the site's home page, its links made relative
  to docs/gen/ (links that leave docs/ become repository paths in the hook).

``make docs`` runs it before ``mkdocs build``; python/tools/docs_hooks.py puts
the game pages into the site's navigation.
"""

from __future__ import annotations

import argparse
import json
import re
import struct
import subprocess
import sys
import zlib
from pathlib import Path
from typing import Any, Iterable

import numpy as np
from google.protobuf import json_format

from botarena.spec import GameInfo, TensorSpec
from botarena.v1 import env_pb2

REPO = Path(__file__).resolve().parents[2]

# One definition of each game's busy opening (game, opponents, config): pictures.py.
sys.path.insert(0, str(Path(__file__).resolve().parent))
from pictures import SHOTS  # noqa: E402

#: Frames of each animation, drawn every FRAME_EVERY steps, each shown FRAME_MS milliseconds.
FRAMES = 48
FRAME_EVERY = 2
FRAME_MS = 150
#: Action spaces up to this size are listed action by action; larger ones by kind.
LIST_ACTIONS = 40


def game_infos(text: str) -> list[GameInfo]:
    """Parses ``botarena games --json``: one proto GameInfo per line (protojson), read as the Python client reads it.

    A line in the CLI's earlier shape (the spec's fields and ``config`` at the
    top level) is first put into the proto's.
    """
    infos = []
    for line in text.splitlines():
        if line.strip():
            d = json.loads(line)
            msg = json_format.ParseDict(d if "spec" in d else proto_shape(d), env_pb2.GameInfo())
            infos.append(GameInfo.from_proto(msg))
    return infos


def proto_shape(d: dict[str, Any]) -> dict[str, Any]:
    """Returns a game of the CLI's earlier JSON in the proto GameInfo's shape."""
    spec = {k: d[k] for k in ("seats", "observations", "actions", "action_names", "max_steps", "reward") if k in d}
    return {
        "name": d["name"],
        "summary": d.get("summary", ""),
        "spec": {"game": d["name"], **spec},
        "agents": d.get("agents") or [],
        "agent_summaries": d.get("agent_summaries") or {},
        "reference_agent": d.get("reference") or "",
        "training_opponents": d.get("opponents") or [],
        "config_fields": [
            {"name": c["name"], "type": c["type"], "default_json": json.dumps(c.get("default")), "allowed": c.get("allowed", ""), "doc": c.get("doc", "")}
            for c in d.get("config") or []
        ],
    }


def run(binary: Path, *args: str) -> str:
    """Runs the botarena binary and returns its stdout; a failure stops the build with its stderr."""
    out = subprocess.run([str(binary), *args], capture_output=True, text=True)
    if out.returncode != 0:
        sys.exit(f"docs_pages: botarena {' '.join(args)}: exit {out.returncode}: {out.stderr.strip()}")
    return out.stdout


def prose(text: str) -> str:
    """Returns plain text (a layout formula, a reward) for Markdown: ``*`` escaped outside code spans (c*H*W is no emphasis)."""
    parts = text.split("`")
    return "`".join(p.replace("*", "\\*") if i % 2 == 0 else p for i, p in enumerate(parts))


def cell(value: Any) -> str:
    """Formats a value for a Markdown table cell."""
    if value is None or value == "":
        return ""
    if isinstance(value, (list, dict)):
        value = json.dumps(value)
    return prose(str(value)).replace("|", "\\|").replace("\n", " ")


def table(head: Iterable[str], rows: Iterable[Iterable[Any]]) -> str:
    """Returns a Markdown table."""
    head = list(head)
    lines = ["| " + " | ".join(head) + " |", "|" + " --- |" * len(head)]
    lines += ["| " + " | ".join(cell(c) for c in row) + " |" for row in rows]
    return "\n".join(lines) + "\n"


def action_kind(name: str) -> str:
    """Returns the kind of an action name: its leading word or number (``bomb(1,2,3)`` → bomb, ``2,4,5`` → 2)."""
    m = re.match(r"[A-Za-z_]+|-?\d+", name)
    return m.group(0) if m else name


def action_rows(names: list[str]) -> tuple[list[str], list[list[Any]]]:
    """Returns the head and rows of the action table: one row per action, or per run of one kind when there are many."""
    if len(names) <= LIST_ACTIONS:
        return ["index", "action"], [[i, f"`{n}`"] for i, n in enumerate(names)]
    rows: list[list[Any]] = []
    start = 0
    for i in range(1, len(names) + 1):
        if i == len(names) or action_kind(names[i]) != action_kind(names[start]):
            span = f"{start}" if i - 1 == start else f"{start}–{i - 1}"
            last = "" if i - 1 == start else f"`{names[i - 1]}`"
            rows.append([span, i - start, f"`{names[start]}`", last])
            start = i
    return ["indices", "count", "first", "last"], rows


def shift_headings(md: str, levels: int = 1) -> str:
    """Returns Markdown with its first-level title dropped and every other heading moved down levels levels."""
    out, fence = [], False
    for line in md.splitlines():
        if line.startswith("```"):
            fence = not fence
        elif not fence and line.startswith("# "):
            continue
        elif not fence and line.startswith("#"):
            line = "#" * levels + line
        out.append(line)
    return "\n".join(out).strip() + "\n"


def newest_gauntlets(root: Path) -> tuple[str, dict[str, list[dict[str, Any]]]]:
    """Returns the newest dated folder under root and its gauntlet JSON files, grouped by base game."""
    dated = sorted(p for p in root.iterdir() if p.is_dir()) if root.is_dir() else []
    if not dated:
        return "", {}
    groups: dict[str, list[dict[str, Any]]] = {}
    for path in sorted(dated[-1].glob("*.json")):
        g = json.loads(path.read_text())
        g["_file"] = path.relative_to(REPO).as_posix()
        groups.setdefault(g["game"].split("/")[0], []).append(g)
    return dated[-1].name, groups


def gauntlet_section(date: str, gauntlets: list[dict[str, Any]], page_dir: str) -> str:
    """Returns the gauntlet matrices of one game: the row agent's win rate against each column agent."""
    if not gauntlets:
        return ""
    out = [
        f"## The gauntlet (measured {date})\n",
        "Each cell is the row agent's win rate against the column agent over both seat orders "
        "(`botarena tournament GAME --gauntlet`; seeds, intervals and the other figures are in "
        f"[Tournaments]({page_dir}tournaments.md)).\n",
    ]
    for g in gauntlets:
        names = [a["agent"] for a in g["agents"]]
        rate: dict[tuple[str, str], float] = {}
        for pair in g["pairs"]:
            a, b = pair["sides"][0], pair["sides"][1]
            rate[(a["agent"], b["agent"])] = a["win_rate"]
            rate[(b["agent"], a["agent"])] = b["win_rate"]
        games = g["pairs"][0]["games"] if g["pairs"] else 0
        out.append(f"### `{g['game']}`: {games} games per pair\n")
        rows = [[f"`{r}`"] + ["—" if r == c else f"{rate[(r, c)]:.0%}" if (r, c) in rate else "" for c in names] for r in names]
        out.append(table(["agent"] + [f"`{c}`" for c in names], rows))
    return "\n".join(out)


def chunk(kind: bytes, data: bytes) -> bytes:
    """Returns one PNG chunk: length, kind, data and CRC."""
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)


def write_apng(path: Path, frames: list[np.ndarray], delay_ms: int) -> None:
    """Writes (H, W, 3) uint8 frames of one size as an 8-bit RGB animated PNG that loops forever.

    The first frame is also the still picture of viewers without APNG support.
    """
    h, w, _ = frames[0].shape

    def data(f: np.ndarray) -> bytes:
        return zlib.compress(b"".join(b"\x00" + f[y].tobytes() for y in range(h)), 9)

    def fctl(seq: int) -> bytes:
        # sequence, width, height, x and y offsets, delay numerator/denominator, dispose and blend ops
        return chunk(b"fcTL", struct.pack(">IIIIIHHBB", seq, w, h, 0, 0, delay_ms, 1000, 0, 0))

    out = [b"\x89PNG\r\n\x1a\n", chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0))]
    out += [chunk(b"acTL", struct.pack(">II", len(frames), 0)), fctl(0), chunk(b"IDAT", data(frames[0]))]
    seq = 1
    for f in frames[1:]:
        out += [fctl(seq), chunk(b"fdAT", struct.pack(">I", seq + 1) + data(f))]
        seq += 2
    out.append(chunk(b"IEND", b""))
    path.write_bytes(b"".join(out))


def animate(server: Any, game: str, opponents: str, config: dict[str, Any]) -> list[np.ndarray]:
    """Returns up to FRAMES pictures of one env of game from seed 7, the learner seat doing nothing (action 0).

    The built-in opponents make the game; a learner playing random actions
    would end most games in a few steps (its own bombs).
    """
    import botarena

    env = botarena.make_vec(game, 1, opponents=opponents, seed=7, address=server.address, **config)
    _, infos = env.reset(seed=7)
    frames = [np.array(env.pool.render_rgb(0))]
    idle = np.zeros(1, dtype=np.int64)
    while len(frames) < FRAMES:
        for _ in range(FRAME_EVERY):
            _, _, term, trunc, infos = env.step(idle)
        if term[0] or trunc[0]:
            break
        frames.append(np.array(env.pool.render_rgb(0)))
    env.close()
    return frames


def shape(t: TensorSpec) -> str:
    """Returns a tensor's dtype and shape as the CLI prints them: ``uint8[12,21,21]``."""
    return f"{t.dtype}[{','.join(str(d) for d in t.shape)}]"


def game_page(base: str, games: list[GameInfo], rules: str, gauntlet: str, picture: str | None) -> str:
    """Returns the Markdown page of one game from its registry entries (the base first, then its variants)."""
    g, spec = games[0], games[0].spec
    out = [f"# {base}\n", f"{g.summary}.\n"]
    if picture:
        out.append(f"![{base}, drawn by its painter: the learner idle against `{picture}`](img/{base}.png)\n")
    out.append(
        f"`botarena rules {base}` prints the rules below; `botarena games {base}` the config fields; "
        f'`gymnasium.make("botarena/{base}-v0")` makes it a single-agent env, '
        f'`botarena.parallel_env("{base}")` a PettingZoo one.\n'
    )
    out.append("## Variants\n")
    out.append(
        table(
            ["registry name", "seats", "observations", "actions", "max steps", "summary"],
            [
                [f"`{v.name}`", v.spec.seats, ", ".join(f"{t.name} {shape(t)}" for t in v.spec.observations), v.spec.actions, v.spec.max_steps, v.summary]
                for v in games
            ],
        )
    )
    out.append(f"## Observation (`{base}`)\n")
    out.append("One row per seat, from that seat's own perspective, plus the legal-action mask.\n")
    out.append(table(["tensor", "dtype and shape", "layout"], [[f"`{t.name}`", shape(t), t.layout] for t in spec.observations]))
    out.append(f"## Actions (`{base}`: {spec.actions})\n")
    head, rows = action_rows(list(spec.action_names))
    out.append(table(head, rows))
    out.append("## Reward\n")
    out.append(f"{prose(spec.reward)}\n")
    out.append("## Built-in agents\n")
    ref, opps = g.reference_agent, g.training_opponents
    if ref:
        out.append(f"The reference bot is `{ref}`, `botarena.train`'s default opponent" + (f"; a self-play league's fixed members are {', '.join(f'`{o}`' for o in opps)}.\n" if opps else ".\n"))
    out.append(table(["agent", "plays"], [[f"`{a}`", g.agent_summaries.get(a, "")] for a in g.agents]))
    out.append(f"## Config (`{base}`)\n")
    out.append("JSON fields of `--config`, `CreatePool` and keyword arguments of the Python envs.\n")
    out.append(table(["field", "type", "default", "allowed", "meaning"], [[f"`{c.name}`", c.type, c.default, c.allowed, c.doc] for c in g.config_fields]))
    if gauntlet:
        out.append(gauntlet)
    out.append("## Rules as implemented\n")
    out.append(shift_headings(rules))
    return "\n".join(out)


def cli_page(binary: Path) -> str:
    """Returns the CLI reference: the help of botarena and of every subcommand, depth first."""
    out = [
        "# Command line\n",
        "Every subcommand's `--help`, as the binary prints it (generated by `make docs` from `bin/botarena`).\n",
    ]

    def walk(path: list[str]) -> None:
        text = run(binary, *path, "--help")
        name = " ".join(["botarena", *path])
        out.append(f"{'#' * min(len(path) + 2, 6)} `{name}`\n")
        out.append("```text\n" + text.rstrip() + "\n```\n")
        m = re.search(r"^Available Commands:\n((?:  \S.*\n)+)", text, re.M)
        for line in (m.group(1).splitlines() if m else []):
            sub = line.split()[0]
            if sub not in ("help", "completion"):
                walk([*path, sub])

    walk([])
    return "\n".join(out)


def readme_page(readme: str) -> str:
    """Returns the README as a page of docs/gen/: each relative link one folder deeper (docs/x.md → ../x.md)."""

    def rewrite(m: re.Match[str]) -> str:
        text, target = m.group(1), m.group(2)
        if re.match(r"^[a-z][a-z0-9+.-]*:|^#|^/", target):
            return m.group(0)
        return f"{text}(../../{target})" if not target.startswith("docs/") else f"{text}(../{target[5:]})"

    return re.sub(r"(!?\[[^\]\n]*\])\(([^)\s]+)\)", rewrite, readme)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--bin", default=str(REPO / "bin" / "botarena"), help="the botarena binary (default bin/botarena)")
    ap.add_argument("--out", default=str(REPO / "docs" / "gen"), help="where the pages go (default docs/gen)")
    ap.add_argument("--no-animations", action="store_true", help="leave the animated pictures out")
    args = ap.parse_args()
    binary, out = Path(args.bin).resolve(), Path(args.out)
    (out / "games" / "img").mkdir(parents=True, exist_ok=True)

    specs = game_infos(run(binary, "games", "--json"))
    bases = [s.name for s in specs if "/" not in s.name]
    date, gauntlets = newest_gauntlets(REPO / "docs" / "tournaments")
    shots = {game.split("/")[0]: (game, opponents, config) for game, _, opponents, config in SHOTS}

    server = None
    if not args.no_animations:
        import botarena

        print(f"docs_pages: drawing {len(bases)} animations of {FRAMES} frames with {binary} serve ...", flush=True)
        server = botarena.Server(binary=str(binary)).__enter__()
    try:
        index = ["# Games\n", "Every game, its registry names and what a seat sees and does.\n"]
        rows = []
        for base in bases:
            variants = [s for s in specs if s.name == base or s.name.startswith(base + "/")]
            picture = None
            if server is not None:
                game, opponents, config = shots.get(base, (base, "random", {}))
                frames = animate(server, game, opponents, config)
                write_apng(out / "games" / "img" / f"{base}.png", frames, FRAME_MS)
                picture = opponents
                print(f"docs_pages: games/img/{base}.png: {len(frames)} frames of {game}", flush=True)
            page = game_page(
                base,
                variants,
                run(binary, "rules", base),
                gauntlet_section(date, gauntlets.get(base, []), "../../"),
                picture,
            )
            (out / "games" / f"{base}.md").write_text(page)
            rows.append([f"[{base}]({base}.md)", ", ".join(f"`{v.name}`" for v in variants), variants[0].summary])
        index.append(table(["game", "registry names", "summary"], rows))
        (out / "games" / "index.md").write_text("\n".join(index))
    finally:
        if server is not None:
            server.__exit__(None, None, None)
    (out / "cli.md").write_text(cli_page(binary))
    (out / "index.md").write_text(readme_page((REPO / "README.md").read_text()))
    print(f"docs_pages: wrote {len(bases)} game pages and cli.md into {out}")


if __name__ == "__main__":
    main()
