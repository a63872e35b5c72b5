"""examples/rllib_ppo.py: RLlib PPO self-play over the PettingZoo env trains for two iterations."""

from __future__ import annotations

import math
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from extras import require

require("ray")
require("torch")

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "rllib_ppo.py"
LINE = re.compile(r"^iter (\d+): (\d+) env steps, mean episode return (\S+) \(player_0 (\S+)\), ([\d.]+) s$")


@pytest.mark.slow
def test_rllib_ppo_trains() -> None:
    # Bouts of 50 rounds, so that every iteration of 200 env steps completes episodes.
    args = ["--game", "battlebots", "--game-config", '{"max_rounds": 50}', "--iterations", "2"]
    args += ["--batch-size", "200", "--minibatch-size", "100", "--epochs", "2", "--seed", "1"]
    # RAY_ADDRESS=local: a Ray instance of the example's own, not a cluster that happens to run here.
    env = {**os.environ, "RAY_ADDRESS": "local"}
    run = subprocess.run([sys.executable, str(EXAMPLE), *args], capture_output=True, text=True, timeout=300, env=env)
    assert run.returncode == 0, run.stderr[-4000:]
    rows = [m.groups() for m in map(LINE.match, run.stdout.splitlines()) if m]
    assert [int(r[0]) for r in rows] == [1, 2], run.stdout
    for _, steps, ret, ret0, _ in rows:
        assert int(steps) > 0
        assert math.isfinite(float(ret)) and math.isfinite(float(ret0)), run.stdout
