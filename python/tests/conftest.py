"""Fixtures: one botarena server per test session.

The session starts ``botarena serve`` with :class:`botarena.Server` (built
from this checkout with ``go build``), or uses the server at
$BOTARENA_ADDRESS when that is set.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Iterator

import pytest

sys.path.insert(0, str(Path(__file__).parent))

import botarena  # noqa: E402


@pytest.fixture(scope="session", autouse=True)
def sb3_log_folder(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """Stable-Baselines3 makes a log folder for every learn() (tempfile.gettempdir()/SB3-DATE unless
    SB3_LOGDIR says where): the session's go under its own temporary directory, not /tmp."""
    before = os.environ.get("SB3_LOGDIR")
    os.environ["SB3_LOGDIR"] = str(tmp_path_factory.mktemp("sb3"))
    yield
    if before is None:
        os.environ.pop("SB3_LOGDIR", None)
    else:
        os.environ["SB3_LOGDIR"] = before


@pytest.fixture(scope="session")
def address() -> Iterator[str]:
    env = os.environ.get("BOTARENA_ADDRESS")
    if env:
        yield env
        return
    with botarena.Server() as server:
        yield server.address


@pytest.fixture(scope="session")
def client(address: str) -> Iterator[botarena.Client]:
    with botarena.Client(address) as c:
        yield c
