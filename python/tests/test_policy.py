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
    widen_inputs,
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


@pytest.mark.parametrize("kind", sorted(SPECS))
def test_widened_scalars_compute_the_policys_function_whatever_the_new_entries_hold(kind: str) -> None:
    """widen_inputs: a policy given longer scalars (Battle³'s history) starts with zero weight on the
    new entries, so its logits and value are the old policy's on the old entries, for any values of
    the new ones; a shape change elsewhere is refused."""
    spec = SPECS[kind]
    torch.manual_seed(3)
    net = PolicyNet(default_architecture(spec, channels=(4, 8), strides=(1, 2), hidden=16, scalars_scale=[0.5, 2.0, 1.0, 3.0]))
    s = spec.observation("scalars").shape[0]
    shapes = {"planes": list(spec.observation("planes").shape), "scalars": [s + 3]}
    wide, notes = widen_inputs(net, shapes)
    assert len(notes) == 1 and "'scalars' widened from 4 to 7 entries" in notes[0] and "trunk.0.weight" in notes[0], notes
    assert wide.arch["inputs"]["scalars"]["shape"] == [s + 3]
    assert wide.arch["inputs"]["scalars"]["scale"] == [0.5, 2.0, 1.0, 3.0, 1.0, 1.0, 1.0]
    planes, scalars, _ = _batch(spec, 6, 4)
    extra = np.random.default_rng(5).normal(size=(6, 3)).astype(np.float32) * 10
    with torch.no_grad():
        want_logits, want_value = net(torch.as_tensor(planes), torch.as_tensor(scalars))
        got_logits, got_value = wide(torch.as_tensor(planes), torch.as_tensor(np.concatenate([scalars, extra], axis=1)))
    torch.testing.assert_close(got_logits, want_logits, rtol=0, atol=1e-6)
    torch.testing.assert_close(got_value, want_value, rtol=0, atol=1e-6)
    same, none = widen_inputs(net, {"planes": shapes["planes"], "scalars": [s]})
    assert none == [] and same.arch["inputs"] == net.arch["inputs"]
    with pytest.raises(ValueError, match="only a vector input"):
        widen_inputs(net, {"planes": [shapes["planes"][0] + 1, *shapes["planes"][1:]], "scalars": [s + 3]})
    with pytest.raises(ValueError, match="only a vector input"):
        widen_inputs(net, {"planes": shapes["planes"], "scalars": [s - 1]})


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


def _factored_spec() -> GameSpec:
    """A spec whose 9 actions factor into 3 commands over 4 cells: nothing; fire at cells 0-3;
    move to cells 1-3 (move to cell 0 does not exist)."""
    from botarena.spec import ActionFactors

    factors = ActionFactors(commands=("nothing", "fire", "move"), cells=4, command=(0, 1, 1, 1, 1, 2, 2, 2), cell=(0, 0, 1, 2, 3, 1, 2, 3))
    return GameSpec(
        game="factored",
        seats=2,
        observations=(TensorSpec("planes", np.dtype(np.uint8), (2, 3, 3)), TensorSpec("scalars", np.dtype(np.float32), (2,))),
        actions=8,
        action_factors=factors,
    )


def _reference_probs(logits: np.ndarray, mask: np.ndarray, cmd: list[int], idx: list[int], K: int) -> np.ndarray:
    """docs/policy-format.md's factored probabilities, written out in float64."""
    out = np.zeros(mask.shape)
    for b in range(len(mask)):
        legal = mask[b] != 0 if mask[b].any() else np.ones(mask.shape[1], dtype=bool)
        cl = [any(legal[a] for a in range(len(cmd)) if cmd[a] == k) for k in range(K)]
        zk = np.array([logits[b, k] if cl[k] else -np.inf for k in range(K)], dtype=np.float64)
        pk = np.exp(zk - zk.max())
        pk /= pk.sum()
        for a in range(len(cmd)):
            if not legal[a]:
                continue
            same = [a2 for a2 in range(len(cmd)) if cmd[a2] == cmd[a] and legal[a2]]
            zc = np.array([logits[b, K + idx[a2]] for a2 in same], dtype=np.float64)
            out[b, a] = pk[cmd[a]] * np.exp(logits[b, K + idx[a]] - zc.max()) / np.exp(zc - zc.max()).sum()
    return out


@pytest.mark.parametrize("head", ["factored", "factored-per-command"])
def test_factored_head_probabilities_match_the_definition_and_survive_saving(head: str, tmp_path: Path) -> None:
    spec = _factored_spec()
    torch.manual_seed(3)
    arch = default_architecture(spec, channels=(3,), hidden=8, head=head)
    net = PolicyNet(arch)
    K, C = 3, 4
    assert arch["policy"][0]["out"] == (K + C if head == "factored" else K + K * C)
    with torch.no_grad():
        net.policy[0].weight.mul_(20.0)  # logits spread wide enough that the test means something
    planes, scalars, mask = _batch(spec, 7, 4)
    mask[2] = 0
    mask[2, 0] = 1  # only "nothing" is legal
    mask[3] = 0
    mask[3, 5] = 1  # one legal move: the move command has probability 1
    p = net.probabilities(planes, scalars, mask)
    with torch.no_grad():
        logits, _ = net(torch.from_numpy(planes), torch.from_numpy(scalars))
    idx = [c if head == "factored" else k * C + c for k, c in zip(spec.action_factors.command, spec.action_factors.cell)]  # type: ignore[union-attr]
    want = _reference_probs(logits.numpy(), mask, list(spec.action_factors.command), idx, K)  # type: ignore[union-attr]
    np.testing.assert_allclose(p, want, atol=1e-6)
    assert (p[1:][mask[1:] == 0] == 0).all() and p[2, 0] == 1.0 and p[3, 5] == 1.0
    path = tmp_path / "f.safetensors"
    save_policy(net, path)
    np.testing.assert_array_equal(load_policy(path).probabilities(planes, scalars, mask), p)


def test_factored_log_probs_have_finite_gradients() -> None:
    spec = _factored_spec()
    net = PolicyNet(default_architecture(spec, channels=(3,), hidden=8, head="factored"))
    planes, scalars, mask = _batch(spec, 5, 5)
    mask[1] = 0
    mask[1, 0] = 1
    logits, _ = net(torch.from_numpy(planes), torch.from_numpy(scalars))
    logp = net.log_probs(logits, torch.from_numpy(mask))
    (-(logp.exp() * logp).sum(1).mean() + logp[:, 3].mean()).backward()
    assert all(torch.isfinite(q.grad).all() for q in net.parameters() if q.grad is not None)


def test_bad_factored_heads_are_rejected() -> None:
    spec = _factored_spec()
    arch = default_architecture(spec, channels=(3,), hidden=8, head="factored")
    arch["head"]["cell"][7] = 2  # move to cell 2 twice
    with pytest.raises(ValueError, match="two actions are command 2, cell 2"):
        PolicyNet(arch)
    with pytest.raises(ValueError, match="has no action factors"):
        default_architecture(SPECS["2d"], head="factored")


@pytest.mark.parametrize("dtype", ["float32", "bfloat16"])
def test_prepared_inputs_are_the_scaled_observations_and_take_picks_their_rows(dtype: str) -> None:
    spec = SPECS["2d"]
    C = spec.observation("planes").shape[0]
    scale = [0.5 + 0.25 * c for c in range(C)]
    net = PolicyNet(default_architecture(spec, channels=(4, 8), strides=(1, 2), hidden=16, planes_scale=scale))
    planes, scalars, _ = _batch(spec, 300, 2)  # more rows than prepare's block, and not a multiple of it
    dt = getattr(torch, dtype)
    got = net.prepare(torch.from_numpy(planes), torch.from_numpy(scalars), dtype=dt)
    want_planes = (torch.from_numpy(planes).to(torch.float32) * torch.tensor(scale).view(-1, 1, 1)).to(dt)
    assert got[0].dtype == dt and got[0].is_contiguous(memory_format=torch.channels_last)
    assert torch.equal(got[0], want_planes)
    assert torch.equal(got[1], torch.from_numpy(scalars).to(dt))
    idx = torch.tensor([299, 0, 17, 17, 150])
    picked = PolicyNet.take(got, idx)
    assert picked[0].is_contiguous(memory_format=torch.channels_last)
    assert torch.equal(picked[0], want_planes[idx]) and torch.equal(picked[1], got[1][idx])


def test_channels_last_training_layout_gives_the_same_numbers_as_the_plain_one() -> None:
    # The trainer lays the convolution weights out channels-last on the CPU, and the last
    # convolution before flatten converts its output back (policy._Conv2d): the logits, values
    # and gradients are those of the plain layout.
    spec = SPECS["2d"]
    torch.manual_seed(3)
    plain = PolicyNet(default_architecture(spec, channels=(4, 8), strides=(1, 2), hidden=16))
    fast = PolicyNet(plain.arch)
    fast.load_state_dict(plain.state_dict())
    with torch.no_grad():
        for p in fast.parameters():
            if p.dim() == 4:
                p.data = p.data.contiguous(memory_format=torch.channels_last)
    flags = [m.flat_after for m in fast.planes if hasattr(m, "flat_after")]
    assert flags == [False, True]  # the last convolution before flatten only
    planes, scalars, _ = _batch(spec, 64, 4)
    outs = []
    for net in (plain, fast):
        net.zero_grad()
        logits, value = net.forward_prepared(net.prepare(torch.from_numpy(planes), torch.from_numpy(scalars)))
        (logits.square().sum() + value.sum()).backward()
        outs.append((logits.detach(), value.detach(), [p.grad.clone() for p in net.parameters()]))
    torch.testing.assert_close(outs[1][0], outs[0][0])
    torch.testing.assert_close(outs[1][1], outs[0][1])
    for g_fast, g_plain in zip(outs[1][2], outs[0][2]):
        torch.testing.assert_close(g_fast, g_plain, rtol=1e-4, atol=1e-5)


def test_observe_reads_the_first_elements_of_longer_tensors_only_when_told_they_are_prefixes() -> None:
    spec = SPECS["2d"]
    torch.manual_seed(0)
    net = PolicyNet(default_architecture(spec, channels=(4,), strides=(1,), hidden=8))
    planes, scalars, _ = _batch(spec, 3, seed=5)
    rng = np.random.default_rng(6)
    longer = np.concatenate([scalars, rng.normal(size=(3, 26)).astype(np.float32)], axis=1)  # a 1-round history appended
    want, _ = net.observe({"planes": planes, "scalars": scalars})
    with pytest.raises(ValueError, match=r"'scalars' has shape \[30\], the network takes \[4\].*prefix=True"):
        net.observe({"planes": planes, "scalars": longer})
    got, _ = net.observe({"planes": planes, "scalars": longer}, prefix=True)
    torch.testing.assert_close(got, want, rtol=0, atol=0)
    with pytest.raises(ValueError, match="'scalars' has shape \\[3\\]"):  # shorter is never a prefix
        net.observe({"planes": planes, "scalars": scalars[:, :3]}, prefix=True)
    with pytest.raises(ValueError, match="'planes' has shape \\[19, 10, 9\\]"):  # only the leading axis may grow
        net.observe({"planes": planes[..., :9], "scalars": scalars}, prefix=True)
