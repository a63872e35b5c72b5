"""The docs site's generator (python/tools/docs_pages.py) and MkDocs hooks (python/tools/docs_hooks.py).

``make docs`` runs both and CI builds the site with warnings as errors; these
tests pin the parts that decide what a page says: how actions are tabled,
that the animations hold every frame, how ``botarena games --json`` is read,
and how links that leave docs/ are rewritten.
"""

from __future__ import annotations

import json
import logging
import struct
import sys
import zlib
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pytest

TOOLS = Path(__file__).resolve().parents[1] / "tools"
sys.path.insert(0, str(TOOLS))

import docs_hooks  # noqa: E402
import docs_pages  # noqa: E402


@pytest.mark.parametrize(
    ("names", "head", "rows"),
    [
        ("small_space_listed_action_by_action", ["NO", "N", "B N"], None),
        (
            "large_space_grouped_by_kind",
            ["noop"] + [f"move{i}" for i in range(6)] + [f"bomb({i},0,0)" for i in range(40)],
            [["0", 1, "`noop`", ""], ["1–6", 6, "`move0`", "`move5`"], ["7–46", 40, "`bomb(0,0,0)`", "`bomb(39,0,0)`"]],
        ),
        (
            "numbered_commands_split_by_command",
            ["nothing"] + [f"{c},{x},0" for c in (1, 2) for x in range(30)],
            [["0", 1, "`nothing`", ""], ["1–30", 30, "`1,0,0`", "`1,29,0`"], ["31–60", 30, "`2,0,0`", "`2,29,0`"]],
        ),
    ],
    ids=lambda v: v if isinstance(v, str) else "",
)
def test_action_table_lists_small_spaces_and_groups_large_ones(names: str, head: list[str], rows: list[list[object]] | None) -> None:
    got_head, got_rows = docs_pages.action_rows(head)
    if rows is None:
        assert got_head == ["index", "action"]
        assert got_rows == [[i, f"`{n}`"] for i, n in enumerate(head)]
    else:
        assert got_head == ["indices", "count", "first", "last"]
        assert got_rows == rows


def read_apng(path: Path) -> tuple[int, list[np.ndarray]]:
    """Returns the acTL frame count and every frame of an RGB APNG written by write_apng."""
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    i, count, frames, w, h = 8, 0, [], 0, 0
    while i < len(data):
        (n,) = struct.unpack(">I", data[i : i + 4])
        kind, body = data[i + 4 : i + 8], data[i + 8 : i + 8 + n]
        assert struct.unpack(">I", data[i + 8 + n : i + 12 + n])[0] == zlib.crc32(kind + body) & 0xFFFFFFFF, kind
        i += 12 + n
        if kind == b"IHDR":
            w, h = struct.unpack(">II", body[:8])
        elif kind == b"acTL":
            count = struct.unpack(">I", body[:4])[0]
        elif kind in (b"IDAT", b"fdAT"):
            raw = zlib.decompress(body if kind == b"IDAT" else body[4:])
            frames.append(np.frombuffer(raw, np.uint8).reshape(h, 1 + 3 * w)[:, 1:].reshape(h, w, 3))
    return count, frames


def test_animation_holds_every_frame_in_order(tmp_path: Path) -> None:
    rng = np.random.default_rng(1)
    frames = [rng.integers(0, 256, size=(5, 7, 3), dtype=np.uint8) for _ in range(4)]
    out = tmp_path / "a.png"
    docs_pages.write_apng(out, frames, 150)
    count, got = read_apng(out)
    assert count == 4 and len(got) == 4
    for want, have in zip(frames, got):
        np.testing.assert_array_equal(want, have)


def test_games_json_is_read_in_the_proto_shape_and_the_earlier_one() -> None:
    tensor = {"name": "planes", "dtype": "uint8", "shape": [2, 3, 3], "layout": "[C,H,W]"}
    proto = {
        "name": "g",
        "summary": "a game",
        "spec": {"game": "g", "seats": 2, "observations": [tensor], "actions": 3, "action_names": ["a", "b", "c"], "max_steps": 9, "reward": "r"},
        "agents": ["idle", "random"],
        "agent_summaries": {"idle": "does nothing"},
        "reference_agent": "idle",
        "training_opponents": ["random"],
        "config_fields": [{"name": "players", "type": "integer", "default_json": "2", "allowed": "2..4", "doc": "seats"}],
    }
    earlier = {
        "name": "g",
        "summary": "a game",
        "seats": 2,
        "observations": [tensor],
        "actions": 3,
        "action_names": ["a", "b", "c"],
        "max_steps": 9,
        "reward": "r",
        "agents": ["idle", "random"],
        "agent_summaries": {"idle": "does nothing"},
        "reference": "idle",
        "opponents": ["random"],
        "config": [{"name": "players", "type": "integer", "default": 2, "allowed": "2..4", "doc": "seats"}],
    }
    a, b = docs_pages.game_infos(json.dumps(proto) + "\n\n" + json.dumps(earlier) + "\n")
    assert a == b
    assert a.spec.seats == 2 and a.spec.observations[0].shape == (2, 3, 3)
    assert a.config_fields[0].default == 2 and a.reference_agent == "idle"


def page(src: str) -> SimpleNamespace:
    return SimpleNamespace(file=SimpleNamespace(src_uri=src))


@pytest.mark.parametrize(
    ("src", "md", "want"),
    [
        ("serve.md", "[the proto](../rpc/proto/botarena/v1/env.proto)", "the proto (`rpc/proto/botarena/v1/env.proto`)"),
        ("serve.md", "[python/README.md](../python/README.md#install)", "`python/README.md`"),
        ("training.md", "[runs](training/)", "runs (`docs/training/`)"),
        ("architecture.md", "[the README](../README.md)", "[the README](gen/index.md)"),
        ("gen/games/bomberman.md", "[home](../../../README.md)", "[home](../../gen/index.md)"),
        ("serve.md", "[ops](operations.md#limits)", "[ops](operations.md#limits)"),
        ("serve.md", "[site](https://example.org/x)", "[site](https://example.org/x)"),
        ("serve.md", "![pic](img/games.png)", "![pic](img/games.png)"),
        ("serve.md", "```sh\n[x](../go.mod)\n```\n", "```sh\n[x](../go.mod)\n```\n"),
    ],
)
def test_links_that_leave_docs_become_repository_paths(src: str, md: str, want: str) -> None:
    config = {"docs_dir": str(Path(__file__).resolve().parents[2] / "docs")}
    assert docs_hooks.on_page_markdown(md, page(src), config, None) == want


def test_a_link_to_a_missing_repository_path_warns(caplog: pytest.LogCaptureFixture) -> None:
    config = {"docs_dir": str(Path(__file__).resolve().parents[2] / "docs")}
    with caplog.at_level(logging.WARNING, logger="mkdocs"):
        docs_hooks.on_page_markdown("[x](../no/such/file.go)", page("serve.md"), config, None)
    assert "no/such/file.go" in caplog.text


def test_games_section_gets_every_generated_page_after_its_index(tmp_path: Path) -> None:
    games = tmp_path / "gen" / "games"
    games.mkdir(parents=True)
    for name in ("index.md", "b.md", "a.md"):
        (games / name).write_text("# x\n")
    config = {"docs_dir": str(tmp_path), "nav": [{"Home": "index.md"}, {"Games": ["gen/games/index.md", {"Notes": "games.md"}]}]}
    docs_hooks.on_config(config)
    assert config["nav"][1] == {"Games": ["gen/games/index.md", "gen/games/a.md", "gen/games/b.md", {"Notes": "games.md"}]}


def test_rst_roles_are_dropped_before_code_spans() -> None:
    html = "see :class:<code>Pool</code> and :meth:<code>Pool.step</code>, not :foo:<code>x</code>"
    assert docs_hooks.on_page_content(html, None, None, None) == "see <code>Pool</code> and <code>Pool.step</code>, not :foo:<code>x</code>"


def test_headings_of_the_rules_move_down_a_level_under_the_page_title() -> None:
    md = "# Game — rules\n\nintro\n\n## Arena\n\n```text\n# not a heading\n```\n### Detail\n"
    assert docs_pages.shift_headings(md) == "intro\n\n### Arena\n\n```text\n# not a heading\n```\n#### Detail\n"


def test_table_cells_escape_emphasis_and_pipes_outside_code() -> None:
    assert docs_pages.cell("index = c*H*W + y*W | `a*b`") == "index = c\\*H\\*W + y\\*W \\| `a*b`"
