"""bench/backends.py's peer rows, run with tiny sizes: every row has its fields and a positive rate.

Gymnasium (a dependency of botarena) is enough for the vector-env rows; the
EnvPool row skips where envpool is not installed (the peers extra, which CI's
extras do not include: its wheels and assets weigh about 750 MB).
"""

from __future__ import annotations

import importlib
import os
import sys
from pathlib import Path
from types import ModuleType
from typing import Any, Iterator

import pytest

from extras import require

require("gymnasium")

BENCH = Path(__file__).resolve().parents[2] / "bench"
FIELDS = {"game", "figure", "envs", "agent_steps_per_sec", "cores", "agent_steps_per_sec_per_core", "obs_bytes_per_agent_step"}


@pytest.fixture(scope="module")
def backends() -> Iterator[ModuleType]:
    # On sys.path while the tests run: AsyncVectorEnv's spawned workers import
    # the dummy env's module by name, with the parent's sys.path.
    sys.path.insert(0, str(BENCH))
    try:
        yield importlib.import_module("backends")
    finally:
        sys.path.remove(str(BENCH))
        sys.modules.pop("backends", None)


def check_row(row: dict[str, Any], figure: str, envs: int, cores: int, obs_bytes: int) -> None:
    assert FIELDS <= row.keys(), row
    assert row["figure"] == figure and row["envs"] == envs
    assert row["agent_steps_per_sec"] > 0
    assert row["cores"] == cores
    assert row["agent_steps_per_sec_per_core"] == pytest.approx(row["agent_steps_per_sec"] / cores, rel=1e-3)
    assert row["obs_bytes_per_agent_step"] == obs_bytes


@pytest.mark.parametrize("mode,envs", [("sync", 4), ("async", 2)])
def test_gymnasium_vector_rows(backends: ModuleType, mode: str, envs: int) -> None:
    row = backends.gymnasium_vector("bomberman", 5324, envs, 0.2, mode)
    # Sync steps in this process; async in one subprocess per env, capped at the machine's cores.
    cores = 1 if mode == "sync" else min(envs, os.cpu_count() or 1)
    check_row(row, f"gymnasium_{mode}", envs, cores, 5324)
    assert row["game"] == "bomberman"


def test_dummy_env_observation_has_the_asked_size(backends: ModuleType) -> None:
    env = backends.DummyEnv(1916)
    obs, _ = env.reset(seed=1)
    assert obs.nbytes == 1916 and env.observation_space.contains(obs)
    obs, reward, terminated, truncated, _ = env.step(env.action_space.sample())
    assert obs.nbytes == 1916 and not terminated and not truncated


def test_envpool_row(backends: ModuleType) -> None:
    pytest.importorskip("envpool", reason="envpool is not installed (pip install -e 'python[peers]')")
    row = backends.envpool_env("CartPole-v1", 8, 0.2, threads=1)
    check_row(row, "envpool_cartpole", 8, 1, 16)  # four float32 values
    assert row["game"] == "reference"


def test_missing_peer_says_how_to_install(backends: ModuleType) -> None:
    assert backends.missing_peer("numpy") is None
    reason = backends.missing_peer("botarena_no_such_peer")
    assert "botarena_no_such_peer" in reason and "pip install botarena_no_such_peer" in reason
    if backends.missing_peer("pommerman") is not None:
        assert "no distribution on PyPI" in backends.missing_peer("pommerman")


def test_table_reports_median_range_and_per_core(backends: ModuleType) -> None:
    rows = [backends.rate_row("bomberman", "gymnasium_sync", 1024, v, 1, 5324) for v in (2e5, 3e5, 4e5)]
    rows += [backends.rate_row("reference", "envpool_pong", 64, v, 8, 28224, "64 envs") for v in (3e3, 1e3, 2e3)]
    rows += [{"game": "bomberman", "figure": "native_share", "share": s} for s in (0.9, 1.1, 1.0)]
    cores = min(8, os.cpu_count() or 1)
    lines = backends.table(rows, 3)
    assert lines[2] == "| bomberman | native_share | 100% | 90%–110% |  |  |  |"
    assert lines[3] == "| bomberman | gymnasium_sync | 0.30M | 0.20M–0.40M | 1 | 0.30M | 5,324 |"
    per_core = f"{2e3 / cores / 1e3:.1f}k"
    assert lines[4] == f"| reference | envpool_pong (64 envs) | 2.0k | 1.0k–3.0k | {cores} | {per_core} | 28,224 |"


def test_missing_peer_is_a_not_measured_row_in_the_table(backends: ModuleType, tmp_path: Path) -> None:
    args = backends.argparse.Namespace(games="bomberman", envs=4, seconds=0.01, workers=0, pong_envs=2)
    if backends.missing_peer("pommerman") is None:
        pytest.skip("pommerman is installed here")
    (row,) = backends.peer_rows("pommerman", 0, args)
    assert row["figure"] == "pommerman_ffa" and "no distribution on PyPI" in row["not_measured"]
    # bench/figures.sh's output: rows after "python ", among lines that are not rows.
    measured = backends.rate_row("bomberman", "gymnasium_sync", 4, 1e5, 1, 5324)
    out = tmp_path / "figures.txt"
    out.write_text(f"round 1 BenchmarkStep/bomberman-2 1 ns/op\npython {backends.json.dumps(measured)}\npython {backends.json.dumps(row)}\n")
    rows = backends.read_rows(str(out))
    assert rows == [measured, row]
    lines = backends.table(rows, 1)
    assert lines[2].startswith("| bomberman | gymnasium_sync | 0.10M |")
    assert lines[3].startswith("| bomberman | pommerman_ffa | not measured: pommerman is not importable")
