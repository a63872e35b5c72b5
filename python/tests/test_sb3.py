"""Stable-Baselines3: PPO and MaskablePPO learn on botarena.sb3 envs; SuperSuit's PettingZoo route."""

from __future__ import annotations

import pickle

import numpy as np
from extras import require

require("torch")
sb3 = require("stable_baselines3")
sb3_contrib = require("sb3_contrib")
ss = require("supersuit")

import botarena  # noqa: E402
import botarena.sb3  # noqa: E402
from stable_baselines3.common.env_checker import check_env  # noqa: E402,F401
from stable_baselines3.common.evaluation import evaluate_policy  # noqa: E402


def test_vec_env_follows_sb3_conventions(address: str) -> None:
    env = botarena.sb3.make_vec_env("battlebots", 4, address=address, seed=1, opponents="sniper", monitor=False)
    obs = env.reset()
    assert obs["planes"].shape == (4, 19, 10, 10) and obs["planes"].dtype == np.float32
    assert env.observation_space.contains({k: v[0] for k, v in obs.items()})
    masks = np.stack(env.env_method("action_masks"))
    assert masks.shape == (4, 34) and masks.dtype == np.bool_ and masks[:, 0].all()
    ended = 0
    for _ in range(300):
        obs, rew, dones, infos = env.step(np.zeros(4, dtype=np.int64))
        for i in np.flatnonzero(dones):
            ended += 1
            assert set(infos[i]["terminal_observation"]) == {"planes", "scalars"}
            assert isinstance(infos[i]["TimeLimit.truncated"], bool)
    assert ended > 0
    clone = pickle.loads(pickle.dumps(env))
    assert clone.reset()["planes"].shape == (4, 19, 10, 10)
    clone.close()
    env.close()


def test_ppo_learns_with_the_default_multi_input_policy(address: str) -> None:
    env = botarena.sb3.make_vec_env("battlebots", 8, address=address, seed=2, opponents="huggy")
    model = sb3.PPO("MultiInputPolicy", env, n_steps=128, batch_size=256, n_epochs=2, seed=0, device="cpu")
    model.learn(3072)
    assert model.num_timesteps >= 3072
    assert len(model.ep_info_buffer) > 0  # VecMonitor reported episode returns
    mean, _ = evaluate_policy(model, env, n_eval_episodes=4)
    assert np.isfinite(mean)
    env.close()


def test_maskable_ppo_learns_with_planes_extractor(address: str) -> None:
    env = botarena.sb3.make_vec_env("bomberman/2p", 8, address=address, seed=3, opponents="random", max_rounds=60)
    model = sb3_contrib.MaskablePPO(
        "MultiInputPolicy",
        env,
        n_steps=64,
        batch_size=256,
        n_epochs=2,
        seed=0,
        device="cpu",
        policy_kwargs=botarena.sb3.policy_kwargs(channels=16, board_features=64),
    )
    model.learn(2048)
    assert model.num_timesteps >= 2048
    assert isinstance(model.policy.features_extractor, botarena.sb3.PlanesExtractor)
    env.close()


def test_supersuit_concat_vec_envs_to_sb3(address: str) -> None:
    pz = botarena.parallel_env("battlebots", address=address, seed=4, observation="flat")
    venv = ss.pettingzoo_env_to_vec_env_v1(pz)
    venv = ss.concat_vec_envs_v1(venv, 2, num_cpus=0, base_class="stable_baselines3")
    assert venv.num_envs == 4  # 2 copies x 2 agents
    # No seed=: SB3 would call venv.seed(), which SuperSuit's ConcatVecEnv lacks.
    model = sb3.PPO("MlpPolicy", venv, n_steps=64, batch_size=128, n_epochs=1, device="cpu")
    model.learn(512)
    assert model.num_timesteps >= 512
    venv.close()
    pz.close()
