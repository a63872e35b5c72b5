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


def test_bench_transport_both_alternates_unary_and_stream(address: str, capsys: pytest.CaptureFixture[str]) -> None:
    """--transport both runs unary Step and StepStream in turn and reports stream's share of unary, overall and per round."""
    argv = ["--envs", "2", "--transport", "both", "--rounds", "2", "--seconds", "0.2", "--address", address, "--json"]
    assert bench.main(argv) == 0
    res = json.loads(capsys.readouterr().out)
    assert [(r["setting"], r["transport"]) for r in res["runs"]] == [("unary", "unary"), ("stream", "stream")] * 2
    sps = [r["agent_steps_per_sec"] for r in res["runs"]]
    ratios = [sps[1] / sps[0], sps[3] / sps[2]]  # each stream run over the unary run before it
    assert res["median_round_ratio"] == round((ratios[0] + ratios[1]) / 2, 3)  # the median of two
    assert res["stream_over_unary"] > 0
    cpu = res["cpu_ns_per_agent_step"]
    assert set(cpu) == {"unary", "stream"} and all(c["client"] > 0 and c["server"] is None for c in cpu.values())  # --address: not our server
    assert bench.main(argv[:-1]) == 0
    out = capsys.readouterr().out
    assert "stream / unary" in out and "median of the rounds' own ratios" in out
    assert res["stream_http_version"] == 1 and "stream over HTTP/1.1" in out
