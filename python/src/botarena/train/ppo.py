"""PPO: :class:`Trainer` runs the training loop (rollouts, updates, checkpoints, the self-play league); :func:`ppo_update` is one update."""

from __future__ import annotations

import dataclasses
import datetime
import math
import os
import pathlib
import random
import time
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any, Callable, Sequence

import numpy as np
import numpy.typing as npt
import torch
from torch import nn

from botarena.client import Client
from botarena.league import League, pfsp_weight, pfsp_win_rate
from botarena.policy import PolicyNet, default_architecture, load_policy, save_policy, widen_inputs
from botarena.pool import Opponent
from botarena.server import Server, absolute_spec, find_binary
from botarena.train.config import MixGroup, TrainConfig, auto_threads, cpu_has_bfloat16, member_name, parse_opponents, split_envs
from botarena.train.curve import plot_curve, read_curve, write_curve
from botarena.train.imitate import (
    DAGGER_SEED_STRIDE,
    Demonstrations,
    clone,
    fit_scales,
    imitation_loss,
    load_demonstrations,
    parse_action_range,
    opponent_folders,
    record_demonstrations,
    split_games,
)
from botarena.train.rollout import MixEnv, Rollout, SeatSplitEnv, scales
from botarena.train.track import Tracker, open_tracker

__all__ = ["Trainer", "ppo_update", "train"]


def _device(name: str) -> torch.device:
    if name == "auto":
        return torch.device("cuda" if torch.cuda.is_available() else "cpu")
    return torch.device(name)


def _fmt_secs(s: float) -> str:
    s = int(s)
    return f"{s // 60}:{s % 60:02d}"


def ppo_update(
    net: PolicyNet,
    opt: torch.optim.Optimizer,
    buf: Rollout,
    adv: npt.NDArray[np.float32],
    ret: npt.NDArray[np.float32],
    cfg: TrainConfig,
    rng: np.random.Generator,
    device: torch.device,
    deadline: float = math.inf,
    aux: Callable[[], torch.Tensor] | None = None,
    value_only: bool = False,
) -> dict[str, float]:
    """One PPO update over the valid transitions of ``buf``: the mean losses, entropy, KL and clip fraction.

    ``aux``, when given, is a loss added to every minibatch's (its mean is ``aux_loss`` in the
    result): ``--imitate-coef``'s imitation term.

    ``value_only`` (``--value-warmup``): each minibatch's loss is ``vf_coef`` × the value loss alone
    (no policy, entropy or ``aux`` term) and only the value head's weights (``net.value``) are
    stepped; every other weight, and so the policy's probabilities, is left exactly as it was (the
    other parameters get no gradient, so the optimizer skips them and their state). The policy
    loss, entropy, KL and clip fraction are still measured and returned.

    The update stops after the minibatch during which ``time.monotonic()`` reaches ``deadline`` (the
    run's time budget); ``minibatches`` in the result counts the gradient steps taken. ``cfg`` is a
    resolved config (:meth:`TrainConfig.resolved`): ValueError if its ``ent_coef`` is unset.
    """
    ent_coef = cfg.ent_coef
    if ent_coef is None:
        raise ValueError("ppo_update: cfg.ent_coef is unset (None): pass cfg.resolved(), which fills it from the game's defaults")
    net.train()
    value_params = {id(p) for p in net.value.parameters()}
    frozen = [p for p in net.parameters() if id(p) not in value_params] if value_only else []
    T, N = buf.actions.shape
    batch = T * N
    mb = max(1, batch // cfg.minibatches)
    valid = buf.valid.reshape(-1) > 0
    if cfg.skip_forced:
        # Steps with one legal action (the other seat's turn, in a game of alternating moves) carry no
        # policy gradient; leaving them out of the update halves its cost there. GAE still uses them.
        valid &= buf.masks.reshape(batch, -1).sum(axis=1, dtype=np.int64) > 1
    valid_idx = np.flatnonzero(valid)
    # The inputs are converted (scaled to float32, channels-last) once per update rather than
    # once per minibatch and epoch, and minibatches index the converted batch.
    autocast = torch.bfloat16 if cfg.bf16 else None
    with torch.no_grad():
        prepared = net.prepare(
            *(torch.from_numpy(buf.obs[n].reshape(batch, *buf.obs[n].shape[2:])).to(device) for n in buf.names), dtype=autocast or torch.float32
        )
    b_masks = torch.from_numpy(buf.masks.reshape(batch, -1)).to(device)
    b_actions = torch.from_numpy(buf.actions.reshape(-1)).to(device)
    b_logprobs = torch.from_numpy(buf.logprobs.reshape(-1)).to(device)
    b_adv = torch.from_numpy(adv.reshape(-1)).to(device)
    b_ret = torch.from_numpy(ret.reshape(-1)).to(device)
    b_values = torch.from_numpy(buf.values.reshape(-1)).to(device)
    names = ["policy_loss", "value_loss", "entropy", "approx_kl", "clipfrac"] + (["aux_loss"] if aux is not None else [])
    sums = torch.zeros(len(names), dtype=torch.float64, device=device)  # summed on the device: no sync per minibatch
    n_mb = 0
    # Minibatches drawn lazily, epoch by epoch, so that a deadline stops the drawing too.
    steps = (
        idx
        for _ in range(cfg.update_epochs)
        for perm in (rng.permutation(valid_idx),)
        for idx in (perm[lo : lo + mb] for lo in range(0, len(perm), mb))
        if len(idx) >= 2
    )
    for i in steps:
        if time.monotonic() >= deadline:
            break
        idx = torch.from_numpy(i).to(device)
        logits, value = net.forward_prepared(net.take(prepared, idx), autocast)
        logp = net.log_probs(logits, b_masks[idx])
        newlog = logp.gather(1, b_actions[idx].unsqueeze(1)).squeeze(1)
        entropy = -(logp.exp() * logp).sum(1).mean()  # illegal actions have probability 0 and add 0
        ratio = (newlog - b_logprobs[idx]).exp()
        a = b_adv[idx]
        a = (a - a.mean()) / (a.std() + 1e-8)
        pg = torch.max(-a * ratio, -a * ratio.clamp(1 - cfg.clip, 1 + cfg.clip)).mean()
        r = b_ret[idx]
        v_old = b_values[idx]
        v_clip = v_old + (value - v_old).clamp(-cfg.clip, cfg.clip)
        vl = 0.5 * torch.max((value - r) ** 2, (v_clip - r) ** 2).mean()
        al: torch.Tensor | None = None
        if value_only:
            loss = cfg.vf_coef * vl
        else:
            loss = pg - ent_coef * entropy + cfg.vf_coef * vl
            if aux is not None:
                al = aux()
                loss = loss + al
        opt.zero_grad(set_to_none=True)
        loss.backward()
        if value_only:
            for p in frozen:
                p.grad = None  # Adam skips a parameter without a gradient: neither it nor its moments move
        nn.utils.clip_grad_norm_(net.parameters(), cfg.max_grad_norm)
        opt.step()
        with torch.no_grad():
            lr_ = ratio.log()
            parts = [pg, vl, entropy, ((ratio - 1) - lr_).mean(), ((ratio - 1).abs() > cfg.clip).float().mean()]
            if al is not None:
                parts.append(al)
            if aux is not None and al is None:
                parts.append(torch.zeros((), device=device))  # aux_loss: not computed while value_only
            sums += torch.stack([x.detach().to(torch.float64) for x in parts])
        n_mb += 1
    stats = dict(zip(names, sums.tolist()))
    for k in stats:
        stats[k] /= max(1, n_mb)
    stats["minibatches"] = float(n_mb)
    return stats


class Trainer:
    """One PPO run: :meth:`run` trains until the budget is spent and returns the final policy path."""

    def __init__(self, cfg: TrainConfig, tracker: Tracker | None = None) -> None:
        cfg = cfg.resolved()
        self.cfg = cfg
        self.out = pathlib.Path(cfg.out)
        (self.out / "checkpoints").mkdir(parents=True, exist_ok=True)
        # The caller's tracker (it closes it), or one of cfg.track's that close() closes.
        self._own_tracker = tracker is None
        self.tracker = tracker if tracker is not None else open_tracker(cfg.track, self.out, dataclasses.asdict(cfg))
        self.device = _device(cfg.device)
        if cfg.bf16 and self.device.type == "cpu" and cpu_has_bfloat16() is False:
            # Emulated bfloat16 made the update about 7x slower (cpu_has_bfloat16).
            cfg = dataclasses.replace(cfg, bf16=False)
            self.cfg = cfg
            self.log("--bf16 ignored: this CPU has no bfloat16 instructions (no avx512_bf16 or amx_bf16 in /proc/cpuinfo), where bfloat16 autocast is several times slower than float32; the update runs in float32")
        self.threads = cfg.threads if cfg.threads > 0 else auto_threads()
        if self.device.type == "cpu":
            torch.set_num_threads(self.threads)
        random.seed(cfg.seed)
        np.random.seed(cfg.seed)
        torch.manual_seed(cfg.seed)
        self.server: Server | None = None
        self.league: League | None = None
        self.snapshots: list[str] = []
        self.opponent = cfg.resolved_opponent()
        # Relative policy: and dir: paths are the working directory's.
        self.mixture = [(absolute_spec(spec), w) for spec, w in cfg.opponents()]
        # --mix: the groups (games or variants with their own config and opponents), else the game alone.
        self.groups: list[MixGroup] = cfg.groups()
        self.mixed = bool(cfg.mix)
        if self.mixed and cfg.self_play:
            raise ValueError("--mix does not combine with --self-play (one league per game)")
        if cfg.self_play:
            # Before the server: the league's members are among its opponents.
            self._open_league()
        if cfg.address:
            self.address = cfg.address
        else:
            # The trainer's own server: behind Server's random token, and
            # reading only the folders of the policy files and bot folders
            # it plays (the opponents, the league's members, the snapshots).
            league_specs = self.league.agents().values() if self.league is not None else ()
            self.server = Server(args=cfg.server_args(league_specs)).start()
            self.address = self.server.address
        # The rollout's envs: on the server, or with --backend native (the default on a GPU) in this
        # process, where a step costs no round trip and the GPU's forward passes set the pace.
        self.backend = cfg.backend if cfg.backend != "auto" else ("native" if self.device.type == "cuda" else "remote")
        self.env: SeatSplitEnv | MixEnv
        if self.mixed:
            self.env = self._mix_env()
            seats = tuple(sorted({int(x) for x in self.env.seat_of_row}))
            what = "; ".join(f"{g.name}: {n} envs vs {g.opponent}" for g, n in zip(self.groups, self.env.counts))
            self.log(f"--mix: {what}")
        else:
            seats = cfg.learner_seats or tuple(range(self._seats(cfg.game)))
            self.env = SeatSplitEnv(
                cfg.game,
                cfg.num_envs,
                seats,
                opponents=self.mixture[0][0],
                seed=cfg.seed,
                address=self.address,
                config=cfg.config,
                backend=self.backend,
            )
            if len(self.mixture) > 1:
                self.env.set_opponents(dict(self.mixture))
        spec = self.env.game_spec
        self.spec = spec
        self.log(
            f"botarena.train: {f'--mix {cfg.mix}' if self.mixed else f'{cfg.game} vs {self.opponent}'}, {cfg.num_envs} envs × {cfg.num_steps} steps per update, "
            f"learner in seats {list(seats)}, "
            f"device {self.device}, {self.backend} envs"
            + (f" ({self.threads} torch threads{'' if cfg.threads else ', from the free cores'})" if self.device.type == "cpu" else "")
            + f", server {self.address}, run directory {self.out}"
        )
        self.start_update = 0
        self.env_steps = 0
        self.elapsed_before = 0.0
        ckpt: dict[str, Any] | None = None
        if cfg.resume:
            ckpt = torch.load(cfg.resume, map_location="cpu", weights_only=False)
            arch = ckpt["arch"]
            self.log(f"resuming from {cfg.resume} (update {ckpt['update']}, {ckpt['env_steps']} steps)")
        elif cfg.init:
            start = load_policy(cfg.init)
            was = start.arch.get("game")
            # Another variant of the game (battlecube/2p for battlecube) will do when it sees and
            # acts alike: the same observation tensors, shapes and action count; a vector input may
            # have grown (Battle³'s history scalars), which widen_inputs meets with zero weights, so
            # that the network starts as the policy's function.
            shapes = {name: list(t["shape"]) for name, t in start.arch.get("inputs", {}).items()}
            want = {t.name: list(t.shape) for t in spec.observations}
            if shapes != want or start.arch.get("actions") != spec.actions:
                try:
                    if start.arch.get("actions") != spec.actions:
                        raise ValueError(f"{start.arch.get('actions')} actions, the game has {spec.actions}")
                    start, notes = widen_inputs(start, want)
                except ValueError as e:
                    raise ValueError(
                        f"--init {cfg.init}: a policy for {was!r}, whose observations {shapes} and {start.arch.get('actions')} actions "
                        f"are not those of {cfg.game!r} ({want}): {e}"
                    ) from e
                for note in notes:
                    self.log(f"--init {cfg.init}: {note}; the network starts as the policy's function")
            # The weights and layers are the file's; the game and config are this run's (a field such
            # as bomberman's safe_mask may differ), which the policy then records as trained with.
            arch = {**start.arch, "game": cfg.game, "config": dict(cfg.config) if cfg.config else None}
            self.log(f"starting from the weights of {cfg.init}" + (f" (a policy for {was}, which sees and acts as {cfg.game} does)" if was != cfg.game else ""))
        else:
            input_scales = scales(self.env, 32, np.random.default_rng(cfg.seed))
            arch = default_architecture(
                spec,
                config=cfg.config or None,
                channels=cfg.channels,
                strides=cfg.strides,
                hidden=cfg.hidden,
                scales=input_scales,
                head=cfg.head,
            )
        self.net = PolicyNet(arch).to(self.device)
        if self.device.type == "cpu":
            # Convolution weights laid out channels-last, as the inputs are (PolicyNet.prepare): oneDNN's
            # backward pass then skips its layout conversions (the update's CPU time fell 5-20% on the
            # 2-core machine, with --bf16 a further 20%: docs/training.md). The numbers are the same.
            # Only 2-D convolutions: channels-last is a 4-D layout (Battle³'s conv3d weights keep theirs).
            with torch.no_grad():
                for param in self.net.parameters():
                    if param.dim() == 4:
                        param.data = param.data.contiguous(memory_format=torch.channels_last)
        if ckpt is None and cfg.init:
            self.net.load_state_dict(start.state_dict())
        self.opt = torch.optim.Adam(self.net.parameters(), lr=cfg.lr, eps=1e-5)
        if ckpt is not None:
            self.net.load_state_dict(ckpt["model"])
            self.opt.load_state_dict(ckpt["optimizer"])
            self.start_update = int(ckpt["update"])
            self.env_steps = int(ckpt["env_steps"])
            self.elapsed_before = float(ckpt.get("seconds", 0.0))
        self.aux: Callable[[], torch.Tensor] | None = None  # --imitate-coef's loss term (imitate)
        # name → [episodes, wins, draws, losses] since the last report (a snapshot, or every
        # checkpoint_every updates against a mixture)
        self.opp_results: dict[str, list[int]] = {}
        # Self-play: name → [episodes, wins] of the learner's training games against each league
        # member, each report's counts added to half the earlier ones (recent games count most):
        # the win rates that weight the training mixture (PFSP).
        self.train_record: dict[str, list[float]] = {} if ckpt is None else dict(ckpt.get("train_record", {}))
        if self.league is not None:
            # The mixture of the newest snapshot (a resumed run's PFSP record comes from its
            # checkpoint), or before the first snapshot the fixed members alone.
            self._set_mixture(self.snapshots[-1] if self.snapshots else None)
        self.csv_path = self.out / "curve.csv"
        self.rows: list[dict[str, float]] = []
        if ckpt is not None and self.csv_path.exists():
            self.rows = [r for r in read_curve(self.csv_path) if r["update"] <= self.start_update]

    def _mix_env(self) -> MixEnv:
        """--mix's envs: num_envs split over the groups by weight, each group a SeatSplitEnv of its
        game, config and opponents over its learner seats (--learner-seats, else all of the
        group's), seeded apart (the run's seed + 104729 × the group's index)."""
        cfg = self.cfg
        seats = [cfg.learner_seats or tuple(range(self._seats(g.game, g.config))) for g in self.groups]
        counts = split_envs(cfg.num_envs, self.groups, [len(x) for x in seats])
        parts: list[SeatSplitEnv] = []
        try:
            for k, (g, n, st) in enumerate(zip(self.groups, counts, seats)):
                mixture = [(absolute_spec(spec), w) for spec, w in parse_opponents(g.opponent)]
                part = SeatSplitEnv(
                    g.game,
                    n,
                    st,
                    opponents=mixture[0][0],
                    seed=cfg.seed + 104729 * k,
                    address=self.address,
                    config=dict(g.config),
                    backend=self.backend,
                )
                parts.append(part)
                if len(mixture) > 1:
                    part.set_opponents(dict(mixture))
            return MixEnv([g.name for g in self.groups], parts)
        except BaseException:
            for p in parts:
                p.close()
            raise

    # Self-play -------------------------------------------------------------

    def _open_league(self) -> None:
        """Opens (or makes) the league with the fixed bots, rated among themselves (before the pool: see __init__)."""
        cfg = self.cfg
        if cfg.league_match not in ("pfsp", "round-robin"):
            raise ValueError(f"league_match must be 'pfsp' or 'round-robin', got {cfg.league_match!r}")
        league = League(cfg.league, game=cfg.game, seed=cfg.seed, config=cfg.unshaped_config() or None)
        have = league.agents()
        for bot in cfg.league_bots:
            if member_name(bot) not in have:
                league.add(member_name(bot), absolute_spec(bot), tag="fixed")
        self.snapshots = sorted(n for n in league.agents() if n.startswith("snap_"))
        if len(cfg.league_bots) > 1 and not any(r.games for r in league.table()):
            league.run(max(cfg.league_games, 2 * len(cfg.league_bots)), match="round-robin")
        self.league = league
        self.log(f"self-play league {cfg.league}: {', '.join(league.agents())}")

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
        self._report_opponents("since the last snapshot")
        self.log(f"league after snapshot {name}:\n{self.league.table_text().rstrip()}")
        self._set_mixture(name)

    def _set_mixture(self, newest: str | None) -> None:
        """Sets the pool's opponents: the league's fixed members and newest snapshots, PFSP-weighted.

        Each member other than ``newest`` weighs (1 − p)² (:func:`botarena.league.pfsp_weight`),
        p the learner's win rate against it in training (:attr:`train_record`, draws counting as
        not won, from 20 games on), else ``newest``'s league record against it
        (:func:`botarena.league.pfsp_win_rate`), else 1/2; weights below 2% of the largest are raised
        to it. Only the ``snapshot_keep`` newest snapshots play (0: all), and together they get at
        most ``snapshot_share`` of the mixture's weight, so that snapshots that draw each other do
        not crowd out the fixed members. ``newest`` itself plays as an even match, (1 − 1/2)².
        With ``pfsp_k`` > 0 only the k heaviest members besides ``newest`` are kept.
        """
        assert self.league is not None
        cfg = self.cfg
        agents = self.league.agents()
        snaps = [n for n in self.snapshots if n != newest and n in agents]
        if cfg.snapshot_keep > 0:
            snaps = snaps[-max(0, cfg.snapshot_keep - 1) :] if cfg.snapshot_keep > 1 else []
        fixed = [n for n in agents if not n.startswith("snap_")]
        recs = self.league.records(newest) if newest is not None and newest in agents else {}

        def win_rate(n: str) -> float:
            r = self.train_record.get(n)
            if r is not None and r[0] >= 20:
                return r[1] / r[0]
            return pfsp_win_rate(recs[n]) if n in recs else 0.5

        w = {n: pfsp_weight(win_rate(n)) for n in fixed + snaps}
        if cfg.pfsp_k > 0:
            w = dict(sorted(w.items(), key=lambda kv: -kv[1])[: cfg.pfsp_k])
        top = max(w.values(), default=0.0)
        w = {n: max(v, 0.02 * top) for n, v in w.items()}
        if newest is not None:
            w[newest] = pfsp_weight(0.5)
        snap_w = sum(v for n, v in w.items() if n.startswith("snap_"))
        fixed_w = sum(v for n, v in w.items() if not n.startswith("snap_"))
        share = cfg.snapshot_share
        if fixed_w > 0 and 0 <= share < 1 and snap_w > share * (snap_w + fixed_w):
            scale = share * fixed_w / ((1 - share) * snap_w)
            w = {n: v * scale if n.startswith("snap_") else v for n, v in w.items()}
        mix = [Opponent(spec=agents[n], weight=v, name=n) for n, v in w.items() if v > 0]
        self.env.set_opponents(mix)
        total = sum(o.weight for o in mix)
        self.log("opponents: " + ", ".join(f"{o.name} {o.weight / total:.2f}" for o in sorted(mix, key=lambda o: -o.weight)))

    def _report_opponents(self, since: str) -> None:
        """Logs the training results per opponent counted since the last report, and clears them."""
        parts = [f"{n} {r[1] / r[0]:.2f}/{r[2] / r[0]:.2f}/{r[3] / r[0]:.2f} ({r[0]})" for n, r in sorted(self.opp_results.items()) if r[0]]
        if parts:
            self.log(f"training win/draw/loss by opponent {since}: " + ", ".join(parts))
        for rec in self.train_record.values():
            rec[0] /= 2
            rec[1] /= 2
        for n, r in self.opp_results.items():
            rec = self.train_record.setdefault(n, [0.0, 0.0])
            rec[0] += r[0]
            rec[1] += r[1]
        self.opp_results.clear()

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

    def _seats(self, game: str, config: Any = None) -> int:
        with Client(self.address) as c:
            return c.game_spec(game, dict(config if config is not None else self.cfg.config) or None).seats

    def log(self, msg: str) -> None:
        if not self.cfg.quiet:
            print(msg, flush=True)

    def close(self) -> None:
        if self._own_tracker:
            self.tracker.close()
        if hasattr(self, "env"):
            self.env.close()
        if self.server is not None:
            self.server.stop()
            self.server = None
        if self.league is not None:
            self.league.close()
            self.league = None

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

    def imitate(self) -> None:
        """--imitate: plays the teacher's games and fits the network to them, then --dagger-rounds
        rounds of DAgger (see botarena.train.imitate); the time it takes counts against the run's
        budget. The games are shared over the --opponent mixture by weight (split_games). A resumed
        run (its checkpoint already imitated) only reads the match data back, for --imitate-coef."""
        cfg = self.cfg
        t0 = time.monotonic()
        resumed = self.start_update > 0
        if resumed and cfg.imitate_coef <= 0:
            return
        assert cfg.gamma is not None
        if not resumed:
            demos = self._record(cfg.imitate, cfg.imitate_games, self.out / "imitation", cfg.seed, "imitation")
        else:
            demos = self._read(self.out / "imitation")
        teachers = ", ".join(sorted({g.imitate for g in self.groups if g.imitate}))
        self.log(
            f"imitation: {len(demos):,} decisions of {teachers} in {demos.games} games "
            f"({demos.wins} won, {demos.draws} drawn), read in {time.monotonic() - t0:.0f} s"
        )
        deadline = t0 + cfg.minutes * 60 - self.elapsed_before if cfg.minutes else math.inf
        if not resumed and cfg.imitate_epochs > 0:
            fit_scales(self.net, demos)  # the warm-up's scales miss what the teacher reaches (radii of 8-32)
            self._clone(demos, cfg.imitate_epochs, deadline)
            demos = self._dagger(demos, deadline)
        elif not resumed:
            # --imitate-epochs 0: no clone (the network keeps its --init function); the decisions
            # serve --imitate-coef alone.
            self.log("imitation: --imitate-epochs 0: no clone, the decisions serve --imitate-coef")
        else:
            for d in sorted((self.out / "imitation" / "dagger").glob("round_*")):
                demos = demos + self._read(d)
        self.elapsed_before += time.monotonic() - t0
        if cfg.imitate_coef > 0:
            # Keep imitating during PPO: each minibatch adds imitate_coef × the cross-entropy on a
            # minibatch of the teacher's decisions (demonstration-augmented policy gradient).
            gen = np.random.default_rng(cfg.seed + 17 + self.start_update)
            mb = max(2, cfg.num_steps * cfg.num_envs // cfg.minibatches)
            self.aux = lambda: cfg.imitate_coef * imitation_loss(self.net, demos, mb, gen, self.device)

    def _teacher_groups(self, folder: pathlib.Path) -> list[tuple[MixGroup, pathlib.Path, int]]:
        """The groups whose decisions are imitated, each with its match data folder and seed offset:
        without --mix the game alone in ``folder`` (0); with it, each group with a teacher in
        ``folder/group_K`` (104729 × K)."""
        if not self.mixed:
            return [(self.groups[0], folder, 0)]
        return [(g, folder / f"group_{k:02d}", 104729 * k) for k, g in enumerate(self.groups) if g.imitate]

    def _record(self, agent: str, games: int, folder: pathlib.Path, seed: int, what: str) -> Demonstrations:
        """Plays agent's games (a built-in agent, or a dagger: spec; with --mix, each group's own
        teacher in place of ``agent``'s) against the --opponent mixture, games shared by weight
        (with --mix first over the groups that imitate, by their weights), each opponent's into its
        own folder (opponent_folders) with the league seeded seed + its index; returns the
        decisions, the opponents' in the mixture's order."""
        cfg = self.cfg
        assert cfg.gamma is not None
        demos: Demonstrations | None = None
        groups = self._teacher_groups(folder)
        per_group = split_games(games, [(g.name, g.weight) for g, _, _ in groups])
        for (g, gfolder, offset), (_, gn) in zip(groups, per_group):
            mixture = [(absolute_spec(spec), w) for spec, w in parse_opponents(g.opponent)] if self.mixed else self.mixture
            teacher = agent
            if self.mixed and g.imitate:
                # the group's teacher: a dagger: spec names the run's teacher, swapped for the group's
                teacher = g.imitate if what == "imitation" else agent.replace(f"dagger:{cfg.imitate}:", f"dagger:{g.imitate}:", 1)
            if gn:
                demos = self._record_group(g, teacher, gn, mixture, gfolder, seed + offset, what, demos)
        assert demos is not None  # split_games gives games ≥ 1 to some group and opponent
        return demos

    def _record_group(
        self,
        g: MixGroup,
        agent: str,
        games: int,
        mixture: Sequence[tuple[str, float]],
        folder: pathlib.Path,
        seed: int,
        what: str,
        demos: Demonstrations | None,
    ) -> Demonstrations | None:
        """_record's games in one group, added to demos."""
        cfg = self.cfg
        assert cfg.gamma is not None
        shares = split_games(games, list(mixture))
        for i, ((opponent, n), where) in enumerate(zip(shares, opponent_folders(folder, len(shares)))):
            if n == 0:
                continue
            t0 = time.monotonic()
            self.log(f"{what}: {n} game{'s' if n != 1 else ''} of {agent if what == 'imitation' else 'the clone'} against {opponent} (match data in {where}) ...")
            alone = self._seats(g.game, g.config) if cfg.imitate_alone else 0
            data = record_demonstrations(find_binary(), g.game, agent, opponent, n, where, seed=(seed + i) % 2**64, config=dict(g.config), alone_in=alone)
            new = load_demonstrations(data, self.spec, cfg.gamma, parse_action_range(cfg.imitate_actions))
            if what != "imitation":
                self.log(
                    f"{what}: the clone won {new.wins} of {new.games} games against {opponent} ({new.draws} drawn) and played "
                    f"{cfg.imitate}'s choice on {new.agreement():.1%} of its {len(new):,} decisions ({time.monotonic() - t0:.0f} s)"
                )
            demos = new if demos is None else demos + new
        return demos

    def _read(self, folder: pathlib.Path) -> Demonstrations:
        """The decisions _record wrote under folder, for a resumed run."""
        cfg = self.cfg
        assert cfg.gamma is not None
        demos: Demonstrations | None = None
        for g, gfolder, _ in self._teacher_groups(folder):
            n = len(parse_opponents(g.opponent)) if self.mixed else len(self.mixture)
            for where in opponent_folders(gfolder, n):
                if (where / "data").is_dir():
                    new = load_demonstrations(where / "data", self.spec, cfg.gamma, parse_action_range(cfg.imitate_actions))
                    demos = new if demos is None else demos + new
        if demos is None:
            raise FileNotFoundError(f"no match data in {folder} for the {len(self.mixture)} opponent(s) of --opponent")
        return demos

    def _clone(self, demos: Demonstrations, epochs: int, deadline: float) -> dict[str, float]:
        """Fits the network to demos (botarena.train.imitate.clone), the latest 5% held out."""
        cfg = self.cfg
        return clone(
            self.net,
            self.opt,
            demos,
            epochs=epochs,
            minibatch=512,
            vf_coef=cfg.vf_coef,
            max_grad_norm=cfg.max_grad_norm,
            lr=cfg.imitate_lr,
            device=self.device,
            seed=cfg.seed,
            deadline=deadline,
            log=self.log,
            holdout=0.05,  # the latest games' decisions, to log how well the clone generalises
        )

    def _dagger(self, demos: Demonstrations, deadline: float) -> Demonstrations:
        """--dagger-rounds: each round the clone plays --dagger-games games against the --opponent
        mixture as dagger:TEACHER:policy:CLONE?sample, the teacher labels the clone's states, and the
        clone is refitted on every decision so far. Returns all the decisions."""
        cfg = self.cfg
        for r in range(1, cfg.dagger_rounds + 1):
            if time.monotonic() >= deadline:
                self.log(f"dagger: the time budget ended before round {r}")
                break
            t0 = time.monotonic()
            folder = self.out / "imitation" / "dagger" / f"round_{r:02d}"
            folder.mkdir(parents=True, exist_ok=True)
            student = (folder / "student.policy.safetensors").absolute()
            save_policy(self.net, student, trained=self._provenance(0.0))
            spec = f"dagger:{cfg.imitate}:policy:{student}?sample"
            new = self._record(spec, cfg.dagger_games, folder, cfg.seed + DAGGER_SEED_STRIDE * r, f"dagger round {r}/{cfg.dagger_rounds}")
            self.log(f"dagger round {r}/{cfg.dagger_rounds} ({time.monotonic() - t0:.0f} s): refitting on all {len(demos) + len(new):,} decisions")
            demos = demos + new
            self._clone(demos, cfg.dagger_epochs, deadline)
        return demos

    def run(self) -> pathlib.Path:
        if any(g.imitate for g in self.groups):
            self.imitate()
        cfg, env, net = self.cfg, self.env, self.net
        T, N = cfg.num_steps, cfg.num_envs
        buf = Rollout.for_spec(T, N, self.spec)
        # With --overlap the next rollout is collected into `spare` by `actor`, a copy of the
        # network with the weights from before the update, on a thread of its own while the
        # update runs; the rollout an update learns from is then one update old, which PPO's
        # clipped probability ratio (against the stored log-probabilities) corrects for.
        spare = Rollout.for_spec(T, N, self.spec) if cfg.overlap else None
        actor = net
        collector: ThreadPoolExecutor | None = None
        if cfg.overlap:
            actor = PolicyNet(net.arch).to(self.device)
            actor.load_state_dict(net.state_dict())
            collector = ThreadPoolExecutor(max_workers=1, thread_name_prefix="botarena-rollout")
        obs, info = env.reset(seed=cfg.seed + self.start_update)
        buf.start(obs, info)
        env.stats(reset=True)
        t0 = time.monotonic()
        update = self.start_update
        batch = T * N
        seats = self.spec.seats
        gamma = cfg.gamma
        assert gamma is not None  # cfg was resolved in __init__
        # The time budget is checked at every env step and every minibatch, not only between
        # updates, so a run ends within a step or a minibatch of it (a few tenths of a second).
        deadline = t0 + cfg.minutes * 60 - self.elapsed_before if cfg.minutes else math.inf

        def collect(into: Rollout, policy: PolicyNet) -> tuple[int, float]:
            t = time.monotonic()
            done = into.collect(env, policy, self.device, deadline)
            return done, time.monotonic() - t

        t_upd = time.monotonic()
        done, t_roll = collect(buf, actor) if self._budget_left(t0) else (0, 0.0)
        try:
            while True:
                if done < T:
                    if done > 0:
                        self.log(f"time budget spent {done} steps into a rollout: those {done * N:,} steps are not learned from")
                    break
                if time.monotonic() >= deadline:
                    # A rollout collected (on the --overlap thread) just before the budget ran out.
                    self.log(f"time budget spent before the update of a whole rollout: those {batch:,} steps are not learned from")
                    break
                update += 1
                self.env_steps += batch
                if cfg.anneal_lr:
                    for g in self.opt.param_groups:
                        g["lr"] = cfg.lr * max(0.05, 1.0 - self._progress(t0))
                adv, ret = buf.advantages(actor, self.device, gamma, cfg.gae_lambda)
                pending: Future[tuple[int, float]] | None = None
                if collector is not None and spare is not None and self._budget_left(t0):
                    actor.load_state_dict(net.state_dict())
                    spare.continue_from(buf)
                    pending = collector.submit(collect, spare, actor)
                rng = np.random.default_rng(cfg.seed * 1_000_003 + update)
                warmup = update <= cfg.value_warmup
                stats = ppo_update(net, self.opt, buf, adv, ret, cfg, rng, self.device, deadline, aux=self.aux, value_only=warmup)
                n_mb = int(stats.pop("minibatches"))
                if time.monotonic() >= deadline:
                    self.log(f"time budget spent during update {update}, after {n_mb} minibatches")
                next_done, next_roll = 0, 0.0
                if pending is not None and spare is not None:
                    next_done, next_roll = pending.result()
                    buf, spare = spare, buf
                t_total = time.monotonic() - t_upd
                t_upd = time.monotonic()

                st, opp_stats = env.stats(reset=True)
                if self.league is not None or len(self.mixture) > 1:
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
                if isinstance(env, MixEnv):
                    # each group's own results: NAME/episodes, NAME/mean_return, NAME/win_rate, ...
                    for name, gs in zip(env.names, env.group_stats):
                        n = gs.episodes
                        row[f"{name}/episodes"] = float(n)
                        row[f"{name}/mean_return"] = gs.return_sum / n if n else math.nan
                        row[f"{name}/win_rate"] = gs.wins / n if n else math.nan
                        row[f"{name}/draw_rate"] = gs.draws / n if n else math.nan
                        row[f"{name}/loss_rate"] = gs.losses / n if n else math.nan
                self.rows.append(row)
                write_curve(self.csv_path, self.rows)
                self.tracker.scalars(self.env_steps, {f"train/{k}": v for k, v in row.items()})
                budget = f"{_fmt_secs(row['seconds'])}/{_fmt_secs(cfg.minutes * 60)}" if cfg.minutes else _fmt_secs(row["seconds"])
                self.log(
                    f"update {update:4d}  steps {self.env_steps:>9,}  {row['steps_per_s']:7.0f} steps/s  "
                    f"return {row['mean_return']:+.3f}  win/draw/loss {row['win_rate']:.2f}/{row['draw_rate']:.2f}/{row['loss_rate']:.2f}"
                    f" ({eps} games)  entropy {row['entropy']:.2f}  {budget}"
                    + ("  (value head only: --value-warmup)" if warmup else "")
                    + (
                        "  [" + ", ".join(f"{n} {row[f'{n}/win_rate']:.2f} ({int(row[f'{n}/episodes'])})" for n in env.names) + "]"
                        if isinstance(env, MixEnv)
                        else ""
                    )
                )
                if cfg.checkpoint_every and update % cfg.checkpoint_every == 0:
                    self.checkpoint(update, row["seconds"])
                    if self.league is None:
                        self._report_opponents(f"in the last {cfg.checkpoint_every} updates")
                if self.league is not None and cfg.snapshot_every and update % cfg.snapshot_every == 0:
                    self.snapshot(update, row["seconds"])
                if pending is not None:
                    done, t_roll = next_done, next_roll
                elif collector is None and self._budget_left(t0):
                    done, t_roll = collect(buf, actor)
                else:
                    break
        finally:
            if collector is not None:
                collector.shutdown()
        seconds = self.elapsed_before + time.monotonic() - t0
        self.checkpoint(update, seconds)
        if self.league is not None:
            self.finish_league(update, seconds)
        final = self.out / "policy.safetensors"
        save_policy(net, final, trained=self._provenance(seconds))
        if not self.rows:
            self.log(f"wrote {final} (the budget ended before the first update: no curve)")
            return final
        self.plot()
        self.log(f"wrote {final}, {self.csv_path} and {self.out / 'curve.png'}")
        return final

    def _provenance(self, seconds: float) -> dict[str, Any]:
        return {
            "game": self.cfg.game,
            "opponent": f"self-play league {self.cfg.league}" if self.cfg.self_play else "each group's (mix)" if self.mixed else self.opponent,
            "env_steps": self.env_steps,
            "seconds": round(seconds, 1),
            "device": str(self.device),
            "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
            "trainer": "botarena.train (PPO)",
            **(
                {
                    "mix": [
                        {"name": g.name, "game": g.game, "weight": g.weight, "opponent": g.opponent, "config": dict(g.config), "imitate": g.imitate or ""}
                        for g in self.groups
                    ]
                }
                if self.mixed
                else {}
            ),
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
                "train_record": self.train_record,
            },
            tmp,
        )
        os.replace(tmp, d / f"update_{update:05d}.pt")

    def plot(self) -> None:
        against = "its self-play league (win/draw/loss over the whole mixture)" if self.cfg.self_play else self.opponent
        if self.mixed:
            against = "; ".join(f"{g.name} vs {g.opponent}" for g in self.groups) + " (win/draw/loss over all groups)"
            plot_curve(self.csv_path, self.out / "curve.png", title=f"mix: {against}")
            return
        plot_curve(self.csv_path, self.out / "curve.png", title=f"{self.cfg.game} vs {against}")


def train(cfg: TrainConfig, tracker: Tracker | None = None) -> pathlib.Path:
    """Trains with ``cfg`` and returns the final policy file; each update's curve row goes to tracker (or cfg.track's)."""
    tr = Trainer(cfg, tracker)
    try:
        return tr.run()
    finally:
        tr.close()

