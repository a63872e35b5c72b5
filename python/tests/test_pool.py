"""botarena.Pool: the raw batched multi-agent API against a real server."""

from __future__ import annotations

import pickle

import numpy as np
import pytest

import botarena
import botarena.v1.env_pb2

ROUNDS = {"max_rounds": 20}  # short episodes for the autoreset tests


def random_actions(rng: np.random.Generator, mask: np.ndarray) -> np.ndarray:
    noise = rng.random(mask.shape) * mask
    return noise.argmax(axis=1).astype(np.int32)


@pytest.mark.parametrize("transport", ["unary", "stream"])
def test_reset_step_shapes(address: str, transport: str) -> None:
    with botarena.Pool("bomberman", 3, address=address, seed=7, transport=transport) as pool:
        assert pool.rows == 12 and pool.learner_seats == (0, 1, 2, 3)
        assert pool.spec.seats == 4 and pool.spec.actions == 7
        obs, info = pool.reset()
        assert obs["planes"].shape == (12, 12, 21, 21) and obs["planes"].dtype == np.uint8
        assert obs["scalars"].shape == (12, 8) and obs["scalars"].dtype == np.float32
        assert info["mask"].shape == (12, 7) and info["mask"].dtype == np.uint8
        np.testing.assert_array_equal(info["env"], np.repeat(np.arange(3), 4))
        np.testing.assert_array_equal(info["seat"], np.tile(np.arange(4), 3))
        assert not info["ended"].any()
        rng = np.random.default_rng(0)
        for _ in range(5):
            obs, rew, term, trunc, info = pool.step(random_actions(rng, info["mask"]))
            assert rew.shape == (12,) and rew.dtype == np.float32
            assert term.dtype == np.bool_ and trunc.dtype == np.bool_ and term.shape == (12,)
            assert info["ended"].shape == (12,) and info["ended"].dtype == np.bool_
            assert info["episode"].dtype == np.int32
            assert obs["planes"].shape == (12, 12, 21, 21)


def test_learner_seats_and_opponents(address: str) -> None:
    with botarena.Pool("bomberman", 4, address=address, learner_seats=[1], opponents="idle", seed=3) as pool:
        assert pool.rows == 4 and pool.learner_seats == (1,)
        _, info = pool.reset()
        assert (info["seat"] == 1).all()
        np.testing.assert_array_equal(info["env"], np.arange(4))
    opp = {0: "random", 2: "reference", 3: "idle"}
    with botarena.Pool("bomberman", 2, address=address, learner_seats=[1], opponents=opp) as pool:
        pool.reset()
        pool.step(np.zeros(2, dtype=np.int32))


def test_one_create_pool_call_per_pool(address: str, monkeypatch: pytest.MonkeyPatch) -> None:
    # One opponent name for every other seat travels as CreatePoolRequest.default_opponent:
    # the client needs no throwaway pool to count the game's seats.
    sent: list[botarena.v1.env_pb2.CreatePoolRequest] = []
    with botarena.Client(address) as client:
        create = client.create
        monkeypatch.setattr(client, "create", lambda req: sent.append(req) or create(req))
        with botarena.Pool("bomberman", 2, client=client, learner_seats=[1, 3], opponents="idle", seed=3) as pool:
            assert [r.default_opponent for r in sent] == ["idle"] and not sent[0].opponents
            assert pool.opponent_seats == (0, 2) and isinstance(pool, botarena.RemotePool)
            pool.reset()
            assert pool.stats().steps == 0


def test_zero_copy(address: str, client: botarena.Client) -> None:
    with botarena.Pool("bomberman", 8, address=address, seed=1) as pool:
        msg = client.reset(pool.pool_id)
        b = pool.decoder.decode(msg.batch)
        whole = np.frombuffer(msg.raw, dtype=np.uint8)
        assert np.shares_memory(b.obs["planes"], whole)
        assert np.shares_memory(b.mask, whole)
        assert not b.obs["planes"].flags.owndata and not b.obs["planes"].flags.writeable
        batch, msg = pool.step_batch(np.zeros(pool.rows, dtype=np.int32))
        assert np.shares_memory(batch.obs["planes"], np.frombuffer(msg.raw, dtype=np.uint8))
        for arr in [batch.obs["scalars"], batch.reward, batch.env]:
            assert arr.flags.aligned


def rollout(pool: botarena.Pool, steps: int, seed: int = 0) -> list[np.ndarray]:
    rng = np.random.default_rng(seed)
    obs, info = pool.reset()
    out = [obs["planes"].copy(), obs["scalars"].copy()]
    for _ in range(steps):
        obs, rew, term, trunc, info = pool.step(random_actions(rng, info["mask"]))
        out += [obs["planes"].copy(), rew.copy(), term.copy()]
    return out


def test_determinism(address: str) -> None:
    kw = dict(address=address, learner_seats=[0], opponents="random")
    with botarena.Pool("bomberman", 4, seed=11, **kw) as a, botarena.Pool("bomberman", 4, seed=11, **kw) as b:
        ra, rb = rollout(a, 30), rollout(b, 30)
    for x, y in zip(ra, rb):
        np.testing.assert_array_equal(x, y)
    with botarena.Pool("bomberman", 4, seed=12, **kw) as c:
        rc = rollout(c, 30)
    assert any(not np.array_equal(x, y) for x, y in zip(ra, rc))


def test_unary_and_stream_agree(address: str) -> None:
    with botarena.Pool("bomberman", 2, address=address, seed=5, transport="unary") as a, botarena.Pool(
        "bomberman", 2, address=address, seed=5, transport="stream"
    ) as b:
        for x, y in zip(rollout(a, 20), rollout(b, 20)):
            np.testing.assert_array_equal(x, y)


def test_reseed(address: str) -> None:
    with botarena.Pool("bomberman", 2, address=address, seed=21) as pool:
        first = rollout(pool, 10)
        pool.reseed(21)
        again = rollout(pool, 10)
    for x, y in zip(first, again):
        np.testing.assert_array_equal(x, y)


def test_autoreset_next_step(address: str) -> None:
    with botarena.Pool(
        "bomberman", 8, address=address, seed=2, learner_seats=[0], opponents="random", **ROUNDS
    ) as pool:
        assert pool.autoreset == "next_step"
        rng = np.random.default_rng(1)
        obs, info = pool.reset()
        seen = 0
        for _ in range(100):
            obs, rew, term, trunc, info = pool.step(random_actions(rng, info["mask"]))
            ended = info["ended"].copy()
            if not ended.any():
                continue
            assert (term | trunc)[ended].all()
            episode = info["episode"].copy()
            obs2, rew2, term2, trunc2, info2 = pool.step(random_actions(rng, info["mask"]))
            # The ended envs were reset: reward 0, flags false, a new episode.
            assert (rew2[ended] == 0).all()
            assert not term2[ended].any() and not trunc2[ended].any()
            assert (info2["episode"][ended] == episode[ended] + 1).all()
            assert not info2["ended"][ended].any()
            seen += 1
            obs, info = obs2, info2
            if seen >= 3:
                break
        assert seen >= 1, "no episode ended within 100 steps with max_rounds=20"


def test_autoreset_same_step(address: str) -> None:
    with botarena.Pool(
        "bomberman", 8, address=address, seed=2, learner_seats=[0], opponents="random",
        autoreset="same_step", **ROUNDS,
    ) as pool:
        assert pool.autoreset == "same_step"
        rng = np.random.default_rng(1)
        obs, info = pool.reset()
        for _ in range(100):
            episode = info["episode"].copy()
            obs, rew, term, trunc, info = pool.step(random_actions(rng, info["mask"]))
            ended = info["ended"]
            if ended.any():
                assert "final_obs" in info
                assert info["final_obs"]["planes"].shape == obs["planes"].shape
                assert (info["episode"][ended] == episode[ended] + 1).all()
                assert (term | trunc)[ended].all()
                break
        else:
            pytest.fail("no episode ended within 100 steps")


def test_stats_and_render(address: str) -> None:
    with botarena.Pool("bomberman", 4, address=address, seed=9, learner_seats=[0], opponents="random", **ROUNDS) as pool:
        rng = np.random.default_rng(0)
        _, info = pool.reset()
        for _ in range(50):
            _, _, _, _, info = pool.step(random_actions(rng, info["mask"]))
        st = pool.stats()
        assert st.steps >= 50
        assert [s.seat for s in st.seats] == [0]
        s = st.seats[0]
        assert s.episodes >= 4 and s.wins + s.draws + s.losses <= s.episodes
        assert s.mean_length <= 21
        text = pool.render(0)
        assert isinstance(text, str) and text.strip()
        assert pool.stats(reset=True).seats[0].episodes == s.episodes
        assert pool.stats().seats[0].episodes == 0


def test_stats_count_invalid_actions(address: str) -> None:
    # Seat 0 starts in the top-left corner: moving up (action 1) walks into
    # the wall, a command the original rejects, every round it is alive.
    with botarena.Pool("bomberman", 2, address=address, seed=3, learner_seats=[0], opponents="idle", **ROUNDS) as pool:
        pool.reset()
        for _ in range(45):
            pool.step(np.ones(pool.rows, dtype=np.int32))
        st = pool.stats()
        episodes = st.seats[0].episodes
        assert episodes >= 2 and st.invalid >= episodes
        assert st.mean_invalid == st.invalid / episodes
        assert st.by_opponent(1)["idle"].invalid == 0


def test_zstd(address: str) -> None:
    with botarena.Pool("bomberman", 4, address=address, seed=4, compression="zstd") as z, botarena.Pool(
        "bomberman", 4, address=address, seed=4
    ) as plain:
        for x, y in zip(rollout(z, 5), rollout(plain, 5)):
            np.testing.assert_array_equal(x, y)


def test_owns_server() -> None:
    pool = botarena.Pool("bomberman/2p", 2, seed=1, backend="remote")
    server = pool._server
    assert server is not None
    pool.reset()
    pool.close()
    assert server._proc is None


# Async stepping on the remote backend (send/recv). The native backend's
# batches are compared with these byte for byte in test_native.py.


def env_actions(env: int, t: int, n: int, actions: int) -> np.ndarray:
    """The actions of env's t-th step: a function of (env, t) only, whatever the batch."""
    return np.random.default_rng([env, t]).integers(0, actions, n, dtype=np.int32)


def rows_of(out: tuple, j: int, L: int) -> list[tuple[str, bytes]]:
    """The j-th env of a batch (obs, rew, term, trunc, info) as (name, bytes), copied; rew None for a reset."""
    obs, rew, term, trunc, info = out
    rows = slice(j * L, (j + 1) * L)
    snap = [(f"obs/{k}", np.ascontiguousarray(v[rows]).tobytes()) for k, v in sorted(obs.items())]
    for name in ("mask", "env", "seat", "episode", "ended"):
        snap.append((name, np.ascontiguousarray(info[name][rows]).tobytes()))
    if rew is not None:
        snap += [("reward", rew[rows].tobytes()), ("terminated", term[rows].tobytes()), ("truncated", trunc[rows].tobytes())]
    ended = np.asarray(info["ended"][rows])
    if ended.any():
        for k, v in sorted(info["final_obs"].items()):
            snap.append((f"final_obs/{k}", np.ascontiguousarray(v[rows][ended]).tobytes()))
    return snap


@pytest.mark.parametrize("combined", [False, True], ids=["send_then_recv", "step"])
def test_remote_async_matches_sync_per_env(address: str, combined: bool) -> None:
    """An env's rows from a remote async pool are those of the sync pool with the same per-env actions.

    combined steps with :meth:`step` (a Recv request that carries the Send)
    wherever a send is followed by a recv.
    """
    kw = {"seed": 4, "learner_seats": [0, 2], "opponents": "random", "max_rounds": 15, "autoreset": "same_step", "address": address}
    n, B, steps = 7, 3, 25
    with botarena.Pool("bomberman", n, **kw) as sync:
        L = len(sync.learner_seats)
        obs, info = sync.reset()
        want: list[list[list[tuple[str, bytes]]]] = [[rows_of((obs, None, None, None, info), e, L)] for e in range(n)]
        for t in range(1, steps + 1):
            out = sync.step(np.concatenate([env_actions(e, t, L, sync.spec.actions) for e in range(n)]))
            for e in range(n):
                want[e].append(rows_of(out, e, L))
    with botarena.Pool("bomberman", n, batch_size=B, workers=2, **kw) as pool:
        assert pool.batch_size == B and pool.backend == "remote"
        obs, info = pool.reset()
        out: tuple = (obs, None, None, None, info)
        got = np.zeros(n, dtype=int)
        sent = np.zeros(n, dtype=int)
        while True:
            ids = out[4]["env_id"].copy()
            assert ids.shape == (B,) and len(set(ids)) == B
            for j, e in enumerate(ids):
                snap = rows_of(out if got[e] else (out[0], None, None, None, out[4]), j, L)
                assert snap == want[e][got[e]], f"env {e} step {got[e]} differs from the sync pool"
                got[e] += 1
            todo = [int(e) for e in ids if sent[e] < steps]
            for e in todo:
                sent[e] += 1
            actions = np.concatenate([env_actions(e, sent[e], L, pool.spec.actions) for e in todo]) if todo else None
            last = int((sent + 1 - got).sum()) < B
            if todo and (last or not combined):
                pool.send(actions, todo)
            if last:
                break
            out = pool.step(actions, todo) if todo and combined else pool.recv()
        assert (sent == steps).all()
        assert pool.stats().steps > 0


@pytest.mark.parametrize("protocol", ["connect", "grpc"])
def test_remote_async_errors_and_defaults(address: str, protocol: str) -> None:
    with pytest.raises(ValueError, match="batch_size"):
        botarena.Pool("battlebots", 4, address=address, batch_size=5)
    with botarena.Client(address, protocol=protocol) as c, botarena.Pool(
        "battlebots", 4, client=c, seed=2, batch_size=2, learner_seats=[0], opponents="huggy"
    ) as pool:
        with pytest.raises(botarena.FailedPreconditionError, match="no batch received"):
            pool.send(np.zeros(2, dtype=np.int32))
        with pytest.raises(botarena.FailedPreconditionError, match="before the first AsyncReset"):
            pool.recv()
        obs, info = pool.reset()
        assert obs[next(iter(obs))].shape[0] == 2 and not info["ended"].any()
        ids = info["env_id"].copy()
        np.testing.assert_array_equal(ids, info["env"])
        other = int(next(e for e in range(4) if e not in ids))
        with pytest.raises(botarena.InvalidArgumentError, match="in flight"):
            pool.send(np.zeros(1, dtype=np.int32), [other])
        with pytest.raises(botarena.InvalidArgumentError, match="at most batch_size=2"):
            pool.send(np.zeros(3, dtype=np.int32), [0, 1, 2])
        with pytest.raises(botarena.InvalidArgumentError, match="want 2"):
            pool.send(np.zeros(3, dtype=np.int32))
        with pytest.raises(botarena.InvalidArgumentError, match="named twice"):
            pool.send(np.zeros(2, dtype=np.int32), [int(ids[0]), int(ids[0])])
        with pytest.raises(botarena.FailedPreconditionError, match="async pool"):
            pool.step_batch(np.zeros(4, dtype=np.int32))
        obs, rew, term, trunc, info = pool.step(np.zeros(2, dtype=np.int32))  # to the last batch's envs
        assert set(info["env_id"]) | set(ids) == {0, 1, 2, 3}
        pool.recv()  # the other two: none in flight now
        with pytest.raises(botarena.FailedPreconditionError, match="fewer envs in flight"):
            pool.recv()
        assert pool.stats().steps == 1  # one Send
        assert "\n" in pool.render(1)
        clone = pickle.loads(pickle.dumps(pool))
        try:
            assert clone.batch_size == 2 and clone.seed == pool.seed
            obs2, info2 = clone.reset()
            pool.reseed(2)
            obs3, info3 = pool.reset()
            for k in obs2:
                np.testing.assert_array_equal(obs2[k], obs3[k])
            np.testing.assert_array_equal(info2["env_id"], info3["env_id"])
        finally:
            clone.close()
    with botarena.Pool("battlebots", 2, address=address) as sync:
        assert sync.batch_size is None
        for call in (sync.async_reset, sync.recv, lambda: sync.send(np.zeros(2, dtype=np.int32), [0])):
            with pytest.raises(botarena.FailedPreconditionError, match="batch_size"):
                call()
        sync.reset()
        with pytest.raises(botarena.FailedPreconditionError, match="env_id is for async pools"):
            sync.step(np.zeros(4, dtype=np.int32), env_id=[0])
