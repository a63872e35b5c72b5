"""The ``botarena`` command of the installed package (botarena._cli): the Go binary, same arguments, same status."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from botarena import _cli, server

ROOT = Path(__file__).resolve().parents[2]


def test_the_entry_point_is_declared() -> None:
    tomllib = pytest.importorskip("tomllib")
    with open(ROOT / "python" / "pyproject.toml", "rb") as f:
        scripts = tomllib.load(f)["project"]["scripts"]
    assert scripts["botarena"] == "botarena._cli:main"


def test_main_runs_the_binary_with_the_arguments(capfd: pytest.CaptureFixture[str]) -> None:
    binary = server.find_binary()
    assert _cli.main(["--version"]) == 0
    out = capfd.readouterr().out
    want = subprocess.run([binary, "--version"], capture_output=True, text=True, timeout=60).stdout
    assert out == want and out.startswith("botarena ")
    assert _cli.main(["games"]) == 0
    assert "bomberman" in capfd.readouterr().out


def test_main_exits_with_the_binarys_status(capfd: pytest.CaptureFixture[str]) -> None:
    want = subprocess.run([server.find_binary(), "no-such-command"], capture_output=True, timeout=60).returncode
    assert want != 0
    assert _cli.main(["no-such-command"]) == want
    assert "no-such-command" in capfd.readouterr().err


@pytest.mark.skipif(os.name != "posix", reason="the console script replaces its process (execv) on POSIX")
def test_the_console_script_replaces_itself_by_the_binary() -> None:
    proc = subprocess.run(
        [sys.executable, "-c", "import sys; from botarena._cli import main; sys.exit(main())", "games"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    assert "battlebots" in proc.stdout
    proc = subprocess.run(
        [sys.executable, "-m", "botarena._cli", "no-such-command"], capture_output=True, text=True, timeout=120
    )
    assert proc.returncode != 0 and "no-such-command" in proc.stderr


def test_find_binary_skips_the_console_script_on_path(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Where botarena on PATH is this package's command, find_binary must not return it (it would run itself)."""
    scripts, real = tmp_path / "venv-bin", tmp_path / "go-bin"
    scripts.mkdir()
    real.mkdir()
    script = scripts / "botarena"
    script.write_text(f"#!{sys.executable}\nimport sys\nfrom botarena._cli import main\nsys.exit(main())\n")
    script.chmod(0o755)
    binary = real / "botarena"
    binary.write_bytes(b"\x7fELF fake binary")
    binary.chmod(0o755)
    monkeypatch.setenv("PATH", str(scripts))
    assert server._binary_on_path() is None
    monkeypatch.setenv("PATH", os.pathsep.join([str(scripts), str(real)]))
    assert server._binary_on_path() == str(binary)


def test_no_binary_is_status_127(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    def missing() -> str:
        raise server.ServerError("cannot find the botarena binary")

    monkeypatch.setattr(_cli, "find_binary", missing)
    assert _cli.main(["games"]) == 127
    assert "cannot find the botarena binary" in capsys.readouterr().err
