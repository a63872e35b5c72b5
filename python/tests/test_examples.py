"""The examples in python/examples run and learn (short runs)."""

from __future__ import annotations

import importlib.util
import math
from pathlib import Path
from types import ModuleType

import pytest
from extras import require

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


def load(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(f"example_{name}", EXAMPLES / f"{name}.py")
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_cleanrl_ppo_logs_episodic_returns(address: str, capsys: pytest.CaptureFixture[str]) -> None:
    require("torch")
    out = load("cleanrl_ppo").main(
        ["--game", "battlebots", "--opponents", "huggy", "--num-envs", "8", "--num-steps", "64",
         "--total-timesteps", "2048", "--address", address, "--config", '{"max_rounds": 60}']
    )
    printed = capsys.readouterr().out
    assert out["steps"] == 2048
    assert out["episodes"] > 0 and math.isfinite(out["mean_return"])
    assert "episodic_return=" in printed and "iteration=4 " in printed


@pytest.mark.parametrize("masked", [False, True])
def test_sb3_ppo_trains_and_evaluates(address: str, masked: bool, capsys: pytest.CaptureFixture[str]) -> None:
    require("torch")
    require("stable_baselines3")
    require("sb3_contrib")
    args = ["--game", "bomberman/2p", "--opponents", "random", "--num-envs", "8", "--n-steps", "64",
            "--timesteps", "1024", "--eval-episodes", "4", "--address", address, "--config", '{"max_rounds": 40}']
    counts = load("sb3_ppo").main(args + (["--masked"] if masked else []))
    assert sum(counts.values()) >= 4
    assert "evaluation vs random" in capsys.readouterr().out
