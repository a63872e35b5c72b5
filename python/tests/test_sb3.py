"""Stable-Baselines3: PPO and MaskablePPO learn on botarena.sb3 envs and on plain gymnasium.make envs; SuperSuit's
PettingZoo route."""

from __future__ import annotations

import pickle
import subprocess
import sys

import gymnasium
import numpy as np
import pytest
from extras import require

require("torch")
sb3 = require("stable_baselines3")
sb3_contrib = require("sb3_contrib")
ss = require("supersuit")

import botarena  # noqa: E402
import botarena.sb3  # noqa: E402
from botarena.games import GAMES  # noqa: E402
from stable_baselines3.common.env_checker import check_env  # noqa: E402,F401
from stable_baselines3.common.evaluation import evaluate_policy  # noqa: E402
from stable_baselines3.common.preprocessing import is_image_space  # noqa: E402


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


@pytest.mark.parametrize("name", [g["name"] for g in GAMES])
def test_no_observation_of_a_plain_env_is_an_image_for_sb3(name: str, address: str) -> None:
    # SB3 runs NatureCNN (36x36 cells at least) on every space is_image_space accepts.
    env = gymnasium.make(botarena.env_id(name), address=address)
    for key, space in env.observation_space.spaces.items():  # type: ignore[attr-defined]
        assert not is_image_space(space), key
    env.close()


@pytest.mark.parametrize(
    ("env_id", "policy"),
    [
        ("botarena/battlebots-v0", "MultiInputPolicy"),
        ("botarena/bomberman-2p-v0", "MultiInputPolicy"),
        ("botarena/battlecube-2p-v0", "MultiInputPolicy"),
        ("botarena/portalbomber-flat-v0", "MlpPolicy"),
    ],
)
def test_ppo_trains_on_a_plain_gymnasium_make_env(env_id: str, policy: str, address: str) -> None:
    # The user's own SB3 file, unchanged but for the env id (before, NatureCNN
    # crashed: "Kernel size can't be greater than actual input size").
    env = gymnasium.make(env_id, address=address)
    model = sb3.PPO(policy, env, n_steps=64, batch_size=64, n_epochs=1, seed=0, device="cpu")
    model.learn(128)
    assert model.num_timesteps >= 128
    env.close()


def test_botarena_sb3_is_an_attribute_after_import_botarena() -> None:
    code = "import botarena; print(botarena.sb3.make_vec_env.__module__)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "botarena.sb3"


def test_flat_vec_env_trains_mlp_policy(address: str) -> None:
    env = botarena.sb3.make_vec_env("battlebots", 4, address=address, seed=5, opponents="sniper", observation="flat")
    obs = env.reset()
    assert obs.shape == (4, 19 * 10 * 10 + 4) and obs.dtype == np.float32
    model = sb3.PPO("MlpPolicy", env, n_steps=64, batch_size=128, n_epochs=1, seed=0, device="cpu")
    model.learn(256)
    ended = 0
    for _ in range(200):
        _, _, dones, infos = env.step(np.zeros(4, dtype=np.int64))
        for i in np.flatnonzero(dones):
            ended += 1
            assert infos[i]["terminal_observation"].shape == (19 * 10 * 10 + 4,)
    assert ended > 0
    env.close()
