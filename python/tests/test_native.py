"""The native backend: the Go pool in this process, compared byte for byte with the remote backend.

The library is built from this checkout into ~/.cache/botarena (or taken
from $BOTARENA_LIB) by the same logic as a user's first native pool; the
tests skip, saying why, where it cannot be (no cgo or C compiler).
"""

from __future__ import annotations

import json
import os
import pickle
import sys
from typing import Any, Iterator

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import parallel_api_test

import botarena
from botarena import native
from botarena.backend import choose_backend
from botarena.games import GAMES


@pytest.fixture(scope="module", autouse=True)
def native_lib() -> Iterator[None]:
    ok, why = native.available()
    if not ok:
        pytest.skip(f"native backend unavailable: {why}")
    yield


def masked_random(rng: np.random.Generator, mask: np.ndarray) -> np.ndarray:
    noise = rng.random(mask.shape) * mask
    return noise.argmax(axis=1).astype(np.int32)


def snapshot(obs: dict[str, np.ndarray], rew: Any, term: Any, trunc: Any, info: dict[str, Any]) -> list[tuple[str, bytes]]:
    """Every output of a step as (name, bytes), copied."""
    out = [(f"obs/{k}", np.ascontiguousarray(v).tobytes()) for k, v in obs.items()]
    for name in ("mask", "env", "seat", "episode", "ended"):
        out.append((name, np.ascontiguousarray(info[name]).tobytes()))
    if rew is not None:
        out += [("reward", np.asarray(rew, dtype=np.float32).tobytes()), ("terminated", np.asarray(term).tobytes()), ("truncated", np.asarray(trunc).tobytes())]
    ended = np.asarray(info["ended"])
    for k, v in sorted(info.get("final_obs", {}).items()):
        if ended.any():  # the final observations of the rows that ended
            out.append((f"final_obs/{k}", np.ascontiguousarray(v[ended]).tobytes()))
    return out


@pytest.mark.parametrize("autoreset", ["next_step", "same_step"])
@pytest.mark.parametrize("game", [g["name"] for g in GAMES])
def test_backends_give_identical_bytes(game: str, autoreset: str, address: str) -> None:
    """Same seed and actions: the same observations, masks, rewards, flags, ids, final observations and stats."""
    kw: dict[str, Any] = {"seed": 99, "autoreset": autoreset}
    if game.startswith("bomberman"):
        kw["max_rounds"] = 25  # episode ends, for the autoreset paths
    seats = next(g["seats"] for g in GAMES if g["name"] == game)
    variants: list[dict[str, Any]] = [{}, {"learner_seats": [seats - 1], "opponents": "random"}]
    for extra in variants:
        with botarena.Pool(game, 3, address=address, **kw, **extra) as remote, botarena.Pool(game, 3, backend="native", **kw, **extra) as nat:
            assert remote.backend == "remote" and nat.backend == "native"
            assert nat.spec == remote.spec and nat.rows == remote.rows and nat.learner_seats == remote.learner_seats
            rng = np.random.default_rng(5)
            a = remote.reset()
            b = nat.reset()
            assert snapshot(*a[:1], None, None, None, a[1]) == snapshot(*b[:1], None, None, None, b[1])
            mask = a[1]["mask"].copy()
            ended = 0
            for step in range(80):
                acts = masked_random(rng, mask)
                ra = remote.step(acts)
                na = nat.step(acts)
                got, want = snapshot(*na), snapshot(*ra)
                for (name, x), (_, y) in zip(got, want):
                    assert x == y, f"{game} {extra} step {step}: {name} differs between the native and the remote backend"
                assert [n for n, _ in got] == [n for n, _ in want]
                mask = ra[4]["mask"].copy()
                ended += int(np.asarray(ra[4]["ended"]).sum())
            assert nat.stats() == remote.stats()


def test_native_arrays_are_views_of_the_pools_memory() -> None:
    with botarena.Pool("bomberman", 4, seed=3, backend="native") as pool:
        assert isinstance(pool, botarena.NativePool) and isinstance(pool, botarena.pool.Pool)
        obs, info = pool.reset()
        obs2, rew, term, trunc, info2 = pool.step(np.zeros(pool.rows, dtype=np.int32))
        owned = pool._outputs[0].arrays
        for arr in [obs2["planes"], obs2["scalars"], info2["mask"], rew, term, info2["ended"]]:
            assert any(np.shares_memory(arr, o) for o in owned)
            assert not arr.flags.writeable
        assert obs2["planes"] is obs["planes"] or np.shares_memory(obs2["planes"], obs["planes"])


def test_backend_choice(address: str, monkeypatch: pytest.MonkeyPatch) -> None:
    assert choose_backend("auto") == "native"
    assert choose_backend("auto", address=address) == "remote"
    assert choose_backend("remote") == "remote"
    monkeypatch.setenv("BOTARENA_BACKEND", "remote")
    assert choose_backend("auto") == "remote"
    assert choose_backend("native") == "native"
    monkeypatch.delenv("BOTARENA_BACKEND")
    with pytest.raises(ValueError, match="give no address"):
        choose_backend("native", address=address)
    with pytest.raises(ValueError, match="backend must be one of"):
        choose_backend("fast")
    with botarena.Pool("battlebots", 2, seed=1) as pool:
        assert type(pool) is botarena.NativePool
    with botarena.Pool("battlebots", 2, seed=1, address=address) as pool:
        assert type(pool) is botarena.RemotePool and isinstance(pool, botarena.pool.Pool)


def test_native_unavailable_falls_back_with_one_line(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(native, "available", lambda: (False, "no C compiler"))
    assert choose_backend("auto") == "remote"
    assert capsys.readouterr().err == ""
    assert choose_backend("native") == "remote"
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "native backend unavailable (no C compiler)" in err and "remote" in err


def test_library_lookup(monkeypatch: pytest.MonkeyPatch, tmp_path: Any) -> None:
    built = native.library_path()
    monkeypatch.setenv("BOTARENA_LIB", built)
    assert native.library_path() == built
    monkeypatch.setenv("BOTARENA_LIB", str(tmp_path / "missing.so"))
    with pytest.raises(native.NativeUnavailableError, match="BOTARENA_LIB"):
        native.library_path()
    assert native.load().path  # the loaded library stays loaded for the process


def test_errors_are_the_remote_backends() -> None:
    with pytest.raises(botarena.NotFoundError, match="chess"):
        botarena.Pool("chess", 1, backend="native")
    with pytest.raises(botarena.NotFoundError, match="nobody"):
        botarena.Pool("battlebots", 1, backend="native", learner_seats=[0], opponents="nobody")
    with pytest.raises(botarena.InvalidArgumentError, match="players"):
        botarena.Pool("bomberman", 1, backend="native", players=99)
    with botarena.Pool("battlebots", 2, seed=1, backend="native") as pool:
        with pytest.raises(botarena.FailedPreconditionError, match="before the first Reset"):
            pool.step(np.zeros(pool.rows, dtype=np.int32))
        pool.reset()
        with pytest.raises(botarena.InvalidArgumentError, match="action 99 at row 1"):
            pool.step(np.array([0, 99, 0, 0]))
        with pytest.raises(botarena.InvalidArgumentError, match="want 4"):
            pool.step(np.zeros(3, dtype=np.int32))
        with pytest.raises(TypeError):
            pool.step(np.zeros(4, dtype=np.float32))
        with pytest.raises(botarena.InvalidArgumentError):
            pool.render(7)
        with pytest.raises(botarena.FailedPreconditionError, match="batch_size"):
            pool.send(np.zeros(4))
    with pytest.raises(RuntimeError, match="closed"):
        pool.stats()


def test_missing_external_bot_is_not_a_crash() -> None:
    # An external bot that cannot start: an error or the original's penalty, never a crash.
    with botarena.Pool("battlebots", 1, backend="native", learner_seats=[0], opponents="cmd:/nonexistent-bot") as pool:
        pool.reset()
        pool.step(np.zeros(1, dtype=np.int32))


def test_render_set_opponents_stats_reseed_pickle() -> None:
    with botarena.Pool("battlebots", 3, seed=8, backend="native", learner_seats=[0], opponents="idle") as pool:
        obs, info = pool.reset()
        assert "\n" in pool.render(1)
        assert pool.render_rgb(0).shape[2] == 3
        pool.set_opponents({"random": 1, "huggy": 1})
        first = obs["planes"].copy() if "planes" in obs else next(iter(obs.values())).copy()
        for _ in range(200):
            pool.step(masked_random(np.random.default_rng(0), pool._outputs[0].mask))
        st = pool.stats()
        assert st.steps == 200 and {o.name for o in st.opponents} >= {"idle", "random", "huggy"}
        clone = pickle.loads(pickle.dumps(pool))
        try:
            assert type(clone) is botarena.NativePool and clone.seed == pool.seed and clone._mixtures == pool._mixtures
            obs2, _ = clone.reset()
            np.testing.assert_array_equal(next(iter(obs2.values())), first)
        finally:
            clone.close()
        pool.reseed(8)
        obs3, _ = pool.reset()
        np.testing.assert_array_equal(next(iter(obs3.values())), first)


ASYNC_CASES = [
    ("bomberman", 7, 3, {"max_rounds": 9}),
    ("bomberman/2p", 4, 2, {"max_rounds": 6, "learner_seats": [1], "opponents": "random", "autoreset": "same_step"}),
    ("battlebots", 5, 5, {"learner_seats": [0], "opponents": "huggy"}),
    ("battleships/small", 3, 2, {"autoreset": "same_step"}),
]


def async_run(pool: botarena.Pool, recvs: int) -> list[list[tuple[str, bytes]]]:
    """Every batch of reset and then recvs rounds of recv, each batch's envs sent back with actions of (env, step)."""
    obs, info = pool.reset()
    out: tuple[Any, ...] = (obs, None, None, None, info)
    L = len(pool.learner_seats)
    sent = np.zeros(pool.num_envs, dtype=int)
    batches = []
    for _ in range(recvs):
        ids = np.array(out[4]["env_id"], dtype=np.int32)
        batches.append(snapshot(*out) + [("env_id", ids.tobytes())])
        for e in ids:
            sent[e] += 1
        pool.send(np.concatenate([env_actions(int(e), int(sent[e]), L, pool.spec.actions) for e in ids]), ids)
        out = pool.recv()
    batches.append(snapshot(*out))
    return batches


@pytest.mark.parametrize("game,n,batch_size,kw", ASYNC_CASES, ids=[c[0] for c in ASYNC_CASES])
def test_async_backends_give_identical_bytes(game: str, n: int, batch_size: int, kw: dict[str, Any], address: str) -> None:
    """Same seed and sends: the same batches (observations, masks, rewards, flags, env ids, final observations) on both backends.

    One worker each, so that a batch holds its envs in the order they were
    sent on both (with more, the envs of a batch may differ, never an env's bytes).
    """
    runs = []
    for backend in ("native", "remote"):
        extra = {"address": address} if backend == "remote" else {}
        with botarena.Pool(game, n, backend=backend, batch_size=batch_size, workers=1, seed=31, **kw, **extra) as pool:
            assert pool.backend == backend and pool.batch_size == batch_size
            runs.append(async_run(pool, 40))
            runs[-1].append([("steps", str(pool.stats().steps).encode())])
    native_run, remote_run = runs
    assert len(native_run) == len(remote_run)
    for i, (a, b) in enumerate(zip(native_run, remote_run)):
        assert a == b, f"batch {i} differs between the backends"


def env_actions(env: int, t: int, n: int, actions: int) -> np.ndarray:
    return np.random.default_rng([env, t]).integers(0, actions, n, dtype=np.int32)


def sync_per_env(game: str, n: int, steps: int, kw: dict[str, Any]) -> list[list[list[tuple[str, bytes]]]]:
    """Each env's snapshot after reset and after each of steps sync steps with env_actions: [env][step]."""
    with botarena.Pool(game, n, backend="native", workers=1, **kw) as sync:
        L = len(sync.learner_seats)
        obs, info = sync.reset()
        want: list[list[list[tuple[str, bytes]]]] = [[] for _ in range(n)]

        def record(obs: Any, rew: Any, term: Any, trunc: Any, info: dict[str, Any]) -> None:
            for e in range(n):
                rows = slice(e * L, (e + 1) * L)
                sub = {k: (v[rows] if k != "final_obs" else {t: a[rows] for t, a in v.items()}) for k, v in info.items()}
                want[e].append(snapshot({k: v[rows] for k, v in obs.items()}, None if rew is None else rew[rows], None if term is None else term[rows], None if trunc is None else trunc[rows], sub))

        record(obs, None, None, None, info)
        for t in range(1, steps + 1):
            acts = np.concatenate([env_actions(e, t, L, sync.spec.actions) for e in range(n)])
            record(*sync.step(acts))
    return want


@pytest.mark.parametrize("batch_size", [1, 3, 7])
def test_async_matches_sync_per_env(batch_size: int) -> None:
    """An env's rows from send/recv are those of the sync pool with the same per-env actions."""
    kw = {"seed": 4, "learner_seats": [0, 2], "opponents": "random", "max_rounds": 15, "autoreset": "same_step"}
    n, steps = 7, 30
    want = sync_per_env("bomberman", n, steps, kw)
    with botarena.Pool("bomberman", n, backend="native", batch_size=batch_size, workers=2, **kw) as pool:
        L = len(pool.learner_seats)
        obs, info = pool.reset()
        sent = np.zeros(n, dtype=int)
        got = np.zeros(n, dtype=int)
        sends = 0
        first = True
        while True:
            if not first:
                obs, rew, term, trunc, info = pool.recv()
            ids = info["env_id"].copy()
            assert ids.shape == (batch_size,) and len(set(ids)) == batch_size
            for j, e in enumerate(ids):
                rows = slice(j * L, (j + 1) * L)
                sub = {k: (v[rows] if k not in ("final_obs", "env_id") else ({t: a[rows] for t, a in v.items()} if k == "final_obs" else v)) for k, v in info.items()}
                reset = got[e] == 0  # a reset's result: no reward or flags to compare
                snap = snapshot({k: v[rows] for k, v in obs.items()}, None if reset else rew[rows], None if reset else term[rows], None if reset else trunc[rows], sub)
                assert snap == want[e][got[e]], f"env {e} step {got[e]} differs from the sync pool"
                got[e] += 1
            first = False
            todo = [e for e in ids if sent[e] < steps]
            if todo:
                for e in todo:
                    sent[e] += 1
                pool.send(np.concatenate([env_actions(e, sent[e], L, pool.spec.actions) for e in todo]), todo)
                sends += 1
            if pool_in_flight(sent, got) < batch_size:
                break
        assert (sent == steps).all()
        assert pool.stats().steps == sends  # waits for the envs in flight


def pool_in_flight(sent: np.ndarray, got: np.ndarray) -> int:
    return int((sent + 1 - got).sum())


STEP_CASES = [
    ("battlebots", 6, 6, {"max_rounds": 12}),
    ("battlebots", 6, 3, {"max_rounds": 12, "autoreset": "same_step"}),
    ("bomberman", 5, 5, {"max_rounds": 15, "learner_seats": [0, 2], "opponents": "random"}),
    ("bomberman", 6, 2, {"max_rounds": 15, "autoreset": "same_step"}),
]


@pytest.mark.parametrize("backend", ["native", "remote"])
@pytest.mark.parametrize("game,n,batch_size,kw", STEP_CASES, ids=[f"{c[0]}-{c[1]}-{c[2]}" for c in STEP_CASES])
def test_async_step_matches_sync_per_env(backend: str, game: str, n: int, batch_size: int, kw: dict[str, Any], address: str) -> None:
    """step() of an async pool, its envs sent back in batch order, gives each env the sync pool's rows.

    The pool hands each batch back with the next step (the native library's
    send_recv; the server once it has encoded a batch), so the envs step
    into their own rows and the games update them in place: the bytes must
    still be those of a full write.
    """
    steps = 25
    kw = {"seed": 12, **kw}
    want = sync_per_env(game, n, steps, kw)
    extra = {"address": address} if backend == "remote" else {}
    with botarena.Pool(game, n, backend=backend, batch_size=batch_size, workers=2, **kw, **extra) as pool:
        L = len(pool.learner_seats)
        obs, info = pool.reset()
        rew = term = trunc = None
        got = np.zeros(n, dtype=int)
        while True:
            ids = info["env_id"].copy()
            for j, e in enumerate(ids):
                rows = slice(j * L, (j + 1) * L)
                sub = {k: (v[rows] if k not in ("final_obs", "env_id") else ({t: a[rows] for t, a in v.items()} if k == "final_obs" else v)) for k, v in info.items()}
                first = got[e] == 0  # a reset's result: no reward or flags to compare
                snap = snapshot({k: v[rows] for k, v in obs.items()}, None if first else rew[rows], None if first else term[rows], None if first else trunc[rows], sub)  # type: ignore[index]
                assert snap == want[e][got[e]], f"env {e} step {got[e]} differs from the sync pool"
                got[e] += 1
            if got[ids].max() > steps:
                break
            acts = np.concatenate([env_actions(int(e), int(got[e]), L, pool.spec.actions) for e in ids])
            obs, rew, term, trunc, info = pool.step(acts)
        assert got.min() >= steps - 1


def test_async_errors_and_defaults() -> None:
    with pytest.raises(ValueError, match="batch_size"):
        botarena.Pool("battlebots", 4, backend="native", batch_size=5)
    with botarena.Pool("battlebots", 4, seed=2, backend="native", batch_size=2, learner_seats=[0], opponents="huggy") as pool:
        obs, info = pool.reset()
        assert obs[next(iter(obs))].shape[0] == 2
        ids = info["env_id"].copy()
        with pytest.raises(botarena.InvalidArgumentError, match="in flight"):
            pool.send(np.zeros(1, dtype=np.int32), [int(next(e for e in range(4) if e not in ids))])
        obs, rew, term, trunc, info = pool.step(np.zeros(2, dtype=np.int32))  # to the last batch's envs
        assert set(info["env_id"]) | set(ids) == {0, 1, 2, 3}
        pool.recv()  # the other two: none in flight now
        with pytest.raises(botarena.FailedPreconditionError, match="fewer envs in flight"):
            pool.recv()


def test_gymnasium_and_pettingzoo_faces_on_native() -> None:
    env = gymnasium.make("botarena/battlebots-v0", backend="native", opponents="huggy")
    assert type(env.unwrapped.pool) is botarena.NativePool  # type: ignore[attr-defined]
    check_env(env.unwrapped, skip_render_check=True)
    env.close()
    venv = botarena.make_vec("bomberman/2p", 4, backend="native", seed=1, autoreset_mode="same_step", max_rounds=10)
    venv.reset(seed=1)
    ends = 0
    for _ in range(40):
        _, _, term, trunc, infos = venv.step(venv.action_space.sample())
        if "final_obs" in infos:
            ends += int(infos["_final_obs"].sum())
    assert ends > 0
    venv.close()
    penv = botarena.parallel_env("bomberman/2p", backend="native", seed=1)
    parallel_api_test(penv, num_cycles=50)
    penv.close()


@pytest.mark.parametrize("extra", [[], ["--batch-size", "4"]])
def test_bench_native(extra: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    from botarena import bench

    assert bench.main(["--backend", "native", "--envs", "8", "--seconds", "0.3", "--json", *extra]) == 0
    res = json.loads(capsys.readouterr().out)
    assert res["backend"] == "native" and res["envs"] == 8
    assert res["rows"] == (16 if extra else 32) and res["agent_steps_per_sec"] > 0


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs fork")
def test_fork_after_load_is_refused() -> None:
    pool = botarena.Pool("battlebots", 1, seed=1, backend="native")
    pool.reset()
    pid = os.fork()
    if pid == 0:  # the child: the pool must raise, and new pools use the remote backend
        code = 0
        try:
            pool.step(np.zeros(pool.rows, dtype=np.int32))
            code = 1
        except botarena.NativeUnavailableError:
            pass
        except BaseException:
            code = 2
        try:
            if choose_backend("auto") != "remote":
                code = 3
        except BaseException:
            code = 4
        os._exit(code)
    _, status = os.waitpid(pid, 0)
    assert os.WEXITSTATUS(status) == 0
    pool.step(np.zeros(pool.rows, dtype=np.int32))  # the parent's pool still works
    pool.close()
    assert sys.modules["botarena.native"] is native
