"""botarena.train.track without PyTorch: TensorBoard event files written and read back, --track's kinds."""

from __future__ import annotations

import importlib.util
import math
import struct
from pathlib import Path

import pytest

from botarena.train.track import EventWriter, Tracker, crc32c, open_tracker, read_scalars


def test_crc32c_known_answer() -> None:
    assert crc32c(b"123456789") == 0xE3069283  # RFC 3720's check value


def test_scalars_are_written_and_read_back(tmp_path: Path) -> None:
    t = open_tracker(["tensorboard"], tmp_path)
    t.scalars(10, {"train/steps_per_s": 1234.5, "train/win_rate": 0.25})
    t.scalars(20, {"train/steps_per_s": 2000.0, "train/win_rate": math.nan})  # NaN: no games yet, left out
    t.scalars(-1, {"eval/x": 3})
    t.close()
    files = list((tmp_path / "tb").glob("events.out.tfevents.*"))
    assert len(files) == 1
    assert read_scalars(tmp_path / "tb") == {
        "train/steps_per_s": [(10, 1234.5), (20, 2000.0)],
        "train/win_rate": [(10, 0.25)],
        "eval/x": [(-1, 3.0)],
    }


def test_a_damaged_record_is_refused(tmp_path: Path) -> None:
    w = EventWriter(tmp_path)
    w.scalars(1, {"a": 1.0})
    w.close()
    data = bytearray(w.path.read_bytes())
    data[-6] ^= 1  # in the last record's data
    w.path.write_bytes(bytes(data))
    with pytest.raises(ValueError, match="CRC"):
        read_scalars(tmp_path)


def test_first_record_is_the_file_version(tmp_path: Path) -> None:
    w = EventWriter(tmp_path)
    w.close()
    data = w.path.read_bytes()
    (n,) = struct.unpack("<Q", data[:8])
    assert b"brain.Event:2" in data[12 : 12 + n]


@pytest.mark.skipif(importlib.util.find_spec("tensorboard") is None, reason="tensorboard not installed")
def test_tensorboard_reads_the_files(tmp_path: Path) -> None:
    from tensorboard.backend.event_processing.event_accumulator import EventAccumulator

    t = open_tracker(["tensorboard"], tmp_path)
    for step in (1, 2, 3):
        t.scalars(step, {"train/mean_return": step / 2})
    t.close()
    acc = EventAccumulator(str(tmp_path / "tb"))
    acc.Reload()
    assert "train/mean_return" in acc.Tags()["scalars"]
    assert [(e.step, e.value) for e in acc.Scalars("train/mean_return")] == [(1, 0.5), (2, 1.0), (3, 1.5)]


def test_no_kinds_drop_everything_and_unknown_kinds_are_refused(tmp_path: Path) -> None:
    t = open_tracker([], tmp_path)
    assert type(t) is Tracker
    t.scalars(1, {"a": 1.0})
    t.close()
    assert not (tmp_path / "tb").exists()
    with pytest.raises(ValueError, match="unknown tracker mlflow"):
        open_tracker(["mlflow"], tmp_path)


@pytest.mark.skipif(importlib.util.find_spec("wandb") is not None, reason="wandb is installed")
def test_wandb_without_the_package_names_the_extra(tmp_path: Path) -> None:
    with pytest.raises(RuntimeError, match=r"botarena\[wandb\]"):
        open_tracker(["wandb"], tmp_path)
