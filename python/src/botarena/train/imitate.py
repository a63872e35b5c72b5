"""Imitation before PPO: a built-in agent's games as match data, and behaviour cloning on them.

``--imitate AGENT`` (:class:`TrainConfig.imitate`) starts a run from a policy that
plays like AGENT, a scripted bot of the game, instead of from random weights.
The games come from ``botarena league run --data`` (AGENT against the training
opponent, from every seat, Parquet rows of each seat's observation, legal
actions and action, as ``botarena league run --help`` lists the columns), and the network is
fitted to AGENT's choices (cross-entropy over the legal actions) and its value
head to the discounted returns of those games. PPO then goes on from there.

``--dagger-rounds R`` then goes on as DAgger (Ross, Gordon and Bagnell, 2011): R times the clone
plays ``--dagger-games`` games as ``dagger:AGENT:policy:CLONE?sample``, which plays the clone and
records, in the match data's ``label`` column, what AGENT would have done in each state the clone
reached; the clone is refitted on every decision so far. A clone alone only ever sees the teacher's
states and, one mistake away from them, has nothing to go by (a Bomberman escape one cell short);
these rounds teach it the way back from its own.

Why: some games hide their winning play behind a sequence that random
exploration almost never finds and that costs the game when it goes wrong.
portal Bomberman's first safe bomb is one: step out of the start cell, bomb,
step back, turn the corner; a bomb anywhere else in the start pocket kills
the bomber. A policy trained from scratch learns never to bomb.
"""

from __future__ import annotations

import dataclasses
import json
import math
import pathlib
import subprocess
import time
from typing import Any, Callable, Mapping, Sequence

import numpy as np
import torch
import torch.nn.functional as F

from botarena.policy import PolicyNet
from botarena.spec import GameSpec

__all__ = [
    "DAGGER_SEED_STRIDE",
    "Demonstrations",
    "clone",
    "fit_scales",
    "imitation_loss",
    "load_demonstrations",
    "parse_action_range",
    "opponent_folders",
    "record_demonstrations",
    "split_games",
]

TEACHER = "teacher"  # the league name of the agent imitated (or, in a DAgger round, of the dagger: student)
# DAgger round r's league is seeded with the run's seed + r × this (mod 2⁶⁴), apart from the
# teacher's own games (the run's seed) and from each other; the league derives each game's seed
# from its own seed and the game's index (league.GameSeed).
DAGGER_SEED_STRIDE = 7919
OPPONENT = "opponent"  # the league name of the agent it plays against


@dataclasses.dataclass
class Demonstrations:
    """The teacher's decisions: one row per step on which it had a choice (two or more legal actions)
    and took a legal one."""

    obs: dict[str, np.ndarray]  # tensor name → [N, *shape], each observation tensor of the spec, in its dtype
    masks: np.ndarray  # [N, actions] uint8
    actions: np.ndarray  # [N] int64: the teacher's choice (the match data's label: for a dagger: seat, not what was played)
    returns: np.ndarray  # [N] float32: the discounted return from this step, γ per env step
    games: int  # games the rows come from
    wins: int  # of those, games the teacher's seat won (a dagger: seat's: the student's)
    draws: int
    played: np.ndarray | None = None  # [N] int64: the action the seat played (differs from actions for a dagger: seat)

    def __len__(self) -> int:
        return int(self.actions.shape[0])

    def agreement(self) -> float:
        """How often the seat played the teacher's choice (1 for the teacher's own games)."""
        if self.played is None or not len(self):
            return 1.0
        return float((self.played == self.actions).mean())

    def __add__(self, other: Demonstrations) -> Demonstrations:
        """Both sets of decisions, self's first (so that a fit's held-out tail is other's)."""
        played = [d.played if d.played is not None else d.actions for d in (self, other)]
        return Demonstrations(
            obs={k: np.concatenate([v, other.obs[k]]) for k, v in self.obs.items()},
            masks=np.concatenate([self.masks, other.masks]),
            actions=np.concatenate([self.actions, other.actions]),
            returns=np.concatenate([self.returns, other.returns]),
            games=self.games + other.games,
            wins=self.wins + other.wins,
            draws=self.draws + other.draws,
            played=np.concatenate(played),
        )


def record_demonstrations(
    binary: str,
    game: str,
    teacher: str,
    opponent: str,
    games: int,
    directory: pathlib.Path,
    *,
    seed: int,
    config: Mapping[str, Any] | None = None,
    alone_in: int = 0,
) -> pathlib.Path:
    """Plays ``games`` games of ``teacher`` against ``opponent`` (round-robin over the seats) in a
    league at ``directory/league`` and writes their match data to ``directory/data``, which it returns.

    The league has two members, so a game of more than two seats seats the teacher more than once;
    with ``alone_in`` = the game's seats (``--imitate-alone``) it has the teacher and ``alone_in`` − 1
    copies of the opponent (``opponent``, ``opponent_2``, ...), so that every game has all of them:
    the teacher alone against a full table, in each seat in turn.

    Raises RuntimeError with the command's error output when ``botarena league`` fails (an unknown
    agent, a bad config), and ValueError for fewer than one game.
    """
    if games < 1:
        raise ValueError(f"imitation games must be at least 1, got {games}")
    league, data = directory / "league", directory / "data"

    def cli(*args: str) -> None:
        out = subprocess.run([binary, "league", *args], capture_output=True, text=True)
        if out.returncode != 0:
            raise RuntimeError(f"botarena league {args[0]} for the imitation games failed: {out.stderr.strip()}")

    if not league.is_dir() or not any(league.iterdir()):  # else continue the league: more games, more data
        init = ["init", str(league), "--game", game, "--seed", str(seed)]
        if config:
            init += ["--config", json.dumps(dict(config))]
        cli(*init)
        cli("add", str(league), TEACHER, teacher)
        cli("add", str(league), OPPONENT, opponent)
        for k in range(2, alone_in):
            cli("add", str(league), f"{OPPONENT}_{k}", opponent)
    cli("run", str(league), "--games", str(games), "--match", "round-robin", "--data", str(data))
    return data


def split_games(games: int, mixture: Sequence[tuple[str, float]]) -> list[tuple[str, int]]:
    """Shares ``games`` out over the opponents of ``mixture`` (``[(agent, weight), ...]``, as
    ``--opponent`` gives them) in proportion to their weights, by largest remainder, in the mixture's
    order: one count for each opponent (0 where its share rounds to none), summing to ``games``."""
    if games < 0:
        raise ValueError(f"games: want 0 or more, got {games}")
    total = sum(w for _, w in mixture)
    if not mixture or not total > 0:
        raise ValueError("split_games: want at least one opponent with a weight above 0")
    exact = [games * w / total for _, w in mixture]
    counts = [math.floor(x) for x in exact]
    for i in sorted(range(len(exact)), key=lambda i: (counts[i] - exact[i], i))[: games - sum(counts)]:
        counts[i] += 1
    return [(agent, n) for (agent, _), n in zip(mixture, counts)]


def opponent_folders(folder: pathlib.Path, opponents: int) -> list[pathlib.Path]:
    """Where the games against each of ``opponents`` opponents go: ``folder`` itself for one
    opponent (the layout of a run with a single ``--opponent``), else ``folder/vs_00``,
    ``folder/vs_01``, ... in the mixture's order."""
    if opponents == 1:
        return [folder]
    return [folder / f"vs_{i:02d}" for i in range(opponents)]


def parse_action_range(text: str) -> tuple[int, int] | None:
    """``--imitate-actions``' range "LO:HI" as (LO, HI), or None for "" (every action). Raises
    ValueError unless 0 <= LO < HI."""
    if not text:
        return None
    lo, sep, hi = text.partition(":")
    if not sep:
        raise ValueError(f"an action range is LO:HI, got {text!r}")
    r = (int(lo), int(hi))
    if not 0 <= r[0] < r[1]:
        raise ValueError(f"an action range LO:HI needs 0 <= LO < HI, got {text!r}")
    return r


def load_demonstrations(data: pathlib.Path, spec: GameSpec, gamma: float, actions: tuple[int, int] | None = None) -> Demonstrations:
    """Reads the teacher's rows of the match data in ``data`` (Parquet files of ``spec``'s game).
    With ``actions`` = (LO, HI) (``--imitate-actions``) only the decisions whose label lies in
    [LO, HI) are kept: a Battleships run can imitate a teacher's shots and not its fleet."""
    import pyarrow.compute as pc
    import pyarrow.parquet as pq

    files = sorted(data.glob("*.parquet"))
    if not files:
        raise FileNotFoundError(f"no match data (*.parquet) in {data}")
    names = [t.name for t in spec.observations]
    parts: dict[str, list[np.ndarray]] = {k: [] for k in [*names, "mask", "action", "played", "return"]}
    games = wins = draws = 0
    for f in files:
        table = pq.read_table(f)
        table = table.filter(pc.equal(table["agent"], TEACHER))
        game = table["game"].to_numpy()
        reward = table["reward"].to_numpy().astype(np.float64)
        ended = (table["terminated"].to_numpy(zero_copy_only=False) | table["truncated"].to_numpy(zero_copy_only=False))
        # Discounted returns backwards through each game (rows are in step order within a game).
        ret = np.zeros(len(reward), dtype=np.float64)
        acc, last_game = 0.0, None
        for i in range(len(reward) - 1, -1, -1):
            if game[i] != last_game:
                acc, last_game = 0.0, game[i]
            acc = reward[i] + gamma * acc
            ret[i] = acc
        end = np.flatnonzero(ended)
        games += len(end)
        wins += int((reward[end] > 0.5).sum())
        draws += int((np.abs(reward[end]) < 0.5).sum())
        mask = _fixed(table["mask"], np.uint8).reshape(len(game), spec.actions)
        played = table["action"].to_numpy().astype(np.int64)
        # The teacher's choice: the label where the data has one (a dagger: seat's teacher, who did
        # not play it), else the action played (files from before labels, and the teacher's games).
        action = table["label"].to_numpy().astype(np.int64) if "label" in table.column_names else played
        # A decision is a step with a choice on which the teacher took a legal action. A command the
        # mask rules out (a Bomberman trigger of a bomb chained to one at timer 1) is one the engine
        # ignores; the policy can never take it, and its masked log-probability (about -1e9) would
        # swamp the loss, so the row is left out.
        choice = (mask.sum(axis=1) > 1) & (np.take_along_axis(mask, action[:, None], axis=1)[:, 0] > 0)
        if actions is not None:
            choice &= (action >= actions[0]) & (action < actions[1])
        parts["mask"].append(mask[choice])
        parts["action"].append(action[choice])
        parts["played"].append(played[choice])
        parts["return"].append(ret.astype(np.float32)[choice])
        for t in spec.observations:
            arr = _fixed(table[t.name], t.dtype).reshape(len(game), *t.shape)
            parts[t.name].append(arr[choice])
    cat = {k: np.concatenate(v) for k, v in parts.items()}
    return Demonstrations(
        obs={n: cat[n] for n in names},
        masks=cat["mask"],
        actions=cat["action"],
        returns=cat["return"],
        games=games,
        wins=wins,
        draws=draws,
        played=cat["played"],
    )


def _fixed(column: Any, dtype: Any) -> np.ndarray:
    """The values of a fixed_size_list column as one flat numpy array."""
    import pyarrow as pa

    chunks = [c.flatten().to_numpy(zero_copy_only=False) for c in column.chunks] if isinstance(column, pa.ChunkedArray) else [column.flatten().to_numpy()]
    return np.concatenate(chunks).astype(dtype, copy=False) if chunks else np.zeros(0, dtype=dtype)


def fit_scales(net: PolicyNet, demos: Demonstrations) -> dict[str, list[float]]:
    """Lowers ``net``'s per-channel input scales (the architecture's ``inputs.<name>.scale`` and the
    buffers forward() multiplies by) to 1/max(1, the channel's largest magnitude in the
    demonstrations) wherever that is smaller, so that the teacher's observations reach the network
    in about [-1, 1] too, and returns the scales. Call it before fitting: the weights are not
    changed, so a trained network's outputs would change.

    Why: the trainer measures the scales in a short random warm-up (botarena.train.rollout.scales),
    where nothing grows; a teacher that plays reaches values the warm-up never shows (Bomberman's
    blast radii of 8 to 32+ after power-ups, at scale 1), 30 times the other inputs.
    """
    out: dict[str, list[float]] = {}
    for k, name in enumerate(net.input_names):
        x = demos.obs[name]
        peak = np.abs(x.reshape(x.shape[0], x.shape[1], -1)).max(axis=(0, 2)) if x.ndim > 2 else np.abs(x).max(axis=0)
        old = net.arch["inputs"][name]["scale"]
        new = [min(float(o), 1.0 / max(1.0, float(p))) for o, p in zip(old, peak)]
        net.arch["inputs"][name]["scale"] = new
        buf = net._scale(k)
        buf.copy_(torch.tensor(new, dtype=buf.dtype).reshape(buf.shape))
        out[name] = new
    return out


def imitation_loss(net: PolicyNet, demos: Demonstrations, n: int, rng: np.random.Generator, device: torch.device) -> torch.Tensor:
    """The policy's cross-entropy on ``n`` of the teacher's decisions drawn at random (with replacement)."""
    idx = torch.from_numpy(rng.integers(0, len(demos), size=n))
    logits, _ = net(*(torch.from_numpy(demos.obs[n])[idx].to(device) for n in net.input_names))
    logp = net.log_probs(logits, torch.from_numpy(demos.masks)[idx].to(device))
    return F.nll_loss(logp, torch.from_numpy(demos.actions)[idx].to(device))


def clone(
    net: PolicyNet,
    opt: torch.optim.Optimizer,
    demos: Demonstrations,
    *,
    epochs: int,
    minibatch: int,
    vf_coef: float,
    max_grad_norm: float,
    lr: float,
    device: torch.device,
    seed: int,
    deadline: float = math.inf,
    log: Callable[[str], None] = print,
    holdout: float = 0.0,
) -> dict[str, float]:
    """Fits ``net`` to the demonstrations: the policy to the teacher's actions (cross-entropy over the
    legal actions), the value head to the returns (``vf_coef`` × squared error), ``epochs`` passes in
    shuffled minibatches with ``opt`` at learning rate ``lr``; it stops early at ``deadline``
    (time.monotonic()). Returns the last epoch's mean loss terms and the accuracy (how often the
    policy's arg-max is the teacher's action).

    ``holdout`` (a fraction below 1; default 0, none) keeps the last decisions, those of the latest
    games, out of the fit: each epoch then also logs the arg-max's accuracy on them and its recall
    of each action (how often it takes the action where the teacher did), and the result has
    ``heldout_accuracy``, so that a log tells fitting from memorising."""
    for g in opt.param_groups:
        g["lr"] = lr
    if not 0 <= holdout < 1:
        raise ValueError(f"holdout must be in [0, 1), got {holdout}")
    n = len(demos)
    held = int(round(n * holdout))
    n -= held
    if n <= 0:
        raise ValueError("no demonstrations: the teacher never had a choice of actions")
    rng = np.random.default_rng(seed)
    obs = [torch.from_numpy(demos.obs[n]) for n in net.input_names]
    masks, actions, returns = torch.from_numpy(demos.masks), torch.from_numpy(demos.actions), torch.from_numpy(demos.returns)
    net.train()
    stats: dict[str, float] = {}
    for epoch in range(epochs):
        t0 = time.monotonic()
        order = rng.permutation(n)
        sums = {"policy_loss": 0.0, "value_loss": 0.0, "accuracy": 0.0}
        seen = 0
        for start in range(0, n, minibatch):
            if time.monotonic() >= deadline:
                break
            idx = torch.from_numpy(order[start : start + minibatch])
            logits, value = net(*(x[idx].to(device) for x in obs))
            logp = net.log_probs(logits, masks[idx].to(device))
            a = actions[idx].to(device)
            pl = F.nll_loss(logp, a)
            vl = F.mse_loss(value, returns[idx].to(device))
            loss = pl + vf_coef * vl
            opt.zero_grad()
            loss.backward()
            torch.nn.utils.clip_grad_norm_(net.parameters(), max_grad_norm)
            opt.step()
            k = len(idx)
            seen += k
            sums["policy_loss"] += pl.item() * k
            sums["value_loss"] += vl.item() * k
            sums["accuracy"] += float((logp.argmax(1) == a).float().sum())
        if seen == 0:
            break
        stats = {k: v / seen for k, v in sums.items()}
        log(
            f"imitation epoch {epoch + 1}/{epochs}: policy loss {stats['policy_loss']:.3f}, value loss {stats['value_loss']:.3f}, "
            f"accuracy {stats['accuracy']:.1%} over {seen:,} decisions ({time.monotonic() - t0:.0f} s)"
        )
        if held:
            stats["heldout_accuracy"], recall = _heldout(net, obs, masks, actions, n, minibatch, device)
            net.train()
            log(
                f"imitation epoch {epoch + 1}/{epochs}: held-out accuracy {stats['heldout_accuracy']:.1%} on {held:,} decisions of later games; "
                "recall by action " + ", ".join(f"{a}: {r:.0%}" for a, r in recall.items())
            )
        if seen < n:
            log("imitation stopped by the time budget")
            break
    return stats


@torch.no_grad()
def _heldout(
    net: PolicyNet, obs: list[torch.Tensor], masks: torch.Tensor, actions: torch.Tensor, start: int, minibatch: int, device: torch.device
) -> tuple[float, dict[int, float]]:
    """The arg-max's accuracy on the decisions from ``start`` on, and its recall of each action the teacher took there."""
    net.eval()
    pred = []
    for s in range(start, len(actions), minibatch):
        logits, _ = net(*(x[s : s + minibatch].to(device) for x in obs))
        pred.append(net.log_probs(logits, masks[s : s + minibatch].to(device)).argmax(1).cpu())
    p, a = torch.cat(pred), actions[start:]
    recall = {int(k): float((p[a == k] == k).float().mean()) for k in torch.unique(a)}
    return float((p == a).float().mean()), recall
