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


def test_bench_async_vs_sync(address: str, capsys: pytest.CaptureFixture[str]) -> None:
    """--async-vs-sync runs step and send/recv in turn and reports async's share of sync."""
    argv = ["--envs", "4", "--batch-size", "2", "--async-vs-sync", "--rounds", "1", "--seconds", "0.3", "--address", address, "--json"]
    assert bench.main(argv) == 0
    res = json.loads(capsys.readouterr().out)
    assert [(r["setting"], r["batch_size"], r["rows"]) for r in res["runs"]] == [("sync", None, 16), ("async", 2, 8)]
    assert set(res["median_agent_steps_per_sec"]) == {"sync", "async"} and res["async_over_sync"] > 0
