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


def test_a_league_member_is_named_after_its_policy_file() -> None:
    from botarena.train.config import member_name

    assert member_name("policy:policies/battlebots-all.policy.safetensors?sample") == "battlebots-all"
    assert member_name("policy:/x/y/p.safetensors") == "p"
    assert member_name("sniper") == "sniper"


def test_resume_auto_takes_the_newest_checkpoint_or_none(tmp_path: Path) -> None:
    from botarena.train.config import latest_checkpoint

    assert latest_checkpoint(tmp_path) == ""
    (tmp_path / "checkpoints").mkdir()
    for name in ("update_00009.pt", "update_00010.pt", "update_00011.pt.tmp", "update_00012.policy.safetensors"):
        (tmp_path / "checkpoints" / name).write_bytes(b"")
    assert latest_checkpoint(tmp_path) == str(tmp_path / "checkpoints" / "update_00010.pt")


def test_the_league_mixes_committed_policies_and_caps_the_snapshots_share(tmp_path: Path, capsys: object) -> None:
    """A fixed member may be a policy file (named after it); the snapshots together get at most
    --snapshot-share of the mixture; the same command run again continues from its newest checkpoint."""
    first = tmp_path / "first"
    assert main(
        [
            "--game", "battlebots", "--opponent", "huggy", "--minutes", "0", "--total-steps", "1024",
            "--num-envs", "8", "--num-steps", "64", "--channels", "4", "--hidden", "16", "--checkpoint-every", "0",
            "--eval-games", "0", "--gauntlet-games", "0", "--out", str(first), "--threads", "1",
        ]
    ) == 0  # fmt: skip
    out = tmp_path / "run"
    args = [
        "--game", "battlebots", "--self-play", "--league-bots", f"huggy,nop,policy:{first / 'policy.safetensors'}?sample",
        "--minutes", "0", "--total-steps", "2048", "--num-envs", "8", "--num-steps", "64", "--channels", "4", "--hidden", "16",
        "--snapshot-every", "1", "--snapshot-share", "0.1", "--league-games", "4", "--checkpoint-every", "1",
        "--eval-games", "0", "--gauntlet-games", "0", "--out", str(out), "--threads", "1", "--resume", "auto",
    ]  # fmt: skip
    assert main(args) == 0
    agents = League(out / "league").agents()
    assert {"huggy", "nop", "policy"} <= set(agents) and agents["policy"].startswith("policy:")
    log = capsys.readouterr().out  # type: ignore[attr-defined]
    mixes = [line for line in log.splitlines() if line.startswith("opponents: ")]
    assert len(mixes) >= 2 and "snap_" not in mixes[0]  # before the first snapshot: the fixed members alone
    for line in mixes[1:]:
        shares = {name: float(w) for name, w in (part.rsplit(" ", 1) for part in line[len("opponents: ") :].split(", "))}
        assert sum(w for n, w in shares.items() if n.startswith("snap_")) <= 0.1 + 0.02, line
    import torch

    from botarena.train.config import latest_checkpoint

    record = torch.load(latest_checkpoint(out), weights_only=False)["train_record"]
    assert record and all(r[0] >= r[1] >= 0 for r in record.values()), record  # resumed runs keep their PFSP record
    args[args.index("--total-steps") + 1] = "3072"
    assert main(args) == 0
    assert "resuming from" in capsys.readouterr().out  # type: ignore[attr-defined]
