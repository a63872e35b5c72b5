"""The Gymnasium faces: registered ids, the single-agent Env, vector autoreset modes, wrappers, rendering, pickling."""

from __future__ import annotations

import copy
import pickle
from typing import Any

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from gymnasium.vector import AutoresetMode

import botarena
from botarena.games import GAMES
from extras import require

NAMES = [g["name"] for g in GAMES]


def test_every_game_is_registered() -> None:
    for name in NAMES:
        gid = botarena.env_id(name)
        assert gid in gymnasium.registry, gid
        assert "/" not in gid.removeprefix("botarena/")
    assert botarena.env_id("bomberman/2p") == "botarena/bomberman-2p-v0"


@pytest.mark.parametrize("name", NAMES)
def test_check_env_passes(name: str, address: str) -> None:
    env = gymnasium.make(botarena.env_id(name), address=address, disable_env_checker=True)
    try:
        check_env(env.unwrapped)
    finally:
        env.close()


def test_make_with_opponents_plays_an_episode(address: str) -> None:
    env = gymnasium.make("botarena/bomberman-2p-v0", opponents="reference", address=address)
    obs, info = env.reset(seed=3)
    assert env.observation_space.contains(obs)
    assert info["action_mask"].dtype == np.int8
    done, steps, total = False, 0, 0.0
    rng = np.random.default_rng(0)
    while not done:
        legal = np.flatnonzero(env.unwrapped.action_masks())  # type: ignore[attr-defined]
        obs, r, term, trunc, info = env.step(int(rng.choice(legal)))
        total += r
        done = term or trunc
        steps += 1
    assert steps > 1 and total in (-1.0, 0.0, 1.0)
    with pytest.raises(RuntimeError):
        env.unwrapped.step(0)
    env.close()


def test_same_seed_same_episode(address: str) -> None:
    def run() -> list[bytes]:
        env = gymnasium.make("botarena/battlebots-v0", address=address)
        obs, _ = env.reset(seed=11)
        out = [obs["planes"].tobytes()]
        for a in [1, 2, 3, 4, 5, 6, 7, 8]:
            obs, *_ = env.step(a)
            out.append(obs["planes"].tobytes())
        env.close()
        return out

    assert run() == run()


def test_make_vec_returns_botarenas_vector_env(address: str) -> None:
    envs = gymnasium.make_vec("botarena/battlebots-v0", num_envs=3, address=address, opponents="huggy")
    assert isinstance(envs, botarena.BotarenaVectorEnv)
    assert envs.num_envs == 3
    envs.close()


def _play(envs: botarena.BotarenaVectorEnv, steps: int, seed: int = 0) -> list[Any]:
    out: list[Any] = []
    obs, infos = envs.reset(seed=seed)
    rng = np.random.default_rng(seed)
    for _ in range(steps):
        mask = infos["action_mask"]
        acts = np.array([rng.choice(np.flatnonzero(m)) for m in mask])
        obs, rew, term, trunc, infos = envs.step(acts)
        out.append((obs, rew, term, trunc, infos))
    return out


def test_same_step_autoreset_reports_final_observation(address: str) -> None:
    envs = botarena.make_vec("battlebots", 4, address=address, autoreset_mode="same_step", opponents="sniper")
    assert envs.metadata["autoreset_mode"] is AutoresetMode.SAME_STEP
    ended_seen = 0
    for obs, rew, term, trunc, infos in _play(envs, 300):
        done = term | trunc
        if done.any():
            ended_seen += int(done.sum())
            assert (infos["_final_obs"] == done).all() and (infos["_final_info"] == done).all()
            for i in range(4):
                fo = infos["final_obs"][i]
                if done[i]:
                    assert set(fo) == {"planes", "scalars"} and fo["planes"].shape == (19, 10, 10)
                    assert infos["final_info"]["action_mask"][i].shape == (34,)
                else:
                    assert fo is None
        else:
            assert "final_obs" not in infos
    assert ended_seen > 0
    envs.close()


def test_same_step_never_returns_a_reset_step(address: str) -> None:
    # In next-step mode the step after an end has reward 0 and no flags; in
    # same-step mode every step is a real step of an episode, so episode
    # lengths counted by RecordEpisodeStatistics match the game's.
    envs = gymnasium.wrappers.vector.RecordEpisodeStatistics(
        botarena.make_vec("battlebots", 4, address=address, autoreset_mode=AutoresetMode.SAME_STEP, opponents="sniper")
    )
    lengths: list[int] = []
    obs, infos = envs.reset(seed=5)
    rng = np.random.default_rng(5)
    for _ in range(300):
        acts = np.array([rng.choice(np.flatnonzero(m)) for m in infos["action_mask"]])
        obs, rew, term, trunc, infos = envs.step(acts)
        if "episode" in infos:
            lengths += list(infos["episode"]["l"][infos["_episode"]])
    assert lengths and min(lengths) >= 1
    envs.close()


def test_autoreset_mode_names() -> None:
    assert botarena.vector.autoreset_mode("next_step") is AutoresetMode.NEXT_STEP
    assert botarena.vector.autoreset_mode("SameStep") is AutoresetMode.SAME_STEP
    with pytest.raises(ValueError):
        botarena.vector.autoreset_mode(AutoresetMode.DISABLED)
    with pytest.raises(ValueError):
        botarena.vector.autoreset_mode("sometimes")


def test_rewards_and_flags_are_writable_and_wrappers_work(address: str) -> None:
    base = botarena.make_vec("bomberman/2p", 4, address=address, seed=2, max_rounds=30)
    envs = gymnasium.wrappers.vector.ClipReward(base, -0.5, 0.5)
    envs = gymnasium.wrappers.vector.NormalizeReward(envs)
    envs = gymnasium.wrappers.vector.RecordEpisodeStatistics(envs)
    obs, infos = envs.reset(seed=2)
    for _ in range(40):
        obs, rew, term, trunc, infos = envs.step(np.zeros(4, dtype=np.int64))
        assert rew.flags.writeable and term.flags.writeable and trunc.flags.writeable
        rew[:] = 0
        term[:] = False
    envs.close()


def test_call_get_attr_set_attr(address: str) -> None:
    envs = botarena.make_vec("battlebots", 3, address=address, render_mode="ansi")
    envs.reset(seed=1)
    assert envs.get_attr("game") == ("battlebots",) * 3
    assert [len(t) > 0 for t in envs.call("render")] == [True] * 3
    masks = envs.call("action_masks")
    assert len(masks) == 3 and masks[0].dtype == np.bool_
    envs.set_attr("note", ["x", "x", "x"])
    assert envs.get_attr("note") == ("x",) * 3
    with pytest.raises(ValueError):
        envs.set_attr("note", ["x", "y", "z"])
    envs.close()


@pytest.mark.parametrize("name", NAMES)
def test_render_modes_for_every_game(name: str, address: str) -> None:
    env = gymnasium.make(botarena.env_id(name), address=address, render_mode="rgb_array")
    env.reset(seed=1)
    first = env.render()
    assert isinstance(first, np.ndarray) and first.dtype == np.uint8 and first.ndim == 3 and first.shape[2] == 3
    for _ in range(5):
        _, _, term, trunc, _ = env.step(0)
        frame = env.render()
        assert frame.shape == first.shape
        if term or trunc:
            break
    env.close()
    text_env = gymnasium.make(botarena.env_id(name), address=address, render_mode="ansi")
    text_env.reset(seed=1)
    text = text_env.render()
    assert isinstance(text, str) and text.strip()
    text_env.close()


@pytest.mark.parametrize("game", sorted({n.split("/")[0] for n in NAMES}))
def test_record_video_of_every_game(game: str, address: str, tmp_path: Any) -> None:
    require("moviepy")
    env = gymnasium.make(botarena.env_id(game), address=address, render_mode="rgb_array", max_episode_steps=25)
    env = gymnasium.wrappers.RecordVideo(env, str(tmp_path), episode_trigger=lambda i: True, disable_logger=True)
    env.reset(seed=1)
    done = False
    while not done:
        _, _, term, trunc, _ = env.step(0)
        done = term or trunc
    env.close()
    videos = list(tmp_path.glob("*.mp4"))
    assert videos and videos[0].stat().st_size > 0


def test_envs_pickle_and_reconnect(address: str) -> None:
    env = gymnasium.make("botarena/battlebots-v0", address=address).unwrapped
    vec = botarena.make_vec("battlebots", 2, address=address, autoreset_mode="same_step")
    par = botarena.parallel_env("battlebots", address=address)
    for original in (env, vec, par):
        clone = pickle.loads(pickle.dumps(original))
        other = copy.deepcopy(original)
        for e in (clone, other):
            assert e.pool.pool_id != original.pool.pool_id  # type: ignore[attr-defined]
            e.reset(seed=4)
            e.close()
        original.close()
