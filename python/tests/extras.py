"""Skipping the tests of optional extras (PyTorch, SB3, ...) where they are missing, except in CI.

A fresh clone with only Go and Python runs ``make test`` without the extras:
the tests that need them skip. CI installs the extras after ``make test``
and runs those tests again with BOTARENA_REQUIRE_EXTRAS=1, where a missing
module fails instead of skipping.
"""

from __future__ import annotations

import importlib
import os
from types import ModuleType

import pytest

#: The pip extra that provides each optional module.
_EXTRA = {
    "torch": "train",
    "matplotlib": "train",
    "stable_baselines3": "sb3",
    "sb3_contrib": "sb3",
    "supersuit": "sb3",
    "ray": "ray",
    "ray.rllib": "rllib",
    "moviepy": "video",
    # A dependency of botarena itself, which any of its installs brings.
    "gymnasium": "test",
}


def require(module: str) -> ModuleType:
    """Imports module, or skips the calling test (or test module) when it is not installed.

    With BOTARENA_REQUIRE_EXTRAS set, a missing module fails instead.
    Works at module level and inside tests.
    """
    try:
        return importlib.import_module(module)
    except ImportError as e:
        if os.environ.get("BOTARENA_REQUIRE_EXTRAS"):
            pytest.fail(f"{module} is required here (BOTARENA_REQUIRE_EXTRAS is set): {e}", pytrace=False)
        extra = _EXTRA.get(module, _EXTRA.get(module.split(".")[0], "train"))
        pytest.skip(
            f"{module} is not installed (pip install -e 'python[{extra}]')",
            allow_module_level=True,
        )
