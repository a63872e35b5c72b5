"""Arrow decoding and the hand-written wire format, without a server."""

from __future__ import annotations

import numpy as np
import pyarrow as pa
import pytest
from arrowgen import ACTIONS, NAMES, PLANES, arrays, batch_message, schema, schema_message

from botarena.batch import BatchDecoder, encode_step_request, parse_step_message
from botarena.spec import GameSpec, observation_space
from botarena.v1 import env_pb2


@pytest.fixture
def decoder() -> BatchDecoder:
    return BatchDecoder(schema_message(schema()))


def test_spec_from_schema(decoder: BatchDecoder) -> None:
    spec = decoder.spec
    assert spec.game == "bomberman"
    assert spec.seats == 4
    assert spec.actions == ACTIONS
    assert spec.action_names == tuple(NAMES)
    assert spec.max_steps == 442
    assert [t.name for t in spec.observations] == ["planes", "scalars"]
    assert spec.observation("planes").shape == PLANES
    assert spec.observation("planes").dtype == np.uint8
    assert spec.observation("scalars").dtype == np.float32


@pytest.mark.parametrize("rows", [1, 5, 64])
def test_decode_values(decoder: BatchDecoder, rows: int) -> None:
    a = arrays(rows)
    b = decoder.decode(batch_message(decoder.schema, a))
    assert b.rows == rows
    assert b.obs["planes"].shape == (rows, *PLANES) and b.obs["planes"].dtype == np.uint8
    assert b.obs["scalars"].shape == (rows, 8) and b.obs["scalars"].dtype == np.float32
    assert b.mask.shape == (rows, ACTIONS) and b.mask.dtype == np.uint8
    for name in ["planes", "scalars"]:
        np.testing.assert_array_equal(b.obs[name], a[name])
    np.testing.assert_array_equal(b.mask, a["mask"])
    for name in ["reward", "terminated", "truncated", "env", "seat", "episode"]:
        got = getattr(b, name)
        assert got.dtype == a[name].dtype, name
        np.testing.assert_array_equal(got, a[name])
    space = observation_space(decoder.spec)
    assert space.contains({k: v[0] for k, v in b.obs.items()})


def test_decode_zero_copy(decoder: BatchDecoder) -> None:
    msg = batch_message(decoder.schema, arrays(8))
    b = decoder.decode(msg)
    whole = np.frombuffer(msg, dtype=np.uint8)
    for arr in [b.obs["planes"], b.obs["scalars"], b.mask, b.reward, b.env, b.seat, b.episode]:
        assert np.shares_memory(arr, whole)
        assert not arr.flags.writeable
    # Bit-packed booleans are unpacked into new arrays.
    assert not np.shares_memory(b.terminated, whole)


def test_views_keep_message_alive(decoder: BatchDecoder) -> None:
    a = arrays(4)
    planes = decoder.decode(batch_message(decoder.schema, a)).obs["planes"]
    import gc

    gc.collect()
    np.testing.assert_array_equal(planes, a["planes"])


def test_decode_zstd(decoder: BatchDecoder) -> None:
    a = arrays(16)
    b = decoder.decode(batch_message(decoder.schema, a, compression="zstd"))
    np.testing.assert_array_equal(b.obs["planes"], a["planes"])
    np.testing.assert_array_equal(b.reward, a["reward"])


@pytest.mark.parametrize("final", [False, True])
def test_parse_step_message_matches_protobuf(decoder: BatchDecoder, final: bool) -> None:
    rows = 12
    a = arrays(rows)
    batch = batch_message(decoder.schema, a)
    ended = bytes([1, 0] * (rows // 2))
    resp = env_pb2.StepResponse(batch=batch, ended=ended, final_batch=batch if final else b"")
    raw = resp.SerializeToString()
    msg = parse_step_message(raw)
    assert msg.batch.to_pybytes() == batch
    assert msg.ended is not None and bytes(msg.ended) == ended
    assert (msg.final_batch is not None) == final
    b = decoder.decode(msg.batch)
    whole = np.frombuffer(raw, dtype=np.uint8)
    # The uint8 tensors alias the gRPC payload; every array is aligned.
    assert np.shares_memory(b.obs["planes"], whole)
    assert np.shares_memory(b.mask, whole)
    for arr in [b.obs["planes"], b.obs["scalars"], b.reward, b.env]:
        assert arr.flags.aligned
    np.testing.assert_array_equal(b.obs["scalars"], a["scalars"])
    np.testing.assert_array_equal(b.env, a["env"])


def test_parse_reset_response_and_unknown_fields() -> None:
    raw = env_pb2.ResetResponse(batch=b"abc").SerializeToString()
    msg = parse_step_message(raw + b"\x20\x05")  # an unknown varint field 4
    assert msg.batch.to_pybytes() == b"abc" and msg.ended is None and msg.final_batch is None
    with pytest.raises(ValueError):
        parse_step_message(raw[:-1])


@pytest.mark.parametrize("reset", [False, True])
def test_encode_step_request(reset: bool) -> None:
    actions = np.arange(300, dtype="<i4").tobytes()
    raw = encode_step_request(b"pool-1", actions, reset)
    req = env_pb2.StepStreamRequest.FromString(raw)
    assert req.pool_id == "pool-1" and req.actions == actions and req.reset == reset
    req2 = env_pb2.StepRequest.FromString(encode_step_request(b"p", actions))
    assert req2.pool_id == "p" and req2.actions == actions
    assert env_pb2.StepStreamRequest.FromString(encode_step_request(b"", b"")).pool_id == ""


def test_spec_from_proto_and_spaces() -> None:
    msg = env_pb2.GameSpec(
        game="bomberman",
        seats=4,
        observations=[
            env_pb2.TensorSpec(name="planes", dtype="uint8", shape=list(PLANES)),
            env_pb2.TensorSpec(name="scalars", dtype="float32", shape=[8]),
        ],
        actions=7,
        action_names=NAMES,
        max_steps=442,
    )
    spec = GameSpec.from_proto(msg)
    assert spec.seats == 4 and spec.actions == 7 and spec.action_names == tuple(NAMES)
    space = observation_space(spec)
    assert set(space.spaces) == {"planes", "scalars"}
    planes = space["planes"]
    assert planes.shape == PLANES and planes.dtype == np.uint8
    assert planes.low.min() == 0 and planes.high.max() == 255
    scalars = space["scalars"]
    # Finite bounds (the float32 range), so that check_env does not warn.
    assert scalars.dtype == np.float32 and (scalars.high == np.finfo(np.float32).max).all()
    assert (scalars.low == np.finfo(np.float32).min).all()
    # Same spec from the proto and from the Arrow schema (layouts aside).
    from_schema = GameSpec.from_schema_metadata(schema())
    assert [(t.name, t.dtype, t.shape) for t in from_schema.observations] == [
        (t.name, t.dtype, t.shape) for t in spec.observations
    ]
    assert from_schema.actions == spec.actions and from_schema.seats == spec.seats


def test_pa_buffer_input(decoder: BatchDecoder) -> None:
    msg = batch_message(decoder.schema, arrays(3))
    b = decoder.decode(pa.py_buffer(msg))
    assert b.rows == 3
