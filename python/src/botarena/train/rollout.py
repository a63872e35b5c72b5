"""Rollouts: the learner's envs (:class:`SeatSplitEnv`), the rollout buffer and its advantages."""

from __future__ import annotations

import math
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Sequence

import numpy as np
import numpy.typing as npt
import torch

from botarena.policy import PolicyNet
from botarena.pool import SeatStats
from botarena.spec import GameSpec
from botarena.vector import BotarenaVectorEnv

__all__ = ["MixEnv", "Rollout", "SeatSplitEnv", "scales"]


class Rollout:
    """Rollout storage on the CPU, written in place from the env's numpy views.

    ``obs`` holds one array ``[T, N, *shape]`` per observation tensor of the game's spec (in the
    spec's order and dtypes: the observation contract, docs/policy-format.md). ``next_*`` hold the
    env's current observation, mask and episode-end flags: the input of the step after the last
    one stored (set by :meth:`start`, advanced by :meth:`collect`).
    """

    def __init__(self, T: int, N: int, observations: Sequence[tuple[str, tuple[int, ...], Any]], actions: int) -> None:
        self.names = [name for name, _, _ in observations]
        self.obs = {name: np.zeros((T, N, *shape), dtype=dtype) for name, shape, dtype in observations}
        self.masks = np.zeros((T, N, actions), dtype=np.uint8)
        self.actions = np.zeros((T, N), dtype=np.int64)
        self.logprobs = np.zeros((T, N), dtype=np.float32)
        self.values = np.zeros((T, N), dtype=np.float32)
        self.rewards = np.zeros((T, N), dtype=np.float32)
        self.dones = np.zeros((T, N), dtype=np.float32)  # the episode ended in this step
        self.valid = np.zeros((T, N), dtype=np.float32)  # 0: the step that resets the env (next-step autoreset)
        self.next_obs = {name: np.zeros((N, *shape), dtype=dtype) for name, shape, dtype in observations}
        self.next_mask = np.zeros((N, actions), dtype=np.uint8)
        self.next_done = np.zeros(N, dtype=np.float32)

    @classmethod
    def for_spec(cls, T: int, N: int, spec: GameSpec) -> Rollout:
        """A rollout of T steps of N envs with the observation tensors ``spec`` declares."""
        return cls(T, N, [(t.name, tuple(t.shape), t.dtype) for t in spec.observations], spec.actions)

    def start(self, obs: dict[str, Any], info: dict[str, Any]) -> None:
        """Takes the env's first observation (from its reset) as the next step's input."""
        for name in self.names:
            np.copyto(self.next_obs[name], obs[name])
        self.next_mask = np.array(info["action_mask"])
        self.next_done = np.zeros(self.next_done.shape[0], dtype=np.float32)

    def continue_from(self, other: Rollout) -> None:
        """Takes ``other``'s next-step input (its env's current observation, mask and episode
        ends), so that this buffer's :meth:`collect` continues the episodes ``other`` collected."""
        for name in self.names:
            np.copyto(self.next_obs[name], other.next_obs[name])
        np.copyto(self.next_mask, other.next_mask)
        np.copyto(self.next_done, other.next_done)

    def _obs_to(self, device: torch.device) -> list[torch.Tensor]:
        return [torch.from_numpy(self.next_obs[name]).to(device) for name in self.names]

    def collect(self, env: SeatSplitEnv | MixEnv, net: PolicyNet, device: torch.device, deadline: float = math.inf) -> int:
        """Plays T steps of every env, sampling the policy's (masked) actions, and stores them.

        The forward passes run under ``torch.inference_mode`` (no autograd records). Returns the
        number of steps stored: T, or fewer when ``time.monotonic()`` reaches ``deadline`` first
        (the run's time budget; the partial rollout is then not learned from).
        """
        net.eval()
        T = self.actions.shape[0]
        for t in range(T):
            if time.monotonic() >= deadline:
                return t
            for name in self.names:
                self.obs[name][t] = self.next_obs[name]
            self.masks[t] = self.next_mask
            self.valid[t] = 1.0 - self.next_done  # after an episode end the env resets and ignores the action
            with torch.inference_mode():
                logits, value = net(*self._obs_to(device))
                logp = net.log_probs(logits, torch.from_numpy(self.next_mask).to(device))
                action = torch.multinomial(logp.exp(), 1).squeeze(1)
                self.logprobs[t] = logp.gather(1, action.unsqueeze(1)).squeeze(1).cpu().numpy()
                self.values[t] = value.cpu().numpy()
            a = action.cpu().numpy()
            self.actions[t] = a
            obs, reward, term, trunc, info = env.step(a)
            self.rewards[t] = reward
            self.next_done = (term | trunc).astype(np.float32)
            self.dones[t] = self.next_done
            for name in self.names:
                np.copyto(self.next_obs[name], obs[name])
            np.copyto(self.next_mask, info["action_mask"])
        return T

    def advantages(
        self, net: PolicyNet, device: torch.device, gamma: float, gae_lambda: float
    ) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]]:
        """GAE advantages and returns, bootstrapped from the value of the next step's input."""
        # dones[t] = the episode ended in step t: no bootstrap across it.
        with torch.inference_mode():
            _, nv = net(*self._obs_to(device))
            next_value = nv.cpu().numpy()
        T, N = self.rewards.shape
        adv = np.zeros((T, N), dtype=np.float32)
        last = np.zeros(N, dtype=np.float32)
        for t in reversed(range(T)):
            nxt = next_value if t == T - 1 else self.values[t + 1]
            nonterminal = 1.0 - self.dones[t]
            delta = self.rewards[t] + gamma * nxt * nonterminal - self.values[t]
            last = delta + gamma * gae_lambda * nonterminal * last
            adv[t] = last
        ret = adv + self.values
        return adv, ret


def scales(env: BotarenaVectorEnv | SeatSplitEnv | MixEnv, steps: int, rng: np.random.Generator) -> dict[str, list[float]]:
    """Per-channel input scales of every observation tensor, 1/max(1, largest magnitude seen in
    the channel: the entry of the tensor's first dimension), from a short random warm-up."""

    def peak(obs: dict[str, Any]) -> dict[str, npt.NDArray[np.float64]]:
        out = {}
        for name, a in obs.items():
            x = np.abs(np.asarray(a, dtype=np.float64))
            out[name] = x.reshape(x.shape[0], x.shape[1], -1).max(axis=(0, 2)) if x.ndim > 1 else x.max(axis=0, keepdims=True)
        return out

    obs, info = env.reset()
    top = peak(obs)
    for _ in range(steps):
        mask = info["action_mask"].astype(np.float64) + 1e-9
        probs = mask / mask.sum(axis=1, keepdims=True)
        acts = np.array([rng.choice(len(p), p=p) for p in probs])
        obs, _, _, _, info = env.step(acts)
        for name, v in peak(obs).items():
            top[name] = np.maximum(top[name], v)
    return {name: [1.0 / max(1.0, float(v)) for v in vals] for name, vals in top.items()}


class SeatSplitEnv:
    """``num_envs`` games split evenly over the learner's seats, looking like one vector env.

    Env chunk k has the learner in ``seats[k]`` (one :class:`BotarenaVectorEnv`
    per seat, all on one server), so a bot trained on it plays from any seat:
    trained only in seat 0, a bot learns its starting corner and loses from the
    other one. Rows are in chunk order; observations and masks are copies
    (concatenations) of the chunks' views. ``backend`` is :class:`botarena.Pool`'s: "remote" (the
    server at ``address``) or "native" (the envs in this process, through the native library;
    ``address`` is then unused).
    """

    def __init__(
        self,
        game: str,
        num_envs: int,
        seats: Sequence[int],
        *,
        opponents: str,
        seed: int,
        address: str | None,
        config: dict[str, Any] | None = None,
        backend: str = "remote",
    ) -> None:
        if not seats:
            raise ValueError("SeatSplitEnv: no learner seats")
        if num_envs < len(seats):
            raise ValueError(f"SeatSplitEnv: {num_envs} envs cannot cover {len(seats)} learner seats")
        counts = [num_envs // len(seats) + (1 if k < num_envs % len(seats) else 0) for k in range(len(seats))]
        self.seats = list(seats)
        self.parts: list[BotarenaVectorEnv] = []
        try:
            for k, (seat, n) in enumerate(zip(seats, counts)):
                self.parts.append(
                    BotarenaVectorEnv(
                        game,
                        n,
                        opponents=opponents,
                        seed=seed + 7919 * k,
                        address=None if backend == "native" else address,
                        learner_seat=seat,
                        backend=backend,
                        **(config or {}),
                    )
                )
        except BaseException:
            self.close()
            raise
        self.counts = counts
        self.num_envs = num_envs
        self.game_spec = self.parts[0].game_spec
        self.seat_of_row = np.repeat(np.array(self.seats), counts)
        self._threads = ThreadPoolExecutor(max_workers=len(self.parts)) if len(self.parts) > 1 else None

    def _join(self, results: Sequence[tuple[Any, ...]], obs_at: int, info_at: int) -> tuple[dict[str, Any], dict[str, Any]]:
        obs = {k: np.concatenate([r[obs_at][k] for r in results]) for k in results[0][obs_at]}
        info = {"action_mask": np.concatenate([r[info_at]["action_mask"] for r in results])}
        return obs, info

    def reset(self, *, seed: int | None = None) -> tuple[dict[str, Any], dict[str, Any]]:
        results = [p.reset(seed=None if seed is None else seed + 7919 * k) for k, p in enumerate(self.parts)]
        return self._join(results, 0, 1)

    def step(self, actions: npt.NDArray[Any]) -> tuple[dict[str, Any], Any, Any, Any, dict[str, Any]]:
        bounds = np.cumsum([0, *self.counts])
        chunks = [np.asarray(actions[lo:hi]) for lo, hi in zip(bounds[:-1], bounds[1:])]
        if self._threads is None:
            results = [p.step(a) for p, a in zip(self.parts, chunks)]
        else:
            results = list(self._threads.map(lambda pa: pa[0].step(pa[1]), zip(self.parts, chunks)))
        obs, info = self._join(results, 0, 4)
        reward = np.concatenate([r[1] for r in results])
        term = np.concatenate([r[2] for r in results])
        trunc = np.concatenate([r[3] for r in results])
        return obs, reward, term, trunc, info

    def stats(self, *, reset: bool = False) -> tuple[SeatStats, tuple[Any, ...]]:
        """The learner's completed episodes over every chunk, and the per-opponent stats of every chunk."""
        per = [p.pool.stats(reset=reset) for p in self.parts]
        return _sum_stats([ps.seats[0] for ps in per]), tuple(o for ps in per for o in ps.opponents)

    def set_opponents(self, mix: Any) -> None:
        """Sets every chunk's opponent seats to the mixture (see :meth:`botarena.Pool.set_opponents`)."""
        for p in self.parts:
            p.pool.set_opponents(mix)

    def close(self) -> None:
        threads = getattr(self, "_threads", None)
        if threads is not None:
            threads.shutdown()
            self._threads = None
        for p in self.parts:
            p.close()



def _sum_stats(stats: Sequence[SeatStats]) -> SeatStats:
    """The learner's results summed over chunks or groups (seat -1: all of them)."""
    return SeatStats(
        seat=-1,
        episodes=sum(x.episodes for x in stats),
        steps=sum(x.steps for x in stats),
        return_sum=sum(x.return_sum for x in stats),
        wins=sum(x.wins for x in stats),
        draws=sum(x.draws for x in stats),
        losses=sum(x.losses for x in stats),
    )


def observation_contract(spec: GameSpec) -> tuple[list[tuple[str, tuple[int, ...], str]], int, Any]:
    """What a policy sees and does in a game: each observation tensor's name, shape and dtype, the
    action count, and the action factors (None for a flat action space)."""
    return [(t.name, tuple(t.shape), str(np.dtype(t.dtype))) for t in spec.observations], spec.actions, spec.action_factors


class MixEnv:
    """Several :class:`SeatSplitEnv` groups (``--mix``: games or variants, each with its own config
    and opponents, on pools of their own) looking like one vector env: rows in group order.

    Every group must show one observation contract (the same tensors, shapes and dtypes, and the
    same action count: :func:`observation_contract`), so that one network plays them all; the
    groups may differ in seats. Raises ValueError naming the first group that differs.
    ``group_stats`` holds each group's learner results as of the last :meth:`stats` call.
    """

    def __init__(self, names: Sequence[str], parts: Sequence[SeatSplitEnv]) -> None:
        if not parts or len(names) != len(parts):
            raise ValueError("MixEnv: want one name per group, at least one group")
        self.names = list(names)
        self.parts = list(parts)
        want = observation_contract(parts[0].game_spec)
        for name, p in zip(self.names[1:], self.parts[1:]):
            got = observation_contract(p.game_spec)
            if got != want:
                raise ValueError(
                    f"mix: group {name!r} ({p.game_spec.game}) sees {got[0]} and has {got[1]} actions (factors {got[2]}), group "
                    f"{self.names[0]!r} ({parts[0].game_spec.game}) {want[0]} and {want[1]} (factors {want[2]}): one policy needs one "
                    "observation spec (the same tensors, shapes and dtypes, and the same actions)"
                )
        self.counts = [p.num_envs for p in self.parts]
        self.num_envs = sum(self.counts)
        self.game_spec = self.parts[0].game_spec
        self.seat_of_row = np.concatenate([p.seat_of_row for p in self.parts])
        self.group_of_row = np.repeat(np.arange(len(self.parts)), self.counts)
        self.group_stats: list[SeatStats] = [_sum_stats(()) for _ in self.parts]

    def reset(self, *, seed: int | None = None) -> tuple[dict[str, Any], dict[str, Any]]:
        results = [p.reset(seed=None if seed is None else seed + 104729 * k) for k, p in enumerate(self.parts)]
        obs = {k: np.concatenate([r[0][k] for r in results]) for k in results[0][0]}
        return obs, {"action_mask": np.concatenate([r[1]["action_mask"] for r in results])}

    def step(self, actions: npt.NDArray[Any]) -> tuple[dict[str, Any], Any, Any, Any, dict[str, Any]]:
        bounds = np.cumsum([0, *self.counts])
        results = [p.step(np.asarray(actions[lo:hi])) for p, lo, hi in zip(self.parts, bounds[:-1], bounds[1:])]
        obs = {k: np.concatenate([r[0][k] for r in results]) for k in results[0][0]}
        info = {"action_mask": np.concatenate([r[4]["action_mask"] for r in results])}
        return obs, np.concatenate([r[1] for r in results]), np.concatenate([r[2] for r in results]), np.concatenate([r[3] for r in results]), info

    def stats(self, *, reset: bool = False) -> tuple[SeatStats, tuple[Any, ...]]:
        """The learner's completed episodes over every group (each group's in ``group_stats``), and
        the per-opponent stats of every group."""
        per = [p.stats(reset=reset) for p in self.parts]
        self.group_stats = [t for t, _ in per]
        return _sum_stats(self.group_stats), tuple(o for _, opps in per for o in opps)

    def set_opponents(self, mix: Any) -> None:
        """Sets every group's opponent seats to the mixture."""
        for p in self.parts:
            p.set_opponents(mix)

    def close(self) -> None:
        for p in self.parts:
            p.close()
