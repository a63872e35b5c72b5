"""Evaluating a policy: :func:`evaluate` (batched games over the vector envs) and :func:`play_match` (one game in Go)."""

from __future__ import annotations

import dataclasses
import math
import os
import subprocess
import sys
import time
from typing import Any, Mapping, Sequence

import numpy as np
import torch

from botarena.client import Client
from botarena.policy import PolicyNet, load_policy
from botarena.server import Server, find_binary
from botarena.spec import GameSpec
from botarena.train.rollout import SeatSplitEnv

__all__ = ["EvalResult", "evaluate", "play_match"]


#: How many of the policy's most frequent actions :attr:`EvalResult.actions` names; the rest are summed as "other".
TOP_ACTIONS = 12


@dataclasses.dataclass
class EvalResult:
    """The outcome of :func:`evaluate`: the policy's wins, draws and losses against ``opponent``, and how it played.

    ``mean_length`` is the mean game length in steps. ``actions`` is the
    policy's mean number of each action per game, by the game's action name
    (by command, ``"single"``, ``"place North"``, for a game that factors
    its actions into commands and cells: the spec's ``action_factors``),
    the :data:`TOP_ACTIONS` most frequent first and the rest summed as
    ``"other"``; an action it never chose is absent, so a Bomberman policy
    without ``"bomb"`` never bombed. ``do_nothing_share`` is the share of
    its actions that were action 0, every game's do-nothing action. The
    gauntlet (gauntlet.md) has the same figures by the game's own action
    kinds for every opponent.
    """

    games: int
    wins: int
    draws: int
    losses: int
    opponent: str
    seconds: float
    by_seat: dict[int, tuple[int, int, int]] = dataclasses.field(default_factory=dict)  # seat → (wins, draws, losses)
    mean_length: float = math.nan
    actions: dict[str, float] = dataclasses.field(default_factory=dict)
    do_nothing_share: float = math.nan

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else math.nan


def _reads_prefix(net: PolicyNet, client: Client, game: str, spec: GameSpec, config: Mapping[str, Any] | None) -> bool:
    """Whether ``net`` reads ``game``'s observations under ``config`` by their prefixes (a config
    raising append-only fields of the one it was trained with); False when every shape is the
    network's own. Raises ValueError when neither holds."""
    shapes = {t.name: t.shape for t in spec.observations}
    if all(shapes.get(n) == want for n, want in zip(net.input_names, net.input_shapes)):
        return False
    info = next((g for g in client.list_games() if g.name == game), None)
    trained = net.arch.get("config") or {}
    if info is None or not info.obs_prefix(trained, config):
        got = {n: list(shapes.get(n, ())) for n in net.input_names}
        want = {n: list(s) for n, s in zip(net.input_names, net.input_shapes)}
        raise ValueError(
            f"the policy (trained on {net.arch.get('game')} with config {trained}) takes observations {want}; "
            f"{game} with config {dict(config or {})} gives {got}, and its tensors do not hold the policy's as prefixes"
        )
    return True


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
    temperature: float = 1.0,
    config: dict[str, Any] | None = None,
    seats: Sequence[int] | None = None,
) -> EvalResult:
    """Plays ``games`` games (one per env, all at once) of the policy against ``opponent``.

    The games are split evenly over ``seats`` (default: every seat of the
    game), the policy in that seat and ``opponent`` in the others;
    :attr:`EvalResult.by_seat` has the results per seat.

    The policy plays the most likely legal action (or samples with ``sample``,
    from the probabilities raised to ``1/temperature`` and renormalised), the
    same choice as ``policy:PATH`` in Go (``policy:PATH?sample``,
    ``policy:PATH?temp=T``). An episode's result is the sign of
    its final reward (games' rewards are +1 win, −1 loss, 0 draw without
    shaping, which evaluation never configures).
    """
    if sample and not temperature > 0:
        raise ValueError(f"temperature must be above 0, got {temperature}")
    net = policy if isinstance(policy, PolicyNet) else load_policy(policy, device)
    net.eval()
    dev = next(net.parameters()).device
    t0 = time.monotonic()
    server = None
    if address is None:
        server = Server().start()
        address = server.address
    try:
        with Client(address) as c:
            spec = c.game_spec(game, config or None)
            prefix = _reads_prefix(net, c, game, spec, config)
        if seats is None:
            seats = list(range(spec.seats))
        env = SeatSplitEnv(game, games, seats, opponents=opponent, seed=seed, address=address, config=config)
    except BaseException:
        if server is not None:
            server.stop()
        raise
    try:
        obs, info = env.reset(seed=seed)
        result = np.full(games, -2, dtype=np.int64)  # -2: not finished
        chosen = np.zeros(env.game_spec.actions, dtype=np.int64)  # the policy's actions in unfinished games
        length = np.zeros(games, dtype=np.int64)
        g = torch.Generator(device="cpu").manual_seed(seed)
        while (result == -2).any():
            with torch.no_grad():
                logits, _ = net.observe(obs, prefix=prefix)
                logp = net.log_probs(logits, torch.from_numpy(np.array(info["action_mask"])).to(dev))
                if sample:
                    a = torch.multinomial(torch.softmax(logp / temperature, 1).cpu(), 1, generator=g).squeeze(1)
                else:
                    a = logp.argmax(1).cpu()
            playing = result == -2
            chosen += np.bincount(a.numpy()[playing], minlength=len(chosen))[: len(chosen)]
            length[playing] += 1
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
        mean_length=float(length.mean()) if games else math.nan,
        actions=action_counts(env.game_spec, chosen, games),
        do_nothing_share=float(chosen[0] / chosen.sum()) if chosen.sum() else math.nan,
    )


def action_counts(spec: GameSpec, chosen: np.ndarray[Any, Any], games: int) -> dict[str, float]:
    """The mean number per game of each action the policy chose (``chosen[a]`` times action a in ``games`` games).

    Actions are named by the spec's action names, or by their command where
    the spec factors them into commands and cells; the :data:`TOP_ACTIONS`
    most frequent come first, the others are summed as ``"other"``.
    """
    by_name: dict[str, int] = {}
    names = spec.action_factors.commands if spec.action_factors else spec.action_names
    for a in np.flatnonzero(chosen):
        i = spec.action_factors.command[a] if spec.action_factors else a
        name = names[i] if i < len(names) else str(int(a))
        by_name[name] = by_name.get(name, 0) + int(chosen[a])
    ranked = sorted(by_name.items(), key=lambda kv: (-kv[1], kv[0]))
    out = {name: n / max(games, 1) for name, n in ranked[:TOP_ACTIONS]}
    if len(ranked) > TOP_ACTIONS:
        out["other"] = sum(n for _, n in ranked[TOP_ACTIONS:]) / max(games, 1)
    return out


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

