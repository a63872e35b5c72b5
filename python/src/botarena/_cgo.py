"""Whether Go can build with cgo here, the one probe of the wheel build and the native backend.

``python/setup.py`` runs it (by path: the package is not importable while
its wheel is being built) before bundling the native library, and
:func:`botarena.native.library_path` before building it from a source
checkout. Standard library only.
"""

from __future__ import annotations

import shutil
import subprocess
from collections.abc import Mapping


def cgo_problem(env: Mapping[str, str] | None = None) -> str | None:
    """Why ``go`` cannot build with cgo under env (default: this process's environment), or None when it can.

    Asks ``go env CGO_ENABLED CC``: cgo must be on (Go turns it off where
    it finds no C compiler) and the C compiler must be on PATH.
    """
    go = shutil.which("go")
    if go is None:
        return "no Go toolchain on PATH"
    try:
        out = subprocess.run(
            [go, "env", "CGO_ENABLED", "CC"],
            capture_output=True,
            text=True,
            timeout=60,
            stdin=subprocess.DEVNULL,
            env=None if env is None else dict(env),
        ).stdout.split("\n")
    except (OSError, subprocess.SubprocessError) as e:
        return f"go env failed: {e}"
    cgo, cc = (out + ["", ""])[:2]
    if cgo.strip() != "1":
        return "cgo is disabled (CGO_ENABLED=0, or no C compiler: install gcc or clang)"
    if not cc.strip() or shutil.which(cc.split()[0]) is None:
        return f"no C compiler ({cc.strip() or 'CC'}) on PATH for cgo"
    return None
