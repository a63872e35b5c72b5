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
