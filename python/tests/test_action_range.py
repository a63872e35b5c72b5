"""Actions and env ids that int32 cannot hold are refused, never wrapped, on both backends.

A pool sends its actions as int32. An int64 action of 2**32 + 5 would cast
to 5, a legal action played silently, and an env id of 2**33 to env 0;
instead they raise InvalidArgumentError naming the offending index. int32
arrays pass unread (Go checks their range), so the hot path does not scan.
"""

from __future__ import annotations

from typing import Iterator

import numpy as np
import pytest

import botarena
from botarena import native
from botarena.pool import int32_values


@pytest.fixture(params=["remote", "native"])
def backend(request: pytest.FixtureRequest) -> str:
    if request.param == "native":
        ok, why = native.available()
        if not ok:
            pytest.skip(f"native backend unavailable: {why}")
    return str(request.param)


def _pool(backend: str, address: str, **kw: object) -> botarena.Pool:
    if backend == "native":
        return botarena.Pool("battlebots", 4, backend="native", seed=1, **kw)  # type: ignore[arg-type]
    return botarena.Pool("battlebots", 4, address=address, backend="remote", seed=1, **kw)  # type: ignore[arg-type]


@pytest.mark.parametrize("dtype, value", [(np.int64, 2**32 + 5), (np.int64, -(2**32) + 1), (np.uint64, 2**63 + 3), (np.uint32, 2**32 - 1), (np.int64, 34)])
def test_a_wide_action_that_would_wrap_is_refused(backend: str, address: str, dtype: type, value: int) -> None:
    with _pool(backend, address) as pool:
        pool.reset()
        actions = np.zeros(pool.rows, dtype=dtype)
        actions[3] = value
        with pytest.raises(botarena.InvalidArgumentError, match=r"action -?\d+ at row 3 is outside 0\.\.33"):
            pool.step(actions)
        with pytest.raises(botarena.InvalidArgumentError, match=r"action 4294967301 at row 1 is outside"):
            pool.step([0, 2**32 + 5, 0, 0][: pool.rows] + [0] * (pool.rows - 4))  # a list: numpy makes it int64
        pool.step(np.ones(pool.rows, dtype=dtype))  # in range: played


def test_int32_actions_are_not_scanned_and_go_checks_their_range(backend: str, address: str) -> None:
    with _pool(backend, address) as pool:
        pool.reset()
        actions = np.zeros(pool.rows, dtype=np.int32)
        actions[2] = 99
        with pytest.raises(botarena.InvalidArgumentError, match=r"action 99 at row 2|row 2 .*got 99"):  # Go's check (the server words it its own way)
            pool.step(actions)


def test_env_ids_out_of_range_are_refused(backend: str, address: str) -> None:
    with _pool(backend, address, batch_size=2, learner_seats=[0], opponents="random") as pool:
        pool.async_reset()
        _, _, _, _, info = pool.recv()
        ids = np.asarray(info["env_id"], dtype=np.int64).copy()
        ids[1] = 2**33 + int(ids[1])  # would wrap to a valid env
        with pytest.raises(botarena.InvalidArgumentError, match=r"env_id \d+ at index 1 is outside 0\.\.3"):
            pool.send(np.zeros(2, dtype=np.int32), ids)
        with pytest.raises(botarena.InvalidArgumentError, match=r"action 4294967296 at row 0 is outside 0\.\.33"):
            pool.send(np.array([2**32, 0], dtype=np.int64), info["env_id"])
        pool.send(np.zeros(2, dtype=np.int64), info["env_id"])  # in range: queued
        pool.recv()


def test_int32_values_copies_only_what_it_must() -> None:
    a = np.arange(6, dtype=np.int32)
    assert int32_values(a) is a or int32_values(a).base is a  # no copy of an int32 array
    assert int32_values(np.arange(6, dtype=np.int64), high=6).tolist() == list(range(6))
    assert int32_values(np.array([[1, 2]], dtype=np.uint8)).tolist() == [1, 2]
    with pytest.raises(botarena.InvalidArgumentError, match=r"action 2147483648 at row 0 is outside -2147483648\.\.2147483647 \(int32\)"):
        int32_values(np.array([2**31], dtype=np.int64))
    with pytest.raises(botarena.InvalidArgumentError, match=r"action -1 at row 1 is outside 0\.\.6"):
        int32_values(np.array([3, -1], dtype=">i8"), high=7)  # big-endian too
    assert int32_values(np.array([3, 6], dtype=">i8"), high=7).tolist() == [3, 6]
    with pytest.raises(TypeError, match="integers"):
        int32_values(np.array([1.5]))


@pytest.mark.parametrize("value", [2**32 + 5, -(2**31) - 1, np.int64(2**40)])
def test_single_agent_and_pettingzoo_envs_refuse_actions_int32_cannot_hold(value: object) -> None:
    import gymnasium

    env = gymnasium.make("botarena/battlebots-v0")
    try:
        env.reset(seed=1)
        with pytest.raises(botarena.InvalidArgumentError, match="outside int32"):
            env.step(value)
    finally:
        env.close()
    penv = botarena.parallel_env("battlebots")
    try:
        agents = penv.reset(seed=1)[0]
        first = next(iter(agents))
        with pytest.raises(botarena.InvalidArgumentError, match=f"agent '{first}'"):
            penv.step({a: (value if a == first else 0) for a in agents})
    finally:
        penv.close()
