"""botarena.parallel_env: the PettingZoo ParallelEnv."""

from __future__ import annotations

import numpy as np
from pettingzoo.test import parallel_api_test

import botarena


def test_parallel_api(address: str) -> None:
    env = botarena.parallel_env("bomberman", address=address, seed=0, max_rounds=60)
    try:
        parallel_api_test(env, num_cycles=200)
    finally:
        env.close()


def test_agents_spaces_and_obs(address: str) -> None:
    env = botarena.parallel_env("bomberman/2p", address=address, render_mode="ansi")
    try:
        assert env.possible_agents == ["player_0", "player_1"]
        obs, infos = env.reset(seed=5)
        assert env.agents == env.possible_agents
        for a in env.agents:
            space = env.observation_space(a)
            assert space.contains(obs[a]), a
            assert obs[a]["action_mask"].dtype == np.int8
            assert obs[a]["observation"]["planes"].shape == (12, 21, 21)
            assert env.action_space(a).n == 7
        text = env.render()
        assert isinstance(text, str) and text.strip()
    finally:
        env.close()


def test_agents_removed_and_seeding(address: str) -> None:
    env = botarena.parallel_env("bomberman", address=address, max_rounds=40)

    def play(seed: int) -> list[np.ndarray]:
        out = []
        obs, _ = env.reset(seed=seed)
        rng = np.random.default_rng(0)
        while env.agents:
            live = list(env.agents)
            actions = {a: int(rng.integers(0, 7)) for a in env.agents}
            obs, rew, term, trunc, info = env.step(actions)
            assert set(obs) == set(live) == set(rew) == set(term) == set(trunc)
            assert env.agents == [a for a in live if not (term[a] or trunc[a])]
            out.append(np.stack([obs[a]["observation"]["planes"] for a in live]))
        return out

    try:
        a, b = play(8), play(8)
        assert len(a) == len(b) and len(a) <= 41
        for x, y in zip(a, b):
            np.testing.assert_array_equal(x, y)
    finally:
        env.close()
