"""The ``botarena`` command an installed package provides: the Go binary, run with the same arguments.

pip writes the command from ``[project.scripts]`` (``botarena = "botarena._cli:main"``). It runs
the binary :func:`botarena.server.find_binary` finds: ``$BOTARENA_BIN``; in a source checkout with
Go, the checkout's build (made or reused as for :class:`botarena.Server`); the binary a platform
wheel bundles (``botarena/bin/botarena``, ``make wheel``); another ``botarena`` on PATH (never this
command itself). ``botarena play bomberman --pretty`` after ``pip install botarena-*.whl`` is the
Go binary's own ``play``; the exit status is the binary's.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from typing import Sequence

from botarena.errors import ServerError
from botarena.server import find_binary

__all__ = ["main"]


def main(argv: Sequence[str] | None = None) -> int:
    """Runs the botarena binary with ``argv`` (default: this process's arguments); returns its exit status.

    Called with no ``argv`` on POSIX, as the console script calls it, it replaces this process by
    the binary (``os.execv``), so that signals, the terminal and the exit status are the binary's
    own. With ``argv`` (or on Windows) it runs the binary as a child and returns its status (128 +
    N for a child killed by signal N, as a shell reports it). Where no binary can be found or
    built it prints why and returns 127.
    """
    args = list(sys.argv[1:] if argv is None else argv)
    try:
        binary = find_binary()
    except ServerError as e:
        print(f"botarena: {e}", file=sys.stderr)
        return 127
    if argv is None and os.name == "posix":
        sys.stdout.flush()
        sys.stderr.flush()
        os.execv(binary, [binary, *args])  # does not return
    # The child gets the terminal's Ctrl-C itself; this process waits for it to end. (A handler,
    # not SIG_IGN: an ignored signal would stay ignored in the child, a handler resets on exec.)
    previous = signal.signal(signal.SIGINT, _ignore) if _main_thread() else None
    try:
        code = subprocess.call([binary, *args])
    finally:
        if previous is not None:
            signal.signal(signal.SIGINT, previous)
    return 128 - code if code < 0 else code


def _ignore(signum: int, frame: object) -> None:
    pass


def _main_thread() -> bool:
    import threading

    return threading.current_thread() is threading.main_thread()


if __name__ == "__main__":
    sys.exit(main())
