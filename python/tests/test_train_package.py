"""The botarena.train package's own rules: a run's curve.csv keeps every column any row has (a resumed
run may add one), and the package's lazily exported names stay what they are whatever was imported
first (``evaluate`` is a function and a submodule's name)."""

from __future__ import annotations

import math
import subprocess
import sys
from pathlib import Path

import pytest

from botarena.train.curve import read_curve, write_curve


def test_curve_keeps_a_column_that_later_rows_add(tmp_path: Path) -> None:
    path = tmp_path / "curve.csv"
    rows = [{"update": 1.0, "win_rate": 0.5}, {"update": 2.0, "win_rate": 0.75, "aux_loss": 0.25}]
    write_curve(path, rows)
    back = read_curve(path)
    assert [r["update"] for r in back] == [1.0, 2.0]
    assert list(back[0]) == ["update", "win_rate", "aux_loss"]
    assert math.isnan(back[0]["aux_loss"]) and back[1]["aux_loss"] == 0.25


@pytest.mark.parametrize(
    "first",
    [
        "import botarena.train",
        "import botarena.train.evaluate",
        "import botarena.train.cli",
        "from botarena.train import main",
    ],
)
def test_evaluate_is_the_function_whatever_was_imported_first(first: str) -> None:
    pytest.importorskip("torch")
    code = f"{first}\nfrom botarena.train import evaluate\nimport botarena.train as t\nprint(callable(evaluate), callable(t.evaluate))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["True", "True"], out.stdout
