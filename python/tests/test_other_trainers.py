"""TorchRL's GymEnv and PufferLib's emulation on the registered ids, each as its own documentation uses it.

Neither is an extra of this package (PufferLib pins its own PyTorch), so these
tests run where the library is installed and skip elsewhere, CI included.
"""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
import pytest

import botarena


@pytest.mark.parametrize("env_id", ["botarena/battlebots-v0", "botarena/bomberman-2p-flat-v0"])
def test_torchrl_gym_env(env_id: str, address: str) -> None:
    # GymEnv passes frameskip= first and drops it on "unexpected keyword argument 'frameskip'".
    libs_gym = pytest.importorskip("torchrl.envs.libs.gym")
    utils = pytest.importorskip("torchrl.envs.utils")
    env = libs_gym.GymEnv(env_id, address=address)
    utils.check_env_specs(env)
    rollout = env.rollout(20)
    assert rollout.batch_size[0] >= 1
    env.close()


def test_pufferlib_emulation(address: str) -> None:
    # pufferlib (3.0) builds from source and downloads Raylib while building;
    # pufferlib-core ships the same emulation and vector modules as a wheel.
    pytest.importorskip("pufferlib")
    emulation = pytest.importorskip("pufferlib.emulation")
    vector = pytest.importorskip("pufferlib.vector")

    env = emulation.GymnasiumPufferEnv(env_creator=gymnasium.make, env_args=["botarena/battlebots-v0"], env_kwargs={"address": address})
    assert env.single_observation_space.shape == (19 * 10 * 10 + 4,)
    obs, _ = env.reset(seed=1)
    assert obs.shape == (1, 19 * 10 * 10 + 4) and obs.dtype == np.float32
    for _ in range(20):
        _, _, term, trunc, _ = env.step(env.action_space.sample())
        if term or trunc:
            env.reset()
    env.close()

    def creator(buf: Any = None, seed: int = 0) -> Any:
        return emulation.PettingZooPufferEnv(
            env_creator=botarena.parallel_env,
            env_args=["bomberman/2p"],
            env_kwargs={"address": address, "observation": "flat"},
            buf=buf,
            seed=seed,
        )

    venv = vector.make(creator, num_envs=2, backend=vector.Serial)
    obs, _ = venv.reset(seed=1)
    assert obs.shape == (4, 12 * 21 * 21 + 8) and obs.dtype == np.float32  # 2 envs x 2 agents
    for _ in range(30):
        obs, rew, term, trunc, _ = venv.step(np.array([venv.single_action_space.sample() for _ in range(venv.num_agents)]))
    venv.close()
