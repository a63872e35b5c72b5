"""A Gymnasium 1.x ``VectorEnv`` over a botarena pool: :func:`make_vec`."""

from __future__ import annotations

from typing import Any, Mapping

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from botarena.pool import Info, Obs, Pool
from botarena.spec import mask_space, observation_space

__all__ = ["BotarenaVectorEnv", "make_vec"]


class BotarenaVectorEnv(VectorEnv[Obs, npt.NDArray[np.int64], npt.NDArray[Any]]):
    """``num_envs`` games with one learner seat each (seat 0); the server plays the others.

    * ``single_observation_space``: ``Dict`` of one ``Box`` per observation
      tensor (Bomberman: ``planes`` uint8 [12,21,21], ``scalars`` float32 [8]);
      ``observation_space`` is its ``batch_space``.
    * ``single_action_space``: ``Discrete(actions)``; ``action_space``:
      ``MultiDiscrete``.
    * ``infos["action_mask"]``: ``(num_envs, actions)`` uint8, 1 where legal
      (with Gymnasium's ``infos["_action_mask"]``, all True).
    * Autoreset is next-step (``metadata["autoreset_mode"]``): the step after
      an env's episode ends returns its reset observation with reward 0 and
      both flags False, ignoring that env's action.
    * ``reset(seed=s)`` recreates the pool with pool seed ``s``: the same seed
      gives the same observations. ``reset()`` without a seed starts new
      episodes that continue the pool's seed sequence.
    * Rewards are float32; observations are read-only views of the response
      (no copy; copy them before writing).
    """

    metadata: dict[str, Any] = {"autoreset_mode": AutoresetMode.NEXT_STEP, "render_modes": ["ansi"]}

    def __init__(
        self,
        game: str,
        num_envs: int,
        *,
        opponents: str | Mapping[int, str] = "random",
        seed: int | None = None,
        address: str | None = None,
        render_mode: str | None = None,
        learner_seat: int = 0,
        **config: Any,
    ) -> None:
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode must be None or 'ansi', got {render_mode!r}")
        self.metadata = dict(type(self).metadata)
        self.render_mode = render_mode
        self.pool = Pool(
            game,
            num_envs,
            learner_seats=[learner_seat],
            opponents=opponents,
            seed=seed,
            address=address,
            autoreset="next_step",
            **config,
        )
        self.num_envs = num_envs
        self.game_spec = self.pool.spec
        self.single_observation_space = observation_space(self.pool.spec)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.single_action_space = spaces.Discrete(self.pool.spec.actions)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self.single_action_mask_space = mask_space(self.pool.spec)
        self._mask_flag = np.ones(num_envs, dtype=bool)
        self._seed = seed
        self._fresh = True  # the pool was just created with self._seed

    def reset(
        self, *, seed: int | list[int | None] | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Obs, dict[str, Any]]:
        """Resets every env; a seed recreates the pool with that pool seed."""
        if isinstance(seed, (list, tuple)):
            raise TypeError("botarena vector envs take one integer seed (the pool seed), not one per env")
        super().reset(seed=seed)
        if seed is not None and not (self._fresh and seed == self._seed):
            self.pool.reseed(seed)
            self._seed = seed
        self._fresh = False
        obs, info = self.pool.reset()
        return obs, self._infos(info)

    def step(
        self, actions: npt.ArrayLike
    ) -> tuple[Obs, npt.NDArray[np.float32], npt.NDArray[np.bool_], npt.NDArray[np.bool_], dict[str, Any]]:
        """Steps every env with one action each (shape ``(num_envs,)``)."""
        a = np.asarray(actions)
        if a.shape != (self.num_envs,):
            raise ValueError(f"expected actions of shape ({self.num_envs},), got {a.shape}")
        self._fresh = False
        obs, reward, terminated, truncated, info = self.pool.step(a)
        return obs, reward, terminated, truncated, self._infos(info)

    def _infos(self, info: Info) -> dict[str, Any]:
        return {"action_mask": info["mask"], "_action_mask": self._mask_flag}

    def render(self) -> tuple[str, ...] | None:
        """With render_mode "ansi", every env's map.txt; else None."""
        if self.render_mode != "ansi":
            return None
        return tuple(self.pool.render(i) for i in range(self.num_envs))

    def close_extras(self, **kwargs: Any) -> None:
        """Closes the pool (and the server it started)."""
        self.pool.close()

    def __repr__(self) -> str:
        return f"BotarenaVectorEnv({self.pool.game!r}, num_envs={self.num_envs})"


def make_vec(
    game: str,
    num_envs: int,
    *,
    opponents: str | Mapping[int, str] = "random",
    seed: int | None = None,
    address: str | None = None,
    render_mode: str | None = None,
    **config: Any,
) -> BotarenaVectorEnv:
    """A Gymnasium vector env of ``num_envs`` games, the learner in seat 0.

    Args:
        game: registry name (``"bomberman"``, ``"bomberman/2p"``, ...).
        num_envs: number of games.
        opponents: built-in agent for every other seat (``"random"``,
            ``"idle"``, ``"reference"``) or a dict seat → agent.
        seed: pool seed; None lets the server choose.
        address: ``host:port`` of a running server; None starts a local
            ``botarena serve``, stopped when the env is closed.
        render_mode: None or ``"ansi"``.
        **config: game config fields, e.g. ``players=2``.
    """
    return BotarenaVectorEnv(
        game, num_envs, opponents=opponents, seed=seed, address=address, render_mode=render_mode, **config
    )

