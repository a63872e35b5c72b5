"""The shipped gRPC stubs (botarena.v1.env_pb2_grpc) read Reset and Step with Python protobuf's upb parser.

upb reads a length prefix of at most 5 bytes and fails the whole message
("Exception deserializing response") on a longer one, so the server's
in-place encoding must stay within that (rpc/internal/wire); the batch still
starts at an 8-aligned offset of the message, for the zero-copy client.
"""

from __future__ import annotations

import os
from typing import Iterator

import grpc
import numpy as np
import pytest
from google.protobuf.internal import api_implementation

import botarena
import botarena.server
from botarena.batch import BatchDecoder
from botarena.v1 import env_pb2, env_pb2_grpc


@pytest.fixture
def stub(address: str) -> Iterator[tuple[env_pb2_grpc.EnvServiceStub, tuple[tuple[str, str], ...]]]:
    token = botarena.server.token_for(address) or os.environ.get("BOTARENA_AUTH_TOKEN", "")
    metadata = (("authorization", f"Bearer {token}"),) if token else ()
    channel = grpc.insecure_channel(address, options=[("grpc.max_receive_message_length", 512 << 20)])
    yield env_pb2_grpc.EnvServiceStub(channel), metadata
    channel.close()


@pytest.mark.parametrize("game, envs", [("battlebots", 3), ("bomberman", 64)])
def test_the_shipped_stubs_read_reset_and_step_with_upb(stub, game: str, envs: int) -> None:  # type: ignore[no-untyped-def]
    assert api_implementation.Type() == "upb", "Python protobuf's default parser is upb; this test is about it"
    s, md = stub
    pool = s.CreatePool(
        env_pb2.CreatePoolRequest(game=game, num_envs=envs, seed=7, auto_reset=env_pb2.AUTO_RESET_SAME_STEP), metadata=md, timeout=60
    )
    try:
        decoder = BatchDecoder(pool.arrow_schema)
        reset = s.Reset(env_pb2.ResetRequest(pool_id=pool.pool_id), metadata=md, timeout=60)
        assert isinstance(reset, env_pb2.ResetResponse) and len(reset.batch) > 0
        b = decoder.decode(reset.batch)
        assert b.rows == pool.rows
        rng = np.random.default_rng(3)
        finals = 0
        for _ in range(40):
            actions = rng.integers(0, pool.spec.actions, pool.rows, dtype="<i4")
            step = s.Step(env_pb2.StepRequest(pool_id=pool.pool_id, actions=actions.tobytes()), metadata=md, timeout=60)
            assert isinstance(step, env_pb2.StepResponse)
            b = decoder.decode(step.batch)
            assert b.rows == pool.rows and len(step.ended) == pool.rows
            if step.final_batch:
                finals += 1
                assert decoder.decode(step.final_batch).rows == pool.rows
        assert finals > 0 or game != "battlebots"
        # The stream's responses too.
        first = True
        for resp in s.StepStream(
            iter([env_pb2.StepStreamRequest(pool_id=pool.pool_id, reset=True)]), metadata=md, timeout=60
        ):
            assert decoder.decode(resp.batch).rows == pool.rows
            first = False
        assert not first
    finally:
        s.ClosePool(env_pb2.ClosePoolRequest(pool_id=pool.pool_id), metadata=md, timeout=60)


def test_the_batch_starts_at_an_8_aligned_offset(client: botarena.Client) -> None:
    """The server's own bytes (Connect), not re-marshalled: the batch (and a final batch) at offsets that are multiples of 8."""
    resp = client.create_pool("battlebots", 4, seed=3, autoreset="same_step")
    try:
        for i in range(60):
            msg = client.reset(resp.pool_id) if i == 0 else client.step(resp.pool_id, np.zeros(resp.rows, dtype="<i4").tobytes())
            base = msg.raw.ctypes.data
            assert (msg.batch.address - base) % 8 == 0
            if msg.final_batch is not None:
                assert (msg.final_batch.address - base) % 8 == 0
            # upb parses the server's very bytes.
            parsed = env_pb2.StepResponse.FromString(bytes(msg.raw))
            assert parsed.batch == bytes(msg.batch)
    finally:
        client.close_pool(resp.pool_id)
