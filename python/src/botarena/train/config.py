"""What a training run depends on: :class:`TrainConfig` and the per-game defaults.

The per-game tables (REFERENCE_BOTS, SELF_PLAY_BOTS, GAME_DEFAULTS) are read
only through :func:`game_defaults`, so that they can come from elsewhere (the
server's game spec, say) without touching the trainer.
"""

from __future__ import annotations

import dataclasses
import os
from typing import Any, Mapping

__all__ = ["GAME_DEFAULTS", "REFERENCE_BOTS", "SELF_PLAY_BOTS", "GameDefaults", "TrainConfig", "game_defaults"]

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


@dataclasses.dataclass(frozen=True)
class GameDefaults:
    """One game's training defaults, what :meth:`TrainConfig.resolved` fills the unset fields from."""

    opponent: str  # the bot training plays against: the game's reference bot ("random" for an unknown game)
    league_bots: tuple[str, ...]  # the fixed members of a --self-play league (empty: the opponent alone)
    channels: tuple[int, ...]  # conv channels
    strides: tuple[int, ...]  # conv strides
    hidden: int  # trunk width
    config: Mapping[str, Any]  # game config fields for training (reward shaping)


def game_defaults(game: str) -> GameDefaults:
    """The training defaults of ``game`` (a registry name such as ``bomberman/2p``: its base game's).

    A game missing from the tables trains against ``random`` with BattleBots' network.
    """
    base = _base(game)
    net = GAME_DEFAULTS.get(base, GAME_DEFAULTS["battlebots"])
    return GameDefaults(
        opponent=REFERENCE_BOTS.get(base, "random"),
        league_bots=SELF_PLAY_BOTS.get(base, ()),
        channels=tuple(net["channels"]),
        strides=tuple(net["strides"]),
        hidden=int(net["hidden"]),
        config=dict(net["config"]),
    )


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
        return self.opponent or game_defaults(self.game).opponent

    def resolved(self) -> TrainConfig:
        """A copy with the unset fields filled from the game's defaults (:func:`game_defaults`)."""
        d = game_defaults(self.game)
        opponent = self.resolved_opponent()
        channels = self.channels or d.channels
        strides = self.strides or (d.strides if not self.channels else (1,) * len(channels))
        return dataclasses.replace(
            self,
            opponent=opponent,
            channels=channels,
            strides=strides,
            hidden=self.hidden or d.hidden,
            config={**d.config, **self.config},
            league_bots=self.league_bots or d.league_bots or (opponent,),
            league=self.league or os.path.join(self.out, "league"),
        )

    def unshaped_config(self) -> dict[str, Any]:
        """The game config without reward shaping, for evaluation and league games."""
        return {k: v for k, v in self.config.items() if not k.endswith("_reward")}

