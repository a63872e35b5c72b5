"""Stable-Baselines3 support: :func:`make_vec_env` and :class:`PlanesExtractor`.

Needs the ``sb3`` extra (``pip install -e 'python[sb3]'``: stable-baselines3,
sb3-contrib, PyTorch)::

    from stable_baselines3 import PPO
    from sb3_contrib import MaskablePPO
    import botarena.sb3

    env = botarena.sb3.make_vec_env("battlebots", 8, opponents="huggy")
    PPO("MultiInputPolicy", env, policy_kwargs=botarena.sb3.policy_kwargs()).learn(10_000)
    MaskablePPO("MultiInputPolicy", env, policy_kwargs=botarena.sb3.policy_kwargs()).learn(10_000)

The env is one botarena pool (stepped in Go on the server), presented as
SB3's ``VecEnv`` with SB3's conventions: same-step autoreset with
``infos[i]["terminal_observation"]`` and ``"TimeLimit.truncated"``,
``action_masks()`` for sb3-contrib's MaskablePPO, and a ``VecMonitor`` so
that SB3 logs episode returns and lengths.

Observations: a ``Dict`` with one ``Box`` per tensor of the game, the uint8
planes given as float32 (the same values). SB3 would otherwise take every
uint8 ``[C, H, W]`` tensor for an image, run its NatureCNN (whose 8x8 kernel
is larger than the games' 7–21 cell boards) and transpose boards whose
channel count exceeds their width. With float32 planes SB3's default
``MultiInputPolicy`` flattens them into an MLP and trains as is;
:class:`PlanesExtractor` (the documented default, :func:`policy_kwargs`) runs
small same-size convolutions over each board instead. ``observation="flat"``
gives one float32 vector per env, for ``MlpPolicy``.

A plain ``gymnasium.make("botarena/<game>-v0")`` env works with SB3 too
(``PPO("MultiInputPolicy", env)``): its Dict observation is float32 for the
same reason; this module's VecEnv steps all envs in one pool instead of one
Python env each.
"""

from __future__ import annotations

from typing import Any, Mapping, Sequence

import gymnasium
import numpy as np
import numpy.typing as npt
import torch
from gymnasium import spaces
from gymnasium.vector import AutoresetMode
from stable_baselines3.common.torch_layers import BaseFeaturesExtractor
from stable_baselines3.common.vec_env import VecEnv, VecMonitor
from stable_baselines3.common.vec_env.base_vec_env import VecEnvIndices, VecEnvObs, VecEnvStepReturn
from torch import nn

from botarena.vector import BotarenaVectorEnv

__all__ = ["BotarenaVecEnv", "PlanesExtractor", "make_vec_env", "policy_kwargs"]


def _float_space(space: spaces.Box) -> spaces.Box:
    if space.dtype == np.float32:
        return space
    return spaces.Box(low=space.low.astype(np.float32), high=space.high.astype(np.float32), dtype=np.float32)


def _float_dict(space: spaces.Space[Any]) -> spaces.Space[Any]:
    if isinstance(space, spaces.Box):  # observation="flat": float32 already
        return space
    assert isinstance(space, spaces.Dict)
    return spaces.Dict({k: _float_space(s) for k, s in space.spaces.items()})  # type: ignore[arg-type]


class BotarenaVecEnv(VecEnv):
    """A botarena pool as an SB3 ``VecEnv``: ``n_envs`` games, the learner in ``learner_seat``.

    Arguments are those of :class:`botarena.BotarenaVectorEnv` but
    ``autoreset_mode`` (the pool always runs with same-step autoreset).
    Observations are dicts of float32 arrays (new arrays each step); with
    ``observation="flat"`` one float32 array of ``(n_envs, size)``
    (``MlpPolicy``). ``env_method("action_masks")`` and
    :meth:`action_masks` give the legal actions (bool). Seeding follows SB3:
    ``seed(s)`` makes the next ``reset()`` recreate the pool from seed ``s``.
    Pickles by its settings, reconnecting (or starting a new local server).
    """

    def __init__(self, game: str, n_envs: int, **kwargs: Any) -> None:
        venv = BotarenaVectorEnv(game, n_envs, autoreset_mode=AutoresetMode.SAME_STEP, **kwargs)
        self._wrap(venv)

    def _wrap(self, venv: BotarenaVectorEnv) -> None:
        """Presents venv (a same-step pool) through SB3's VecEnv base."""
        self.venv = venv
        self.game = venv.game
        self.render_mode = venv.render_mode
        self._actions: npt.NDArray[np.int64] = np.zeros(venv.num_envs, dtype=np.int64)
        VecEnv.__init__(self, venv.num_envs, _float_dict(venv.single_observation_space), venv.single_action_space)

    @staticmethod
    def _float(obs: Mapping[str, npt.NDArray[Any]] | npt.NDArray[Any]) -> dict[str, npt.NDArray[np.float32]] | npt.NDArray[np.float32]:
        if isinstance(obs, np.ndarray):  # observation="flat": a new float32 array each step
            return obs
        return {k: np.array(v, dtype=np.float32) for k, v in obs.items()}

    def reset(self) -> VecEnvObs:
        """Starts new episodes in every env (from the seed given to :meth:`seed`, if any)."""
        seed = self._seeds[0]
        obs, _ = self.venv.reset(seed=seed)
        self._reset_seeds()
        self._reset_options()
        self.reset_infos = [{} for _ in range(self.num_envs)]
        return self._float(obs)

    def step_async(self, actions: npt.NDArray[Any]) -> None:
        """Stores the actions of the next :meth:`step_wait`."""
        self._actions = np.asarray(actions).reshape(self.num_envs)

    def step_wait(self) -> VecEnvStepReturn:
        """Steps every env; ended envs report their final observation in their info."""
        obs, reward, terminated, truncated, infos = self.venv.step(self._actions)
        dones = terminated | truncated
        out: list[dict[str, Any]] = [{} for _ in range(self.num_envs)]
        if dones.any():
            final_obs = infos["final_obs"]
            for i in np.flatnonzero(dones):
                out[i]["terminal_observation"] = self._float(final_obs[i])
                out[i]["TimeLimit.truncated"] = bool(truncated[i] and not terminated[i])
        return self._float(obs), reward, dones, out

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The legal actions of the last observations, ``(n_envs, actions)`` bool."""
        return self.venv.action_masks()

    def close(self) -> None:
        """Closes the pool (and the server it started)."""
        self.venv.close()

    def get_images(self) -> Sequence[npt.NDArray[np.uint8] | None]:
        """Every env's picture (with ``render_mode="rgb_array"``)."""
        if self.render_mode != "rgb_array":
            return [None] * self.num_envs
        return [self.venv.pool.render_rgb(i) for i in range(self.num_envs)]

    def get_attr(self, attr_name: str, indices: VecEnvIndices = None) -> list[Any]:
        """The attribute of each env of indices (the envs share this object's attributes)."""
        value = getattr(self, attr_name)
        return [value for _ in self._get_indices(indices)]

    def set_attr(self, attr_name: str, value: Any, indices: VecEnvIndices = None) -> None:
        """Sets the attribute (shared by every env, so indices must be all of them)."""
        if len(list(self._get_indices(indices))) != self.num_envs:
            raise ValueError("set_attr: botarena envs share one configuration; set it for every env")
        setattr(self, attr_name, value)

    def env_method(self, method_name: str, *method_args: Any, indices: VecEnvIndices = None, **method_kwargs: Any) -> list[Any]:
        """Calls a method per env: ``action_masks`` and ``render`` per env; others once, shared."""
        idx = list(self._get_indices(indices))
        if method_name == "action_masks":
            masks = self.action_masks()
            return [masks[i] for i in idx]
        if method_name == "render":
            images = self.get_images()
            return [images[i] for i in idx]
        value = getattr(self, method_name)(*method_args, **method_kwargs)
        return [value for _ in idx]

    def env_is_wrapped(self, wrapper_class: type[gymnasium.Wrapper[Any, Any, Any, Any]], indices: VecEnvIndices = None) -> list[bool]:
        """No env is wrapped by a Gymnasium wrapper."""
        return [False for _ in self._get_indices(indices)]

    def __getstate__(self) -> dict[str, Any]:
        return {"venv": self.venv, "seeds": self._seeds}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self._wrap(state["venv"])
        self._seeds = list(state["seeds"])


def make_vec_env(game: str, n_envs: int, *, monitor: bool = True, **kwargs: Any) -> VecEnv:
    """An SB3 ``VecEnv`` of ``n_envs`` games of game: ``BotarenaVecEnv(game, n_envs, **kwargs)``.

    With monitor (the default) it is wrapped in SB3's ``VecMonitor``, so that
    PPO logs ``rollout/ep_rew_mean`` and ``ep_len_mean``; ``action_masks``
    still reach MaskablePPO through it.
    """
    env: VecEnv = BotarenaVecEnv(game, n_envs, **kwargs)
    return VecMonitor(env) if monitor else env


class PlanesExtractor(BaseFeaturesExtractor):
    """Features of botarena observations: small convolutions over boards, the scalars as they are.

    For each tensor of the observation ``Dict``: a ``[C, H, W]`` board goes
    through two 3x3 convolutions that keep its size (``Conv3d`` for a
    ``[C, D, H, W]`` cube), then a linear layer to ``board_features``; a
    vector is passed through. Boards are compressed with ``log1p`` (the
    planes hold flags, counts and timers). The outputs are concatenated.
    """

    def __init__(self, observation_space: spaces.Dict, channels: int = 32, board_features: int = 256) -> None:
        heads: dict[str, nn.Module] = {}
        boards: list[str] = []
        total = 0
        for key, space in observation_space.spaces.items():
            shape = space.shape
            assert shape is not None
            if len(shape) in (3, 4):
                conv = nn.Conv2d if len(shape) == 3 else nn.Conv3d
                body = nn.Sequential(
                    conv(shape[0], channels, 3, padding=1),
                    nn.ReLU(),
                    conv(channels, channels, 3, padding=1),
                    nn.ReLU(),
                    nn.Flatten(),
                )
                cells = int(np.prod(shape[1:]))
                heads[key] = nn.Sequential(body, nn.Linear(channels * cells, board_features), nn.ReLU())
                boards.append(key)
                total += board_features
            else:
                heads[key] = nn.Flatten()
                total += int(np.prod(shape))
        super().__init__(observation_space, features_dim=total)
        self.heads = nn.ModuleDict(heads)
        self.boards = frozenset(boards)

    def forward(self, observations: dict[str, torch.Tensor]) -> torch.Tensor:
        parts = []
        for key, head in self.heads.items():
            x = observations[key]
            parts.append(head(torch.log1p(x.clamp(min=0)) if key in self.boards else x))
        return torch.cat(parts, dim=1)


def policy_kwargs(**kwargs: Any) -> dict[str, Any]:
    """``policy_kwargs`` that make SB3's ``MultiInputPolicy`` use :class:`PlanesExtractor`.

    kwargs go to the extractor (``channels``, ``board_features``).
    """
    return {"features_extractor_class": PlanesExtractor, "features_extractor_kwargs": kwargs}
