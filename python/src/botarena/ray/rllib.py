"""RLlib with botarena's batching: one pool per EnvRunner, stepped in one call.

RLlib's new API stack builds each EnvRunner's envs with ``gym.make_vec``;
its default ``"sync"`` mode makes ``num_envs_per_env_runner`` separate envs
and steps them one by one in Python. :func:`configure` registers
:func:`make_env` as the env's *vector entry point* instead
(``gym_env_vectorize_mode="vector_entry_point"``), so each EnvRunner gets one
:class:`~botarena.BotarenaVectorEnv`: all its envs in one botarena pool,
every step one call for the whole batch, the opponents played by the
server. The EnvRunners are Ray actors, so with ``num_env_runners=k`` the
pools spread over the cluster's nodes; each starts a ``botarena serve`` on
its node (or uses ``address``)::

    from ray.rllib.algorithms.ppo import PPOConfig
    from botarena.ray.rllib import configure

    config = configure(PPOConfig(), "battlebots", num_envs_per_env_runner=64, opponents="sniper")
    config = config.env_runners(num_env_runners=2)
    algo = config.build_algo()

RLlib's default networks take flat vectors: the env's observation is every
tensor flattened into one float32 vector (``action_mask=True``: a Dict of
that vector, ``"observations"``, and the legal actions, ``"action_mask"``,
for an action-masking RLModule like the one in
python/examples/rllib_ppo.py). Episodes autoreset in next-step mode, as
RLlib's SingleAgentEnvRunner expects, and RLlib's seed reaches the pool
(``reset(seed=...)``), so a runner's episodes follow from the config's seed.
"""

from __future__ import annotations

from typing import Any, Mapping

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from gymnasium.vector import VectorEnv
from gymnasium.wrappers.vector import TransformObservation

from botarena.pool import Obs
from botarena.server import remember_token, token_for
from botarena.vector import BotarenaVectorEnv

__all__ = ["ENV_NAME", "make_env", "register", "configure"]

#: The name :func:`register` gives the env in Ray Tune's registry.
ENV_NAME = "botarena"


def _flat(env: BotarenaVectorEnv, action_mask: bool) -> VectorEnv[Any, Any, Any]:
    """The env with its observation tensors flattened into one float32 vector per env."""
    names = [t.name for t in env.game_spec.observations]
    size = sum(t.size for t in env.game_spec.observations)
    flat = spaces.Box(-np.inf, np.inf, (size,), np.float32)
    single: spaces.Space[Any] = flat
    if action_mask:
        single = spaces.Dict({"observations": flat, "action_mask": env.single_action_mask_space})

    def transform(obs: Obs) -> Any:
        n = env.num_envs
        vec = np.concatenate([np.asarray(obs[k], dtype=np.float32).reshape(n, -1) for k in names], axis=1)
        if not action_mask:
            return vec
        mask: npt.NDArray[np.uint8] = np.asarray(env.action_masks(), dtype=np.uint8)
        return {"observations": vec, "action_mask": mask}

    return TransformObservation(env, transform, single_observation_space=single)


def make_env(config: Mapping[str, Any]) -> VectorEnv[Any, Any, Any]:
    """RLlib's env creator: a botarena vector env of ``config["num_envs"]`` envs.

    config (RLlib's ``env_config`` plus the ``num_envs`` RLlib adds):
    ``game`` (required), ``num_envs`` (default 1), ``opponents`` (default
    ``"random"``), ``game_config`` (the game's config fields), ``address``
    (a server; default: a local ``botarena serve`` on the runner's node),
    ``action_mask`` (default False), ``seed`` (the pool's first seed; RLlib's
    ``reset(seed=...)`` replaces it), ``token`` (the server's token, where the
    runner's process did not start it; :func:`configure` adds the token of a
    :class:`botarena.Server` the driver started).
    """
    if config.get("address") and config.get("token"):
        remember_token(str(config["address"]), str(config["token"]))
    env = BotarenaVectorEnv(
        str(config["game"]),
        int(config.get("num_envs", 1)),
        opponents=config.get("opponents", "random"),
        seed=config.get("seed"),
        address=config.get("address"),
        **dict(config.get("game_config") or {}),
    )
    return _flat(env, bool(config.get("action_mask", False)))


def register(name: str = ENV_NAME) -> str:
    """Registers :func:`make_env` under ``name`` in Ray Tune's registry; returns the name."""
    from ray.tune.registry import register_env

    register_env(name, make_env)
    return name


def configure(
    config: Any,
    game: str,
    *,
    num_envs_per_env_runner: int = 64,
    opponents: str | Mapping[int, str] = "random",
    game_config: Mapping[str, Any] | None = None,
    address: str | None = None,
    action_mask: bool = False,
    name: str = ENV_NAME,
) -> Any:
    """Sets an RLlib ``AlgorithmConfig`` to sample ``game`` from botarena pools, one per EnvRunner.

    Registers the env (:func:`register`), sets ``environment(name,
    env_config=...)`` and ``env_runners(num_envs_per_env_runner=...,
    gym_env_vectorize_mode="vector_entry_point")``; returns the config for
    more chained calls (``env_runners(num_env_runners=...)``, ``training(...)``).
    """
    register(name)
    env_config: dict[str, Any] = {
        "game": game,
        "opponents": dict(opponents) if isinstance(opponents, Mapping) else opponents,
        "game_config": dict(game_config or {}),
        "action_mask": action_mask,
    }
    if address is not None:
        env_config["address"] = address
        token = token_for(address)
        if token:  # a server this process started: its EnvRunners are other processes
            env_config["token"] = token
    return config.environment(name, env_config=env_config).env_runners(
        num_envs_per_env_runner=num_envs_per_env_runner, gym_env_vectorize_mode="vector_entry_point"
    )
