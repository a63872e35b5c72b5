"""The Gymnasium faces: registered ids (step caps, flat ids), the single-agent Env, observation forms, unknown
keywords, vector autoreset modes, wrappers, rendering, pickling."""

from __future__ import annotations

import copy
import importlib.util
import pickle
import subprocess
import sys
import warnings
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
    ids = []
    for g in GAMES:
        for observation in ("dict", "flat"):
            gid = botarena.env_id(g["name"], observation)
            assert gid in gymnasium.registry, gid
            assert "/" not in gid.removeprefix("botarena/")
            spec = gymnasium.spec(gid)
            assert spec.max_episode_steps == g["max_steps"] > 0, gid
            assert spec.kwargs.get("observation", "dict") == observation
            ids.append(gid)
    assert len(set(ids)) == len(ids)
    assert botarena.env_id("bomberman/2p") == "botarena/bomberman-2p-v0"
    assert botarena.env_id("bomberman/2p", "flat") == "botarena/bomberman-2p-flat-v0"


@pytest.mark.parametrize("observation", ["dict", "flat"])
@pytest.mark.parametrize("name", NAMES)
def test_check_env_passes_without_warnings(name: str, observation: str, address: str) -> None:
    env = gymnasium.make(botarena.env_id(name, observation), address=address, disable_env_checker=True)
    try:
        # The registered step cap is the game's own: TimeLimit truncates where the game does.
        assert env.spec is not None and env.spec.max_episode_steps == env.unwrapped.pool.spec.max_steps  # type: ignore[attr-defined]
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            check_env(env.unwrapped)
        assert [str(w.message) for w in caught] == []
        for box in _boxes(env.observation_space):
            assert np.isfinite(box.low).all() and np.isfinite(box.high).all()
    finally:
        env.close()


def _boxes(space: gymnasium.Space[Any]) -> list[gymnasium.spaces.Box]:
    if isinstance(space, gymnasium.spaces.Dict):
        return [b for s in space.spaces.values() for b in _boxes(s)]
    assert isinstance(space, gymnasium.spaces.Box)
    return [space]


@pytest.mark.parametrize("name", NAMES)
def test_single_env_observations_are_float32_not_images(name: str, address: str) -> None:
    # What SB3 relies on (stable_baselines3.common.preprocessing.is_image_space):
    # a uint8 [C,H,W] Box with bounds 0..255 is an image for its NatureCNN,
    # whose kernels need 36x36 cells. Every tensor of the single-agent env is
    # float32 instead, with the uint8 planes' values and bounds; the flat
    # form is one float32 vector (test_sb3.py trains SB3's PPO on both).
    env = gymnasium.make(botarena.env_id(name), address=address)
    flat = gymnasium.make(botarena.env_id(name, "flat"), address=address)
    try:
        wire = {t.name: t for t in env.unwrapped.game_spec.observations}  # type: ignore[attr-defined]
        assert isinstance(env.observation_space, gymnasium.spaces.Dict)
        for key, box in env.observation_space.spaces.items():
            assert isinstance(box, gymnasium.spaces.Box) and box.dtype == np.float32, key
            if np.issubdtype(wire[key].dtype, np.integer):
                info = np.iinfo(wire[key].dtype)
                assert (box.low == info.min).all() and (box.high == info.max).all()
        obs, _ = env.reset(seed=1)
        assert all(v.dtype == np.float32 for v in obs.values()) and env.observation_space.contains(obs)
        fobs, _ = flat.reset(seed=1)
        assert isinstance(flat.observation_space, gymnasium.spaces.Box)
        assert flat.observation_space.shape == (sum(t.size for t in wire.values()),) and flat.observation_space.dtype == np.float32
        assert fobs.shape == flat.observation_space.shape and flat.observation_space.contains(fobs)
    finally:
        env.close()
        flat.close()


def test_flat_is_what_gymnasiums_flatten_wrappers_make(address: str) -> None:
    # The one-line alternative to the -flat-v0 ids: Gymnasium's own wrapper.
    flat = gymnasium.make("botarena/bomberman-2p-flat-v0", address=address, opponents="idle")
    wrapped = gymnasium.wrappers.FlattenObservation(gymnasium.make("botarena/bomberman-2p-v0", address=address, opponents="idle"))
    assert flat.observation_space == wrapped.observation_space
    a, _ = flat.reset(seed=3)
    b, _ = wrapped.reset(seed=3)
    for step in range(12):
        np.testing.assert_array_equal(a, b)
        act = 1 + step % 4  # moves: nobody dies
        a, *_ = flat.step(act)
        b, *_ = wrapped.step(act)
    flat.close()
    wrapped.close()
    venv = gymnasium.make_vec("botarena/battlebots-flat-v0", num_envs=3, address=address, autoreset_mode="same_step")
    vwrapped = gymnasium.wrappers.vector.FlattenObservation(botarena.make_vec("battlebots", 3, address=address))
    assert isinstance(venv, botarena.BotarenaVectorEnv)
    assert venv.single_observation_space == vwrapped.single_observation_space
    obs, _ = venv.reset(seed=2)
    wobs, _ = vwrapped.reset(seed=2)
    np.testing.assert_array_equal(obs, wobs)
    assert obs.shape == (3, 19 * 10 * 10 + 4) and obs.dtype == np.float32
    ended = 0
    for _ in range(60):
        obs, _, term, trunc, infos = venv.step(np.full(3, 17))
        for i in np.flatnonzero(term | trunc):
            ended += 1
            assert infos["final_obs"][i].shape == obs.shape[1:]
    assert ended > 0
    venv.close()
    vwrapped.close()


@pytest.mark.parametrize(
    "make",
    [
        lambda a: gymnasium.make("botarena/battlebots-v0", address=a, frameskip=4),
        lambda a: gymnasium.make("botarena/battlebots-flat-v0", address=a, frameskip=4),
        lambda a: botarena.BotarenaEnv("battlebots", address=a, frameskip=4),
        lambda a: botarena.make_vec("battlebots", 2, address=a, frameskip=4),
        lambda a: gymnasium.make_vec("botarena/battlebots-v0", num_envs=2, address=a, frameskip=4),
        lambda a: botarena.parallel_env("battlebots", address=a, frameskip=4),
        lambda a: botarena.aec_env("battlebots", address=a, frameskip=4),
    ],
)
def test_unknown_keyword_raises_type_error(make: Any, address: str) -> None:
    # TorchRL's GymEnv passes frameskip= and drops it on this TypeError.
    with pytest.raises(TypeError, match="unexpected keyword argument 'frameskip'"):
        make(address)


def test_config_fields_and_pool_keywords_still_pass(address: str) -> None:
    env = gymnasium.make("botarena/battlebots-v0", address=address, max_rounds=5, workers=1)
    env.reset(seed=1)
    steps, done = 0, False
    while not done:
        _, _, term, trunc, _ = env.step(0)
        steps, done = steps + 1, term or trunc
    assert steps <= 5
    env.close()


def test_vector_max_episode_steps(address: str) -> None:
    # gym.make_vec passes the id's max_episode_steps (the default cap): accepted.
    envs = gymnasium.make_vec("botarena/battlebots-v0", num_envs=2, address=address, max_rounds=30)
    envs.close()
    with pytest.raises(ValueError, match="max_rounds"):
        gymnasium.make_vec("botarena/battlebots-v0", num_envs=2, address=address, max_episode_steps=10)
    # A raised cap: the registered limit would cut the game short; None lifts it.
    with pytest.raises(ValueError, match="max_episode_steps=None"):
        gymnasium.make_vec("botarena/battlebots-v0", num_envs=2, address=address, max_rounds=2000)
    envs = gymnasium.make_vec("botarena/battlebots-v0", num_envs=2, address=address, max_rounds=2000, max_episode_steps=None)
    assert envs.unwrapped.pool.spec.max_steps == 2000  # type: ignore[attr-defined]
    envs.close()


def test_cleanrl_ppo_env_calls_work_on_a_flat_id(address: str) -> None:
    # The env-facing lines of CleanRL's ppo.py, unchanged but for the env id
    # (the module:id form imports botarena, which the script does not).
    env_id = "botarena:botarena/battlebots-flat-v0"

    def make_env(env_id: str, idx: int, capture_video: bool, run_name: str) -> Any:
        def thunk() -> Any:
            env = gymnasium.make(env_id, address=address)
            env = gymnasium.wrappers.RecordEpisodeStatistics(env)
            return env

        return thunk

    num_envs, num_steps = 2, 40
    envs = gymnasium.vector.SyncVectorEnv([make_env(env_id, i, False, "run") for i in range(num_envs)])
    assert isinstance(envs.single_action_space, gymnasium.spaces.Discrete), "only discrete action space is supported"
    width = np.array(envs.single_observation_space.shape).prod()
    assert width == 19 * 10 * 10 + 4
    obs = np.zeros((num_steps, num_envs) + envs.single_observation_space.shape, dtype=np.float32)
    next_obs, _ = envs.reset(seed=1)
    for step in range(num_steps):
        obs[step] = next_obs
        next_obs, reward, terminations, truncations, infos = envs.step(envs.action_space.sample())
        np.logical_or(terminations, truncations)
        np.asarray(reward, dtype=np.float32).reshape(-1)
    envs.close()


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


def test_import_botarena_imports_neither_sb3_nor_torch_and_sb3_is_lazy() -> None:
    code = (
        "import sys, botarena\n"
        "heavy = [m for m in ('torch', 'stable_baselines3') if m in sys.modules]\n"
        "assert not heavy, heavy\n"
        "try:\n"
        "    print(botarena.sb3.__name__)\n"
        "except ImportError as e:\n"
        "    print('ImportError', e)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.strip()
    if importlib.util.find_spec("stable_baselines3") is not None:
        assert out == "botarena.sb3"
    else:
        assert out.startswith("ImportError botarena.sb3 needs the sb3 extra")
    with pytest.raises(AttributeError):
        botarena.no_such_module  # type: ignore[attr-defined]  # noqa: B018
