"""A Gymnasium 1.x ``VectorEnv`` over a botarena pool: :func:`make_vec`."""

from __future__ import annotations

from typing import Any, Mapping, TypeAlias

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from botarena._envbase import RENDER_MODES, SettingsPickle, close_pool, flatten_rows, render_env, tensor_names
from botarena.backend import make_pool
from botarena.pool import Info, Obs
from botarena.spec import flat_space, mask_space, observation_space

__all__ = ["BotarenaVectorEnv", "make_vec", "autoreset_mode"]

_POOL_AUTORESET = {AutoresetMode.NEXT_STEP: "next_step", AutoresetMode.SAME_STEP: "same_step"}


def autoreset_mode(mode: AutoresetMode | str) -> AutoresetMode:
    """Gymnasium's AutoresetMode from itself, its value (``"NextStep"``) or a name (``"next_step"``).

    botarena pools autoreset in NEXT_STEP or SAME_STEP mode; DISABLED and
    unknown names raise ValueError.
    """
    if isinstance(mode, AutoresetMode):
        m = mode
    else:
        key = str(mode).replace("_", "").replace("-", "").lower()
        found = [a for a in AutoresetMode if key in (a.value.lower(), a.name.replace("_", "").lower())]
        if not found:
            raise ValueError(f"autoreset_mode must be next_step or same_step, got {mode!r}")
        m = found[0]
    if m not in _POOL_AUTORESET:
        raise ValueError(f"botarena envs always autoreset: autoreset_mode must be NEXT_STEP or SAME_STEP, got {m}")
    return m


#: What a vector env's step returns: observations, rewards, terminations, truncations, infos.
VectorStep: TypeAlias = tuple[Obs, npt.NDArray[np.float32], npt.NDArray[np.bool_], npt.NDArray[np.bool_], dict[str, Any]]


def env_actions(actions: npt.ArrayLike, num_envs: int) -> npt.NDArray[Any]:
    """The actions of a vector env's step as an array, one per env.

    Raises ValueError unless their shape is ``(num_envs,)``.
    """
    a = np.asarray(actions)
    if a.shape != (num_envs,):
        raise ValueError(f"expected actions of shape ({num_envs},), got {a.shape}")
    return a


class BotarenaVectorEnv(SettingsPickle, VectorEnv[Obs, npt.NDArray[np.int64], npt.NDArray[Any]]):
    """``num_envs`` games with one learner seat each (``learner_seat``); the server plays the others.

    Args:
        game: registry name (``"bomberman"``, ``"bomberman/2p"``, ...).
        num_envs: number of games.
        opponents: built-in agent for every other seat (``"random"``,
            ``"idle"``, ``"reference"``) or a dict seat → agent.
        seed: pool seed; None lets the server choose.
        address: ``host:port`` of a running server; None runs the pool in
            this process (native backend) or starts a local ``botarena
            serve``, stopped when the env is closed.
        render_mode: None, ``"rgb_array"`` or ``"ansi"``.
        autoreset_mode: Gymnasium's ``AutoresetMode.NEXT_STEP`` (default) or
            ``SAME_STEP``, or their names (``"next_step"``, ``"same_step"``).
        backend: ``"auto"`` (default), ``"native"`` (the Go pool in this
            process) or ``"remote"`` (a server); see :class:`botarena.Pool`.
        learner_seat: the seat the learner plays in every env (default 0).
        observation: ``"dict"`` (default: the tensors, uint8 planes without
            a copy) or ``"flat"`` (one float32 vector per env).
        max_episode_steps: what ``gym.make_vec`` passes (see below); None
            (the default) for the game's own cap.
        **config: game config fields, e.g. ``players=2``; a name that is
            not one raises TypeError.

    * ``single_observation_space``: ``Dict`` of one ``Box`` per observation
      tensor in the wire's dtypes (Bomberman: ``planes`` uint8 [12,21,21],
      ``scalars`` float32 [8]), with finite bounds (the dtype's range);
      ``observation_space`` is its ``batch_space``. With
      ``observation="flat"`` (the ``-flat-v0`` ids) one float32 ``Box`` per
      env instead, every tensor flattened in the Dict's key order
      (:func:`botarena.spec.flat_space`; a new array each step, final
      observations flat too).
    * ``single_action_space``: ``Discrete(actions)``; ``action_space``:
      ``MultiDiscrete``.
    * ``infos["action_mask"]``: ``(num_envs, actions)`` uint8, 1 where legal
      (with Gymnasium's ``infos["_action_mask"]``, all True);
      :meth:`action_masks` returns the same as bool, as sb3-contrib expects.
    * Autoreset (``metadata["autoreset_mode"]``, Gymnasium's
      :class:`~gymnasium.vector.AutoresetMode`):

      - ``NEXT_STEP`` (the default): the step after an env's episode ends
        returns its reset observation with reward 0 and both flags False,
        ignoring that env's action.
      - ``SAME_STEP``: the step that ends an episode returns the new
        episode's first observation; the final one is in
        ``infos["final_obs"]`` (an object array, one observation dict for
        each env that ended, None elsewhere, with the ``infos["_final_obs"]``
        mask) and the ended envs' final infos in ``infos["final_info"]``
        (with ``infos["_final_info"]``), as Gymnasium's SyncVectorEnv does.
        This is what CleanRL-style GAE and SB3 expect.
    * ``reset(seed=s)`` recreates the pool with pool seed ``s``: the same seed
      gives the same observations. ``reset()`` without a seed starts new
      episodes that continue the pool's seed sequence.
    * Rewards (float32), terminations and truncations are new writable arrays
      on every step. Observations are read-only views without a copy: of the
      pool's own arrays on the native backend (overwritten by the next step),
      of the server's response on the remote one (see :class:`botarena.Pool`,
      ``backend``). Gymnasium's vector wrappers work on them, as they return
      new arrays; copy one to keep it or to write to it.
    * ``render()``: with ``render_mode="rgb_array"`` a tuple of every env's
      picture (``(H, W, 3)`` uint8, drawn by the game in Go); with
      ``"ansi"`` every env's native text (Bomberman's map.txt, ...).
    * ``call``/``get_attr``/``set_attr`` follow Gymnasium: one result per
      env. The envs share one configuration, so ``set_attr`` takes one value
      (or ``num_envs`` equal values) and sets it on this vector env.
    * Pickling makes an equal env: the same settings on the same server (or
      on a new local server when this env started its own), reset before use.
    * ``max_episode_steps`` (which ``gym.make_vec`` passes from the id's
      spec) may not be below the game's step cap with the given config:
      the envs truncate where the game does. Lower the game's own cap
      (``max_rounds=``) instead; after raising it, pass
      ``max_episode_steps=None`` to ``gym.make_vec``.
    """

    metadata: dict[str, Any] = {"autoreset_mode": AutoresetMode.NEXT_STEP, "render_modes": RENDER_MODES}

    def __init__(
        self,
        game: str,
        num_envs: int,
        *,
        opponents: str | Mapping[int, str] = "random",
        seed: int | None = None,
        address: str | None = None,
        render_mode: str | None = None,
        autoreset_mode: AutoresetMode | str = AutoresetMode.NEXT_STEP,
        learner_seat: int = 0,
        backend: str = "auto",
        observation: str = "dict",
        max_episode_steps: int | None = None,
        **config: Any,
    ) -> None:
        mode = _autoreset_mode(autoreset_mode)
        settings = dict(
            game=game,
            num_envs=num_envs,
            opponents=opponents,
            seed=seed,
            address=address,
            render_mode=render_mode,
            autoreset_mode=mode,
            learner_seat=learner_seat,
            backend=backend,
            observation=observation,
            max_episode_steps=max_episode_steps,
        )
        self._keep_settings(settings, config)
        self.metadata = {**type(self).metadata, "autoreset_mode": mode}
        self.render_mode = render_mode
        self.pool = make_pool(
            game,
            num_envs,
            learner_seats=[learner_seat],
            opponents=opponents,
            seed=seed,
            address=address,
            autoreset=_POOL_AUTORESET[mode],
            backend=backend,
            **config,
        )
        self.num_envs = num_envs
        self.game = game
        self.learner_seat = learner_seat
        self.game_spec = self.pool.spec
        self._check_max_episode_steps(max_episode_steps)
        self._flat = observation == "flat"
        self._names = tensor_names(self.pool.spec)
        self.single_observation_space = flat_space(self.pool.spec) if self._flat else observation_space(self.pool.spec)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.single_action_space = spaces.Discrete(self.pool.spec.actions)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self.single_action_mask_space = mask_space(self.pool.spec)
        self._all = np.ones(num_envs, dtype=bool)
        self._mask = np.ones((num_envs, self.pool.spec.actions), dtype=np.uint8)
        self._seed = seed
        self._fresh = True  # the pool was just created with self._seed

    def _check_max_episode_steps(self, max_episode_steps: int | None) -> None:
        # gym.make_vec passes the id's max_episode_steps (the default
        # config's cap). The pool's envs end where the game's cap ends them
        # and cannot be reset one at a time, so a lower limit is refused.
        cap = self.pool.spec.max_steps
        if max_episode_steps is not None and max_episode_steps > 0 and cap and max_episode_steps < cap:
            self.pool.close()
            raise ValueError(
                f"max_episode_steps={max_episode_steps} is below {self.game}'s step cap {cap} with this config: "
                "a botarena vector env truncates where the game does; lower the game's own cap "
                "(a config field such as max_rounds) or pass max_episode_steps=None"
            )

    @property
    def autoreset_mode(self) -> AutoresetMode:
        """How ended episodes reset (``metadata["autoreset_mode"]``)."""
        mode: AutoresetMode = self.metadata["autoreset_mode"]
        return mode

    def reset(
        self, *, seed: int | list[int | None] | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Obs, dict[str, Any]]:
        """Resets every env; a seed recreates the pool with that pool seed.

        A list of seeds (Gymnasium's per-env form) is accepted when its first
        element is an int or None: botarena seeds the whole pool from one seed
        and derives each env's seed from it.
        """
        if isinstance(seed, (list, tuple)):
            if len(seed) != self.num_envs:
                raise ValueError(f"expected {self.num_envs} seeds, got {len(seed)}")
            seed = seed[0]
        super().reset(seed=seed)
        if seed is not None and not (self._fresh and seed == self._seed):
            self.pool.reseed(seed)
            self._seed = seed
        self._fresh = False
        obs, info = self.pool.reset()
        return self._obs(obs), self._infos(info)

    # Typed as the Dict form (Obs) for the callers that know they made one;
    # observation="flat" gives a float32 array in its place.
    def _obs(self, obs: Obs) -> Any:
        return flatten_rows(obs, self._names, self.num_envs) if self._flat else obs

    def step(self, actions: npt.ArrayLike) -> VectorStep:
        """Steps every env with one action each (shape ``(num_envs,)``)."""
        a = env_actions(actions, self.num_envs)
        self._fresh = False
        obs, reward, terminated, truncated, info = self.pool.step(a)
        infos = self._infos(info)
        if "final_obs" in info:
            ended: npt.NDArray[np.bool_] = np.array(info["ended"], dtype=bool)
            final_obs = np.full(self.num_envs, None, dtype=object)
            flat = self._obs(info["final_obs"]) if self._flat else None
            for i in np.flatnonzero(ended):
                final_obs[i] = {k: v[i] for k, v in info["final_obs"].items()} if flat is None else flat[i]
            infos["final_obs"] = final_obs
            infos["_final_obs"] = ended
            infos["final_info"] = {"action_mask": info["final_mask"], "_action_mask": ended.copy()}
            infos["_final_info"] = ended.copy()
        return self._obs(obs), np.array(reward, dtype=np.float32), np.array(terminated), np.array(truncated), infos

    def _infos(self, info: Info) -> dict[str, Any]:
        self._mask = info["mask"]
        return {"action_mask": info["mask"], "_action_mask": self._all.copy()}

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The legal actions of the last observation, ``(num_envs, actions)`` bool."""
        return self._mask.astype(bool)

    def render(self) -> tuple[Any, ...] | None:
        """Every env's picture (``rgb_array``) or native text (``ansi``); None without a render mode."""
        if self.render_mode is None:
            return None
        return tuple(self._render_one(i) for i in range(self.num_envs))

    def _render_one(self, i: int) -> Any:
        return render_env(self.pool, self.render_mode, i)

    # Gymnasium's per-env attribute access --------------------------------------

    def call(self, name: str, *args: Any, **kwargs: Any) -> tuple[Any, ...]:
        """Calls method name (or reads attribute name) for every env; one result per env.

        ``call("render")`` renders each env; any other name is looked up on
        this vector env, whose envs share one configuration.
        """
        if name == "render":
            return tuple(self._render_one(i) for i in range(self.num_envs)) if self.render_mode else (None,) * self.num_envs
        if name == "action_masks":
            masks = self.action_masks()
            return tuple(masks[i] for i in range(self.num_envs))
        attr = getattr(self, name)
        value = attr(*args, **kwargs) if callable(attr) else attr
        return (value,) * self.num_envs

    def get_attr(self, name: str) -> tuple[Any, ...]:
        """The attribute name of every env (a tuple of num_envs equal values)."""
        return (getattr(self, name),) * self.num_envs

    def set_attr(self, name: str, values: list[Any] | tuple[Any, ...] | Any) -> None:
        """Sets attribute name; the envs share one configuration, so every value must be equal."""
        if isinstance(values, (list, tuple)):
            if len(values) != self.num_envs:
                raise ValueError(f"set_attr: expected {self.num_envs} values, got {len(values)}")
            if any(v is not values[0] and v != values[0] for v in values[1:]):
                raise ValueError("set_attr: botarena envs share one configuration; give every env the same value")
            values = values[0]
        setattr(self, name, values)

    def close_extras(self, **kwargs: Any) -> None:
        """Closes the pool (and the server it started)."""
        close_pool(self)

    def __repr__(self) -> str:
        return f"BotarenaVectorEnv({self.game!r}, num_envs={self.num_envs}, autoreset_mode={self.autoreset_mode.name})"


_autoreset_mode = autoreset_mode


make_vec = BotarenaVectorEnv
"""A Gymnasium vector env of ``num_envs`` games: :class:`BotarenaVectorEnv` under
Gymnasium's functional name, so that its typed keyword arguments are the one list."""
