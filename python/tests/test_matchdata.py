"""League match data (botarena league run --data) read back with pyarrow.

The Parquet files hold one row per (game, step, seat); this checks their
shapes and values against the games the league recorded.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import numpy as np
import pyarrow.parquet as pq

from botarena.server import find_binary


def _cli(*args: str) -> str:
    out = subprocess.run([find_binary(), *args], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    return out.stdout


def test_match_data_has_one_row_per_game_step_and_seat_matching_the_recorded_games(tmp_path: Path) -> None:
    league, data = tmp_path / "L", tmp_path / "data"
    _cli("league", "init", str(league), "--game", "battlebots", "--seed", "3")
    for name in ("huggy", "sniper", "random"):
        _cli("league", "add", str(league), name, name)
    _cli("league", "run", str(league), "--games", "9", "--data", str(data), "--json")
    games = [json.loads(line) for line in _cli("league", "games", str(league), "--json").splitlines()]
    games = {g["index"]: g for g in games}
    assert sorted(games) == list(range(9))

    files = sorted(data.glob("*.parquet"))
    assert files, "no Parquet files written"
    table = pq.read_table(files[0]) if len(files) == 1 else pq.ParquetDataset(files).read()
    assert table.num_rows == sum(2 * g["rounds"] for g in games.values())
    names = table.schema.names
    assert names[:9] == ["game", "seed", "step", "seat", "agent", "action", "reward", "terminated", "truncated"]
    assert names[-1] == "mask"
    assert table.schema.field("planes").type.list_size == 19 * 10 * 10
    assert table.schema.field("scalars").type.list_size == 4
    assert table.schema.field("mask").type.list_size == 34

    cols = table.to_pydict()
    game = np.array(cols["game"])
    step = np.array(cols["step"])
    seat = np.array(cols["seat"])
    reward = np.array(cols["reward"], dtype=np.float32)
    action = np.array(cols["action"])
    seeds = table.column("seed").to_numpy()  # uint64
    assert ((action >= 0) & (action < 34)).all()
    planes = np.asarray(table.column("planes").combine_chunks().flatten()).reshape(-1, 19, 10, 10)
    assert planes.dtype == np.uint8 and planes.shape[0] == table.num_rows
    # Plane 0 is the seat's own bot: exactly one cell, in every row.
    assert (planes[:, 0].reshape(len(planes), -1).sum(axis=1) == 1).all()

    for i, g in games.items():
        rows = game == i
        rounds = g["rounds"]
        # Rows run step by step, seat by seat.
        assert list(step[rows]) == [s for s in range(rounds) for _ in (0, 1)]
        assert list(seat[rows]) == [0, 1] * rounds
        assert {int(x) for x in seeds[rows]} == {g["seed"]}
        agents = [s["agent"] for s in g["seats"]]
        assert list(np.array(cols["agent"])[rows]) == agents * rounds
        # The episode's rewards give the recorded result: +1 to the winner, -1 to the loser.
        total = [reward[rows & (seat == s)].sum() for s in (0, 1)]
        if g["draw"]:
            assert total == [0, 0]
        else:
            w = g["winner"]
            assert total[w] == 1 and total[1 - w] == -1
        last = rows & (step == rounds - 1)
        assert (np.array(cols["terminated"])[last] | np.array(cols["truncated"])[last]).all()
