"""Skipping the PyTorch tests where torch is missing, except in CI.

CI installs the training extras (``make train-venv``) and sets
BOTARENA_REQUIRE_TORCH=1, so there a missing torch fails the tests instead of
skipping them.
"""

from __future__ import annotations

import importlib
import os
from types import ModuleType

import pytest


def require(module: str) -> ModuleType:
    try:
        return importlib.import_module(module)
    except ImportError as e:
        if os.environ.get("BOTARENA_REQUIRE_TORCH"):
            pytest.fail(f"{module} is required here (BOTARENA_REQUIRE_TORCH is set): {e}")
        pytest.skip(f"{module} is not installed (pip install -e 'python[train]', or make train-venv)")
