"""Trainers' own files that the tests run unchanged: where each comes from, pinned, and how to get it.

    python3 python/tests/trainers_files.py CACHE_DIR

prints the path of CleanRL's ``ppo.py`` at the pinned commit, taken from
CACHE_DIR when a copy with the pinned SHA-256 is there, downloaded from
GitHub into it otherwise; it exits non-zero, saying why, when it can get
neither. The file is not in this repository (CleanRL is MIT-licensed, but a
copy here would be a copy to keep current): CI runs this, then sets
``BOTARENA_CLEANRL_PPO`` to the path for ``test_trainers_own_files.py``.

Standard library only, so that it runs before any venv exists.
"""

from __future__ import annotations

import hashlib
import sys
import urllib.request
from pathlib import Path

#: vwxyzjn/cleanrl's commit the tests run; ppo.py last changed in e421c2e (2023-11-27).
CLEANRL_COMMIT = "fe8d8a03c41a7ef5b523e2e354bd01c363e786bb"
#: ppo.py at CLEANRL_COMMIT, byte for byte.
CLEANRL_PPO_URL = f"https://raw.githubusercontent.com/vwxyzjn/cleanrl/{CLEANRL_COMMIT}/cleanrl/ppo.py"
CLEANRL_PPO_SHA256 = "d8dfbb7ac0b21e747b77d6e6673e566db4d6cdacc83bcebcd19cf87ad0e459ae"
#: The environment variable that names the file for the tests.
CLEANRL_PPO_ENV = "BOTARENA_CLEANRL_PPO"


def sha256(path: Path) -> str:
    """Returns the hex SHA-256 of the file at path."""
    return hashlib.sha256(path.read_bytes()).hexdigest()


def cleanrl_ppo(cache: Path, timeout: float = 60.0) -> Path:
    """Returns the path of CleanRL's ppo.py at CLEANRL_COMMIT under cache, downloading it when needed.

    A cached copy is used only when its SHA-256 is CLEANRL_PPO_SHA256. Raises
    OSError when the download fails and ValueError when what arrived is not
    the pinned file (nothing is kept then).
    """
    dest = cache / f"cleanrl-{CLEANRL_COMMIT[:12]}" / "ppo.py"
    if dest.is_file() and sha256(dest) == CLEANRL_PPO_SHA256:
        return dest
    with urllib.request.urlopen(CLEANRL_PPO_URL, timeout=timeout) as resp:
        data = resp.read()
    got = hashlib.sha256(data).hexdigest()
    if got != CLEANRL_PPO_SHA256:
        raise ValueError(f"{CLEANRL_PPO_URL}: SHA-256 {got}, want {CLEANRL_PPO_SHA256}")
    dest.parent.mkdir(parents=True, exist_ok=True)
    tmp = dest.with_suffix(".tmp")
    tmp.write_bytes(data)
    tmp.replace(dest)
    return dest


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print(__doc__, file=sys.stderr)
        return 2
    try:
        path = cleanrl_ppo(Path(argv[0]))
    except (OSError, ValueError) as e:
        print(f"trainers_files: CleanRL's ppo.py at {CLEANRL_COMMIT[:12]}: {e}", file=sys.stderr)
        return 1
    print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
