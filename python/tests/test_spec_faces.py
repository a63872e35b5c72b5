"""The game spec and the pool statistics have one schema, the proto's: Python's dataclasses carry every field of their messages.

The Go side checks that every field of env.Spec reaches the proto's GameSpec
(rpc/envproto's TestEveryFieldOfSpecReachesTheProto) and that the native
backend and ``botarena games --json`` print that message; this checks the
last face, Python's dataclasses, against the message's descriptor.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import numpy as np
import pytest

from botarena.pool import OpponentStats, PoolStats, SeatStats
from botarena.spec import ActionFactors, GameSpec, TensorSpec
from botarena.v1 import env_pb2


@pytest.mark.parametrize(
    "cls, message",
    [
        (GameSpec, env_pb2.GameSpec),
        (TensorSpec, env_pb2.TensorSpec),
        (ActionFactors, env_pb2.ActionFactors),
        (PoolStats, env_pb2.StatsResponse),
        (SeatStats, env_pb2.SeatStats),
        (OpponentStats, env_pb2.OpponentStats),
    ],
    ids=["GameSpec", "TensorSpec", "ActionFactors", "PoolStats", "SeatStats", "OpponentStats"],
)
def test_every_proto_field_has_a_dataclass_field(cls: Any, message: Any) -> None:
    proto_fields = [f.name for f in message.DESCRIPTOR.fields]
    assert [f.name for f in dataclasses.fields(cls)] == proto_fields


def full_spec() -> env_pb2.GameSpec:
    """A GameSpec message with every field set (checked below, so that a new field must be set here)."""
    msg = env_pb2.GameSpec(
        game="g",
        seats=2,
        observations=[env_pb2.TensorSpec(name="planes", dtype="float32", shape=[3, 4, 5], layout="[C,H,W]", shared=[1])],
        actions=4,
        action_names=["a", "b", "c", "d"],
        max_steps=9,
        reward="+1 for a win",
        action_factors=env_pb2.ActionFactors(commands=["noop", "fire"], cells=3, command=[0, 1, 1, 1], cell=[0, 0, 1, 2]),
    )
    for m in (msg, msg.observations[0], msg.action_factors):
        for f in m.DESCRIPTOR.fields:
            value = getattr(m, f.name)
            repeated = hasattr(value, "__len__") and not isinstance(value, str)
            assert (len(value) if repeated else m.HasField(f.name) if f.message_type else value), f"{f.full_name} not set"
    return msg


def test_from_proto_carries_every_field() -> None:
    spec = GameSpec.from_proto(full_spec())
    for obj in (spec, spec.observations[0], spec.action_factors):
        for f in dataclasses.fields(obj):  # type: ignore[arg-type]
            value = getattr(obj, f.name)
            assert value not in ((), "", 0, None), f"{type(obj).__name__}.{f.name} was not read from the message"
    t = spec.observations[0]
    assert (t.dtype, t.shape, t.shared) == (np.dtype("float32"), (3, 4, 5), (1,))
    assert spec.action_factors == ActionFactors(("noop", "fire"), 3, (0, 1, 1, 1), (0, 0, 1, 2))


def test_pool_stats_from_proto_carries_every_field() -> None:
    seat = env_pb2.SeatStats(seat=1, episodes=2, steps=3, return_sum=4.5, wins=5, draws=6, losses=7)
    opp = env_pb2.OpponentStats(seat=2, name="sniper", weight=0.5, episodes=8, wins=9, draws=10, losses=11, invalid=12)
    msg = env_pb2.StatsResponse(seats=[seat], steps=13, opponents=[opp], invalid=14)
    for m in (msg, seat, opp):
        for f in m.DESCRIPTOR.fields:
            assert getattr(m, f.name), f"{f.full_name} not set"
    assert PoolStats.from_proto(msg) == PoolStats(
        seats=(SeatStats(1, 2, 3, 4.5, 5, 6, 7),), steps=13, opponents=(OpponentStats(2, "sniper", 0.5, 8, 9, 10, 11, 12),), invalid=14
    )
