"""Writes the PyTorch parity fixtures of agents/policy.

Small random-weight networks for a 2-D game (battlebots: planes uint8[19,10,10],
scalars float32[4], 34 actions), the 3-D game (battlecube: planes
uint8[3,8,8,8], scalars float32[4], 519 actions), Battleships 7×7 with a
factored head (battleships: planes uint8[12,7,7], scalars float32[21], 1,549
actions as 13 commands × 169 cells, shared cell logits) and a tiny factored
game with per-command cell logits (factored), built and saved with
botarena.policy, and for each a fixture of random observations, masks (with
illegal actions and one all-zero row) and PyTorch's action probabilities.
The Go tests (parity_test.go) check that Go computes the same probabilities
within 1e-5.

Regenerate the committed fixtures from the repository root with a Python that
has the botarena package and torch (pip install -e 'python[train]'):

    .venv/bin/python agents/policy/testdata/make_fixtures.py

The output is deterministic for a given torch and numpy; --out DIR writes
elsewhere (TestParityFreshFixtures does so with $BOTARENA_PYTHON).
"""

from __future__ import annotations

import argparse
import json
import pathlib
from typing import Any

import numpy as np
import torch

from botarena.policy import PolicyNet, default_architecture, save_policy
from botarena.spec import ActionFactors, GameSpec, TensorSpec


def spec(game: str, planes: tuple[int, ...], scalars: int, actions: int, factors: ActionFactors | None = None) -> GameSpec:
    return GameSpec(
        game=game,
        seats=2,
        observations=(
            TensorSpec("planes", np.dtype("uint8"), planes),
            TensorSpec("scalars", np.dtype("float32"), (scalars,)),
        ),
        actions=actions,
        action_factors=factors,
    )


def battleships_factors(n: int) -> ActionFactors:
    """Battleships' action factors on an n×n map, written out from env/battleships/doc.go (the Go
    test TestFactoredFixtureIsBattleships checks them against the game's spec)."""
    g = n + 6
    command, cell = [0], [0]
    for code in range(1, 9):
        for x in range(-3, n + 3):
            for y in range(-3, n + 3):
                command.append(code)
                cell.append((x + 3) * g + y + 3)
    for x in range(n):
        for y in range(n):
            for d in range(4):
                command.append(9 + d)
                cell.append((x + 3) * g + y + 3)
    names = ("nothing", "single", "double vertical", "double horizontal", "corner", "diagonal cross", "cross", "seeker", "shield")
    return ActionFactors(commands=names + tuple(f"place {d}" for d in ("North", "East", "South", "West")), cells=g * g, command=tuple(command), cell=tuple(cell))


def battleships(rng: np.random.Generator) -> dict[str, Any]:
    """The standard architecture with a factored head (shared cell logits)."""
    s = spec("battleships/small", (12, 7, 7), 21, 1549, battleships_factors(7))
    return default_architecture(s, channels=(4,), strides=(2,), hidden=16, scalars_scale=rng.uniform(0.1, 1.0, 21).round(3).tolist(), head="factored")


def factored(rng: np.random.Generator) -> dict[str, Any]:
    """A tiny factored game with per-command cell logits: nothing; fire at cells 0-3; move to cells 1-3."""
    f = ActionFactors(commands=("nothing", "fire", "move"), cells=4, command=(0, 1, 1, 1, 1, 2, 2, 2), cell=(0, 0, 1, 2, 3, 1, 2, 3))
    s = spec("factored", (2, 3, 3), 2, 8, f)
    return default_architecture(s, channels=(3,), hidden=8, head="factored-per-command")


def battlebots(rng: np.random.Generator) -> dict[str, Any]:
    """The standard architecture, small: two 3×3 convolutions, one hidden layer."""
    s = spec("battlebots", (19, 10, 10), 4, 34)
    return default_architecture(
        s,
        channels=(8, 8),
        hidden=32,
        planes_scale=rng.uniform(0.25, 2.0, 19).round(3).tolist(),
        scalars_scale=[0.01, 0.05, 0.1, 0.5],
    )


def battlecube(rng: np.random.Generator) -> dict[str, Any]:
    """A hand-written architecture: conv3d with stride 2, tanh, a two-layer trunk."""
    s = spec("battlecube", (3, 8, 8, 8), 4, 519)
    arch = default_architecture(
        s,
        planes_scale=[1.0, 0.5, 0.25],
        scalars_scale=rng.uniform(0.01, 0.2, 4).round(3).tolist(),
    )
    arch["planes"] = [
        {"op": "conv3d", "weight": "planes.0.weight", "bias": "planes.0.bias", "out": 4, "kernel": 3, "stride": 1, "padding": 1},
        {"op": "relu"},
        {"op": "conv3d", "weight": "planes.2.weight", "bias": "planes.2.bias", "out": 6, "kernel": 3, "stride": 2, "padding": 1},
        {"op": "tanh"},
        {"op": "flatten"},
    ]
    arch["trunk"] = [
        {"op": "linear", "weight": "trunk.0.weight", "bias": "trunk.0.bias", "out": 16},
        {"op": "tanh"},
        {"op": "linear", "weight": "trunk.2.weight", "bias": "trunk.2.bias", "out": 16},
        {"op": "relu"},
    ]
    return arch


def fixture(name: str, arch: dict[str, Any], n: int, rng: np.random.Generator, out: pathlib.Path) -> None:
    net = PolicyNet(arch).eval()
    shape = tuple(arch["inputs"]["planes"]["shape"])
    s = arch["inputs"]["scalars"]["shape"][0]
    a = arch["actions"]
    planes = (rng.integers(1, 5, (n, *shape)) * (rng.random((n, *shape)) < 0.3)).astype(np.uint8)
    scalars = rng.normal(0.0, 30.0, (n, s)).astype(np.float32)
    with torch.no_grad():
        # Logits with a spread of about 3 (the default initialisation gives
        # nearly uniform probabilities), so that the comparison means something.
        logits, _ = net(torch.from_numpy(planes), torch.from_numpy(scalars))
        head = net.policy[len(net.policy) - 1]
        f = 3.0 / float(logits.std())
        head.weight.mul_(f)
        head.bias.mul_(f)
    save_policy(net, out / f"{name}.policy.safetensors", trained={"steps": 0, "opponent": "none", "note": "random weights for the Go parity tests (make_fixtures.py)"})
    mask = (rng.random((n, a)) < 0.4).astype(np.uint8)
    mask[:, 0] = 1
    mask[1, :] = 1  # every action legal
    mask[n - 1, :] = 0  # no action legal: treated as all legal
    if "head" in arch and arch["head"]["type"] == "factored":
        cmd = np.array(arch["head"]["command"])
        mask[2, :] = 0
        mask[2, 0] = 1  # only "nothing"
        mask[3, :] = cmd == 1  # one command legal, every cell of it
        mask[4, :] = 0
        mask[4, np.flatnonzero(cmd == 2)[-1]] = 1  # a single legal action
    probs = net.probabilities(planes, scalars, mask)
    doc = {
        "policy": f"{name}.policy.safetensors",
        "n": n,
        "actions": a,
        "planes": planes.reshape(-1).tolist(),
        "scalars": [float(x) for x in scalars.reshape(-1)],
        "mask": mask.reshape(-1).tolist(),
        "probs": [float(x) for x in probs.reshape(-1)],
    }
    (out / f"{name}.fixture.json").write_text(json.dumps(doc, separators=(",", ":")) + "\n")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", type=pathlib.Path, default=pathlib.Path(__file__).resolve().parent)
    args = ap.parse_args()
    torch.manual_seed(20261121)
    torch.set_num_threads(1)
    rng = np.random.default_rng(20261121)
    args.out.mkdir(parents=True, exist_ok=True)
    fixture("battlebots", battlebots(rng), 8, rng, args.out)
    fixture("battlecube", battlecube(rng), 6, rng, args.out)
    fixture("battleships", battleships(rng), 6, rng, args.out)
    fixture("factored", factored(rng), 7, rng, args.out)


if __name__ == "__main__":
    main()
