"""Batched rollouts from one pool: :class:`PoolSampler` and :class:`Rollout`.

A :class:`PoolSampler` owns a :class:`~botarena.Pool` and a policy and steps
the pool ``steps`` times per :meth:`PoolSampler.sample`, returning the whole
batch as one :class:`Rollout` of ``(steps, rows, ...)`` arrays. It is the
unit of distributed sampling: :mod:`botarena.ray` runs one per Ray actor,
and the same sampler built in one process with the same ``seed`` and
``index`` gives the same rollouts byte for byte (the pool's episodes are
deterministic from its seed, and the policy draws from a generator seeded
from the same pair)::

    sampler = PoolSampler("battlebots", 64, seed=1, index=0)
    r = sampler.sample(128)        # r.obs["planes"].shape == (128, 128, C, H, W)
    sampler.close()

The model of a rollout (next-step autoreset, as the pool's default): row
``i`` at step ``t`` chose ``actions[t, i]`` from ``obs[k][t, i]`` and
``mask[t, i]``, and got ``rewards[t, i]``; ``ended[t, i]`` is True on the
step that ended its episode (``terminated`` or ``truncated``), and the
following step of that row is its env's reset: its action is ignored, its
reward is 0 and its observation is the new episode's first.
``last_obs``/``last_mask`` are the observation after the last step, for
bootstrapping; the next :meth:`PoolSampler.sample` continues from there.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping, Sequence

import numpy as np
import numpy.typing as npt

from botarena._closing import Closing
from botarena.backend import make_pool
from botarena.pool import Obs, PoolStats
from botarena.spec import GameSpec

__all__ = ["PoolSampler", "Rollout", "Policy", "random_policy", "sampler_seeds"]

#: A policy: the observation rows, the action masks ``(rows, actions)`` uint8
#: and a generator seeded for this sampler → one action per row. It runs
#: where the sampler runs (a Ray actor); it must be picklable to get there.
Policy = Callable[[Obs, npt.NDArray[np.uint8], np.random.Generator], npt.ArrayLike]


def random_policy(obs: Obs, mask: npt.NDArray[np.uint8], rng: np.random.Generator) -> npt.NDArray[np.int32]:
    """A uniformly random legal action per row (action 0 where none is legal)."""
    legal = np.asarray(mask, dtype=bool)
    counts = legal.sum(axis=1)
    k = np.floor(rng.random(len(legal)) * np.maximum(counts, 1)).astype(np.int64)
    # The k-th legal action: the first index where the running count passes k.
    pick = (np.cumsum(legal, axis=1) > k[:, None]).argmax(axis=1)
    return np.where(counts > 0, pick, 0).astype(np.int32)


def sampler_seeds(seed: int, index: int) -> tuple[int, int]:
    """The pool seed and the policy generator's seed of sampler ``index`` of a run seeded ``seed``.

    Both come from numpy's ``SeedSequence([seed, index])``, so samplers of
    one run draw independent streams and the pair alone fixes a sampler's
    rollouts, wherever it runs.
    """
    if seed < 0 or index < 0:
        raise ValueError(f"seed and index must be non-negative, got {seed} and {index}")
    pool_seed, rng_seed = np.random.SeedSequence([seed, index]).generate_state(2, np.uint64)
    return int(pool_seed), int(rng_seed)


@dataclass
class Rollout:
    """``steps`` steps of every row of one pool (see the module's documentation for the model).

    Arrays are ``(steps, rows, ...)``: ``obs`` (one per observation tensor),
    ``mask`` uint8 ``(steps, rows, actions)``, ``actions`` int32, ``rewards``
    float32, ``terminated``/``truncated``/``ended`` bool. ``last_obs`` and
    ``last_mask`` are ``(rows, ...)``. ``seconds`` is the time the sampler
    spent stepping (policy included); ``index`` and ``node`` say which
    sampler made it and where. All arrays are the rollout's own (writable).
    """

    obs: dict[str, npt.NDArray[Any]]
    mask: npt.NDArray[np.uint8]
    actions: npt.NDArray[np.int32]
    rewards: npt.NDArray[np.float32]
    terminated: npt.NDArray[np.bool_]
    truncated: npt.NDArray[np.bool_]
    ended: npt.NDArray[np.bool_]
    last_obs: dict[str, npt.NDArray[Any]]
    last_mask: npt.NDArray[np.uint8]
    seconds: float = 0.0
    index: int = 0
    node: str = ""
    info: dict[str, Any] = field(default_factory=dict)

    @property
    def steps(self) -> int:
        """Steps per row."""
        return int(self.actions.shape[0])

    @property
    def rows(self) -> int:
        """Rows (envs × learner seats)."""
        return int(self.actions.shape[1])

    @property
    def agent_steps(self) -> int:
        """steps × rows: the agent-steps this rollout holds."""
        return self.steps * self.rows

    @property
    def episodes(self) -> int:
        """Row-episodes that ended in this rollout."""
        return int(self.ended.sum())

    @staticmethod
    def concat(rollouts: Sequence[Rollout]) -> Rollout:
        """The rollouts side by side: rows of the first, then the second's, ... (same steps each).

        ``seconds`` is the slowest one's (they ran in parallel); ``index``
        the first's; ``node`` the distinct nodes, comma-separated.
        """
        if not rollouts:
            raise ValueError("Rollout.concat: no rollouts")
        steps = {r.steps for r in rollouts}
        if len(steps) != 1:
            raise ValueError(f"Rollout.concat: rollouts of different lengths {sorted(steps)}")

        def cat(xs: Sequence[npt.NDArray[Any]], axis: int) -> npt.NDArray[Any]:
            return np.concatenate(xs, axis=axis)

        first = rollouts[0]
        nodes = list(dict.fromkeys(r.node for r in rollouts if r.node))
        return Rollout(
            obs={k: cat([r.obs[k] for r in rollouts], 1) for k in first.obs},
            mask=cat([r.mask for r in rollouts], 1),
            actions=cat([r.actions for r in rollouts], 1),
            rewards=cat([r.rewards for r in rollouts], 1),
            terminated=cat([r.terminated for r in rollouts], 1),
            truncated=cat([r.truncated for r in rollouts], 1),
            ended=cat([r.ended for r in rollouts], 1),
            last_obs={k: cat([r.last_obs[k] for r in rollouts], 0) for k in first.last_obs},
            last_mask=cat([r.last_mask for r in rollouts], 0),
            seconds=max(r.seconds for r in rollouts),
            index=first.index,
            node=",".join(nodes),
        )

    def equal(self, other: Rollout) -> bool:
        """Whether both hold the same arrays (byte for byte; timing and placement aside)."""
        if self.obs.keys() != other.obs.keys():
            return False
        pairs = [(self.obs[k], other.obs[k]) for k in self.obs] + [(self.last_obs[k], other.last_obs[k]) for k in self.obs]
        pairs += [
            (self.mask, other.mask),
            (self.actions, other.actions),
            (self.rewards, other.rewards),
            (self.terminated, other.terminated),
            (self.truncated, other.truncated),
            (self.ended, other.ended),
            (self.last_mask, other.last_mask),
        ]
        return all(a.shape == b.shape and a.dtype == b.dtype and a.tobytes() == b.tobytes() for a, b in pairs)


class PoolSampler(Closing):
    """A :class:`~botarena.Pool` and a policy making :class:`Rollout` batches.

    Args:
        game: registry name (``"battlebots"``, ``"bomberman/2p"``, ...).
        num_envs: envs in the pool.
        seed: the run's seed; with ``index`` it fixes the pool seed and the
            policy's generator (:func:`sampler_seeds`).
        index: this sampler's index in its run (0 for a lone one).
        learner_seats, opponents, address, workers: as for
            :class:`~botarena.Pool` (default: every seat a learner, a local
            ``botarena serve`` started for the pool).
        backend: passed to :class:`~botarena.Pool` as ``backend=`` when
            given (a pool backend other than the default remote one, where
            the package has one); None leaves the pool's default.
        policy: a :data:`Policy` (default :func:`random_policy`).
        **config: the game's config fields.

    Not safe for concurrent use. Close it (or use it as a context manager)
    to close the pool and the server it started.
    """

    def __init__(
        self,
        game: str,
        num_envs: int,
        *,
        seed: int = 0,
        index: int = 0,
        learner_seats: Sequence[int] | None = None,
        opponents: str | Mapping[int, str] | None = None,
        address: str | None = None,
        workers: int = 0,
        backend: str | None = None,
        policy: Policy | None = None,
        **config: Any,
    ) -> None:
        pool_seed, rng_seed = sampler_seeds(seed, index)
        extra: dict[str, Any] = {} if backend is None else {"backend": backend}
        self.pool = make_pool(
            game,
            num_envs,
            learner_seats=learner_seats,
            opponents=opponents,
            seed=pool_seed,
            address=address,
            workers=workers,
            **extra,
            **config,
        )
        self.index = index
        self.rng = np.random.default_rng(rng_seed)
        self.policy: Policy = policy or random_policy
        self.node = ""
        self._obs: Obs | None = None
        self._mask: npt.NDArray[np.uint8] | None = None

    @property
    def spec(self) -> GameSpec:
        """The game's spec."""
        return self.pool.spec

    @property
    def rows(self) -> int:
        """Rows per step: envs × learner seats."""
        return self.pool.rows

    def set_policy(self, policy: Policy) -> None:
        """Replaces the policy from the next step on (the generator keeps its stream)."""
        self.policy = policy

    def sample(self, steps: int) -> Rollout:
        """Steps the pool ``steps`` times with the policy; returns the batch (continuing the last one)."""
        if steps < 1:
            raise ValueError(f"steps must be at least 1, got {steps}")
        start = time.perf_counter()
        if self._obs is None:
            obs, info = self.pool.reset()
            self._obs, self._mask = obs, info["mask"]
        assert self._mask is not None
        rows, spec = self.rows, self.spec
        out_obs = {t.name: np.empty((steps, rows, *t.shape), dtype=t.dtype) for t in spec.observations}
        mask = np.empty((steps, rows, spec.actions), dtype=np.uint8)
        actions = np.empty((steps, rows), dtype=np.int32)
        rewards = np.empty((steps, rows), dtype=np.float32)
        terminated = np.empty((steps, rows), dtype=bool)
        truncated = np.empty((steps, rows), dtype=bool)
        ended = np.empty((steps, rows), dtype=bool)
        obs, m = self._obs, self._mask
        for t in range(steps):
            for k, buf in out_obs.items():
                buf[t] = obs[k]
            mask[t] = m
            a = np.asarray(self.policy(obs, m, self.rng)).reshape(rows)
            actions[t] = a
            obs, rewards[t], terminated[t], truncated[t], info = self.pool.step(actions[t])
            ended[t] = info["ended"]
            m = info["mask"]
        self._obs, self._mask = obs, m
        return Rollout(
            obs=out_obs,
            mask=mask,
            actions=actions,
            rewards=rewards,
            terminated=terminated,
            truncated=truncated,
            ended=ended,
            last_obs={k: np.array(v) for k, v in obs.items()},
            last_mask=np.array(m, dtype=np.uint8),
            seconds=time.perf_counter() - start,
            index=self.index,
            node=self.node,
        )

    def stats(self, *, reset: bool = False) -> PoolStats:
        """The pool's episode statistics (see :meth:`botarena.Pool.stats`)."""
        return self.pool.stats(reset=reset)

    def close(self) -> None:
        """Closes the pool (and the server it started). Safe to call twice."""
        self.pool.close()

    def __repr__(self) -> str:
        return f"PoolSampler({self.pool.game!r}, num_envs={self.pool.num_envs}, index={self.index})"
