"""Trainers' own files, run as their authors wrote them, with only the env id changed.

CleanRL's ``ppo.py`` (vwxyzjn/cleanrl at the commit pinned in
trainers_files.py) runs from the command line as CleanRL's documentation
runs it, ``--env-id`` naming a botarena id: the ``module:id`` form makes
``gymnasium.make`` import botarena, which the script itself never does. CI
downloads the file and names it in BOTARENA_CLEANRL_PPO (.ci/run); where the
variable is unset (no network to GitHub) the test skips. A file that is not
the pinned one fails the test rather than run something else.

SB3's PPO on ``gymnasium.make``, TorchRL's GymEnv and PettingZoo's own test
functions are library calls, not files: test_sb3.py, test_other_trainers.py
and test_pettingzoo_api.py run them.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from extras import require
from trainers_files import CLEANRL_PPO_ENV, CLEANRL_PPO_SHA256, sha256


def test_cleanrl_ppo_runs_unchanged_on_a_botarena_id(tmp_path: Path) -> None:
    ppo = os.environ.get(CLEANRL_PPO_ENV)
    if not ppo:
        pytest.skip(f"{CLEANRL_PPO_ENV} is not set: python3 python/tests/trainers_files.py DIR fetches CleanRL's ppo.py")
    assert sha256(Path(ppo)) == CLEANRL_PPO_SHA256, f"{ppo} is not CleanRL's ppo.py at the pinned commit"
    require("torch")
    require("tyro")
    require("tensorboard")

    num_envs, num_steps, iterations = 2, 64, 2
    cmd = [
        sys.executable,
        ppo,
        "--env-id", "botarena:botarena/battlebots-flat-v0",
        "--total-timesteps", str(num_envs * num_steps * iterations),
        "--num-envs", str(num_envs),
        "--num-steps", str(num_steps),
        "--num-minibatches", "2",
        "--update-epochs", "1",
        "--no-cuda",
    ]  # fmt: skip
    # The script writes runs/<run name>/ (TensorBoard) under its working directory.
    out = subprocess.run(cmd, cwd=tmp_path, capture_output=True, text=True, timeout=1800)
    assert out.returncode == 0, out.stderr[-4000:]
    # One "SPS: N" line per iteration: every update ran.
    assert sum(line.startswith("SPS:") for line in out.stdout.splitlines()) == iterations, out.stdout
    events = list((tmp_path / "runs").rglob("events.out.tfevents.*"))
    assert len(events) == 1 and "battlebots-flat-v0__ppo__1__" in str(events[0]), events
