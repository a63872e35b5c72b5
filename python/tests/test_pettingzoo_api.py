"""PettingZoo's own test suite on the parallel and AEC envs, and the flat observation form."""

from __future__ import annotations

import numpy as np
import pytest
from pettingzoo.test import parallel_api_test, render_test

import botarena
from botarena.games import GAMES

BASE_GAMES = sorted({g["name"].split("/")[0] for g in GAMES})


@pytest.mark.parametrize("game", BASE_GAMES)
def test_parallel_api_test_passes(game: str, address: str) -> None:
    env = botarena.parallel_env(game, address=address, seed=1)
    parallel_api_test(env, num_cycles=100)
    env.close()


@pytest.mark.parametrize("game", BASE_GAMES)
def test_render_test_passes(game: str, address: str) -> None:
    render_test(lambda render_mode=None: botarena.aec_env(game, address=address, seed=1, render_mode=render_mode))


def test_flat_observations(address: str) -> None:
    env = botarena.parallel_env("bomberman/2p", address=address, seed=1, observation="flat")
    obs, infos = env.reset(seed=1)
    space = env.observation_space("player_0")
    assert space.shape == (12 * 21 * 21 + 8,) and space.dtype == np.float32
    assert obs["player_0"].shape == space.shape and obs["player_0"].dtype == np.float32
    assert infos["player_0"]["action_mask"].shape == (7,)
    np.testing.assert_array_equal(env.action_mask("player_1"), infos["player_1"]["action_mask"])
    obs, rew, term, trunc, infos = env.step({a: 0 for a in env.agents})
    assert set(infos["player_0"]) == {"action_mask"}
    env.close()
