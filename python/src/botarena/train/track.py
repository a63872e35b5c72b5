"""Experiment tracking for ``python -m botarena.train --track tensorboard,wandb``.

A :class:`Tracker` takes named scalars at a step (the run's env steps) and
a run's closing summary. Two kinds:

* ``tensorboard``: TensorBoard event files in ``OUT/tb``, written by
  :class:`EventWriter` here (the TFRecord framing and the few fields of
  TensorBoard's ``Event`` and ``Summary`` protos it needs, hand-encoded),
  so writing needs neither torch nor tensorboard; view them with
  ``tensorboard --logdir OUT/tb`` (the ``train`` extra installs it).
  :func:`read_scalars` reads them back.
* ``wandb``: Weights & Biases (``wandb.init`` with the run's config, in
  ``OUT``); it needs ``pip install 'botarena[wandb]'``.

Tags: ``train/<column>`` for each curve.csv column of an update (steps/s,
returns, win/draw/loss rates, the PPO losses, entropy, ...) and
``eval/<opponent>/<mode>/<figure>`` for the evaluation after training.
"""

from __future__ import annotations

import os
import pathlib
import socket
import struct
import time
from typing import Any, Mapping, Sequence

from botarena.batch import put_varint

__all__ = ["TRACKERS", "Tracker", "TensorBoardTracker", "WandbTracker", "MultiTracker", "EventWriter", "open_tracker", "read_scalars"]

#: The kinds of --track.
TRACKERS = ("tensorboard", "wandb")


class Tracker:
    """Where a run's scalars go. The base class drops them."""

    def scalars(self, step: int, values: Mapping[str, float]) -> None:
        """Records each value under its tag at step."""

    def close(self) -> None:
        """Flushes and closes."""


# TensorBoard event files --------------------------------------------------------


def _crc32c_table() -> list[int]:
    table = []
    for i in range(256):
        c = i
        for _ in range(8):
            c = (c >> 1) ^ 0x82F63B78 if c & 1 else c >> 1
        table.append(c)
    return table


_CRC_TABLE = _crc32c_table()


def crc32c(data: bytes) -> int:
    """CRC-32C (Castagnoli), as TFRecord uses."""
    c = 0xFFFFFFFF
    t = _CRC_TABLE
    for b in data:
        c = t[(c ^ b) & 0xFF] ^ (c >> 8)
    return c ^ 0xFFFFFFFF


def _masked_crc(data: bytes) -> int:
    c = crc32c(data)
    return (((c >> 15) | (c << 17)) + 0xA282EAD8) & 0xFFFFFFFF


def _varint(v: int) -> bytes:
    out = bytearray()
    put_varint(out, v & ((1 << 64) - 1))
    return bytes(out)


def _field_bytes(num: int, data: bytes) -> bytes:
    return _varint(num << 3 | 2) + _varint(len(data)) + data


def _event(wall_time: float, step: int, *, file_version: str = "", scalars: Mapping[str, float] | None = None) -> bytes:
    """An Event proto: wall_time (1, double), step (2, int64), file_version (3) or summary (5)."""
    out = b"\x09" + struct.pack("<d", wall_time) + b"\x10" + _varint(step)
    if file_version:
        out += _field_bytes(3, file_version.encode())
    if scalars:
        # Summary.value (1): Summary.Value {tag (1), simple_value (2, float)}.
        summary = b"".join(_field_bytes(1, _field_bytes(1, tag.encode()) + b"\x15" + struct.pack("<f", float(v))) for tag, v in scalars.items())
        out += _field_bytes(5, summary)
    return out


class EventWriter:
    """Writes a TensorBoard event file (``events.out.tfevents.*``) in a directory."""

    def __init__(self, logdir: str | os.PathLike[str]) -> None:
        d = pathlib.Path(logdir)
        d.mkdir(parents=True, exist_ok=True)
        now = time.time()
        self.path = d / f"events.out.tfevents.{int(now)}.{socket.gethostname()}.{os.getpid()}.{time.monotonic_ns() % 1_000_000}"
        self._f = open(self.path, "ab")
        self._record(_event(now, 0, file_version="brain.Event:2"))
        self._f.flush()

    def _record(self, data: bytes) -> None:
        n = struct.pack("<Q", len(data))
        self._f.write(n + struct.pack("<I", _masked_crc(n)) + data + struct.pack("<I", _masked_crc(data)))

    def scalars(self, step: int, values: Mapping[str, float]) -> None:
        """One event holding each value as a scalar summary at step."""
        if values:
            self._record(_event(time.time(), step, scalars=values))
            self._f.flush()

    def close(self) -> None:
        if not self._f.closed:
            self._f.close()


def _fields(data: bytes) -> list[tuple[int, int, Any]]:
    """The (field number, wire type, value) of a protobuf message; values of wire type 2 are bytes."""
    out: list[tuple[int, int, Any]] = []
    i = 0
    while i < len(data):
        key, i = _read_varint(data, i)
        num, wt = key >> 3, key & 7
        v: Any
        if wt == 0:
            v, i = _read_varint(data, i)
        elif wt == 1:
            v, i = data[i : i + 8], i + 8
        elif wt == 5:
            v, i = data[i : i + 4], i + 4
        elif wt == 2:
            n, i = _read_varint(data, i)
            v, i = data[i : i + n], i + n
        else:
            raise ValueError(f"unsupported wire type {wt}")
        out.append((num, wt, v))
    return out


def _read_varint(data: bytes, i: int) -> tuple[int, int]:
    v = shift = 0
    while True:
        b = data[i]
        i += 1
        v |= (b & 0x7F) << shift
        shift += 7
        if not b & 0x80:
            return v, i


def read_scalars(logdir: str | os.PathLike[str]) -> dict[str, list[tuple[int, float]]]:
    """The scalars of every event file in logdir: {tag: [(step, value), ...]} in file and write order.

    Checks each record's CRCs. Reads what :class:`EventWriter` writes
    (``simple_value`` scalars), and the tensor scalars other writers use.
    """
    out: dict[str, list[tuple[int, float]]] = {}
    for path in sorted(pathlib.Path(logdir).glob("events.out.tfevents.*")):
        data = path.read_bytes()
        i = 0
        while i + 12 <= len(data):
            head = data[i : i + 8]
            (n,) = struct.unpack("<Q", head)
            if struct.unpack("<I", data[i + 8 : i + 12])[0] != _masked_crc(head):
                raise ValueError(f"{path}: bad length CRC at byte {i}")
            rec = data[i + 12 : i + 12 + n]
            if struct.unpack("<I", data[i + 12 + n : i + 16 + n])[0] != _masked_crc(rec):
                raise ValueError(f"{path}: bad data CRC at byte {i}")
            i += 16 + n
            step = 0
            summary = b""
            for num, _, v in _fields(rec):
                if num == 2:
                    step = v - (1 << 64) if v >= 1 << 63 else v
                elif num == 5:
                    summary = v
            for num, _, value in _fields(summary):
                if num != 1:
                    continue
                tag, x = "", None
                for vn, wt, vv in _fields(value):
                    if vn == 1:
                        tag = vv.decode()
                    elif vn == 2 and wt == 5:
                        x = struct.unpack("<f", vv)[0]
                    elif vn == 8:  # tensor: TensorProto.float_val (5), packed or not
                        for tn, twt, tv in _fields(vv):
                            if tn == 5:
                                x = struct.unpack("<f", tv[:4])[0]
                if x is not None:
                    out.setdefault(tag, []).append((step, x))
    return out


class TensorBoardTracker(Tracker):
    """Scalars into TensorBoard event files in logdir."""

    def __init__(self, logdir: str | os.PathLike[str]) -> None:
        self.writer = EventWriter(logdir)

    def scalars(self, step: int, values: Mapping[str, float]) -> None:
        self.writer.scalars(step, {k: float(v) for k, v in values.items() if v == v})  # NaN (no games yet) left out

    def close(self) -> None:
        self.writer.close()


# Weights & Biases ----------------------------------------------------------------


class WandbTracker(Tracker):
    """Scalars into a Weights & Biases run (``wandb.init(project, dir, config)``)."""

    def __init__(self, out: str | os.PathLike[str], config: Mapping[str, Any], *, project: str = "botarena", name: str = "") -> None:
        try:
            import wandb
        except ImportError:
            raise RuntimeError("--track wandb needs the wandb package: pip install 'botarena[wandb]'") from None
        self._wandb = wandb
        self.run = wandb.init(project=project, dir=str(out), config=dict(config), name=name or None)

    def scalars(self, step: int, values: Mapping[str, float]) -> None:
        self.run.log({k: float(v) for k, v in values.items()}, step=step)

    def close(self) -> None:
        self.run.finish()


class MultiTracker(Tracker):
    """Every scalar to each of several trackers."""

    def __init__(self, trackers: Sequence[Tracker]) -> None:
        self.trackers = list(trackers)

    def scalars(self, step: int, values: Mapping[str, float]) -> None:
        for t in self.trackers:
            t.scalars(step, values)

    def close(self) -> None:
        for t in self.trackers:
            t.close()


def open_tracker(kinds: Sequence[str], out: str | os.PathLike[str], config: Mapping[str, Any] | None = None) -> Tracker:
    """The tracker of --track's kinds (``tensorboard`` writes OUT/tb); no kinds: one that drops everything.

    Unknown kinds are ValueError; ``wandb`` without the package is RuntimeError naming the extra.
    """
    bad = [k for k in kinds if k not in TRACKERS]
    if bad:
        raise ValueError(f"unknown tracker {', '.join(bad)} (choose from {', '.join(TRACKERS)})")
    trackers: list[Tracker] = []
    for k in dict.fromkeys(kinds):
        if k == "tensorboard":
            trackers.append(TensorBoardTracker(pathlib.Path(out) / "tb"))
        else:
            trackers.append(WandbTracker(out, config or {}, name=pathlib.Path(out).name))
    if not trackers:
        return Tracker()
    return trackers[0] if len(trackers) == 1 else MultiTracker(trackers)
