"""PettingZoo's own test suite on the parallel and AEC envs (max_cycles_test included), and the flat observation form."""

from __future__ import annotations

import functools
import types

import numpy as np
import pytest
from pettingzoo.test import max_cycles_test, parallel_api_test, render_test

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


@pytest.mark.parametrize("game", BASE_GAMES)
def test_max_cycles_test_passes(game: str, address: str) -> None:
    # max_cycles_test takes a module with parallel_env(max_cycles=) and env(max_cycles=).
    mod = types.SimpleNamespace(
        parallel_env=functools.partial(botarena.parallel_env, game, address=address, seed=1),
        env=functools.partial(botarena.aec_env, game, address=address, seed=1),
    )
    max_cycles_test(mod)


def test_max_cycles_truncates_and_the_next_episode_starts(address: str) -> None:
    env = botarena.parallel_env("battlebots", address=address, seed=2, max_cycles=3)
    for _ in range(2):
        env.reset(seed=2)
        steps = 0
        while env.agents:
            obs, rew, term, trunc, infos = env.step({a: 0 for a in env.agents})
            steps += 1
        assert steps == 3 and all(trunc.values()) and not any(term.values())
    parallel_api_test(env, num_cycles=20)  # sets env.max_cycles = 20, PettingZoo's attribute
    assert env.max_cycles == 20
    with pytest.raises(ValueError, match="max_cycles"):
        botarena.parallel_env("battlebots", address=address, max_cycles=0)
    env.close()


def test_flat_observations(address: str) -> None:
    env = botarena.parallel_env("bomberman/2p", address=address, seed=1, observation="flat")
    obs, infos = env.reset(seed=1)
    space = env.observation_space("player_0")
    assert space.shape == (12 * 21 * 21 + 8,) and space.dtype == np.float32
    assert np.isfinite(space.low).all() and np.isfinite(space.high).all() and space.high[0] == 255
    assert space.contains(obs["player_0"])
    assert obs["player_0"].shape == space.shape and obs["player_0"].dtype == np.float32
    assert infos["player_0"]["action_mask"].shape == (7,)
    np.testing.assert_array_equal(env.action_mask("player_1"), infos["player_1"]["action_mask"])
    obs, rew, term, trunc, infos = env.step({a: 0 for a in env.agents})
    assert set(infos["player_0"]) == {"action_mask"}
    env.close()


def test_a_seed_seeds_the_action_spaces(address: str) -> None:
    env = botarena.parallel_env("battlebots", address=address, seed=3)

    def draws() -> list[int]:
        return [int(env.action_space(a).sample()) for _ in range(8) for a in env.possible_agents]

    env.reset()
    first = draws()
    env.reset(seed=3)
    assert draws() == first  # the constructor's seed and the same seed again
    env.reset(seed=4)
    assert draws() != first
    env.reset()  # no seed: the spaces go on drawing
    assert env.action_space("player_0") is env.action_spaces["player_0"]
    env.close()
