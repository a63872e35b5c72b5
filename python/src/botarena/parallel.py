"""A PettingZoo ``ParallelEnv`` over one botarena game: :func:`parallel_env`."""

from __future__ import annotations

from typing import Any, Mapping

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from pettingzoo import AECEnv, ParallelEnv
from pettingzoo.utils.conversions import parallel_to_aec

from botarena._envbase import HUMAN_RENDER_MODES, SettingsPickle, SingleRender, close_pool, flatten_rows, tensor_names
from botarena.backend import make_pool
from botarena.pool import int32_action
from botarena.spec import flat_space, mask_space, observation_space

__all__ = ["BotarenaParallelEnv", "parallel_env", "aec_env"]

AgentObs = dict[str, Any]


class BotarenaParallelEnv(SingleRender, SettingsPickle, ParallelEnv[str, AgentObs, int]):
    """One game with every seat a learner: agents ``player_0`` .. ``player_{seats-1}``.

    Args:
        game: registry name (``"bomberman"``, ``"bomberman/2p"``, ...).
        seed: pool seed; None lets the server choose.
        address: ``host:port`` of a running server; None starts a local one.
        render_mode: None, ``"human"``, ``"rgb_array"`` or ``"ansi"``.
        observation: ``"dict"`` (tensors and action mask, PettingZoo's
            action-mask convention) or ``"flat"`` (one float32 vector).
        backend: ``"auto"``, ``"native"`` or ``"remote"`` (see :class:`botarena.Pool`).
        max_cycles: truncate every live agent after this many steps of an
            episode (PettingZoo's convention); None: the game's own cap.
        **config: game config fields, e.g. ``players=2``; a name that is
            not one raises TypeError.

    Each agent's observation follows the PettingZoo action-mask convention:
    ``{"observation": {tensor name: array}, "action_mask": int8 array}``,
    whose space is ``Dict(observation=Dict(Box...), action_mask=Box(0, 1,
    (actions,), int8))`` (int8 is what ``Discrete.sample(mask=...)`` takes).
    The arrays are read-only views without a copy (on the native backend of
    the pool's arrays, overwritten by the next step).

    An agent whose seat is terminated (eliminated) or truncated is removed
    from :attr:`agents` after the step that reports it; the episode is over
    when no agent is left, and :meth:`reset` starts the next one. Agents
    missing from the actions of :meth:`step` do nothing (action 0).
    With ``observation="flat"`` each observation is instead one float32
    vector (every tensor flattened, in the Dict's key order:
    :func:`botarena.spec.flat_space`) and the mask is in
    ``infos[agent]["action_mask"]``: the form SuperSuit's
    ``pettingzoo_env_to_vec_env_v1`` and SB3's ``MlpPolicy`` take.

    Seeding: a seed (the constructor's for the first :meth:`reset`, or
    ``reset(seed=...)``) also seeds each agent's action space, agent i with
    ``seed + i``, so that ``action_space(agent).sample()`` draws the same
    actions for the same seed (Gymnasium leaves spaces unseeded otherwise).

    ``max_cycles=n`` truncates every live agent at the n-th step of an
    episode, as PettingZoo's own envs do (``max_cycles_test`` passes); the
    game's end-of-game rewards are not paid then. None (the default) leaves
    the episode to the game's own cap (``game_spec.max_steps``, or a config
    field such as ``max_rounds``, which ends the game with its rewards).
    It is the attribute :attr:`max_cycles`, which ``parallel_api_test``
    sets to its ``num_cycles``; a new value counts from the next step.

    ``render()`` returns the game's picture with ``render_mode="rgb_array"``
    (``(H, W, 3)`` uint8, drawn in Go, the full view) and its native text
    with ``"ansi"`` (Bomberman's map.txt, ...); ``"human"`` prints that text
    and returns None.

    Pickling makes an equal env (the same settings on the same server, or
    on a new local server when this env started its own), reset before use:
    SuperSuit's vector-env constructors and Ray copy envs this way.
    """

    metadata: dict[str, Any] = {"name": "botarena_v0", "render_modes": HUMAN_RENDER_MODES, "is_parallelizable": True, "render_fps": 8}

    def __init__(
        self,
        game: str,
        *,
        seed: int | None = None,
        address: str | None = None,
        render_mode: str | None = None,
        observation: str = "dict",
        backend: str = "auto",
        max_cycles: int | None = None,
        **config: Any,
    ) -> None:
        if max_cycles is not None and max_cycles < 1:
            raise ValueError(f"max_cycles must be None or at least 1, got {max_cycles}")
        settings = dict(
            game=game, seed=seed, address=address, render_mode=render_mode, observation=observation, backend=backend, max_cycles=max_cycles
        )
        self._keep_settings(settings, config, human=True)
        self._flat = observation == "flat"
        self.max_cycles = max_cycles
        self._cycles = 0
        self.render_mode = render_mode
        # One env: StepStream has the lower round trip (0.64 vs 0.74 ms median).
        self.pool = make_pool(
            game, 1, seed=seed, address=address, autoreset="next_step", transport="stream", backend=backend, **config
        )
        spec = self.pool.spec
        self.game_spec = spec
        self.metadata = {**type(self).metadata, "name": f"botarena_{game.replace('/', '_')}"}
        self.possible_agents = [f"player_{s}" for s in self.pool.learner_seats]
        self._row = {a: i for i, a in enumerate(self.possible_agents)}
        self._names = tensor_names(spec)
        obs_space: spaces.Space[Any]
        if self._flat:
            obs_space = flat_space(spec)
        else:
            obs_space = spaces.Dict({"observation": observation_space(spec), "action_mask": mask_space(spec, np.int8)})
        self.observation_spaces = {a: obs_space for a in self.possible_agents}
        self.action_spaces: dict[str, spaces.Space[Any]] = {a: spaces.Discrete(spec.actions) for a in self.possible_agents}
        self.agents: list[str] = []
        self._seed = seed
        self._fresh = True
        self._actions = np.zeros(self.pool.rows, dtype="<i4")
        self._masks: dict[str, npt.NDArray[np.int8]] = {}

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        """The observation space of agent (the same object every call)."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        """The action space of agent (the same object every call)."""
        return self.action_spaces[agent]

    def _agent_obs(self, obs: dict[str, npt.NDArray[Any]], mask: npt.NDArray[np.uint8]) -> dict[str, AgentObs]:
        mask8 = mask.view(np.int8)
        out: dict[str, AgentObs] = {}
        self._masks = {a: mask8[self._row[a]] for a in self.agents}
        flat = flatten_rows(obs, self._names, self.pool.rows) if self._flat else None
        for a in self.agents:
            r = self._row[a]
            if flat is not None:
                out[a] = flat[r]  # type: ignore[assignment]
            else:
                out[a] = {"observation": {k: v[r] for k, v in obs.items()}, "action_mask": mask8[r]}
        return out

    def _agent_infos(self, agents: list[str]) -> dict[str, dict[str, Any]]:
        if self._flat:
            return {a: {"action_mask": self._masks[a]} for a in agents}
        return {a: {} for a in agents}

    def action_mask(self, agent: str) -> npt.NDArray[np.int8]:
        """The legal actions of agent's last observation (int8, 1 legal)."""
        return self._masks[agent]

    def reset(
        self, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, AgentObs], dict[str, dict[str, Any]]]:
        """Starts a new episode; a seed recreates the pool with that seed (same seed, same game)."""
        if seed is not None and not (self._fresh and seed == self._seed):
            self.pool.reseed(seed)
            self._seed = seed
        if self._seed is not None and (seed is not None or self._fresh):
            for i, a in enumerate(self.possible_agents):
                self.action_spaces[a].seed(self._seed + i)
        self._fresh = False
        self._cycles = 0
        obs, info = self.pool.reset()
        self.agents = list(self.possible_agents)
        out = self._agent_obs(obs, info["mask"])
        self._print_human()
        return out, self._agent_infos(self.agents)

    def step(
        self, actions: Mapping[str, Any]
    ) -> tuple[
        dict[str, AgentObs],
        dict[str, float],
        dict[str, bool],
        dict[str, bool],
        dict[str, dict[str, Any]],
    ]:
        """Steps the game with one action per live agent."""
        if not self.agents:
            raise RuntimeError("step() called with no live agents: call reset() first")
        self._fresh = False
        acts = self._actions
        acts[:] = 0
        for a, act in actions.items():
            if a in self._row and a in self.agents:
                acts[self._row[a]] = int32_action(act, f"agent {a!r}")
        obs, reward, terminated, truncated, info = self.pool.step(acts)
        live = self.agents
        out_obs = self._agent_obs(obs, info["mask"])
        rew = {a: float(reward[self._row[a]]) for a in live}
        term = {a: bool(terminated[self._row[a]]) for a in live}
        trunc = {a: bool(truncated[self._row[a]]) for a in live}
        self._cycles += 1
        if self.max_cycles is not None and self._cycles >= self.max_cycles:
            trunc = {a: not term[a] for a in live}
        infos = self._agent_infos(live)
        self._print_human()
        self.agents = [a for a in live if not (term[a] or trunc[a])]
        return out_obs, rew, term, trunc, infos

    def state(self) -> npt.NDArray[Any]:
        """Not provided: the full state is available as text via ``pool.render(0, format="state.json")``."""
        raise NotImplementedError("botarena parallel envs have no state array; use pool.render(0, format=...)")

    def close(self) -> None:
        """Closes the pool (and the server it started)."""
        close_pool(self)


parallel_env = BotarenaParallelEnv
"""A PettingZoo parallel env of one game, every seat a learner: :class:`BotarenaParallelEnv`
under PettingZoo's name for the constructor, so that its typed keyword arguments are the one list."""


def aec_env(game: str, **kwargs: Any) -> AECEnv[str, Any, int]:
    """The PettingZoo AEC form of :func:`parallel_env` (agents act in turn; the game steps when all have)."""
    return parallel_to_aec(parallel_env(game, **kwargs))
