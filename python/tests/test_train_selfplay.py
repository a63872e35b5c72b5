"""The self-play smoke test: a tiny ``python -m botarena.train --self-play`` run.

Needs PyTorch (CI sets BOTARENA_REQUIRE_EXTRAS=1, so there it fails rather
than skips). The trainer starts its own server (behind a random token)
with --bots-dir OUT/checkpoints, since the snapshots are policy files.
"""

from __future__ import annotations

from pathlib import Path

from extras import require

require("torch")
require("matplotlib")

from botarena.league import League  # noqa: E402
from botarena.train import main  # noqa: E402


def test_self_play_run(tmp_path: Path, capsys: object) -> None:
    out = tmp_path / "run"
    rc = main(
        [
            "--game", "battlebots", "--self-play", "--minutes", "0", "--total-steps", "3072",
            "--num-envs", "16", "--num-steps", "64", "--channels", "8,8", "--hidden", "32",
            "--snapshot-every", "1", "--league-games", "12", "--checkpoint-every", "0",
            "--eval-games", "0", "--gauntlet-games", "0", "--out", str(out), "--threads", "1",
        ]
    )  # fmt: skip
    assert rc == 0
    league = League(out / "league")
    agents = league.agents()
    snaps = sorted(n for n in agents if n.startswith("snap_"))
    assert snaps == ["snap_00001", "snap_00002", "snap_00003"], agents
    assert {"huggy", "sniper", "nop"} <= set(agents)
    # Snapshots play as trained: policy:PATH?sample.
    assert all(agents[s].startswith("policy:") and agents[s].endswith("?sample") for s in snaps)
    assert all(Path(agents[s][len("policy:") : -len("?sample")]).exists() for s in snaps)
    rows = {r.name: r for r in league.table()}
    for s in snaps:
        assert rows[s].games > 0 and rows[s].rd < 350, rows[s]
    assert all(rows[b].games > 0 for b in ("huggy", "sniper", "nop"))
    text = (out / "league.txt").read_text()
    assert "snap_00003" in text and "RANK" in text
    assert (out / "ratings.png").stat().st_size > 0
    log = capsys.readouterr().out  # type: ignore[attr-defined]
    assert "league after snapshot snap_00001" in log and "opponents: " in log
