"""What a training run depends on: :class:`TrainConfig` and the per-game defaults.

A game's defaults (its reference bot, the fixed members of a self-play
league, the policy network, reward shaping, and the discount and entropy
coefficient where the game needs values other than the trainer's) live in
the game's Go package (``env.Kit``) and come with its spec: ListGames'
:class:`botarena.GameInfo`. :func:`game_defaults` reads them from there;
nothing here is keyed by a game's name.
"""

from __future__ import annotations

import dataclasses
import functools
import json
import math
import os
from typing import Any, Iterable, Mapping, Sequence

from botarena.client import Client
from botarena.server import Server, bots_dirs
from botarena.spec import GameInfo, TrainingDefaults

__all__ = [
    "DEFAULT_ENT_COEF",
    "DEFAULT_GAMMA",
    "FALLBACK_NETWORK",
    "GameDefaults",
    "MixGroup",
    "TrainConfig",
    "auto_threads",
    "game_defaults",
    "game_info",
    "parse_mix",
    "parse_opponents",
]

#: The network of a game whose spec brings no training defaults: two 32-channel convolutions of
#: stride 1 and a 256-wide trunk.
FALLBACK_NETWORK = TrainingDefaults(channels=(32, 32), strides=(1, 1), hidden=256)

#: The trainer's discount, for a game whose training defaults set none.
DEFAULT_GAMMA = 0.99

#: The trainer's entropy coefficient, for a game whose training defaults set none.
DEFAULT_ENT_COEF = 0.01


@dataclasses.dataclass(frozen=True)
class GameDefaults:
    """One game's training defaults, what :meth:`TrainConfig.resolved` fills the unset fields from."""

    opponent: str  # the bot training plays against: the game's reference bot ("random" for a game without one)
    league_bots: tuple[str, ...]  # the fixed members of a --self-play league (empty: the opponent alone)
    channels: tuple[int, ...]  # conv channels
    strides: tuple[int, ...]  # conv strides
    hidden: int  # trunk width
    config: Mapping[str, Any]  # game config fields for training (reward shaping)
    gamma: float = DEFAULT_GAMMA  # discount: the game's, else the trainer's
    ent_coef: float = DEFAULT_ENT_COEF  # entropy coefficient: the game's, else the trainer's


@functools.lru_cache(maxsize=8)
def _games(address: str, binary: str) -> dict[str, GameInfo]:
    """ListGames of the server at address ("" = a local server started for the call), by name.

    binary is $BOTARENA_BIN when the call starts a local server: part of the cache key only, so
    that a process that points it at another build (one with more games) asks that build.
    """
    if address:
        with Client(address) as c:
            return {g.name: g for g in c.list_games()}
    with Server() as server, Client(server.address) as c:
        return {g.name: g for g in c.list_games()}


def game_info(game: str, address: str | None = None) -> GameInfo:
    """The spec of ``game`` as the server at ``address`` lists it (default: a local server's).

    Raises ValueError for a game the server does not have, listing those it has.
    """
    games = _games(address or "", "" if address else os.environ.get("BOTARENA_BIN", ""))
    if game not in games:
        raise ValueError(f"unknown game {game!r} (games: {', '.join(sorted(games))})")
    return games[game]


def game_defaults(game: str | GameInfo, address: str | None = None) -> GameDefaults:
    """The training defaults of ``game``, read from its spec (:func:`game_info`, or a GameInfo given).

    A game without a reference bot trains against ``random``; one without training defaults
    gets :data:`FALLBACK_NETWORK` and no reward shaping; one that sets no discount or entropy
    coefficient gets :data:`DEFAULT_GAMMA` and :data:`DEFAULT_ENT_COEF`.
    """
    info = game if isinstance(game, GameInfo) else game_info(game, address)
    t = info.training or FALLBACK_NETWORK
    if not t.channels:
        t = dataclasses.replace(t, channels=FALLBACK_NETWORK.channels, strides=FALLBACK_NETWORK.strides)
    return GameDefaults(
        opponent=info.reference_agent or "random",
        league_bots=info.training_opponents,
        channels=tuple(t.channels),
        strides=tuple(t.strides) or (1,) * len(t.channels),
        hidden=t.hidden or FALLBACK_NETWORK.hidden,
        config=dict(t.config),
        gamma=t.gamma or DEFAULT_GAMMA,
        ent_coef=t.ent_coef or DEFAULT_ENT_COEF,
    )


def cpu_has_bfloat16(cpuinfo: str = "/proc/cpuinfo") -> bool | None:
    """Whether this CPU has bfloat16 matrix instructions, as Linux's ``/proc/cpuinfo`` lists them.

    True when its flags name ``avx512_bf16`` or ``amx_bf16`` (x86) or its features ``bf16``
    (arm64); False when the file lists flags or features without them; None when there is no such
    file (another system) or it cannot be read: unknown. ``--bf16`` pays only with them: on a CPU
    without, PyTorch's bfloat16 autocast emulates the products, and the update ran 6.9-7.8 times
    slower than in float32 on the AVX2-only 2-core machine (bench/2026-11-29-battlecube-bf16.txt).
    """
    try:
        with open(cpuinfo, encoding="utf-8", errors="replace") as f:
            text = f.read(1 << 20)
    except OSError:
        return None
    listed = False
    for line in text.splitlines():
        key, sep, value = line.partition(":")
        if sep and key.strip() in ("flags", "Features"):
            listed = True
            if {"avx512_bf16", "amx_bf16", "bf16"} & set(value.split()):
                return True
    return False if listed else None


def auto_threads(cores: int | None = None, load: float | None = None) -> int:
    """The torch CPU threads for a run: the free cores when it starts.

    Free cores are the cores this process may run on (``os.sched_getaffinity``) less the
    one-minute load average (``os.getloadavg``), rounded to the nearest whole core; the result is
    at least 1 and at most the cores. ``cores`` and ``load`` replace the measured values (tests).
    ``--threads N`` overrides the rule.

    Why: on the 2-core machine, PyTorch's default of one thread per core made the update about
    2.5 times slower than one thread while other work kept the cores busy (the threads wait on
    each other at every operation), and 1.5 times faster when the machine was idle
    (docs/training.md).
    """
    if cores is None:
        cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
    if load is None:
        try:
            load = os.getloadavg()[0]
        except OSError:  # no load average on this platform
            load = 0.0
    return max(1, min(cores, math.floor(cores - load + 0.5)))


def parse_opponents(text: str) -> list[tuple[str, float]]:
    """The opponent mixture of ``--opponent``: ``[(agent spec, weight), ...]`` in the order given.

    ``text`` is one agent (``"sniper"``) or several separated by commas, each
    optionally weighted by a ``*W`` suffix (``"sniper*2,nop,huggy"``: sniper in
    half of the episodes, nop and huggy in a quarter each); an agent without
    one weighs 1. Every env draws its opponent from the mixture at each episode
    start (:meth:`botarena.Pool.set_opponents`).

    Raises ValueError for an empty agent, a weight that is not a finite number
    above 0, or an agent named twice.
    """
    mix: list[tuple[str, float]] = []
    for part in text.split(","):
        spec, star, w = part.strip().rpartition("*")
        if not star:
            spec, w = w, "1"
        spec = spec.strip()
        try:
            weight = float(w)
        except ValueError:
            raise ValueError(f"opponent {part.strip()!r}: the weight after '*' must be a number, got {w!r}") from None
        if not spec:
            raise ValueError(f"opponent mixture {text!r}: an empty agent (want AGENT or AGENT*WEIGHT, comma separated)")
        if not (math.isfinite(weight) and weight > 0):
            raise ValueError(f"opponent {spec!r}: the weight must be a finite number above 0, got {w!r}")
        if any(spec == s for s, _ in mix):
            raise ValueError(f"opponent mixture {text!r}: {spec!r} is named twice")
        mix.append((spec, weight))
    return mix


@dataclasses.dataclass(frozen=True)
class MixGroup:
    """One group of a mixed run (``--mix``): a game (variant) with its own envs, config and opponents.

    ``weight`` is its share of the run's envs (``num_envs`` split by weight); ``opponent`` an
    ``--opponent`` mixture ("" = the run's ``--opponent``); ``config`` the game config fields laid
    over the run's ``--config``; ``imitate`` the agent whose decisions ``--imitate`` records in this
    group (None = the run's ``--imitate``, "" = none here); ``name`` labels its curve columns and
    evaluation (default: the game, numbered when two groups share it).
    """

    game: str
    weight: float = 1.0
    opponent: str = ""
    config: Mapping[str, Any] = dataclasses.field(default_factory=dict)
    imitate: str | None = None
    name: str = ""


_MIX_KEYS = {"game", "weight", "opponent", "config", "imitate", "name"}


def parse_mix(text: str) -> list[MixGroup]:
    """The groups of ``--mix``: ``GAME[*WEIGHT],...`` (``battlecube*2,battlecube/tasks3``: two
    thirds of the envs in one-task cubes, a third in ``tasks3``), or a JSON list of objects with
    the keys of :class:`MixGroup` (``[{"game": "battlecube/2p", "weight": 0.5, "opponent":
    "stalker", "config": {"history": true}, "imitate": ""}]``) for a group's own opponents, config
    or teacher. A group without a name is named after its game, ``GAME#K`` (K its index) where
    two groups share the game. "" is no mix: an empty list.

    Raises ValueError for an empty game, a weight that is not a finite number above 0, an unknown
    key, a JSON entry that is not an object, or two groups of one name.
    """
    text = text.strip()
    if not text:
        return []
    groups: list[MixGroup] = []
    if text.startswith("["):
        try:
            items = json.loads(text)
        except json.JSONDecodeError as e:
            raise ValueError(f"mix: not JSON: {e}") from None
        if not isinstance(items, list) or not items:
            raise ValueError("mix: want a non-empty JSON list of objects")
        for item in items:
            if not isinstance(item, dict) or not isinstance(item.get("game"), str):
                raise ValueError(f"mix: each entry must be an object with a \"game\" string, got {item!r}")
            unknown = set(item) - _MIX_KEYS
            if unknown:
                raise ValueError(f"mix: unknown key(s) {sorted(unknown)} (keys: {', '.join(sorted(_MIX_KEYS))})")
            if not isinstance(item.get("config", {}), dict):
                raise ValueError(f"mix: {item['game']!r}: \"config\" must be an object")
            groups.append(
                MixGroup(
                    game=item["game"].strip(),
                    weight=float(item.get("weight", 1.0)),
                    opponent=str(item.get("opponent", "")),
                    config=dict(item.get("config", {})),
                    imitate=None if item.get("imitate") is None else str(item["imitate"]),
                    name=str(item.get("name", "")),
                )
            )
    else:
        for game, weight in parse_opponents(text):  # the same GAME*WEIGHT syntax, each named once
            groups.append(MixGroup(game=game, weight=weight))
    for g in groups:
        if not g.game:
            raise ValueError(f"mix {text!r}: an empty game")
        if not (math.isfinite(g.weight) and g.weight > 0):
            raise ValueError(f"mix: {g.game!r}: the weight must be a finite number above 0, got {g.weight}")
    games = [g.game for g in groups]
    named = [
        g if g.name else dataclasses.replace(g, name=g.game if games.count(g.game) == 1 else f"{g.game}#{k}") for k, g in enumerate(groups)
    ]
    names = [g.name for g in named]
    dup = sorted({n for n in names if names.count(n) > 1})
    if dup:
        raise ValueError(f"mix: two groups named {dup[0]!r}")
    return named


def split_envs(num_envs: int, groups: Sequence[MixGroup], minimum: Sequence[int]) -> list[int]:
    """``num_envs`` shared over the groups by weight (largest remainders), each group at least its
    ``minimum`` (its learner seats). Raises ValueError when the minimums exceed num_envs."""
    if sum(minimum) > num_envs:
        raise ValueError(f"mix: {num_envs} envs cannot cover the groups' learner seats ({', '.join(f'{g.name}: {m}' for g, m in zip(groups, minimum))}): raise --num-envs")
    total = sum(g.weight for g in groups)
    exact = [num_envs * g.weight / total for g in groups]
    counts = [max(m, int(x)) for x, m in zip(exact, minimum)]
    while sum(counts) > num_envs:  # minimums pushed it over: take from the largest above its minimum
        k = max((k for k in range(len(counts)) if counts[k] > minimum[k]), key=lambda k: counts[k] - exact[k])
        counts[k] -= 1
    while sum(counts) < num_envs:
        k = max(range(len(counts)), key=lambda k: exact[k] - counts[k])
        counts[k] += 1
    return counts


def latest_checkpoint(out: str | os.PathLike[str]) -> str:
    """The newest resumable checkpoint of a run directory, ``OUT/checkpoints/update_N.pt`` with the
    largest N, or "" when there is none (``--resume auto``: a run restarted with the same command
    continues where it stopped)."""
    d = os.path.join(os.fspath(out), "checkpoints")
    if not os.path.isdir(d):
        return ""
    found = [f for f in os.listdir(d) if f.startswith("update_") and f.endswith(".pt") and f[7:-3].isdigit()]
    return os.path.join(d, max(found, key=lambda f: int(f[7:-3]))) if found else ""


def member_name(spec: str) -> str:
    """A league member's name for an agent spec: a ``policy:`` file's name without its folder, its
    ``.policy.safetensors`` (or ``.safetensors``) suffix and its query (``policy:policies/battlebots-all.policy.safetensors?sample``
    is ``battlebots-all``); any other spec is its own name."""
    kind, sep, rest = spec.partition(":")
    if not sep or kind != "policy":
        return spec
    name = os.path.basename(rest.partition("?")[0])
    for suffix in (".policy.safetensors", ".safetensors"):
        if name.endswith(suffix):
            return name[: -len(suffix)]
    return name


@dataclasses.dataclass
class TrainConfig:
    """Everything a run depends on; the defaults train a BattleBots bot on a laptop CPU."""

    game: str = "battlebots"
    opponent: str = ""  # "" = the game's reference bot (its spec's reference_agent); "a*2,b" a mixture (parse_opponents)
    config: dict[str, Any] = dataclasses.field(default_factory=dict)  # game config fields
    minutes: float = 10.0  # wall-clock budget for training (0 = no limit)
    total_steps: int = 0  # learner steps budget (0 = no limit)
    num_envs: int = 64
    num_steps: int = 128  # rollout length per env and update
    lr: float = 2.5e-4
    anneal_lr: bool = True
    gamma: float | None = None  # discount (None = the game's training default, else DEFAULT_GAMMA)
    gae_lambda: float = 0.95
    update_epochs: int = 4
    minibatches: int = 4
    clip: float = 0.2
    ent_coef: float | None = None  # entropy coefficient (None = the game's, else DEFAULT_ENT_COEF)
    vf_coef: float = 0.5
    max_grad_norm: float = 0.5
    channels: tuple[int, ...] = ()  # conv channels (empty = the game's training defaults)
    strides: tuple[int, ...] = ()  # conv strides (empty = the game's, or 1s with channels)
    hidden: int = 0  # trunk width (0 = the game's)
    head: str = "auto"  # policy head: "auto" (factored where the game's spec factors its actions), "flat", "factored", "factored-per-command"
    seed: int = 1
    device: str = "auto"
    threads: int = 0  # torch CPU threads (0 = the free cores at the start, auto_threads)
    overlap: bool = False  # collect the next rollout (with the weights before the update) while updating
    backend: str = "auto"  # the rollout's envs: "remote" (the server), "native" (in process); "auto": native on a GPU
    bf16: bool = False  # the update's encoders and trunk in bfloat16 autocast (PolicyNet.forward_prepared)
    out: str = "runs/botarena"
    checkpoint_every: int = 25  # updates (0 = only the final policy)
    eval_games: int = 200  # evaluation games from each seat after training (0 = none)
    gauntlet_games: int = 50  # games per pairing and seating against the game's gauntlet after training (0 = none)
    resume: str = ""  # a checkpoints/*.pt to continue from; "auto": OUT's newest, if any (latest_checkpoint)
    init: str = ""  # a policy file whose architecture and weights the run starts from ("" = fresh weights)
    address: str = ""  # a running botarena serve ("" = start one)
    quiet: bool = False
    track: tuple[str, ...] = ()  # experiment trackers: "tensorboard" (OUT/tb), "wandb" (botarena.train.track)
    learner_seats: tuple[int, ...] = ()  # seats the learner plays, envs split evenly (empty = every seat)
    self_play: bool = False  # train against a league of snapshots and the reference bots
    snapshot_every: int = 10  # updates between league snapshots (self-play)
    league: str = ""  # league directory ("" = OUT/league)
    league_games: int = 40  # league games after each snapshot
    league_match: str = "pfsp"  # "pfsp" (against the newest snapshot) or "round-robin"
    league_bots: tuple[str, ...] = ()  # fixed league members (empty = the game's training_opponents)
    pfsp_k: int = 0  # opponents drawn into the training mixture (0 = every league member)
    snapshot_keep: int = 8  # the newest snapshots kept in the training mixture (0 = all)
    snapshot_share: float = 0.25  # the most weight the snapshots get together in the training mixture
    skip_forced: bool = False  # leave the steps with one legal action out of the update (GAE keeps them)
    imitate: str = ""  # a built-in agent whose games the network is fitted to before PPO ("" = none)
    imitate_games: int = 1000  # games of the imitated agent, shared over the opponent mixture by weight
    imitate_epochs: int = 10  # passes over its decisions
    imitate_lr: float = 1e-3  # Adam's learning rate while imitating
    imitate_coef: float = 0.0  # during PPO, this × the cross-entropy on the teacher's decisions (0 = off)
    value_warmup: int = 0  # the run's first N updates train the value head alone (the rest of the network frozen; 0 = off)
    dagger_rounds: int = 0  # after the clone: rounds of the clone's own games labelled by the teacher, refitted (DAgger)
    dagger_games: int = 200  # games of the clone a round, shared over the opponent mixture by weight, over every seat
    dagger_epochs: int = 3  # passes over all decisions so far after each round
    imitate_actions: str = ""  # "LO:HI": imitate only the teacher's decisions whose action is in [LO, HI) ("" = all)
    imitate_alone: bool = False  # the teacher (or the dagger: student) alone against copies of the opponent in every other seat
    mix: str = ""  # several games (variants) in one run, envs split by weight: parse_mix's text ("" = game alone)

    def groups(self) -> list[MixGroup]:
        """The run's groups: :func:`parse_mix` of ``mix``, each group's opponent and config filled
        in (its own over the run's: the opponent given, else the run's; the group's config fields
        laid over the run's ``config``, laid over the group's game's training config); without
        ``mix``, one group of ``game`` alone."""
        mix = parse_mix(self.mix)
        if not mix:
            return [MixGroup(game=self.game, opponent=self.resolved_opponent(), config=dict(self.config), imitate=self.imitate, name=self.game)]
        return [
            dataclasses.replace(
                g,
                opponent=g.opponent or self.opponent or game_defaults(g.game, self.address or None).opponent,
                config={**game_defaults(g.game, self.address or None).config, **self.config, **g.config},
                imitate=self.imitate if g.imitate is None else g.imitate,
            )
            for g in mix
        ]

    def resolved_opponent(self) -> str:
        """The opponent: the one given, else the game's reference bot."""
        return self.opponent or game_defaults(self.game, self.address or None).opponent

    def opponents(self) -> list[tuple[str, float]]:
        """The opponent mixture, :func:`parse_opponents` of :meth:`resolved_opponent`."""
        return parse_opponents(self.resolved_opponent())

    def resolved(self) -> TrainConfig:
        """A copy with the unset fields filled from the game's defaults (:func:`game_defaults`,
        from the spec of the server at ``address``, or a local one's).

        Every field is set in the copy: ``gamma`` and ``ent_coef`` are floats (a value given,
        --gamma and --ent-coef on the command line, wins over the game's)."""
        d = game_defaults(self.game, self.address or None)
        opponent = self.resolved_opponent()
        channels = self.channels or d.channels
        strides = self.strides or (d.strides if not self.channels else (1,) * len(channels))
        return dataclasses.replace(
            self,
            opponent=self.opponent if self.mix else opponent,  # --mix: each group's game's reference bot by default (groups)
            channels=channels,
            strides=strides,
            hidden=self.hidden or d.hidden,
            gamma=d.gamma if self.gamma is None else self.gamma,
            ent_coef=d.ent_coef if self.ent_coef is None else self.ent_coef,
            # With --mix each group lays its own game's defaults under the run's config (groups).
            config=dict(self.config) if self.mix else {**d.config, **self.config},
            league_bots=self.league_bots or d.league_bots or tuple(spec for spec, _ in parse_opponents(opponent)),
            league=self.league or os.path.join(self.out, "league"),
            resume=latest_checkpoint(self.out) if self.resume == "auto" else self.resume,
        )

    def server_args(self, league_specs: Iterable[str] = ()) -> list[str]:
        """The ``botarena serve`` flags of the trainer's own server: pools that never idle out, and the narrowest ``--bots-dir`` folders.

        ``--max-client-connections`` 64 a group with ``--mix`` of several groups (the trainer's pools
        hold a connection per stepping thread, past the server's default of 64 a client).

        ``--idle-timeout 0``: the server is the run's alone and dies with it,
        and its pools must outlive the minutes the run spends without
        stepping them (``--imitate`` and ``--dagger-rounds`` play and fit for
        longer than the default 10 minutes before PPO's first step).

        The folders of the ``policy:`` and ``dir:`` agents among the opponents
        and ``league_specs`` (the self-play league's members), and in self-play
        the run's ``checkpoints`` folder (its snapshots): the server plays
        those and nothing elsewhere; none at all for built-in opponents
        alone (:func:`botarena.server.bots_dirs`; folders that do not exist
        are left out, so that their agents fail as unknown). The token that
        keeps other processes off the server is :class:`botarena.Server`'s.
        """
        groups = self.groups()
        specs = [spec for g in groups for spec, _ in parse_opponents(g.opponent)]
        specs += list(league_specs)
        if self.self_play:
            specs.append("dir:" + os.path.join(os.path.abspath(self.out), "checkpoints"))
        args: list[str] = ["--idle-timeout", "0"]
        if len(groups) > 1:
            # Each group's pools take a connection per stepping thread: a mix of several groups
            # outgrows the server's default of 64 connections a client.
            args += ["--max-client-connections", str(64 * len(groups))]
        for folder in bots_dirs(specs):
            if os.path.isdir(folder):
                args += ["--bots-dir", folder]
        return args

    def unshaped_config(self) -> dict[str, Any]:
        """The game config without reward shaping, for evaluation and league games."""
        return {k: v for k, v in self.config.items() if not k.endswith("_reward")}

