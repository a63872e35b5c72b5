"""Distributed sampling: :class:`RaySampler` (batched rollouts) and :class:`RayVectorEnv` (a vector env).

Both place Ray actors on the cluster, each owning one botarena pool on its
node (a local ``botarena serve`` by default; ``backend=`` is passed to the
pool), so a step of many envs is one call per actor, not one per env.
"""

from __future__ import annotations

import os
import time
from typing import Any, Callable, Mapping, Sequence

import numpy as np
import numpy.typing as npt
import ray
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from botarena._closing import Closing
from botarena._envbase import RENDER_MODES
from botarena.pool import Obs, PoolStats
from botarena.rollout import Policy, PoolSampler, Rollout, sampler_seeds
from botarena.spec import GameSpec, mask_space, observation_space
from botarena.vector import BotarenaVectorEnv, VectorStep, autoreset_mode, env_actions

__all__ = ["RaySampler", "RayVectorEnv", "node_address"]


def node_address() -> str:
    """The address Ray knows the calling worker's node by (its NodeManagerAddress)."""
    node_id = ray.get_runtime_context().get_node_id()
    for n in ray.nodes():
        if n.get("NodeID") == node_id:
            return str(n.get("NodeManagerAddress", ""))
    return ""


def _limit_cores(num_cpus: float) -> None:
    """Makes the servers this actor starts use the cores Ray gave it (GOMAXPROCS), at least one."""
    os.environ["GOMAXPROCS"] = str(max(1, int(num_cpus)))


def _spread(
    actor: type,
    num_actors: int,
    num_cpus: float,
    game: str,
    envs_per_actor: int,
    options: Callable[[int], dict[str, Any]],
    config: Mapping[str, Any],
) -> list[Any]:
    """Starts num_actors Ray actors of class actor, spread over the nodes, num_cpus each.

    The k-th is ``actor(game, envs_per_actor, num_cpus=num_cpus,
    **options(k), **config)``; options gives each its seed (and index).
    """
    cls: Any = ray.remote(actor).options(num_cpus=num_cpus, scheduling_strategy="SPREAD")
    return [cls.remote(game, envs_per_actor, num_cpus=num_cpus, **options(k), **config) for k in range(num_actors)]


def _describe(actors: list[Any]) -> list[Any]:
    """Every actor's describe(), which waits for their pools; on failure the actors are ended."""
    try:
        return list(ray.get([a.describe.remote() for a in actors]))
    except BaseException:
        _end(actors)
        raise


def _end(actors: list[Any]) -> None:
    """Closes the actors' pools (and servers), then ends the actors."""
    if not actors:
        return
    try:
        ray.get([a.close.remote() for a in actors], timeout=30)
    except Exception:
        pass  # an actor whose node is gone, or whose constructor failed
    for a in actors:
        ray.kill(a)


class _SamplerActor(PoolSampler):
    """A :class:`PoolSampler` in a Ray actor: its pool's server runs on the actor's node."""

    def __init__(self, game: str, num_envs: int, *, num_cpus: float, **kwargs: Any) -> None:
        _limit_cores(num_cpus)
        super().__init__(game, num_envs, **kwargs)
        self.node = node_address()

    def describe(self) -> tuple[GameSpec, int, str]:
        return self.spec, self.rows, self.node

    def sample_timed(self, steps: int) -> Rollout:
        return self.sample(steps)


class RaySampler(Closing):
    """``num_actors`` Ray actors, each a :class:`~botarena.rollout.PoolSampler` of ``envs_per_actor`` envs.

    Actor ``k`` samples exactly what ``PoolSampler(game, envs_per_actor,
    seed=seed, index=k, ...)`` samples in one process: the pool seed and the
    policy's generator come from ``(seed, k)`` (:func:`~botarena.rollout.sampler_seeds`),
    so a run over any number of nodes gives the rollouts of a local run.

    Args:
        game: registry name.
        num_actors: actors (pools).
        envs_per_actor: envs in each pool.
        seed: the run's seed.
        num_cpus: CPUs each actor reserves (and the cores its server may
            use); the actors are spread over the nodes by Ray's ``SPREAD``
            strategy.
        policy: the actors' :data:`~botarena.rollout.Policy` (default:
            random legal actions); :meth:`set_policy` replaces it.
        backend, learner_seats, opponents, workers, **config: passed to
            each actor's pool.

    ``ray.init`` must have been called. Not safe for concurrent use.
    :meth:`close` ends the actors and their servers.
    """

    def __init__(
        self,
        game: str,
        *,
        num_actors: int,
        envs_per_actor: int,
        seed: int = 0,
        num_cpus: float = 1,
        policy: Policy | None = None,
        backend: str | None = None,
        learner_seats: Sequence[int] | None = None,
        opponents: str | Mapping[int, str] | None = None,
        workers: int = 0,
        **config: Any,
    ) -> None:
        if num_actors < 1 or envs_per_actor < 1:
            raise ValueError(f"num_actors and envs_per_actor must be at least 1, got {num_actors} and {envs_per_actor}")
        opts = dict(seed=seed, learner_seats=learner_seats, opponents=opponents, workers=workers, backend=backend, policy=policy)
        self.actors: list[Any] = _spread(_SamplerActor, num_actors, num_cpus, game, envs_per_actor, lambda k: {**opts, "index": k}, config)
        described = _describe(self.actors)
        self.spec: GameSpec = described[0][0]
        self.rows_per_actor: int = described[0][1]
        #: The node address of each actor, in actor order.
        self.nodes: list[str] = [d[2] for d in described]
        self.seed = seed
        self.game = game

    @property
    def rows(self) -> int:
        """Rows of one step over every actor."""
        return self.rows_per_actor * len(self.actors)

    def set_policy(self, policy: Policy) -> None:
        """Sends the policy to every actor (one copy in the object store); it acts from their next step."""
        ref = ray.put(policy)
        ray.get([a.set_policy.remote(ref) for a in self.actors])

    def sample(self, steps: int) -> list[Rollout]:
        """``steps`` steps of every actor, in parallel; one :class:`Rollout` per actor, in actor order."""
        return list(ray.get([a.sample_timed.remote(steps) for a in self.actors]))

    def sample_concat(self, steps: int) -> Rollout:
        """:meth:`sample` as one rollout, the actors' rows side by side (actor 0's first)."""
        return Rollout.concat(self.sample(steps))

    def throughput(self, steps: int, *, rounds: int = 3) -> float:
        """Agent-steps per second of ``rounds`` calls of :meth:`sample` (after one warm-up call), wall clock."""
        self.sample(min(steps, 8))
        start = time.perf_counter()
        n = 0
        for _ in range(rounds):
            n += sum(r.agent_steps for r in self.sample(steps))
        return n / (time.perf_counter() - start)

    def stats(self) -> list[PoolStats]:
        """Each actor's pool statistics."""
        return list(ray.get([a.stats.remote() for a in self.actors]))

    def close(self) -> None:
        """Closes the pools and ends the actors. Safe to call twice."""
        actors, self.actors = getattr(self, "actors", []), []
        _end(actors)

    def __repr__(self) -> str:
        return f"RaySampler({self.game!r}, actors={len(self.actors)}, rows={self.rows if self.actors else 0})"


class _VectorEnvActor:
    """A :class:`~botarena.BotarenaVectorEnv` in a Ray actor."""

    def __init__(self, game: str, num_envs: int, *, num_cpus: float, **kwargs: Any) -> None:
        _limit_cores(num_cpus)
        self.env = BotarenaVectorEnv(game, num_envs, **kwargs)
        self.node = node_address()

    def describe(self) -> tuple[GameSpec, str]:
        return self.env.game_spec, self.node

    def reset(self, seed: int | None) -> tuple[Obs, dict[str, Any]]:
        obs, info = self.env.reset(seed=seed)
        return {k: np.array(v) for k, v in obs.items()}, info

    def step(self, actions: npt.NDArray[Any]) -> tuple[Any, ...]:
        obs, rew, term, trunc, info = self.env.step(actions)
        return {k: np.array(v) for k, v in obs.items()}, rew, term, trunc, info

    def render(self) -> tuple[Any, ...] | None:
        return self.env.render()

    def close(self) -> None:
        self.env.close()


def _filler(like: Any, n: int) -> Any:
    """An absent value for n envs shaped like ``like`` (another actor's): dicts key by key, arrays of zeros/None."""
    if isinstance(like, dict):
        return {k: _filler(v, n) for k, v in like.items()}
    a = np.asarray(like)
    out = np.empty((n, *a.shape[1:]), dtype=a.dtype)
    out.fill(None if a.dtype == object else 0)
    return out


def _concat(parts: Sequence[Any], sizes: Sequence[int]) -> Any:
    """The per-actor values side by side: arrays along axis 0, dicts key by key.

    A key that some actors' infos lack (``final_obs`` where none of their
    episodes ended) is filled for them as Gymnasium's vector envs leave it:
    False in the ``_key`` masks, None in object arrays, zeros elsewhere.
    """
    present = [p for p in parts if p is not None]
    first = present[0]
    if isinstance(first, dict):
        keys = list(dict.fromkeys(k for p in present for k in p))
        out = {}
        for k in keys:
            like = next(p[k] for p in present if k in p)
            vals = [p.get(k) if p is not None else None for p in parts]
            out[k] = _concat([v if v is not None else _filler(like, n) for v, n in zip(vals, sizes)], sizes)
        return out
    return np.concatenate([p if p is not None else _filler(first, n) for p, n in zip(parts, sizes)], axis=0)


class RayVectorEnv(VectorEnv[Obs, npt.NDArray[np.int64], npt.NDArray[Any]]):
    """A Gymnasium vector env of ``num_actors × envs_per_actor`` envs, one pool per Ray actor.

    It behaves as one :class:`~botarena.BotarenaVectorEnv` of all the envs
    (learner in ``learner_seat``, the server's agents in the other seats):
    the same spaces, ``infos["action_mask"]``, :meth:`action_masks` and
    autoreset modes. Env ``i`` lives in actor ``i // envs_per_actor``; a
    step sends every actor its slice of the actions and waits for all of
    them. ``reset(seed=s)`` seeds actor ``k``'s pool with the pool seed of
    :func:`~botarena.rollout.sampler_seeds` ``(s, k)``, so the same seed
    gives the same episodes wherever the actors run.

    ``ray.init`` must have been called. Not safe for concurrent use.
    """

    metadata: dict[str, Any] = {"autoreset_mode": AutoresetMode.NEXT_STEP, "render_modes": RENDER_MODES}

    def __init__(
        self,
        game: str,
        *,
        num_actors: int,
        envs_per_actor: int,
        seed: int | None = None,
        opponents: str | Mapping[int, str] = "random",
        autoreset_mode: AutoresetMode | str = AutoresetMode.NEXT_STEP,
        learner_seat: int = 0,
        render_mode: str | None = None,
        num_cpus: float = 1,
        **config: Any,
    ) -> None:
        mode = _autoreset(autoreset_mode)
        opts = dict(opponents=opponents, autoreset_mode=mode, learner_seat=learner_seat, render_mode=render_mode)
        self.actors: list[Any] = _spread(
            _VectorEnvActor, num_actors, num_cpus, game, envs_per_actor, lambda k: {**opts, "seed": None if seed is None else sampler_seeds(seed, k)[0]}, config
        )
        described = _describe(self.actors)
        self.metadata = {**type(self).metadata, "autoreset_mode": mode}
        self.game = game
        self.game_spec: GameSpec = described[0][0]
        self.nodes: list[str] = [d[1] for d in described]
        self.envs_per_actor = envs_per_actor
        self.num_envs = num_actors * envs_per_actor
        self.render_mode = render_mode
        self.single_observation_space = observation_space(self.game_spec)
        self.observation_space = batch_space(self.single_observation_space, self.num_envs)
        self.single_action_space = spaces.Discrete(self.game_spec.actions)
        self.action_space = batch_space(self.single_action_space, self.num_envs)
        self.single_action_mask_space = mask_space(self.game_spec)
        self._mask = np.ones((self.num_envs, self.game_spec.actions), dtype=np.uint8)

    def reset(
        self, *, seed: int | list[int | None] | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Obs, dict[str, Any]]:
        """Resets every env; ``seed`` reseeds actor k's pool with :func:`~botarena.rollout.sampler_seeds` (seed, k)."""
        if isinstance(seed, (list, tuple)):
            seed = seed[0]
        super().reset(seed=seed)
        seeds = [None if seed is None else sampler_seeds(seed, k)[0] for k in range(len(self.actors))]
        parts = ray.get([a.reset.remote(s) for a, s in zip(self.actors, seeds)])
        sizes = [self.envs_per_actor] * len(parts)
        obs, info = _concat([p[0] for p in parts], sizes), _concat([p[1] for p in parts], sizes)
        self._mask = info["action_mask"]
        return obs, info

    def step(self, actions: npt.ArrayLike) -> VectorStep:
        """Steps every env with one action each (shape ``(num_envs,)``)."""
        a = env_actions(actions, self.num_envs)
        n = self.envs_per_actor
        parts = ray.get([actor.step.remote(a[k * n : (k + 1) * n]) for k, actor in enumerate(self.actors)])
        sizes = [n] * len(parts)
        obs, rew, term, trunc, info = (_concat([p[i] for p in parts], sizes) for i in range(5))
        self._mask = info["action_mask"]
        return obs, rew, term, trunc, info

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The legal actions of the last observation, ``(num_envs, actions)`` bool."""
        return np.asarray(self._mask, dtype=bool)

    def render(self) -> tuple[Any, ...] | None:
        """Every env's picture or text (see :meth:`botarena.BotarenaVectorEnv.render`)."""
        if self.render_mode is None:
            return None
        return tuple(x for part in ray.get([a.render.remote() for a in self.actors]) for x in part)

    def close_extras(self, **kwargs: Any) -> None:
        """Closes the pools and ends the actors."""
        actors, self.actors = getattr(self, "actors", []), []
        _end(actors)

    def __repr__(self) -> str:
        return f"RayVectorEnv({self.game!r}, num_envs={self.num_envs}, actors={len(self.actors)})"


def _autoreset(mode: AutoresetMode | str) -> AutoresetMode:
    return autoreset_mode(mode)
