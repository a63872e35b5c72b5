"""Server errors surface as Python exceptions with the server's message."""

from __future__ import annotations

import grpc
import numpy as np
import pytest

import botarena


def test_unknown_game(address: str) -> None:
    with pytest.raises(botarena.NotFoundError, match="chess") as e:
        botarena.Pool("chess", 2, address=address)
    assert e.value.code == grpc.StatusCode.NOT_FOUND
    assert isinstance(e.value, LookupError)


def test_bad_config_field(address: str) -> None:
    with pytest.raises(botarena.InvalidArgumentError, match="no_such_field") as e:
        botarena.Pool("bomberman", 2, address=address, no_such_field=1)
    assert e.value.code == grpc.StatusCode.INVALID_ARGUMENT
    assert isinstance(e.value, ValueError)


def test_bad_config_value(address: str) -> None:
    with pytest.raises(botarena.InvalidArgumentError, match="players"):
        botarena.make_vec("bomberman", 2, address=address, players=99)


def test_unknown_opponent(address: str) -> None:
    with pytest.raises(botarena.BotarenaError, match="no-such-bot"):
        botarena.make_vec("bomberman", 2, address=address, opponents="no-such-bot")


def test_wrong_action_count(address: str) -> None:
    with botarena.Pool("bomberman", 2, address=address, seed=1) as pool:
        pool.reset()
        with pytest.raises(botarena.InvalidArgumentError) as e:
            pool.step(np.zeros(pool.rows + 1, dtype=np.int32))
        assert e.value.message and e.value.code == grpc.StatusCode.INVALID_ARGUMENT
        # The pool still works after the error.
        pool.step(np.zeros(pool.rows, dtype=np.int32))


def test_action_out_of_range(address: str) -> None:
    with botarena.Pool("bomberman", 1, address=address, seed=1) as pool:
        pool.reset()
        with pytest.raises(botarena.InvalidArgumentError):
            pool.step(np.full(pool.rows, 7, dtype=np.int32))


@pytest.mark.parametrize("transport", ["unary", "stream"])
def test_step_before_reset(address: str, transport: str) -> None:
    with botarena.Pool("bomberman", 1, address=address, transport=transport) as pool:
        with pytest.raises(botarena.FailedPreconditionError):
            pool.step(np.zeros(pool.rows, dtype=np.int32))
        pool.reset()  # a new stream after the failed one
        pool.step(np.zeros(pool.rows, dtype=np.int32))


def test_closed_pool(address: str) -> None:
    pool = botarena.Pool("bomberman", 1, address=address)
    client = botarena.Client(address)
    pool_id = pool.pool_id
    pool.close()
    with pytest.raises(botarena.NotFoundError):
        client.close_pool(pool_id)
    client.close_pool(pool_id, missing_ok=True)
    client.close()


def test_float_actions_rejected(address: str) -> None:
    with botarena.Pool("bomberman", 1, address=address) as pool:
        pool.reset()
        with pytest.raises(TypeError):
            pool.step(np.zeros(pool.rows, dtype=np.float32))
