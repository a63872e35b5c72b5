"""The shared form (``shared_planes``): the same arrays as the full form, from smaller messages."""

from __future__ import annotations

import numpy as np
import pytest

import botarena
from botarena.batch import BatchDecoder


@pytest.mark.parametrize("game", ["bomberman", "battlebots", "portalbomber", "battlecube/2p"])
def test_shared_form_rebuilds_the_full_arrays(client: botarena.Client, game: str) -> None:
    full = client.create_pool(game, 6, seed=11, autoreset="same_step", config={"max_rounds": 5} if game.startswith("bomberman") else None)
    shared = client.create_pool(game, 6, seed=11, autoreset="same_step", shared_planes=True, config={"max_rounds": 5} if game.startswith("bomberman") else None)
    try:
        assert shared.shared_planes and not full.shared_planes
        fd, sd = BatchDecoder(full.arrow_schema), BatchDecoder(shared.arrow_schema)
        assert sd.shared and not fd.shared
        assert sd.spec == fd.spec == botarena.spec.GameSpec.from_proto(shared.spec)
        assert any(t.shared for t in sd.spec.observations)
        fm, sm = client.reset(full.pool_id), client.reset(shared.pool_id)
        rng = np.random.default_rng(2)
        saw_final = False
        for step in range(12):
            fb, sb = fd.decode(fm.batch), sd.decode(sm.batch)
            assert sm.batch.size < fm.batch.size
            for name in fb.obs:
                assert fb.obs[name].shape == sb.obs[name].shape and fb.obs[name].dtype == sb.obs[name].dtype
                assert fb.obs[name].tobytes() == sb.obs[name].tobytes(), (step, name)
            assert np.array_equal(fb.mask, sb.mask) and np.array_equal(fb.reward, sb.reward)
            if step and fm.final_batch is not None:
                saw_final = True
                ended = np.frombuffer(fm.ended, dtype=bool)
                ff, sf = fd.decode(fm.final_batch), sd.decode(sm.final_batch)
                for name in ff.obs:
                    assert np.array_equal(ff.obs[name][ended], sf.obs[name][ended])
            actions = rng.integers(0, fd.spec.actions, full.rows, dtype=np.int32).tobytes()
            fm, sm = client.step(full.pool_id, actions), client.step(shared.pool_id, actions)
        if game.startswith("bomberman"):
            assert saw_final
    finally:
        client.close_pool(full.pool_id)
        client.close_pool(shared.pool_id)


def test_rebuilt_arrays_reuse_their_buffers(client: botarena.Client) -> None:
    resp = client.create_pool("bomberman", 8, seed=3, shared_planes=True)
    try:
        dec = BatchDecoder(resp.arrow_schema)
        client.reset(resp.pool_id)
        actions = bytes(4 * resp.rows)
        kept = dec.decode(client.step(resp.pool_id, actions).batch).obs["planes"]
        kept_copy = kept.copy()
        bases = set()
        for _ in range(8):
            planes = dec.decode(client.step(resp.pool_id, actions).batch).obs["planes"]
            root = planes
            while root.base is not None:
                root = root.base
            bases.add(root.ctypes.data)
            del planes, root
        assert np.array_equal(kept, kept_copy)
        assert len(bases) <= 2
    finally:
        client.close_pool(resp.pool_id)


def test_one_learner_seat_gets_the_full_form(client: botarena.Client) -> None:
    resp = client.create_pool("bomberman/2p", 2, seed=3, shared_planes=True, learner_seats=[0], opponents={1: "idle"})
    try:
        assert not resp.shared_planes
        assert not BatchDecoder(resp.arrow_schema).shared
    finally:
        client.close_pool(resp.pool_id)


def test_pool_with_shared_planes(address: str) -> None:
    with botarena.Pool("bomberman", 4, address=address, seed=9) as full, botarena.Pool(
        "bomberman", 4, address=address, seed=9, shared_planes=True
    ) as shared:
        assert shared.shared_planes and not full.shared_planes
        assert shared.__getstate__()["shared_planes"] is True
        a, _ = full.reset()
        b, _ = shared.reset()
        for _ in range(5):
            assert all(np.array_equal(a[k], b[k]) for k in a)
            actions = np.random.default_rng(0).integers(0, full.spec.actions, full.rows)
            a, *_ = full.step(actions)
            b, *_ = shared.step(actions)
