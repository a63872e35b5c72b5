"""python/tools/install_extras.py, what make venv, train-venv and extras-venv run: which PyTorch
it reuses or installs (and from where), and that pip's silences get a line.

The venvs here are fakes (shell scripts standing for the interpreters), so nothing is downloaded.
"""

from __future__ import annotations

import importlib.util
import os
import sys
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.skipif(os.name != "posix", reason="the fake interpreters are shell scripts")


def _load() -> ModuleType:
    spec = importlib.util.spec_from_file_location("install_extras", ROOT / "python" / "tools" / "install_extras.py")
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


ie = _load()

# The venv's python: imports torch when the venv sees the base's site-packages or after pip put it
# in; `-m pip ...` is logged to pip.log and "installs" torch.
_VENV_PY = """#!/bin/sh
v="$(dirname "$0")/.."
if [ "$1" = "-c" ]; then
    if grep -q "include-system-site-packages = true" "$v/pyvenv.cfg" && [ -n "$BASE_TORCH" ]; then
        echo "2.0.0 /base/site-packages/torch/__init__.py"; exit 0
    fi
    [ -f "$v/torch-installed" ] && { echo "2.1.0+cpu $v/torch/__init__.py"; exit 0; }
    exit 1
fi
echo "$*" >> "$v/pip.log"
echo "Collecting $*"
case "$*" in *--index-url*) [ -n "$FAIL_INDEX" ] && { echo "ERROR: the index is out of reach"; exit 1; } ;; esac
case "$*" in *" torch"*) touch "$v/torch-installed" ;; esac
exit 0
"""

# The base python: imports torch when $BASE_TORCH is set.
_BASE_PY = """#!/bin/sh
[ -n "$BASE_TORCH" ] && { echo "2.0.0 /base/site-packages/torch/__init__.py"; exit 0; }
exit 1
"""


@pytest.fixture
def venv(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    base = tmp_path / "base" / "python3"
    base.parent.mkdir()
    base.write_text(_BASE_PY)
    base.chmod(0o755)
    v = tmp_path / "venv"
    (v / "bin").mkdir(parents=True)
    (v / "bin" / "python").write_text(_VENV_PY)
    (v / "bin" / "python").chmod(0o755)
    (v / "pyvenv.cfg").write_text(f"home = {base.parent}\ninclude-system-site-packages = false\nexecutable = {base}\n")
    monkeypatch.delenv("BASE_TORCH", raising=False)
    monkeypatch.setattr(ie.shutil, "which", lambda name, *a, **k: None)  # no nvidia-smi
    return v


def _pip_log(venv: Path) -> list[str]:
    log = venv / "pip.log"
    return log.read_text().splitlines() if log.exists() else []


@pytest.mark.parametrize(
    ("value", "platform", "smi", "url"),
    [
        ("auto", "linux", None, ie.CPU_INDEX),
        ("auto", "linux", "/usr/bin/nvidia-smi", ""),
        ("auto", "darwin", None, ""),
        ("auto", "win32", None, ""),
        ("pypi", "linux", None, ""),
        ("", "linux", None, ""),
        ("https://download.pytorch.org/whl/cu126", "linux", None, "https://download.pytorch.org/whl/cu126"),
    ],
)
def test_the_torch_index(value: str, platform: str, smi: str | None, url: str) -> None:
    got, why = ie.choose_index(value, platform=platform, which=lambda name: smi if name == "nvidia-smi" else None)
    assert got == url
    assert why  # always says why


def test_a_venv_that_imports_torch_keeps_it(venv: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (venv / "torch-installed").touch()
    assert ie.ensure_torch(venv, "auto") == 0
    assert "already importable" in capsys.readouterr().out
    assert _pip_log(venv) == []
    assert "include-system-site-packages = false" in (venv / "pyvenv.cfg").read_text()


def test_the_base_pythons_torch_is_reused(venv: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("BASE_TORCH", "1")
    assert ie.ensure_torch(venv, "auto") == 0
    out = capsys.readouterr().out
    assert "reusing PyTorch 2.0.0" in out and "nothing is downloaded" in out
    assert _pip_log(venv) == []
    assert "include-system-site-packages = true" in (venv / "pyvenv.cfg").read_text()


def test_without_torch_and_gpu_the_cpu_build_is_installed(venv: Path, capfd: pytest.CaptureFixture[str]) -> None:
    assert ie.main(["--venv", str(venv), "--torch", "--torch-index", "auto", "--extras", "train,test"]) == 0
    out = capfd.readouterr().out
    assert f"from {ie.CPU_INDEX}" in out and "no nvidia-smi" in out
    log = _pip_log(venv)
    assert len(log) == 2, log
    assert f"torch --index-url {ie.CPU_INDEX}" in log[0]
    assert log[1].endswith("-e " + str(ROOT / "python") + "[train,test]")
    assert "include-system-site-packages = false" in (venv / "pyvenv.cfg").read_text()


def test_an_unreachable_cpu_index_falls_back_to_pips_default(
    venv: Path, capfd: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("FAIL_INDEX", "1")
    assert ie.main(["--venv", str(venv), "--torch", "--torch-index", "auto", "--extras", "train"]) == 0
    log = _pip_log(venv)
    assert len(log) == 3 and "--index-url" in log[0] and "torch" in log[1].split() and "-e" in log[2], log
    assert "instead (on Linux the CUDA build" in capfd.readouterr().out
    # An index given explicitly is not second-guessed: its failure stops the install.
    (venv / "pip.log").unlink()
    (venv / "torch-installed").unlink()
    assert ie.main(["--venv", str(venv), "--torch", "--torch-index", ie.CPU_INDEX, "--extras", "train"]) == 1
    assert len(_pip_log(venv)) == 1


def test_pypi_means_pips_default_index(venv: Path, capfd: pytest.CaptureFixture[str]) -> None:
    assert ie.main(["--venv", str(venv), "--torch", "--torch-index", "pypi", "--extras", "train"]) == 0
    log = _pip_log(venv)
    assert "torch" in log[0].split() and "--index-url" not in log[0]


def test_no_torch_step_without_the_flag(venv: Path, capfd: pytest.CaptureFixture[str]) -> None:
    assert ie.main(["--venv", str(venv), "--extras", "test", "--with", "numpy", "--with", "grpcio-tools==1.85.1"]) == 0
    log = _pip_log(venv)
    assert len(log) == 1 and "numpy grpcio-tools==1.85.1 -e" in log[0]


def test_a_missing_venv_is_an_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert ie.main(["--venv", str(tmp_path / "nope"), "--extras", "test"]) == 2
    assert "make venv" in capsys.readouterr().out


def test_silence_gets_a_line(capfd: pytest.CaptureFixture[str]) -> None:
    code = ie.run(
        [sys.executable, "-c", "import time, sys; print('Collecting torch'); time.sleep(1.6); print('done'); sys.exit(3)"],
        heartbeat=0.5,
        what="pip install torch",
    )
    assert code == 3
    out = capfd.readouterr().out
    assert out.index("Collecting torch") < out.index("still working") < out.index("done")
    assert 'pip install torch still working' in out and '(last: "Collecting torch")' in out


def test_pypis_cuda_build_is_not_cached_and_the_free_space_is_said(venv: Path, capfd: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(ie.sys, "platform", "linux")
    assert ie.main(["--venv", str(venv), "--torch", "--torch-index", "pypi", "--extras", "train"]) == 0
    log = _pip_log(venv)
    assert "--no-cache-dir" in log[0].split() and "--no-cache-dir" not in log[1].split(), log
    assert "GB free at" in capfd.readouterr().out


@pytest.mark.parametrize(("free_gb", "warns"), [(3.0, True), (50.0, False)])
def test_too_little_disk_for_the_cuda_build_is_a_warning(tmp_path: Path, free_gb: float, warns: bool) -> None:
    note = ie.disk_note(tmp_path, ie.CUDA_BUILD_GB, usage=lambda p: (0, 0, int(free_gb * 1e9)))
    assert ("warning" in note and "No space left on device" in note and ie.CPU_INDEX in note) is warns
    assert f"{free_gb:.1f} GB free at {tmp_path.resolve()}" in note
