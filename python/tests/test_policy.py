"""The policy file format (docs/policy-format.md) and PolicyNet."""

from __future__ import annotations

import json
import struct
from pathlib import Path

import numpy as np
import pytest
from extras import require

torch = require("torch")

from botarena.policy import (  # noqa: E402
    PolicyNet,
    default_architecture,
    load_policy,
    read_safetensors,
    save_policy,
    write_safetensors,
)
from botarena.spec import GameSpec, TensorSpec  # noqa: E402


def _spec(planes: tuple[int, ...], scalars: int, actions: int) -> GameSpec:
    return GameSpec(
        game="battlebots" if len(planes) == 3 else "battlecube/2p",
        seats=2,
        observations=(
            TensorSpec("planes", np.dtype(np.uint8), planes),
            TensorSpec("scalars", np.dtype(np.float32), (scalars,)),
        ),
        actions=actions,
    )


SPECS = {
    "2d": _spec((19, 10, 10), 4, 34),
    "3d": _spec((3, 8, 8, 8), 4, 519),
}


def _batch(spec: GameSpec, n: int, seed: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    planes = rng.integers(0, 4, size=(n, *spec.observation("planes").shape), dtype=np.uint8)
    scalars = rng.normal(size=(n, spec.observation("scalars").shape[0])).astype(np.float32)
    mask = (rng.random((n, spec.actions)) < 0.5).astype(np.uint8)
    mask[0] = 0  # no legal action: treated as all legal
    return planes, scalars, mask


@pytest.mark.parametrize("kind", sorted(SPECS))
def test_saved_policy_loads_to_the_same_probabilities(kind: str, tmp_path: Path) -> None:
    spec = SPECS[kind]
    torch.manual_seed(0)
    net = PolicyNet(default_architecture(spec, channels=(4, 8), strides=(1, 2), hidden=16, planes_scale=[0.5] * spec.observation("planes").shape[0]))
    path = tmp_path / "p.safetensors"
    save_policy(net, path, trained={"steps": 7})
    back = load_policy(path)
    planes, scalars, mask = _batch(spec, 5, 1)
    want = net.probabilities(planes, scalars, mask)
    got = back.probabilities(planes, scalars, mask)
    np.testing.assert_array_equal(got, want)
    assert back.arch["trained"] == {"steps": 7}


def test_illegal_actions_get_probability_zero_and_an_empty_mask_means_all_legal() -> None:
    spec = SPECS["2d"]
    net = PolicyNet(default_architecture(spec, channels=(4,), hidden=8))
    planes, scalars, mask = _batch(spec, 6, 2)
    p = net.probabilities(planes, scalars, mask)
    np.testing.assert_allclose(p.sum(axis=1), 1.0, rtol=1e-5)
    assert (p[1:][mask[1:] == 0] == 0).all()
    assert (p[0] > 0).all()


def test_files_are_standard_safetensors(tmp_path: Path) -> None:
    st = require("safetensors.numpy")
    from safetensors import safe_open

    spec = SPECS["2d"]
    net = PolicyNet(default_architecture(spec, channels=(4,), hidden=8))
    path = tmp_path / "p.safetensors"
    save_policy(net, path)
    tensors = st.load_file(str(path))
    assert set(tensors) == set(net.state_dict())
    with safe_open(str(path), framework="numpy") as f:
        arch = json.loads(f.metadata()["botarena.policy"])
    assert arch["format"] == "botarena.policy" and arch["actions"] == 34
    # The data starts on an 8-byte boundary, as the reference writer aligns it.
    (n,) = struct.unpack("<Q", path.read_bytes()[:8])
    assert n % 8 == 0


@pytest.mark.parametrize(
    "damage, message",
    [
        (lambda b: b[:5], "shorter than its 8-byte header length"),
        (lambda b: struct.pack("<Q", 1 << 40) + b[8:], "header length"),
        (lambda b: b[:-4], "do not fit its shape"),
    ],
    ids=["truncated-length", "huge-header", "truncated-data"],
)
def test_damaged_files_are_rejected_with_the_reason(tmp_path: Path, damage, message: str) -> None:
    path = tmp_path / "p.safetensors"
    write_safetensors(path, {"w": np.ones((3, 2), dtype=np.float32)}, {"botarena.policy": "{}"})
    path.write_bytes(damage(path.read_bytes()))
    with pytest.raises(ValueError, match=message):
        read_safetensors(path)


def test_a_safetensors_file_without_the_architecture_is_not_a_policy(tmp_path: Path) -> None:
    path = tmp_path / "plain.safetensors"
    write_safetensors(path, {"w": np.ones(2, dtype=np.float32)}, {})
    with pytest.raises(ValueError, match="not a botarena policy"):
        load_policy(path)


def test_architectures_with_wrong_shapes_are_rejected() -> None:
    arch = default_architecture(SPECS["2d"], channels=(4,), hidden=8)
    arch["actions"] = 35
    with pytest.raises(ValueError, match="want \\[35\\] actions"):
        PolicyNet(arch)
    arch = default_architecture(SPECS["2d"], channels=(4,), hidden=8)
    arch["planes"] = arch["planes"][:-1]
    with pytest.raises(ValueError, match="must end with flatten"):
        PolicyNet(arch)
