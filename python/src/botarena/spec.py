"""Game specs and the Gymnasium spaces built from them."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from collections.abc import Mapping
from typing import Any

import numpy as np
from gymnasium import spaces

from botarena.v1 import env_pb2

__all__ = ["TensorSpec", "ActionFactors", "GameSpec", "ConfigField", "TrainingDefaults", "GameInfo", "tensor_space", "observation_space", "flat_space", "mask_space"]


@dataclass(frozen=True)
class TensorSpec:
    """One observation tensor of a seat: its name, numpy dtype, per-row shape and layout text.

    ``shared`` lists the channels (indices along the first axis) every seat
    of an env sees alike, which a pool with ``shared_planes`` sends once per
    env (see :class:`~botarena.batch.BatchDecoder`).
    """

    name: str
    dtype: np.dtype[Any]
    shape: tuple[int, ...]
    layout: str = ""
    shared: tuple[int, ...] = ()

    @property
    def size(self) -> int:
        """The number of elements of one row."""
        return int(np.prod(self.shape, dtype=np.int64))


@dataclass(frozen=True)
class ActionFactors:
    """A factored action space (the proto's ActionFactors): action ``a`` is command ``command[a]``
    (one of ``commands``) aimed at cell ``cell[a]`` (one of ``cells``); no two actions share a pair."""

    commands: tuple[str, ...]
    cells: int
    command: tuple[int, ...]
    cell: tuple[int, ...]

    @classmethod
    def from_proto(cls, msg: env_pb2.ActionFactors) -> ActionFactors:
        """Builds ActionFactors from its protobuf message."""
        return cls(commands=tuple(msg.commands), cells=int(msg.cells), command=tuple(msg.command), cell=tuple(msg.cell))


@dataclass(frozen=True)
class GameSpec:
    """What each seat of a configured game sees and may do (the proto's GameSpec).

    ``action_factors`` splits the actions into commands and cells for a game whose actions are
    commands aimed at cells (Battleships), None for a flat action space.
    """

    game: str
    seats: int
    observations: tuple[TensorSpec, ...]
    actions: int
    action_names: tuple[str, ...] = ()
    max_steps: int = 0
    reward: str = ""
    action_factors: ActionFactors | None = None

    @classmethod
    def from_proto(cls, msg: env_pb2.GameSpec) -> GameSpec:
        """Builds a GameSpec from its protobuf message."""
        return cls(
            game=msg.game,
            seats=int(msg.seats),
            observations=tuple(
                TensorSpec(t.name, np.dtype(t.dtype), tuple(int(d) for d in t.shape), t.layout, tuple(int(c) for c in t.shared))
                for t in msg.observations
            ),
            actions=int(msg.actions),
            action_names=tuple(msg.action_names),
            max_steps=int(msg.max_steps),
            reward=msg.reward,
            action_factors=ActionFactors.from_proto(msg.action_factors) if msg.HasField("action_factors") else None,
        )

    @classmethod
    def from_schema_metadata(cls, schema: Any) -> GameSpec:
        """Builds a GameSpec from an Arrow batch schema (its schema and field metadata)."""
        md = {k.decode(): v.decode() for k, v in (schema.metadata or {}).items()}
        tensors = []
        for f in schema:
            fmd = f.metadata or {}
            if f.name == "mask" or b"shape" not in fmd:
                continue
            tensors.append(
                TensorSpec(
                    f.name,
                    np.dtype(fmd[b"dtype"].decode()),
                    tuple(int(d) for d in json.loads(fmd[b"shape"])),
                    fmd.get(b"layout", b"").decode(),
                    tuple(int(c) for c in json.loads(fmd[b"shared"])) if b"shared" in fmd else (),
                )
            )
        return cls(
            game=md.get("game", ""),
            seats=int(md.get("seats", "0")),
            observations=tuple(tensors),
            actions=int(md.get("actions", "0")),
            action_names=tuple(json.loads(md.get("action_names", "[]"))),
            max_steps=int(md.get("max_steps", "0")),
            reward=md.get("reward", ""),
        )

    def observation(self, name: str) -> TensorSpec:
        """The observation tensor called name."""
        for t in self.observations:
            if t.name == name:
                return t
        raise KeyError(name)


@dataclass(frozen=True)
class ConfigField:
    """One field of a game's JSON config (the ``config`` of ``create_pool``).

    ``type`` is the JSON type ("integer", "number", "boolean", "string",
    "array" or "object"); ``default`` is the default config's value, decoded
    from JSON (``None`` for null); ``allowed`` states the values the game
    accepts, for example ``"2..12"`` or ``"auto, random, distance"``, and is
    empty when any value of the type is; ``doc`` is a one-line meaning.
    ``appends`` names the observation tensor the field only appends to
    (raising it adds elements at the end of that tensor's leading axis and
    changes nothing else; docs/add-a-game.md), empty for other fields.
    """

    name: str
    type: str
    default: Any = None
    allowed: str = ""
    doc: str = ""
    appends: str = ""

    @classmethod
    def from_proto(cls, msg: env_pb2.ConfigField) -> ConfigField:
        """Builds a ConfigField from its protobuf message."""
        return cls(
            name=msg.name,
            type=msg.type,
            default=json.loads(msg.default_json) if msg.default_json else None,
            allowed=msg.allowed,
            doc=msg.doc,
            appends=msg.appends,
        )


@dataclass(frozen=True)
class TrainingDefaults:
    """A game's defaults for a trainer, from its Go package (``env.Kit``).

    ``channels`` and ``strides`` are the convolution layers of the policy
    network, ``hidden`` the width of its trunk; ``config`` holds config
    fields applied over the game's defaults for training (reward shaping;
    evaluation plays the unshaped game). ``gamma`` (the discount, in
    (0, 1]) and ``ent_coef`` (the entropy coefficient, >= 0) are the PPO
    hyperparameters the game needs other values of; ``None`` means the
    trainer's default (the wire's 0), and a trainer's own setting wins.
    """

    channels: tuple[int, ...] = ()
    strides: tuple[int, ...] = ()
    hidden: int = 0
    config: dict[str, Any] = field(default_factory=dict)
    gamma: float | None = None
    ent_coef: float | None = None

    @classmethod
    def from_proto(cls, msg: env_pb2.TrainingDefaults) -> TrainingDefaults:
        """Builds TrainingDefaults from its protobuf message."""
        return cls(
            channels=tuple(msg.channels),
            strides=tuple(msg.strides),
            hidden=msg.hidden,
            config=json.loads(msg.config_json) if msg.config_json else {},
            gamma=msg.gamma or None,
            ent_coef=msg.ent_coef or None,
        )


@dataclass(frozen=True)
class GameInfo:
    """A registered game as ListGames reports it.

    ``config_fields`` describe every field of the game's config, in the
    order of the game's config struct. What the game's package says of
    itself comes with it: ``agent_summaries`` (one line per agent of
    ``agents``), ``reference_agent`` (the competition's reference bot, the
    default training opponent; "" for none), ``training_opponents`` (the
    fixed members of a self-play league) and ``training`` (the trainer's
    defaults, ``None`` for none).
    """

    name: str
    summary: str
    spec: GameSpec
    agents: tuple[str, ...]
    default_config: dict[str, Any] = field(default_factory=dict)
    config_fields: tuple[ConfigField, ...] = ()
    agent_summaries: dict[str, str] = field(default_factory=dict)
    reference_agent: str = ""
    training_opponents: tuple[str, ...] = ()
    training: TrainingDefaults | None = None

    @classmethod
    def from_proto(cls, msg: env_pb2.GameInfo) -> GameInfo:
        """Builds a GameInfo from its protobuf message."""
        return cls(
            name=msg.name,
            summary=msg.summary,
            spec=GameSpec.from_proto(msg.spec),
            agents=tuple(msg.agents),
            default_config=json.loads(msg.default_config_json) if msg.default_config_json else {},
            config_fields=tuple(ConfigField.from_proto(f) for f in msg.config_fields),
            agent_summaries=dict(msg.agent_summaries),
            reference_agent=msg.reference_agent,
            training_opponents=tuple(msg.training_opponents),
            training=TrainingDefaults.from_proto(msg.training) if msg.HasField("training") else None,
        )

    def config_field(self, name: str) -> ConfigField:
        """The config field called name."""
        for f in self.config_fields:
            if f.name == name:
                return f
        raise KeyError(name)

    def obs_prefix(self, trained: Mapping[str, Any] | None, config: Mapping[str, Any] | None) -> bool:
        """Whether every observation tensor of ``trained`` (a config, laid over the defaults) is a
        prefix, along its leading axis, of the same tensor of ``config``, by the rule of append-only
        fields (:attr:`ConfigField.appends`; docs/add-a-game.md), as Go's ``env.ObsPrefix`` decides.

        It holds when, tensor by tensor, in the config's field order, ``config`` keeps the value of
        each append-only field before ``trained``'s last non-zero one of that tensor, does not lower
        that last one, and sets any value after it (true is larger than false). It looks at the
        append-only fields only: whether the other fields change the observations is for the
        tensors' shapes to tell. A policy trained with ``trained`` then reads the first elements of
        ``config``'s tensors (:meth:`botarena.policy.PolicyNet.observe` with ``prefix``).
        """
        a = {**self.default_config, **(trained or {})}
        b = {**self.default_config, **(config or {})}
        fields = [f for f in self.config_fields if f.appends]
        last = {f.appends: i for i, f in enumerate(fields) if _append_value(a.get(f.name)) != 0}
        for i, f in enumerate(fields):
            j = last.get(f.appends)
            if j is None or i > j:
                continue
            va, vb = _append_value(a.get(f.name)), _append_value(b.get(f.name))
            if (i < j and vb != va) or (i == j and vb < va):
                return False
        return True


def _append_value(v: Any) -> int:
    """An append-only field's value as a number: false/null/0 is 0, true is 1."""
    if v is None or v is False:
        return 0
    if v is True:
        return 1
    return int(v)


def tensor_space(t: TensorSpec, dtype: type[np.floating[Any]] | np.dtype[Any] | None = None) -> spaces.Box:
    """The Box of one observation tensor, in its own dtype or in dtype (the same bounds).

    Bounds are what the tensor's dtype can hold, all finite: the integer
    range for integer tensors (uint8 planes are 0..255), the finite range
    of the float dtype for float tensors (float32 scalars: ±3.4e38, as
    Gymnasium's CartPole bounds its velocities), so that ``check_env`` does
    not warn. The spec states no tighter ranges; the games write no NaN or
    infinity.
    """
    if np.issubdtype(t.dtype, np.integer):
        info: np.iinfo | np.finfo = np.iinfo(t.dtype)  # type: ignore[type-arg]
    else:
        info = np.finfo(t.dtype)
    box_dtype = t.dtype if dtype is None else np.dtype(dtype)
    return spaces.Box(low=info.min, high=info.max, shape=t.shape, dtype=box_dtype)  # type: ignore[arg-type]


def observation_space(spec: GameSpec, dtype: type[np.floating[Any]] | np.dtype[Any] | None = None) -> spaces.Dict:
    """The observation space of one seat: a Dict of one Box per tensor (see :func:`tensor_space`).

    Gymnasium's Dict orders its keys by name; :func:`flat_space` follows that order.
    """
    return spaces.Dict({t.name: tensor_space(t, dtype) for t in spec.observations})


def flat_space(spec: GameSpec) -> spaces.Box:
    """One seat's observation as one float32 vector: every tensor flattened (C order), concatenated.

    The tensors come in the order of :func:`observation_space`'s keys, so that
    the vector and its bounds are what ``gymnasium.wrappers.FlattenObservation``
    makes of the Dict: ``size = sum(t.size)``, bounds as :func:`tensor_space`.
    """
    names = list(observation_space(spec).spaces)
    tensors = [spec.observation(n) for n in names]
    low = np.concatenate([np.full(t.size, tensor_space(t).low.flat[0], dtype=np.float32) for t in tensors])
    high = np.concatenate([np.full(t.size, tensor_space(t).high.flat[0], dtype=np.float32) for t in tensors])
    return spaces.Box(low=low, high=high, dtype=np.float32)


def mask_space(spec: GameSpec, dtype: type[np.integer[Any]] | np.dtype[Any] = np.uint8) -> spaces.Box:
    """The action mask of one seat: Box(0, 1, (actions,)) of dtype (1 legal, 0 not)."""
    return spaces.Box(low=0, high=1, shape=(spec.actions,), dtype=dtype)  # type: ignore[arg-type]
