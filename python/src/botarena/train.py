"""PPO for botarena games: train, evaluate, export, watch.

A CleanRL-style PPO (one file's worth of logic, clipped objective, GAE,
advantage normalisation, invalid actions masked out of the policy) over
botarena vector envs (``make_vec``'s :class:`BotarenaVectorEnv`, one per
learner seat, :class:`SeatSplitEnv`: the learner trains in every seat, so it
plays from any), for any of the five games. The network is :class:`botarena.policy.PolicyNet`: convolutions over
the observation planes (3-D for Battle³) plus the scalars, so the trained
policy is exported as one file that ``botarena play --agents policy:PATH``
plays in Go.

Run ``python -m botarena.train --help`` (or python/examples/ppo.py, or
``make train GAME=battlebots MINUTES=10``). A run directory gets:

* ``policy.safetensors`` — the final policy (docs/policy-format.md);
* ``checkpoints/`` — a policy file and a resumable ``.pt`` every
  ``--checkpoint-every`` updates;
* ``curve.csv`` and ``curve.png`` — steps/s, episode return and win/draw/loss
  rates against the opponent, per update;
* ``eval.json`` — the evaluation over ``--eval-games`` games.

With ``--self-play`` the run also keeps a league (``OUT/league``, see
:class:`botarena.League`) of the game's reference bots (SELF_PLAY_BOTS):
every ``--snapshot-every`` updates the current policy is saved as a
snapshot, added to the league, rated in ``--league-games`` league games
(PFSP against the newest snapshot, or round robin), the leaderboard is
logged, and the training pool's opponents become the league's members,
snapshots and bots, weighted by PFSP from the newest snapshot's results
((1 − p)², so opponents it beats are rarely drawn). The final table goes to
``league.txt`` and ``ratings.png``.
"""

from __future__ import annotations

import argparse
import csv
import dataclasses
import datetime
import json
import math
import os
import pathlib
import random
import subprocess
import sys
import time
from typing import Any, Iterator, Sequence

import numpy as np
import numpy.typing as npt
import torch
from torch import nn

from botarena.league import League, pfsp_weight
from botarena.policy import PolicyNet, default_architecture, load_policy, save_policy
from botarena.client import Client
from botarena.pool import Opponent, SeatStats
from botarena.server import Server, find_binary
from botarena.vector import BotarenaVectorEnv

__all__ = ["REFERENCE_BOTS", "SELF_PLAY_BOTS", "TrainConfig", "Trainer", "evaluate", "main", "train"]

#: The opponent each game's training defaults to: the competition's own reference or example bot.
REFERENCE_BOTS: dict[str, str] = {
    "bomberman": "reference",
    "battleships": "reference",
    "battlecube": "teebot",
    "battlebots": "huggy",
    "portalbomber": "practice",
}

#: The fixed members of a --self-play league per game: the reference bot, a weaker scripted bot and
#: one that does nothing much, so that snapshots have ratings to climb past.
SELF_PLAY_BOTS: dict[str, tuple[str, ...]] = {
    "bomberman": ("reference", "random"),
    "battleships": ("reference", "random"),
    "battlecube": ("teebot", "dumb", "random"),
    "battlebots": ("huggy", "sniper", "nop"),
    "portalbomber": ("practice", "greedy", "random"),
}


#: Per-game defaults, used where the command line (or TrainConfig) leaves a field unset: network
#: sizes that keep a CPU update short, and reward shaping from the game's own config fields
#: (docs: `botarena rules GAME`). Evaluation always plays the unshaped game.
GAME_DEFAULTS: dict[str, dict[str, Any]] = {
    "battlebots": {"channels": (32, 32), "strides": (1, 1), "hidden": 256, "config": {}},
    "bomberman": {"channels": (16, 32), "strides": (1, 2), "hidden": 256, "config": {"points_reward": 0.002}},
    "battleships": {"channels": (32, 32), "strides": (1, 1), "hidden": 256, "config": {}},
    "battlecube": {"channels": (16, 32), "strides": (1, 2), "hidden": 256, "config": {}},
    "portalbomber": {"channels": (32, 32), "strides": (1, 1), "hidden": 256, "config": {}},
}


def _base(game: str) -> str:
    return game.split("/", 1)[0]


@dataclasses.dataclass
class TrainConfig:
    """Everything a run depends on; the defaults train a BattleBots bot on a laptop CPU."""

    game: str = "battlebots"
    opponent: str = ""  # "" = the game's reference bot (REFERENCE_BOTS)
    config: dict[str, Any] = dataclasses.field(default_factory=dict)  # game config fields
    minutes: float = 10.0  # wall-clock budget for training (0 = no limit)
    total_steps: int = 0  # learner steps budget (0 = no limit)
    num_envs: int = 64
    num_steps: int = 128  # rollout length per env and update
    lr: float = 2.5e-4
    anneal_lr: bool = True
    gamma: float = 0.99
    gae_lambda: float = 0.95
    update_epochs: int = 4
    minibatches: int = 4
    clip: float = 0.2
    ent_coef: float = 0.01
    vf_coef: float = 0.5
    max_grad_norm: float = 0.5
    channels: tuple[int, ...] = ()  # conv channels (empty = GAME_DEFAULTS)
    strides: tuple[int, ...] = ()  # conv strides (empty = GAME_DEFAULTS, or 1s)
    hidden: int = 0  # trunk width (0 = GAME_DEFAULTS)
    seed: int = 1
    device: str = "auto"
    threads: int = 0  # torch CPU threads (0 = torch's default)
    out: str = "runs/botarena"
    checkpoint_every: int = 25  # updates (0 = only the final policy)
    eval_games: int = 200
    resume: str = ""  # a checkpoints/*.pt to continue from
    address: str = ""  # a running botarena serve ("" = start one)
    quiet: bool = False
    learner_seats: tuple[int, ...] = ()  # seats the learner plays, envs split evenly (empty = every seat)
    self_play: bool = False  # train against a league of snapshots and the reference bots
    snapshot_every: int = 10  # updates between league snapshots (self-play)
    league: str = ""  # league directory ("" = OUT/league)
    league_games: int = 40  # league games after each snapshot
    league_match: str = "pfsp"  # "pfsp" (against the newest snapshot) or "round-robin"
    league_bots: tuple[str, ...] = ()  # fixed league members (empty = SELF_PLAY_BOTS)
    pfsp_k: int = 0  # opponents drawn into the training mixture (0 = every league member)

    def resolved_opponent(self) -> str:
        return self.opponent or REFERENCE_BOTS.get(_base(self.game), "random")

    def resolved(self) -> TrainConfig:
        """A copy with the unset fields filled from GAME_DEFAULTS and REFERENCE_BOTS."""
        d = GAME_DEFAULTS.get(_base(self.game), GAME_DEFAULTS["battlebots"])
        channels = self.channels or tuple(d["channels"])
        strides = self.strides or (tuple(d["strides"]) if not self.channels else (1,) * len(channels))
        return dataclasses.replace(
            self,
            opponent=self.resolved_opponent(),
            channels=channels,
            strides=strides,
            hidden=self.hidden or int(d["hidden"]),
            config={**d["config"], **self.config},
            league_bots=self.league_bots or SELF_PLAY_BOTS.get(_base(self.game), (self.resolved_opponent(),)),
            league=self.league or os.path.join(self.out, "league"),
        )

    def unshaped_config(self) -> dict[str, Any]:
        """The game config without reward shaping, for evaluation and league games."""
        return {k: v for k, v in self.config.items() if not k.endswith("_reward")}


def _device(name: str) -> torch.device:
    if name == "auto":
        return torch.device("cuda" if torch.cuda.is_available() else "cpu")
    return torch.device(name)


def _fmt_secs(s: float) -> str:
    s = int(s)
    return f"{s // 60}:{s % 60:02d}"


class _Rollout:
    """Rollout storage on the CPU, written in place from the env's numpy views."""

    def __init__(self, T: int, N: int, planes: tuple[int, ...], scalars: tuple[int, ...], actions: int) -> None:
        self.planes = np.zeros((T, N, *planes), dtype=np.uint8)
        self.scalars = np.zeros((T, N, *scalars), dtype=np.float32)
        self.masks = np.zeros((T, N, actions), dtype=np.uint8)
        self.actions = np.zeros((T, N), dtype=np.int64)
        self.logprobs = np.zeros((T, N), dtype=np.float32)
        self.values = np.zeros((T, N), dtype=np.float32)
        self.rewards = np.zeros((T, N), dtype=np.float32)
        self.dones = np.zeros((T, N), dtype=np.float32)  # the episode ended in this step
        self.valid = np.zeros((T, N), dtype=np.float32)  # 0: the step that resets the env (next-step autoreset)


def _scales(env: BotarenaVectorEnv | SeatSplitEnv, steps: int, rng: np.random.Generator) -> tuple[list[float], list[float]]:
    """Per-channel input scales, 1/max(1, largest value seen), from a short random warm-up."""
    obs, info = env.reset()
    pmax = obs["planes"].reshape(obs["planes"].shape[0], obs["planes"].shape[1], -1).max(axis=(0, 2)).astype(np.float64)
    smax = np.abs(obs["scalars"]).max(axis=0).astype(np.float64)
    for _ in range(steps):
        mask = info["action_mask"].astype(np.float64) + 1e-9
        probs = mask / mask.sum(axis=1, keepdims=True)
        acts = np.array([rng.choice(len(p), p=p) for p in probs])
        obs, _, _, _, info = env.step(acts)
        p = obs["planes"]
        pmax = np.maximum(pmax, p.reshape(p.shape[0], p.shape[1], -1).max(axis=(0, 2)))
        smax = np.maximum(smax, np.abs(obs["scalars"]).max(axis=0))
    return [1.0 / max(1.0, float(v)) for v in pmax], [1.0 / max(1.0, float(v)) for v in smax]


class SeatSplitEnv:
    """``num_envs`` games split evenly over the learner's seats, looking like one vector env.

    Env chunk k has the learner in ``seats[k]`` (one :class:`BotarenaVectorEnv`
    per seat, all on one server), so a bot trained on it plays from any seat:
    trained only in seat 0, a bot learns its starting corner and loses from the
    other one. Rows are in chunk order; observations and masks are copies
    (concatenations) of the chunks' views.
    """

    def __init__(
        self,
        game: str,
        num_envs: int,
        seats: Sequence[int],
        *,
        opponents: str,
        seed: int,
        address: str,
        config: dict[str, Any] | None = None,
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
                    BotarenaVectorEnv(game, n, opponents=opponents, seed=seed + 7919 * k, address=address, learner_seat=seat, **(config or {}))
                )
        except BaseException:
            self.close()
            raise
        self.counts = counts
        self.num_envs = num_envs
        self.game_spec = self.parts[0].game_spec
        self.seat_of_row = np.repeat(np.array(self.seats), counts)

    def _join(self, results: Sequence[tuple[Any, ...]], obs_at: int, info_at: int) -> tuple[dict[str, Any], dict[str, Any]]:
        obs = {k: np.concatenate([r[obs_at][k] for r in results]) for k in results[0][obs_at]}
        info = {"action_mask": np.concatenate([r[info_at]["action_mask"] for r in results])}
        return obs, info

    def reset(self, *, seed: int | None = None) -> tuple[dict[str, Any], dict[str, Any]]:
        results = [p.reset(seed=None if seed is None else seed + 7919 * k) for k, p in enumerate(self.parts)]
        return self._join(results, 0, 1)

    def step(self, actions: npt.NDArray[Any]) -> tuple[dict[str, Any], Any, Any, Any, dict[str, Any]]:
        results = []
        lo = 0
        for p, n in zip(self.parts, self.counts):
            results.append(p.step(np.asarray(actions[lo : lo + n])))
            lo += n
        obs, info = self._join(results, 0, 4)
        reward = np.concatenate([r[1] for r in results])
        term = np.concatenate([r[2] for r in results])
        trunc = np.concatenate([r[3] for r in results])
        return obs, reward, term, trunc, info

    def stats(self, *, reset: bool = False) -> tuple[SeatStats, tuple[Any, ...]]:
        """The learner's completed episodes over every chunk, and the per-opponent stats of every chunk."""
        per = [p.pool.stats(reset=reset) for p in self.parts]
        firsts = [ps.seats[0] for ps in per]
        total = SeatStats(
            seat=-1,
            episodes=sum(x.episodes for x in firsts),
            steps=sum(x.steps for x in firsts),
            return_sum=sum(x.return_sum for x in firsts),
            wins=sum(x.wins for x in firsts),
            draws=sum(x.draws for x in firsts),
            losses=sum(x.losses for x in firsts),
        )
        return total, tuple(o for ps in per for o in ps.opponents)

    def set_opponents(self, mix: Any) -> None:
        """Sets every chunk's opponent seats to the mixture (see :meth:`botarena.Pool.set_opponents`)."""
        for p in self.parts:
            p.pool.set_opponents(mix)

    def close(self) -> None:
        for p in self.parts:
            p.close()


class Trainer:
    """One PPO run: :meth:`run` trains until the budget is spent and returns the final policy path."""

    def __init__(self, cfg: TrainConfig) -> None:
        cfg = cfg.resolved()
        self.cfg = cfg
        self.out = pathlib.Path(cfg.out)
        (self.out / "checkpoints").mkdir(parents=True, exist_ok=True)
        self.device = _device(cfg.device)
        if cfg.threads > 0:
            torch.set_num_threads(cfg.threads)
        random.seed(cfg.seed)
        np.random.seed(cfg.seed)
        torch.manual_seed(cfg.seed)
        self.server: Server | None = None
        if cfg.address:
            self.address = cfg.address
        else:
            # The trainer's own loopback server may read policy files (its
            # snapshots, --opponent policy:PATH) wherever they are.
            self.server = Server(args=["--bots-dir", pathlib.Path.cwd().anchor or "/"]).start()
            self.address = self.server.address
        self.opponent = cfg.resolved_opponent()
        seats = cfg.learner_seats or tuple(range(self._seats(cfg.game)))
        self.env = SeatSplitEnv(
            cfg.game, cfg.num_envs, seats, opponents=self.opponent, seed=cfg.seed, address=self.address, config=cfg.config
        )
        spec = self.env.game_spec
        self.spec = spec
        self.log(
            f"botarena.train: {cfg.game} vs {self.opponent}, {cfg.num_envs} envs × {cfg.num_steps} steps per update, "
            f"learner in seats {list(seats)}, "
            f"device {self.device}, server {self.address}, run directory {self.out}"
        )
        self.start_update = 0
        self.env_steps = 0
        self.elapsed_before = 0.0
        ckpt: dict[str, Any] | None = None
        if cfg.resume:
            ckpt = torch.load(cfg.resume, map_location="cpu", weights_only=False)
            arch = ckpt["arch"]
            self.log(f"resuming from {cfg.resume} (update {ckpt['update']}, {ckpt['env_steps']} steps)")
        else:
            ps, ss = _scales(self.env, 32, np.random.default_rng(cfg.seed))
            arch = default_architecture(
                spec, config=cfg.config or None, channels=cfg.channels, strides=cfg.strides, hidden=cfg.hidden, planes_scale=ps, scalars_scale=ss
            )
        self.net = PolicyNet(arch).to(self.device)
        self.opt = torch.optim.Adam(self.net.parameters(), lr=cfg.lr, eps=1e-5)
        if ckpt is not None:
            self.net.load_state_dict(ckpt["model"])
            self.opt.load_state_dict(ckpt["optimizer"])
            self.start_update = int(ckpt["update"])
            self.env_steps = int(ckpt["env_steps"])
            self.elapsed_before = float(ckpt.get("seconds", 0.0))
        self.league: League | None = None
        self.snapshots: list[str] = []
        self.opp_results: dict[str, list[int]] = {}  # self-play: name → [episodes, wins, draws, losses] since the last snapshot
        if cfg.self_play:
            self._open_league()
        self.csv_path = self.out / "curve.csv"
        self.rows: list[dict[str, float]] = []
        if ckpt is not None and self.csv_path.exists():
            with open(self.csv_path) as f:
                self.rows = [{k: float(v) for k, v in r.items()} for r in csv.DictReader(f)]
            self.rows = [r for r in self.rows if r["update"] <= self.start_update]

    # Self-play -------------------------------------------------------------

    def _open_league(self) -> None:
        """Opens (or makes) the league with the fixed bots, rated among themselves."""
        cfg = self.cfg
        if cfg.league_match not in ("pfsp", "round-robin"):
            raise ValueError(f"league_match must be 'pfsp' or 'round-robin', got {cfg.league_match!r}")
        league = League(cfg.league, game=cfg.game, seed=cfg.seed, config=cfg.unshaped_config() or None)
        have = league.agents()
        for bot in cfg.league_bots:
            if bot not in have:
                league.add(bot, bot, tag="fixed")
        self.snapshots = sorted(n for n in league.agents() if n.startswith("snap_"))
        if len(cfg.league_bots) > 1 and not any(r.games for r in league.table()):
            league.run(max(cfg.league_games, 2 * len(cfg.league_bots)), match="round-robin")
        self.league = league
        self.log(f"self-play league {cfg.league}: {', '.join(league.agents())}")
        if self.snapshots:
            self._set_mixture(self.snapshots[-1])

    def snapshot(self, update: int, seconds: float) -> None:
        """Saves the policy as a league snapshot, rates it, logs the table and re-weights the opponents."""
        assert self.league is not None
        cfg = self.cfg
        name = f"snap_{update:05d}"
        if name in self.snapshots:
            return
        path = (self.out / "checkpoints" / f"update_{update:05d}.policy.safetensors").absolute()
        save_policy(self.net, path, trained=self._provenance(seconds))
        # The snapshot plays as trained, sampling its actions (with the episode's seed, so league
        # games stay reproducible): an arg-max copy of a stochastic policy can loop and play far weaker.
        self.league.add(name, f"policy:{path}?sample", tag=f"{self.env_steps} steps")
        self.snapshots.append(name)
        if cfg.league_games > 0:
            if cfg.league_match == "pfsp":
                self.league.run(cfg.league_games, match="pfsp", target=name)
            else:
                self.league.run(cfg.league_games, match="round-robin")
        if self.opp_results:
            parts = [
                f"{n} {r[1] / r[0]:.2f}/{r[2] / r[0]:.2f}/{r[3] / r[0]:.2f} ({r[0]})"
                for n, r in sorted(self.opp_results.items())
                if r[0]
            ]
            self.log("training win/draw/loss by opponent since the last snapshot: " + ", ".join(parts))
            self.opp_results.clear()
        self.log(f"league after snapshot {name}:\n{self.league.table_text().rstrip()}")
        self._set_mixture(name)

    def _set_mixture(self, newest: str) -> None:
        """Sets the pool's opponents: every league member, PFSP-weighted from newest's results, newest included."""
        assert self.league is not None
        cfg = self.cfg
        mix = self.league.mixture(newest, k=cfg.pfsp_k, seed=cfg.seed + len(self.snapshots), floor=0.02)
        spec = self.league.agents()[newest]
        mix.append(Opponent(spec=spec, weight=pfsp_weight(0.5), name=newest))  # the newest copy of itself, as an even match
        self.env.set_opponents(mix)
        total = sum(o.weight for o in mix)
        self.log("opponents: " + ", ".join(f"{o.name} {o.weight / total:.2f}" for o in sorted(mix, key=lambda o: -o.weight)))

    def _count_opponents(self, opponents: Sequence[Any]) -> None:
        for o in opponents:
            r = self.opp_results.setdefault(o.name, [0, 0, 0, 0])
            r[0] += o.episodes
            r[1] += o.wins
            r[2] += o.draws
            r[3] += o.losses

    def finish_league(self, update: int, seconds: float) -> None:
        """The last snapshot and the final table: OUT/league.txt and OUT/ratings.png."""
        assert self.league is not None
        if update > 0 and f"snap_{update:05d}" not in self.snapshots:
            self.snapshot(update, seconds)
        text = self.league.table_text(png=self.out / "ratings.png")
        (self.out / "league.txt").write_text(text)
        self.log(f"wrote {self.out / 'league.txt'} and {self.out / 'ratings.png'}")

    def _seats(self, game: str) -> int:
        with Client(self.address) as c:
            return c.game_spec(game, self.cfg.config or None).seats

    def log(self, msg: str) -> None:
        if not self.cfg.quiet:
            print(msg, flush=True)

    def close(self) -> None:
        self.env.close()
        if self.server is not None:
            self.server.stop()
            self.server = None

    def _obs_to(self, planes: npt.NDArray[Any], scalars: npt.NDArray[Any]) -> tuple[torch.Tensor, torch.Tensor]:
        return torch.from_numpy(planes).to(self.device), torch.from_numpy(scalars).to(self.device)

    def _budget_left(self, t0: float) -> bool:
        cfg = self.cfg
        if cfg.total_steps and self.env_steps >= cfg.total_steps:
            return False
        if cfg.minutes and self.elapsed_before + time.monotonic() - t0 >= cfg.minutes * 60:
            return False
        return True

    def _progress(self, t0: float) -> float:
        """The fraction of the budget spent, for learning-rate annealing."""
        cfg = self.cfg
        fr = 0.0
        if cfg.total_steps:
            fr = max(fr, self.env_steps / cfg.total_steps)
        if cfg.minutes:
            fr = max(fr, (self.elapsed_before + time.monotonic() - t0) / (cfg.minutes * 60))
        return min(fr, 1.0)

    def run(self) -> pathlib.Path:
        cfg, env, net = self.cfg, self.env, self.net
        T, N = cfg.num_steps, cfg.num_envs
        planes_shape = tuple(self.spec.observation("planes").shape)
        scalars_shape = tuple(self.spec.observation("scalars").shape)
        buf = _Rollout(T, N, planes_shape, scalars_shape, self.spec.actions)
        obs, info = env.reset(seed=cfg.seed + self.start_update)
        next_planes = np.array(obs["planes"])
        next_scalars = np.array(obs["scalars"])
        next_mask = np.array(info["action_mask"])
        next_done = np.zeros(N, dtype=np.float32)
        env.stats(reset=True)
        t0 = time.monotonic()
        update = self.start_update
        batch = T * N
        mb = max(1, batch // cfg.minibatches)
        seats = self.spec.seats
        while self._budget_left(t0):
            update += 1
            if cfg.anneal_lr:
                for g in self.opt.param_groups:
                    g["lr"] = cfg.lr * max(0.05, 1.0 - self._progress(t0))
            t_upd = time.monotonic()
            net.eval()
            for t in range(T):
                buf.planes[t] = next_planes
                buf.scalars[t] = next_scalars
                buf.masks[t] = next_mask
                buf.valid[t] = 1.0 - next_done  # after an episode end the env resets and ignores the action
                with torch.no_grad():
                    p, s = self._obs_to(next_planes, next_scalars)
                    logits, value = net(p, s)
                    logits = PolicyNet.masked_logits(logits, torch.from_numpy(next_mask).to(self.device))
                    dist = torch.distributions.Categorical(logits=logits)
                    action = dist.sample()
                    buf.logprobs[t] = dist.log_prob(action).cpu().numpy()
                    buf.values[t] = value.cpu().numpy()
                a = action.cpu().numpy()
                buf.actions[t] = a
                obs, reward, term, trunc, info = env.step(a)
                buf.rewards[t] = reward
                next_done = (term | trunc).astype(np.float32)
                buf.dones[t] = next_done
                np.copyto(next_planes, obs["planes"])
                np.copyto(next_scalars, obs["scalars"])
                np.copyto(next_mask, info["action_mask"])
            self.env_steps += batch
            t_roll = time.monotonic() - t_upd

            # GAE. dones[t] = the episode ended in step t: no bootstrap across it.
            with torch.no_grad():
                p, s = self._obs_to(next_planes, next_scalars)
                _, nv = net(p, s)
                next_value = nv.cpu().numpy()
            adv = np.zeros((T, N), dtype=np.float32)
            last = np.zeros(N, dtype=np.float32)
            for t in reversed(range(T)):
                nxt = next_value if t == T - 1 else buf.values[t + 1]
                nonterminal = 1.0 - buf.dones[t]
                delta = buf.rewards[t] + cfg.gamma * nxt * nonterminal - buf.values[t]
                last = delta + cfg.gamma * cfg.gae_lambda * nonterminal * last
                adv[t] = last
            ret = adv + buf.values

            # PPO update over the valid transitions.
            net.train()
            valid_idx = np.flatnonzero(buf.valid.reshape(-1) > 0)
            b_planes = torch.from_numpy(buf.planes.reshape(batch, *planes_shape))
            b_scalars = torch.from_numpy(buf.scalars.reshape(batch, *scalars_shape))
            b_masks = torch.from_numpy(buf.masks.reshape(batch, -1))
            b_actions = torch.from_numpy(buf.actions.reshape(-1))
            b_logprobs = torch.from_numpy(buf.logprobs.reshape(-1))
            b_adv = torch.from_numpy(adv.reshape(-1))
            b_ret = torch.from_numpy(ret.reshape(-1))
            b_values = torch.from_numpy(buf.values.reshape(-1))
            stats = {"policy_loss": 0.0, "value_loss": 0.0, "entropy": 0.0, "approx_kl": 0.0, "clipfrac": 0.0}
            n_mb = 0
            rng = np.random.default_rng(cfg.seed * 1_000_003 + update)
            for _ in range(cfg.update_epochs):
                perm = rng.permutation(valid_idx)
                for lo in range(0, len(perm), mb):
                    idx = torch.from_numpy(perm[lo : lo + mb])
                    if len(idx) < 2:
                        continue
                    dev = self.device
                    logits, value = net(b_planes[idx].to(dev), b_scalars[idx].to(dev))
                    logits = PolicyNet.masked_logits(logits, b_masks[idx].to(dev))
                    dist = torch.distributions.Categorical(logits=logits)
                    newlog = dist.log_prob(b_actions[idx].to(dev))
                    entropy = dist.entropy().mean()  # illegal actions have probability 0 and add 0
                    ratio = (newlog - b_logprobs[idx].to(dev)).exp()
                    a = b_adv[idx].to(dev)
                    a = (a - a.mean()) / (a.std() + 1e-8)
                    pg = torch.max(-a * ratio, -a * ratio.clamp(1 - cfg.clip, 1 + cfg.clip)).mean()
                    r = b_ret[idx].to(dev)
                    v_old = b_values[idx].to(dev)
                    v_clip = v_old + (value - v_old).clamp(-cfg.clip, cfg.clip)
                    vl = 0.5 * torch.max((value - r) ** 2, (v_clip - r) ** 2).mean()
                    loss = pg - cfg.ent_coef * entropy + cfg.vf_coef * vl
                    self.opt.zero_grad(set_to_none=True)
                    loss.backward()
                    nn.utils.clip_grad_norm_(net.parameters(), cfg.max_grad_norm)
                    self.opt.step()
                    with torch.no_grad():
                        lr_ = ratio.log()
                        stats["approx_kl"] += float(((ratio - 1) - lr_).mean())
                        stats["clipfrac"] += float(((ratio - 1).abs() > cfg.clip).float().mean())
                    stats["policy_loss"] += float(pg.detach())
                    stats["value_loss"] += float(vl.detach())
                    stats["entropy"] += float(entropy.detach())
                    n_mb += 1
            for k in stats:
                stats[k] /= max(1, n_mb)
            t_total = time.monotonic() - t_upd

            st, opp_stats = env.stats(reset=True)
            if self.league is not None:
                self._count_opponents(opp_stats)
            eps = st.episodes
            row = {
                "update": float(update),
                "env_steps": float(self.env_steps),
                "seconds": self.elapsed_before + time.monotonic() - t0,
                "steps_per_s": batch / t_total,
                "agent_steps_per_s": batch * seats / t_total,
                "rollout_steps_per_s": batch / t_roll,
                "episodes": float(eps),
                "mean_return": st.mean_return,
                "mean_length": st.mean_length,
                "win_rate": st.wins / eps if eps else math.nan,
                "draw_rate": st.draws / eps if eps else math.nan,
                "loss_rate": st.losses / eps if eps else math.nan,
                **stats,
            }
            self.rows.append(row)
            self._write_csv()
            budget = f"{_fmt_secs(row['seconds'])}/{_fmt_secs(cfg.minutes * 60)}" if cfg.minutes else _fmt_secs(row["seconds"])
            self.log(
                f"update {update:4d}  steps {self.env_steps:>9,}  {row['steps_per_s']:7.0f} steps/s  "
                f"return {row['mean_return']:+.3f}  win/draw/loss {row['win_rate']:.2f}/{row['draw_rate']:.2f}/{row['loss_rate']:.2f}"
                f" ({eps} games)  entropy {row['entropy']:.2f}  {budget}"
            )
            if cfg.checkpoint_every and update % cfg.checkpoint_every == 0:
                self.checkpoint(update, row["seconds"])
            if self.league is not None and cfg.snapshot_every and update % cfg.snapshot_every == 0:
                self.snapshot(update, row["seconds"])
        seconds = self.rows[-1]["seconds"] if self.rows else 0.0
        self.checkpoint(update, seconds)
        if self.league is not None:
            self.finish_league(update, seconds)
        final = self.out / "policy.safetensors"
        save_policy(net, final, trained=self._provenance(seconds))
        self.plot()
        self.log(f"wrote {final}, {self.csv_path} and {self.out / 'curve.png'}")
        return final

    def _provenance(self, seconds: float) -> dict[str, Any]:
        return {
            "game": self.cfg.game,
            "opponent": f"self-play league {self.cfg.league}" if self.cfg.self_play else self.opponent,
            "env_steps": self.env_steps,
            "seconds": round(seconds, 1),
            "device": str(self.device),
            "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
            "trainer": "botarena.train (PPO)",
        }

    def checkpoint(self, update: int, seconds: float) -> None:
        d = self.out / "checkpoints"
        save_policy(self.net, d / f"update_{update:05d}.policy.safetensors", trained=self._provenance(seconds))
        tmp = d / f"update_{update:05d}.pt.tmp"
        torch.save(
            {
                "arch": self.net.arch,
                "model": self.net.state_dict(),
                "optimizer": self.opt.state_dict(),
                "update": update,
                "env_steps": self.env_steps,
                "seconds": seconds,
                "config": dataclasses.asdict(self.cfg),
            },
            tmp,
        )
        os.replace(tmp, d / f"update_{update:05d}.pt")

    def _write_csv(self) -> None:
        tmp = self.csv_path.with_suffix(".csv.tmp")
        with open(tmp, "w", newline="") as f:
            w = csv.DictWriter(f, fieldnames=list(self.rows[0].keys()))
            w.writeheader()
            for r in self.rows:
                w.writerow({k: (f"{v:.6g}" if isinstance(v, float) else v) for k, v in r.items()})
        os.replace(tmp, self.csv_path)

    def plot(self) -> None:
        plot_curve(self.csv_path, self.out / "curve.png", title=f"{self.cfg.game} vs {self.opponent}")


def plot_curve(csv_path: str | os.PathLike[str], png_path: str | os.PathLike[str], *, title: str = "") -> None:
    """Draws a run's curve.csv: win/draw/loss rates and return against steps, and steps/s."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    with open(csv_path) as f:
        rows = [{k: float(v) for k, v in r.items()} for r in csv.DictReader(f)]
    if not rows:
        return
    x = np.array([r["env_steps"] for r in rows]) / 1e6

    def col(k: str) -> npt.NDArray[np.float64]:
        return np.array([r[k] for r in rows])

    def smooth(y: npt.NDArray[np.float64], k: int = 5) -> npt.NDArray[np.float64]:
        out = np.empty_like(y)
        for i in range(len(y)):
            w = y[max(0, i - k + 1) : i + 1]
            w = w[~np.isnan(w)]
            out[i] = w.mean() if len(w) else np.nan
        return out

    fig, axes = plt.subplots(1, 3, figsize=(15, 4))
    ax = axes[0]
    ax.plot(x, smooth(col("win_rate")), label="win")
    ax.plot(x, smooth(col("draw_rate")), label="draw")
    ax.plot(x, smooth(col("loss_rate")), label="loss")
    ax.set_ylim(-0.02, 1.02)
    ax.set_xlabel("learner steps (millions)")
    ax.set_ylabel("rate against the opponent")
    ax.legend()
    ax.grid(alpha=0.3)
    ax = axes[1]
    ax.plot(x, smooth(col("mean_return")))
    ax.set_xlabel("learner steps (millions)")
    ax.set_ylabel("mean episode return")
    ax.grid(alpha=0.3)
    ax = axes[2]
    ax.plot(col("seconds") / 60, col("steps_per_s"), label="learner steps/s (with training)")
    ax.plot(col("seconds") / 60, col("rollout_steps_per_s"), label="learner steps/s (rollout only)")
    ax.set_xlabel("minutes")
    ax.set_ylabel("steps per second")
    ax.legend()
    ax.grid(alpha=0.3)
    if title:
        fig.suptitle(title)
    fig.tight_layout()
    fig.savefig(png_path, dpi=100)
    plt.close(fig)


@dataclasses.dataclass
class EvalResult:
    games: int
    wins: int
    draws: int
    losses: int
    opponent: str
    seconds: float
    by_seat: dict[int, tuple[int, int, int]] = dataclasses.field(default_factory=dict)  # seat → (wins, draws, losses)

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else math.nan


def evaluate(
    policy: str | os.PathLike[str] | PolicyNet,
    game: str,
    opponent: str,
    *,
    games: int = 200,
    seed: int = 12345,
    address: str | None = None,
    device: str = "cpu",
    sample: bool = False,
    config: dict[str, Any] | None = None,
    seats: Sequence[int] | None = None,
) -> EvalResult:
    """Plays ``games`` games (one per env, all at once) of the policy against ``opponent``.

    The games are split evenly over ``seats`` (default: every seat of the
    game), the policy in that seat and ``opponent`` in the others;
    :attr:`EvalResult.by_seat` has the results per seat.

    The policy plays the masked arg-max (or samples with ``sample``), the
    same choice as ``policy:PATH`` in Go. An episode's result is the sign of
    its final reward (games' rewards are +1 win, −1 loss, 0 draw without
    shaping, which evaluation never configures).
    """
    net = policy if isinstance(policy, PolicyNet) else load_policy(policy, device)
    net.eval()
    dev = next(net.parameters()).device
    t0 = time.monotonic()
    server = None
    if address is None:
        server = Server().start()
        address = server.address
    try:
        if seats is None:
            with Client(address) as c:
                seats = list(range(c.game_spec(game, config or None).seats))
        env = SeatSplitEnv(game, games, seats, opponents=opponent, seed=seed, address=address, config=config)
    except BaseException:
        if server is not None:
            server.stop()
        raise
    try:
        obs, info = env.reset(seed=seed)
        result = np.full(games, -2, dtype=np.int64)  # -2: not finished
        g = torch.Generator(device="cpu").manual_seed(seed)
        while (result == -2).any():
            with torch.no_grad():
                logits, _ = net(torch.from_numpy(np.array(obs["planes"])).to(dev), torch.from_numpy(np.array(obs["scalars"])).to(dev))
                logits = PolicyNet.masked_logits(logits, torch.from_numpy(np.array(info["action_mask"])).to(dev))
                if sample:
                    a = torch.multinomial(torch.softmax(logits, 1).cpu(), 1, generator=g).squeeze(1)
                else:
                    a = logits.argmax(1).cpu()
            obs, reward, term, trunc, info = env.step(a.numpy())
            ended = (term | trunc) & (result == -2)
            result[ended] = np.sign(reward[ended]).astype(np.int64)
    finally:
        env.close()
        if server is not None:
            server.stop()
    by_seat = {}
    for seat in env.seats:
        r = result[env.seat_of_row == seat]
        by_seat[int(seat)] = (int((r == 1).sum()), int((r == 0).sum()), int((r == -1).sum()))
    return EvalResult(
        games=games,
        wins=int((result == 1).sum()),
        draws=int((result == 0).sum()),
        losses=int((result == -1).sum()),
        opponent=opponent,
        seconds=time.monotonic() - t0,
        by_seat=by_seat,
    )


def play_match(
    policy: str | os.PathLike[str], game: str, opponent: str, *, seed: int = 1, pretty: bool = True, sample: bool = True
) -> int:
    """Plays one match of the policy against ``opponent`` through ``botarena play`` (Go's forward pass)."""
    spec = f"policy:{policy}" + ("?sample" if sample else "")
    cmd = [find_binary(), "play", game, "--agents", f"{spec},{opponent}", "--seed", str(seed)]
    if pretty and sys.stdout.isatty():
        cmd += ["--pretty", "--delay", "150ms"]
    print("$ " + " ".join(cmd), flush=True)
    return subprocess.run(cmd).returncode


def train(cfg: TrainConfig) -> pathlib.Path:
    """Trains with ``cfg`` and returns the final policy file."""
    tr = Trainer(cfg)
    try:
        return tr.run()
    finally:
        tr.close()


def _parser() -> argparse.ArgumentParser:
    d = TrainConfig()
    p = argparse.ArgumentParser(
        prog="python -m botarena.train",
        description="Train a PPO bot for a botarena game against a built-in (or external, or policy:) opponent, "
        "evaluate it, export it as a policy file Go can play (policy:PATH), and show a match.",
    )
    p.add_argument("--game", default="", help=f"(default {d.game}; with --evaluate, the policy's game) registry name: battlebots, bomberman/2p, battleships/small, battlecube/2p, portalbomber, ...")
    p.add_argument("--opponent", default="", help=f"agent for the other seats (default: the game's reference bot: {REFERENCE_BOTS})")
    p.add_argument("--config", default="{}", help="game config as JSON, e.g. '{\"hp_reward\": 0.1}'")
    p.add_argument("--minutes", type=float, default=d.minutes, help="training time budget (0: none)")
    p.add_argument("--total-steps", type=int, default=d.total_steps, help="learner steps budget (0: none)")
    p.add_argument("--num-envs", type=int, default=d.num_envs)
    p.add_argument("--num-steps", type=int, default=d.num_steps, help="rollout length per env and update")
    p.add_argument("--lr", type=float, default=d.lr)
    p.add_argument("--no-anneal-lr", dest="anneal_lr", action="store_false")
    p.add_argument("--gamma", type=float, default=d.gamma)
    p.add_argument("--gae-lambda", type=float, default=d.gae_lambda)
    p.add_argument("--update-epochs", type=int, default=d.update_epochs)
    p.add_argument("--minibatches", type=int, default=d.minibatches)
    p.add_argument("--clip", type=float, default=d.clip)
    p.add_argument("--ent-coef", type=float, default=d.ent_coef)
    p.add_argument("--vf-coef", type=float, default=d.vf_coef)
    p.add_argument("--max-grad-norm", type=float, default=d.max_grad_norm)
    p.add_argument("--channels", default="", help="conv channels, comma separated (default: per game, GAME_DEFAULTS)")
    p.add_argument("--strides", default="", help="conv strides, comma separated (default: per game, or 1s with --channels)")
    p.add_argument("--hidden", type=int, default=0, help="trunk width (default: per game)")
    p.add_argument("--seed", type=int, default=d.seed)
    p.add_argument("--device", default=d.device, help="auto, cpu, cuda, cuda:1, ...")
    p.add_argument("--threads", type=int, default=d.threads, help="torch CPU threads (0: torch's default)")
    p.add_argument("--out", default="", help="run directory (default runs/<game>)")
    p.add_argument("--checkpoint-every", type=int, default=d.checkpoint_every, help="updates between checkpoints")
    p.add_argument("--eval-games", type=int, default=d.eval_games, help="evaluation games after training (0: skip)")
    p.add_argument("--resume", default="", help="continue from a checkpoints/update_N.pt")
    p.add_argument("--address", default="", help="host:port of a running botarena serve (default: start one)")
    p.add_argument("--learner-seats", default="", help="seats the learner trains in, envs split evenly (default: every seat)")
    p.add_argument("--evaluate", default="", metavar="POLICY", help="skip training: evaluate this policy file (and --play it)")
    p.add_argument("--play", action="store_true", help="after training, play one match of the trained bot on the terminal")
    p.add_argument("--quiet", action="store_true")
    sp = p.add_argument_group("self-play", "train against a league of the policy's snapshots and the game's reference bots")
    sp.add_argument("--self-play", action="store_true", help="keep a league (OUT/league) and train against PFSP-weighted members")
    sp.add_argument("--snapshot-every", type=int, default=d.snapshot_every, help="updates between snapshots added to the league")
    sp.add_argument("--league", default="", help="league directory (default OUT/league; an existing league is continued)")
    sp.add_argument("--league-games", type=int, default=d.league_games, help="league games after each snapshot")
    sp.add_argument("--league-match", default=d.league_match, choices=["pfsp", "round-robin"], help="pfsp: the newest snapshot against PFSP-drawn opponents")
    sp.add_argument("--league-bots", default="", help=f"fixed league members, comma separated (default per game: {SELF_PLAY_BOTS})")
    sp.add_argument("--pfsp-k", type=int, default=d.pfsp_k, help="league members drawn into the training mixture (0: all)")
    return p


def _policy_game(policy: str) -> str:
    """The game a policy file was trained on, or the default game without one."""
    if policy:
        return str(load_policy(policy).arch["game"])
    return TrainConfig().game


def main(argv: Sequence[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    try:
        config = json.loads(args.config)
    except json.JSONDecodeError as e:
        print(f"botarena.train: --config is not JSON: {e}", file=sys.stderr)
        return 2
    if not isinstance(config, dict):
        print("botarena.train: --config must be a JSON object", file=sys.stderr)
        return 2
    game = args.game or _policy_game(args.evaluate)
    cfg = TrainConfig(
        game=game,
        opponent=args.opponent,
        config=config,
        minutes=args.minutes,
        total_steps=args.total_steps,
        num_envs=args.num_envs,
        num_steps=args.num_steps,
        lr=args.lr,
        anneal_lr=args.anneal_lr,
        gamma=args.gamma,
        gae_lambda=args.gae_lambda,
        update_epochs=args.update_epochs,
        minibatches=args.minibatches,
        clip=args.clip,
        ent_coef=args.ent_coef,
        vf_coef=args.vf_coef,
        max_grad_norm=args.max_grad_norm,
        channels=tuple(int(c) for c in args.channels.split(",") if c),
        strides=tuple(int(c) for c in args.strides.split(",") if c),
        hidden=args.hidden,
        seed=args.seed,
        device=args.device,
        threads=args.threads,
        out=args.out or os.path.join("runs", game.replace("/", "-")),
        checkpoint_every=args.checkpoint_every,
        eval_games=args.eval_games,
        resume=args.resume,
        address=args.address,
        quiet=args.quiet,
        learner_seats=tuple(int(x) for x in args.learner_seats.split(",") if x),
        self_play=args.self_play,
        snapshot_every=args.snapshot_every,
        league=args.league,
        league_games=args.league_games,
        league_match=args.league_match,
        league_bots=tuple(b for b in args.league_bots.split(",") if b),
        pfsp_k=args.pfsp_k,
    )
    if args.evaluate:
        cfg = dataclasses.replace(cfg, out=args.out or str(pathlib.Path(args.evaluate).parent))
        policy = pathlib.Path(args.evaluate)
    elif not cfg.minutes and not cfg.total_steps:
        print("botarena.train: give a budget: --minutes or --total-steps", file=sys.stderr)
        return 2
    cfg = cfg.resolved()
    if not args.evaluate:
        policy = train(cfg)
    if cfg.eval_games > 0:
        opp = cfg.resolved_opponent()
        # Evaluation is on the unshaped game: the config's shaping terms are dropped. The policy is
        # evaluated as trained (sampling from its action distribution, policy:PATH?sample in Go)
        # and by its arg-max (policy:PATH), which can be much weaker: a deterministic bot can loop.
        eval_cfg = cfg.unshaped_config()
        report: dict[str, Any] = {"game": cfg.game, "policy": str(policy), "opponent": opp}
        for mode, sample in (("sample", True), ("argmax", False)):
            print(f"evaluating {policy} against {opp} over {cfg.eval_games} games ({mode}) ...", flush=True)
            r = evaluate(policy, cfg.game, opp, games=cfg.eval_games, address=cfg.address or None, config=eval_cfg, sample=sample)
            print(
                f"eval ({mode}): {r.wins} wins, {r.draws} draws, {r.losses} losses in {r.games} games against {opp}: "
                f"win rate {r.win_rate:.1%}; by seat (W/D/L): "
                + ", ".join(f"{k}: {w}/{d}/{l}" for k, (w, d, l) in sorted(r.by_seat.items())),
                flush=True,
            )
            report[mode] = {**dataclasses.asdict(r), "win_rate": r.win_rate}
        with open(pathlib.Path(cfg.out) / "eval.json", "w") as f:
            json.dump(report, f, indent=2)
            f.write("\n")
    if args.play:
        play_match(policy, cfg.game, cfg.resolved_opponent(), seed=cfg.seed)
    return 0


if __name__ == "__main__":
    sys.exit(main())
