#!/usr/bin/env python3
"""Installs the package with some of its extras into a venv, PyTorch first, saying what it does and why.

``make venv``, ``make train-venv`` and ``make extras-venv`` run it (standard library only, any
Python 3.10+)::

    python3 python/tools/install_extras.py --venv .venv --extras train,test --torch --torch-index auto

PyTorch (with ``--torch``), in this order:

1. a PyTorch the venv's Python can already import is kept;
2. else, one the venv's base Python can import (a system or user install) is reused: the venv is
   switched to see the base's site-packages (``include-system-site-packages = true`` in its
   pyvenv.cfg, what ``python -m venv --system-site-packages`` writes), and nothing is downloaded;
3. else it is installed from ``--torch-index``: ``auto`` (the default) is PyTorch's CPU index
   (https://download.pytorch.org/whl/cpu, about 200 MB) on Linux when there is no ``nvidia-smi``
   on PATH, and pip's default index (PyPI, whose Linux build brings several GB of CUDA libraries)
   where there is one, or on macOS and Windows (where PyPI's build is the CPU one); ``pypi`` (or
   empty) is pip's default index; anything else is an index URL
   (https://download.pytorch.org/whl/cu126).

PyPI's Linux build (steps 3's pip default) is installed with ``--no-cache-dir``: its CUDA libraries
(about 4 GB of wheels, 7 GB unpacked) are not kept a second time in pip's cache, and the free disk
space is said first, with a warning where it looks too small.

Then ``pip install -e 'python[EXTRAS]'``. pip runs with its normal output (no --quiet): on a
terminal its download bars, and wherever pip says nothing for a while (its install step unpacks
wheels silently, minutes for PyTorch's), a line every 30 s says it still works. Needs no stdin.
"""

from __future__ import annotations

import argparse
import os
import pathlib
import queue
import re
import shutil
import subprocess
import sys
import threading
import time
from typing import Callable, Sequence

CPU_INDEX = "https://download.pytorch.org/whl/cpu"
# What PyPI's Linux build of PyTorch (with its CUDA libraries) takes on disk while pip installs it:
# the downloaded wheels in pip's temporary folder plus the unpacked venv, measured at about 11 GB.
CUDA_BUILD_GB = 12.0
HEARTBEAT_S = 30.0
# Terminal control sequences (colours, cursor moves of pip's bars), left out of the "last:" note.
_ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")
_PROBE = "import torch, sys; sys.stdout.write(torch.__version__ + ' ' + torch.__file__)"


def say(message: str) -> None:
    print(f"install_extras: {message}", flush=True)


def venv_python(venv: pathlib.Path) -> pathlib.Path:
    return venv / ("Scripts/python.exe" if os.name == "nt" else "bin/python")


def probe_torch(python: str | os.PathLike[str]) -> str | None:
    """``"VERSION PATH"`` of the PyTorch that python imports, or None when it imports none."""
    try:
        proc = subprocess.run(
            [os.fspath(python), "-c", _PROBE], stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=300
        )
    except (OSError, subprocess.SubprocessError):
        return None
    return proc.stdout.strip() if proc.returncode == 0 and proc.stdout.strip() else None


def base_python(venv: pathlib.Path) -> str | None:
    """The interpreter the venv was made from (pyvenv.cfg's ``executable``, else ``home``'s python3)."""
    cfg = read_cfg(venv)
    exe = cfg.get("executable", "")
    if exe and os.access(exe, os.X_OK):
        return exe
    home = cfg.get("home", "")
    for name in ("python3", "python", "python.exe"):
        if home and os.access(os.path.join(home, name), os.X_OK):
            return os.path.join(home, name)
    return None


def read_cfg(venv: pathlib.Path) -> dict[str, str]:
    out: dict[str, str] = {}
    try:
        lines = (venv / "pyvenv.cfg").read_text().splitlines()
    except OSError:
        return out
    for line in lines:
        key, sep, value = line.partition("=")
        if sep:
            out[key.strip().lower()] = value.strip()
    return out


def set_system_site_packages(venv: pathlib.Path, on: bool) -> None:
    """Sets ``include-system-site-packages`` in the venv's pyvenv.cfg (the one setting venv's option writes)."""
    path = venv / "pyvenv.cfg"
    lines = path.read_text().splitlines()
    value = "true" if on else "false"
    for i, line in enumerate(lines):
        if line.partition("=")[0].strip().lower() == "include-system-site-packages":
            lines[i] = f"include-system-site-packages = {value}"
            break
    else:
        lines.append(f"include-system-site-packages = {value}")
    path.write_text("\n".join(lines) + "\n")


def choose_index(
    value: str, *, platform: str | None = None, which: Callable[[str], str | None] | None = None
) -> tuple[str, str]:
    """(index URL, or "" for pip's default; why) for a --torch-index value (see the module doc)."""
    value = value.strip()
    platform = platform or sys.platform
    which = which or shutil.which
    if value.lower() == "auto":
        if not platform.startswith("linux"):
            return "", f"TORCH_INDEX=auto on {platform}: PyPI's default build, which is the CPU one there"
        smi = which("nvidia-smi")
        if smi:
            return "", (
                f"TORCH_INDEX=auto and {smi} is here: PyPI's default build, with CUDA (several GB); "
                f"TORCH_INDEX={CPU_INDEX} for the CPU build"
            )
        return CPU_INDEX, (
            "TORCH_INDEX=auto and no nvidia-smi on PATH (no NVIDIA GPU): the CPU build (about 200 MB "
            "instead of several GB of CUDA libraries); TORCH_INDEX=pypi for PyPI's CUDA build"
        )
    if value.lower() in ("", "pypi", "default"):
        return "", "TORCH_INDEX=pypi: pip's default index (on Linux, PyPI's CUDA build: several GB)"
    return value, f"TORCH_INDEX={value}"


def disk_note(venv: pathlib.Path, need_gb: float, *, usage: Callable[[str], tuple[int, int, int]] | None = None) -> str:
    """A line on the free space where the venv and pip's temporary folder are, warning when it is under need_gb."""
    usage = usage or shutil.disk_usage
    places = {os.fspath(venv.resolve()), os.environ.get("TMPDIR") or "/tmp"}
    free = {p: usage(p)[2] / 1e9 for p in sorted(places) if os.path.exists(p)}
    least = min(free.values(), default=float("inf"))
    said = ", ".join(f"{gb:.1f} GB free at {p}" for p, gb in free.items())
    if least < need_gb:
        return (
            f"warning: {said}; this build needs about {need_gb:.0f} GB while pip installs it and may fail with "
            f"'No space left on device': free some space, or set TORCH_INDEX to a CPU index ({CPU_INDEX})"
        )
    return f"{said} (this build needs about {need_gb:.0f} GB while pip installs it)"


def run(cmd: Sequence[str], *, heartbeat: float = HEARTBEAT_S, what: str = "pip") -> int:
    """Runs cmd with its output shown as it comes, and a line after every ``heartbeat`` s of silence.

    On a terminal the command gets a pseudo-terminal of its own (POSIX), so that pip draws its
    download bars; elsewhere its output is piped through line by line. Returns the exit status.
    """
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    chunks: queue.Queue[bytes | None] = queue.Queue()
    master = None
    if sys.stdout.isatty() and os.name == "posix":
        import pty

        master, slave = pty.openpty()
        _copy_window_size(slave)
        proc = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=slave, stderr=slave, env=env, close_fds=True)
        os.close(slave)

        def read() -> None:
            assert master is not None
            while True:
                try:
                    data = os.read(master, 65536)
                except OSError:  # EIO: the child closed the terminal
                    data = b""
                if not data:
                    break
                chunks.put(data)
            chunks.put(None)
    else:
        proc = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=env)

        def read() -> None:
            assert proc.stdout is not None
            for line in iter(proc.stdout.readline, b""):
                chunks.put(line)
            chunks.put(None)

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    out = sys.stdout.buffer
    start = last_output = tick = time.monotonic()
    at_line_start = True
    last_line = ""
    try:
        while True:
            try:
                data = chunks.get(timeout=max(0.1, tick + heartbeat - time.monotonic()))
            except queue.Empty:
                tick = time.monotonic()
                note = f' (last: "{last_line[:100]}")' if last_line else ""
                out.write(
                    ("" if at_line_start else "\n").encode()
                    + f"install_extras: {what} still working, {_clock(tick - start)} in, "
                    f"{_clock(tick - last_output)} without output{note}\n".encode()
                )
                out.flush()
                at_line_start = True
                continue
            if data is None:
                break
            out.write(data)
            out.flush()
            at_line_start = data.endswith(b"\n")  # not after a bar's \r: the bar stays on its line
            text = _ANSI.sub("", data.decode("utf-8", "replace")).replace("\r", "\n").strip()
            if text:
                last_line = text.splitlines()[-1].strip()
            last_output = tick = time.monotonic()
    except KeyboardInterrupt:
        proc.terminate()
        raise
    finally:
        code = proc.wait()
        reader.join(5)
        if master is not None:
            os.close(master)
    return code


def _copy_window_size(fd: int) -> None:
    try:
        import fcntl
        import termios

        size = fcntl.ioctl(sys.stdout.fileno(), termios.TIOCGWINSZ, b"\0" * 8)
        fcntl.ioctl(fd, termios.TIOCSWINSZ, size)
    except (ImportError, OSError):
        pass


def _clock(seconds: float) -> str:
    m, s = divmod(int(seconds), 60)
    return f"{m}m{s:02d}s" if m else f"{s}s"


def ensure_torch(venv: pathlib.Path, index: str) -> int:
    """Step 1–3 of the module doc. Returns 0, or pip's exit status when installing failed."""
    py = venv_python(venv)
    have = probe_torch(py)
    if have:
        version, _, path = have.partition(" ")
        say(f"PyTorch {version} is already importable by {py} ({path}): not installing it")
        return 0
    base = base_python(venv)
    base_has = probe_torch(base) if base else None
    if base and base_has:
        version, _, path = base_has.partition(" ")
        if read_cfg(venv).get("include-system-site-packages", "false").lower() != "true":
            set_system_site_packages(venv, True)
            if probe_torch(py):
                say(
                    f"reusing PyTorch {version} of {base} ({path}): {venv} now sees that Python's site-packages "
                    f"(include-system-site-packages = true in {venv / 'pyvenv.cfg'}), so nothing is downloaded; "
                    f"to install one into {venv} instead, set it back to false and run this again"
                )
                return 0
            set_system_site_packages(venv, False)
            say(f"{base} imports PyTorch {version} from {path}, but {py} cannot see it there: installing one")
    url, why = choose_index(index)
    where = url or "pip's default index"
    say(f"installing PyTorch into {venv} from {where} ({why}) ...")
    say("pip downloads it, then unpacks and installs it without output of its own (minutes for a big build)")
    cmd = [os.fspath(py), "-m", "pip", "install", "--disable-pip-version-check", "torch"]
    # PyPI's Linux build brings GBs of CUDA wheels: not kept twice (pip's cache and the venv).
    pypi = [*cmd, "--no-cache-dir"] if sys.platform.startswith("linux") else cmd
    start = time.monotonic()
    if url:
        auto = index.strip().lower() == "auto"
        # Chosen by auto, the index may be out of reach (a network that only lets pip's own
        # index through): fail fast there and fall back to pip's default rather than stop.
        code = run([*cmd, "--index-url", url, *(["--retries", "1", "--timeout", "30"] if auto else [])], what="pip install torch")
        if code != 0 and auto:
            say(
                f"installing from {url} failed (pip exited {code}, above): installing PyTorch from pip's default "
                "index instead (on Linux the CUDA build, several GB); TORCH_INDEX=URL names another index"
            )
            code = _install_pypi(venv, pypi)
    else:
        code = _install_pypi(venv, pypi)
    if code == 0:
        say(f"installed PyTorch ({probe_torch(py) or '?'}) in {_clock(time.monotonic() - start)}")
    return code


def _install_pypi(venv: pathlib.Path, cmd: Sequence[str]) -> int:
    if sys.platform.startswith("linux"):
        say(disk_note(venv, CUDA_BUILD_GB))
    return run(cmd, what="pip install torch")


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--venv", default=".venv", help="the venv to install into (made by make venv) [.venv]")
    ap.add_argument("--extras", required=True, help="comma-separated extras of python/pyproject.toml: train,test")
    ap.add_argument("--torch", action="store_true", help="the extras need PyTorch: reuse or install it first")
    ap.add_argument("--torch-index", default=os.environ.get("TORCH_INDEX", "auto"), help="auto, pypi or an index URL [auto]")
    ap.add_argument("--with", dest="also", action="append", default=[], metavar="REQ", help="another requirement to install alongside (repeatable)")
    ap.add_argument("--package", default=str(pathlib.Path(__file__).resolve().parents[1]), help="the package folder [python/]")
    args = ap.parse_args(argv)
    venv = pathlib.Path(args.venv)
    if not venv_python(venv).exists():
        say(f"no venv at {venv} (make venv makes it)")
        return 2
    if args.torch:
        code = ensure_torch(venv, args.torch_index)
        if code != 0:
            say(f"installing PyTorch failed (pip exited {code})")
            return code
    also = "".join(f", {r}" for r in args.also)
    say(f"installing {args.package}[{args.extras}]{also} into {venv} with pip ...")
    start = time.monotonic()
    cmd = [os.fspath(venv_python(venv)), "-m", "pip", "install", "--disable-pip-version-check", *args.also]
    cmd += ["-e", f"{args.package}[{args.extras}]"]
    code = run(cmd, what="pip install")
    if code != 0:
        say(f"pip install failed (exit status {code})")
        return code
    say(f"done in {_clock(time.monotonic() - start)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
