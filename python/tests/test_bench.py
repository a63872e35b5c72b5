"""python -m botarena.bench runs and reports its figures."""

from __future__ import annotations

import json

import pytest

from botarena import bench


@pytest.mark.parametrize("envs", [1, 16])
def test_bench(address: str, envs: int, capsys: pytest.CaptureFixture[str]) -> None:
    assert bench.main(["--envs", str(envs), "--seconds", "0.3", "--address", address, "--json"]) == 0
    res = json.loads(capsys.readouterr().out)
    assert res["envs"] == envs and res["seats"] == 4
    assert res["agent_steps_per_sec"] > 0 and res["env_steps_per_sec"] > 0
    assert res["median_step_ms"] > 0
