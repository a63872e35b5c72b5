"""The observation contract (docs/policy-format.md): the network and the trainer walk the observation
tensors a spec declares, so any game trains, testgame's one int32 vector included; reading a game's
training defaults does not import PyTorch."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from extras import require

require("torch")
require("matplotlib")

import torch  # noqa: E402

from botarena.policy import PolicyNet, default_architecture, load_policy, save_policy  # noqa: E402
from botarena.server import find_binary, repo_root  # noqa: E402
from botarena.spec import GameSpec, TensorSpec  # noqa: E402
from botarena.train import main  # noqa: E402


def _spec(*tensors: TensorSpec) -> GameSpec:
    return GameSpec(game="made-up", seats=2, observations=tuple(tensors), actions=5)


def test_each_tensor_gets_the_encoder_of_its_rank_in_the_specs_order(tmp_path: Path) -> None:
    spec = _spec(
        TensorSpec("board", np.dtype(np.uint8), (2, 4, 4)),
        TensorSpec("score", np.dtype(np.int32), (3,)),
        TensorSpec("cube", np.dtype(np.float32), (2, 3, 3, 3)),
        TensorSpec("grid", np.dtype(np.float32), (2, 3)),
    )
    arch = default_architecture(spec, channels=(4,), hidden=8, scales={"score": [0.5, 0.5, 0.5]})
    assert list(arch["inputs"]) == ["board", "score", "cube", "grid"] and "planes" not in arch
    enc = arch["encoders"]
    assert [[layer["op"] for layer in enc[n]] for n in enc] == [["conv2d", "relu", "flatten"], ["flatten"], ["conv3d", "relu", "flatten"], ["flatten"]]
    assert enc["board"][0]["weight"] == "encoders.board.0.weight"
    net = PolicyNet(arch)
    assert net.input_names == ["board", "score", "cube", "grid"]
    rng = np.random.default_rng(0)
    inputs = [
        rng.integers(0, 3, (6, 2, 4, 4)).astype(np.uint8),
        rng.integers(-5, 5, (6, 3)).astype(np.int32),
        rng.random((6, 2, 3, 3, 3)).astype(np.float32),
        rng.random((6, 2, 3)).astype(np.float32),
    ]
    mask = np.ones((6, 5), dtype=np.uint8)
    mask[:, 4] = 0
    p = net.probabilities(*inputs, mask)
    assert p.shape == (6, 5) and np.allclose(p.sum(1), 1) and (p[:, 4] == 0).all()
    # The trunk takes the features in the spec's order: 4·4·4 + 3 + 4·3·3·3 + 6.
    assert net.trunk[0].in_features == 64 + 3 + 108 + 6
    save_policy(net, tmp_path / "p.safetensors")
    back = load_policy(tmp_path / "p.safetensors")
    np.testing.assert_array_equal(back.probabilities(*inputs, mask), p)
    # prepare/take/forward_prepared (what ppo_update uses) give forward()'s outputs.
    with torch.no_grad():
        ts = [torch.from_numpy(x) for x in inputs]
        idx = torch.tensor([4, 1])
        want, _ = net(*(t[idx] for t in ts))
        got, _ = net.forward_prepared(net.take(net.prepare(*ts), idx))
    torch.testing.assert_close(got, want)


def test_the_shipped_layout_stays_version_1_so_go_plays_it() -> None:
    spec = _spec(TensorSpec("planes", np.dtype(np.uint8), (3, 5, 5)), TensorSpec("scalars", np.dtype(np.float32), (2,)))
    arch = default_architecture(spec, channels=(4,), hidden=8)
    assert "encoders" not in arch and [layer["op"] for layer in arch["planes"]] == ["conv2d", "relu", "flatten"]
    assert PolicyNet(arch).input_names == ["planes", "scalars"]


def test_reading_a_games_training_defaults_does_not_import_torch() -> None:
    code = (
        "import sys\n"
        "from botarena.train import TrainConfig, game_defaults\n"
        "d = game_defaults('battlebots')\n"
        "assert d.channels and TrainConfig(game='battlebots').resolved().hidden == d.hidden\n"
        "assert 'torch' not in sys.modules, 'torch imported'\n"
        "print('ok')\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300, env={**os.environ, "BOTARENA_QUIET": "1"})
    assert out.returncode == 0 and out.stdout.strip() == "ok", out.stderr


@pytest.fixture(scope="module")
def testgame_binary(tmp_path_factory: pytest.TempPathFactory) -> str:
    """botarena built with -tags testgame (cmd/botarena/testgame_tag.go): the binary that also has testgame."""
    root = repo_root()
    if root is None or shutil.which("go") is None:
        pytest.skip("needs a source checkout and Go to build botarena with testgame")
    out = tmp_path_factory.mktemp("bin") / "botarena"
    subprocess.run(["go", "build", "-tags", "testgame", "-o", str(out), "./cmd/botarena"], cwd=root, check=True, timeout=900)
    return str(out)


def test_testgame_trains_for_a_few_updates(tmp_path: Path, testgame_binary: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """testgame observes one int32 vector, "scores": not planes and scalars. The trainer walks it
    (a flatten encoder), trains, and writes a policy Python plays and Go refuses by name."""
    monkeypatch.setenv("BOTARENA_BIN", testgame_binary)
    assert find_binary() == testgame_binary
    out = tmp_path / "run"
    rc = main(
        [
            "--game", "testgame", "--opponent", "random", "--minutes", "0", "--total-steps", "768",
            "--num-envs", "8", "--num-steps", "32", "--hidden", "16", "--checkpoint-every", "0",
            "--eval-games", "0", "--gauntlet-games", "0", "--out", str(out), "--threads", "1",
        ]
    )  # fmt: skip
    assert rc == 0
    rows = (out / "curve.csv").read_text().splitlines()
    assert len(rows) == 1 + 3, rows
    net = load_policy(out / "policy.safetensors")
    assert net.input_names == ["scores"] and [layer["op"] for layer in net.arch["encoders"]["scores"]] == ["flatten"]
    p = net.probabilities(np.array([[0, 4], [2, 2]], dtype=np.int32), np.ones((2, 3), dtype=np.uint8))
    assert p.shape == (2, 3) and np.allclose(p.sum(1), 1)
    play = subprocess.run(
        [testgame_binary, "play", "testgame", "--agents", f"policy:{out / 'policy.safetensors'},random"], capture_output=True, text=True, timeout=120
    )
    assert play.returncode != 0 and 'encoders over inputs "scores"' in play.stderr, play.stderr
