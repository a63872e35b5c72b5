"""A single-agent Gymnasium ``Env`` of one game: :class:`BotarenaEnv`.

Every game is registered with Gymnasium on ``import botarena`` as
``botarena/<game>-v0``, with ``/`` in the game name written as ``-``, and
as ``botarena/<game>-flat-v0``, whose observation is one float32 vector
(``observation="flat"``, as Atari's ``-ram`` ids select another
observation)::

    import gymnasium as gym
    import botarena  # registers the ids

    env = gym.make("botarena/battlebots-v0")
    env = gym.make("botarena/bomberman-2p-v0", opponents="reference", render_mode="rgb_array")
    env = gym.make("botarena/battlebots-flat-v0")  # Box((1904,), float32): CleanRL's ppo.py as it is
    envs = gym.make_vec("botarena/battlebots-v0", num_envs=64)  # botarena's batched VectorEnv

Each id's ``max_episode_steps`` is the game's step cap with its default
config (``botarena games``' MAX STEPS), so ``gym.make`` adds a ``TimeLimit``
that truncates at the step the game itself truncates. A config that raises
the cap (``max_rounds=2000``) needs ``max_episode_steps=`` too (or ``-1``).

``gym.make_vec`` returns :class:`~botarena.vector.BotarenaVectorEnv` (one
pool on the server, stepped in Go), not one process or thread per env.
"""

from __future__ import annotations

from typing import Any, Mapping

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium import spaces

from botarena._envbase import HUMAN_RENDER_MODES, SettingsPickle, SingleRender, check_observation, close_pool, flatten_rows, tensor_names
from botarena.backend import make_pool
from botarena.pool import int32_action
from botarena.spec import flat_space, mask_space, observation_space

__all__ = ["BotarenaEnv", "env_id", "register_envs"]

AgentObs = dict[str, npt.NDArray[Any]] | npt.NDArray[np.float32]


class BotarenaEnv(SingleRender, SettingsPickle, gymnasium.Env[AgentObs, np.int64]):
    """One game with one learner seat; built-in agents play the other seats on the server.

    * ``observation_space`` (``observation="dict"``, the default): ``Dict``
      of one float32 ``Box`` per observation tensor (Bomberman: ``planes``
      [12,21,21] with the uint8 planes' values and bounds 0..255,
      ``scalars`` [8]). float32, not the wire's uint8: SB3 takes a uint8
      ``[C,H,W]`` Box with bounds 0..255 for an image and runs its NatureCNN,
      whose 8x8 and 4x4 kernels do not fit boards under 36x36 cells, so
      ``PPO("MultiInputPolicy", env)`` trains on the env as it is. The
      batched faces (:func:`botarena.make_vec`, PettingZoo, :class:`Pool`)
      keep uint8 without a copy.
    * ``observation="flat"`` (the ``botarena/<game>-flat-v0`` ids): one
      float32 ``Box`` of ``sum(tensor sizes)``, every tensor flattened in the
      Dict's key order (:func:`botarena.spec.flat_space`): what
      ``gymnasium.wrappers.FlattenObservation`` makes of the Dict form, for
      trainers that read ``observation_space.shape`` (CleanRL).
    * Bounds are finite (the dtype's range: the spec states no tighter one),
      so ``check_env`` does not warn.
    * ``action_space``: ``Discrete(actions)``; ``info["action_mask"]`` is the
      ``(actions,)`` int8 mask of legal actions (1 legal) of the returned
      observation, and :meth:`action_masks` returns it as bool for
      sb3-contrib's MaskablePPO.
    * ``reset(seed=s)`` starts the game from seed ``s``: the same seed gives
      the same episode (opponents included). Without a seed, episodes
      continue the seed sequence of the last seed.
    * Rewards are the game's (terminal +1/-1/0 by default; see the game's
      ``reward`` in its spec); ``terminated`` when the learner's seat is out
      of the game or the game is over, ``truncated`` when the game's step cap
      ended it. Step again only after ``reset()``.
    * ``render()``: ``rgb_array`` gives the game's picture (``(H, W, 3)``
      uint8, drawn in Go, the full view), ``ansi`` its native text;
      ``human`` prints that text after every reset and step.
    * Observations are read-only numpy views without a copy (on the native
      backend of the pool's arrays, overwritten by the next step).

    Args:
        game: registry name (``"battlebots"``, ``"bomberman/2p"``, ...).
        opponents: built-in agent for every other seat (``"random"``,
            ``"reference"``, ...) or a dict seat → agent.
        seed: the seed of the first episode when ``reset()`` gets none.
        address: ``host:port`` of a running server; None starts a local
            ``botarena serve``, stopped when the env is closed.
        render_mode: None, ``"rgb_array"`` or ``"ansi"``.
        learner_seat: the seat the agent plays (default 0).
        backend: ``"auto"``, ``"native"`` or ``"remote"`` (see :class:`botarena.Pool`).
        observation: ``"dict"`` (default) or ``"flat"`` (see above).
        **config: game config fields, e.g. ``players=2``; a name that is
            not one raises TypeError.
    """

    metadata: dict[str, Any] = {"render_modes": HUMAN_RENDER_MODES, "render_fps": 8}

    def __init__(
        self,
        game: str,
        *,
        opponents: str | Mapping[int, str] = "random",
        seed: int | None = None,
        address: str | None = None,
        render_mode: str | None = None,
        learner_seat: int = 0,
        backend: str = "auto",
        observation: str = "dict",
        **config: Any,
    ) -> None:
        settings = dict(
            game=game,
            opponents=opponents,
            seed=seed,
            address=address,
            render_mode=render_mode,
            learner_seat=learner_seat,
            backend=backend,
            observation=observation,
        )
        self._keep_settings(settings, config, human=True)
        self.render_mode = render_mode
        self.game = game
        self.learner_seat = learner_seat
        # One env: StepStream has the lowest round trip.
        self.pool = make_pool(
            game,
            1,
            learner_seats=[learner_seat],
            opponents=opponents,
            seed=seed,
            address=address,
            autoreset="next_step",
            transport="stream",
            backend=backend,
            **config,
        )
        self.game_spec = self.pool.spec
        self._flat = observation == "flat"
        self._names = tensor_names(self.pool.spec)
        self.observation_space: spaces.Space[Any] = (
            flat_space(self.pool.spec) if self._flat else observation_space(self.pool.spec, np.float32)
        )
        self.action_space = spaces.Discrete(self.pool.spec.actions)
        self.action_mask_space = mask_space(self.pool.spec, np.int8)
        self._seed = seed
        self._fresh = True
        self._done = False
        self._mask = np.ones(self.pool.spec.actions, dtype=np.int8)
        self._action = np.zeros(1, dtype="<i4")

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[AgentObs, dict[str, Any]]:
        """Starts a new episode; a seed makes it reproducible."""
        super().reset(seed=seed)
        if seed is not None and not (self._fresh and seed == self._seed):
            self.pool.reseed(seed)
            self._seed = seed
        self._fresh = False
        self._done = False
        obs, info = self.pool.reset()
        self._print_human()
        return self._obs(obs), self._info(info)

    def step(self, action: Any) -> tuple[AgentObs, float, bool, bool, dict[str, Any]]:
        """Plays one action; returns ``(obs, reward, terminated, truncated, info)``."""
        if self._done:
            raise RuntimeError("step() after the episode ended: call reset() first")
        self._fresh = False
        self._action[0] = int32_action(action, "the learner seat")
        obs, reward, terminated, truncated, info = self.pool.step(self._action)
        term, trunc = bool(terminated[0]), bool(truncated[0])
        self._done = term or trunc
        self._print_human()
        return self._obs(obs), float(reward[0]), term, trunc, self._info(info)

    # One env's observation and mask are copied out of the pool's rows (as
    # float32): Gymnasium's Env contract has each call return new data, and
    # the pool's arrays (the native backend's above all) are written again
    # by the next step. The batched faces (vector, PettingZoo, Pool) do not
    # copy.
    def _obs(self, obs: dict[str, npt.NDArray[Any]]) -> AgentObs:
        if self._flat:
            return flatten_rows(obs, self._names, 1)[0]
        return {k: np.array(obs[k][0], dtype=np.float32) for k in self._names}

    def _info(self, info: dict[str, Any]) -> dict[str, Any]:
        self._mask = info["mask"][0].view(np.int8).copy()
        return {"action_mask": self._mask}

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The legal actions of the last observation, as bool (sb3-contrib's MaskablePPO)."""
        return self._mask.astype(bool)

    def close(self) -> None:
        """Closes the pool (and the server it started)."""
        close_pool(self)

    def __repr__(self) -> str:
        return f"BotarenaEnv({self.game!r})"


def env_id(game: str, observation: str = "dict") -> str:
    """The Gymnasium id of a game: ``botarena/<game>-v0`` with ``/`` written as ``-``.

    With ``observation="flat"``: ``botarena/<game>-flat-v0``.
    """
    check_observation(observation)
    suffix = "-flat" if observation == "flat" else ""
    return f"botarena/{game.replace('/', '-')}{suffix}-v0"


def register_envs(games: Any = None) -> list[str]:
    """Registers ``botarena/<game>-v0`` and ``botarena/<game>-flat-v0`` with Gymnasium; returns the ids.

    games defaults to the games this package was generated with
    (:data:`botarena.games.GAMES`, written by ``make generate`` from
    ``botarena games --json``), whose ids get ``max_episode_steps`` (the
    default config's step cap); other names are registered without one.
    Registering twice is harmless.
    """
    from botarena.games import GAMES

    caps = {g["name"]: int(g["max_steps"]) or None for g in GAMES}
    names = list(games) if games is not None else [g["name"] for g in GAMES]
    ids = []
    for name in names:
        for observation in ("dict", "flat"):
            gid = env_id(name, observation)
            if gid not in gymnasium.registry:
                gymnasium.register(
                    id=gid,
                    entry_point="botarena.env:BotarenaEnv",
                    vector_entry_point="botarena.vector:BotarenaVectorEnv",
                    kwargs={"game": name, **({"observation": "flat"} if observation == "flat" else {})},
                    max_episode_steps=caps.get(name),
                    disable_env_checker=False,
                )
            ids.append(gid)
    return ids
