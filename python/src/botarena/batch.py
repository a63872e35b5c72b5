"""Decoding step batches: Arrow IPC record-batch messages to numpy views.

The server sends each pool's Arrow schema once (``CreatePoolResponse.arrow_schema``)
and then one record-batch message per Reset/Step, one row per learner row
(``row = env * len(learner_seats) + k``). The columns are documented in the Go
package ``observations``: one ``FixedSizeList`` column per observation tensor
(field metadata ``shape``, ``dtype``, ``layout``), ``mask``
(``FixedSizeList<uint8>[actions]``), ``reward`` float32, ``terminated`` and
``truncated`` bool, ``env``, ``seat`` and ``episode`` int32.

Zero copy. :meth:`BatchDecoder.decode` reads the message with
``pa.ipc.read_record_batch`` over the response bytes and returns numpy views
of them (``to_numpy(zero_copy_only=True)``, reshaped to ``(rows, *shape)``):
no observation byte is copied. The views hold a reference to the Arrow buffer,
which holds the response ``bytes``, so the data lives as long as any view does.
The views are read-only (the bytes are immutable); copy one to write to it.
Exceptions:

* ``terminated`` and ``truncated`` are bit-packed Arrow booleans; they are
  unpacked into new numpy bool arrays (``rows`` bytes each).
* A column of 2- or 4-byte values (float32/int32) is copied when the message
  does not start at a 4-byte-aligned address, so that every returned array is
  aligned. The server places each batch at an 8-aligned offset of the
  response (see :func:`parse_step_message`), so this happens only for
  messages received at odd addresses; the columns are small anyway (rewards,
  ids, scalar features), and the uint8 planes and the mask are never copied.
* With zstd body compression pyarrow decompresses into new buffers.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt
import pyarrow as pa

from botarena.spec import GameSpec

__all__ = ["Batch", "BatchDecoder", "StepMessage", "parse_step_message", "encode_step_request"]

Obs = dict[str, npt.NDArray[Any]]


@dataclass
class Batch:
    """One decoded step batch: numpy arrays with one leading row axis.

    Attributes:
        obs: one array per observation tensor, shape ``(rows, *tensor.shape)``.
        mask: ``(rows, actions)`` uint8, 1 where the action is legal.
        reward: ``(rows,)`` float32.
        terminated, truncated: ``(rows,)`` bool.
        env, seat, episode: ``(rows,)`` int32: the row's env index, seat and
            the env's episode number.
        buffer: the Arrow buffer the views alias (the response bytes).
    """

    obs: Obs
    mask: npt.NDArray[np.uint8]
    reward: npt.NDArray[np.float32]
    terminated: npt.NDArray[np.bool_]
    truncated: npt.NDArray[np.bool_]
    env: npt.NDArray[np.int32]
    seat: npt.NDArray[np.int32]
    episode: npt.NDArray[np.int32]
    buffer: Any

    @property
    def rows(self) -> int:
        """The number of rows."""
        return int(self.reward.shape[0])


def _aligned(a: npt.NDArray[Any]) -> npt.NDArray[Any]:
    if a.dtype.itemsize > 1 and not a.flags.aligned:
        return a.copy()
    return a


class BatchDecoder:
    """Decodes the record-batch messages of one pool (one Arrow schema)."""

    def __init__(self, schema_message: bytes | memoryview | Any) -> None:
        buf = schema_message if isinstance(schema_message, pa.Buffer) else pa.py_buffer(schema_message)
        self.schema: pa.Schema = pa.ipc.read_schema(buf)
        self.spec: GameSpec = GameSpec.from_schema_metadata(self.schema)
        names = self.schema.names
        self._tensors = [(names.index(t.name), t.name, t.shape) for t in self.spec.observations]
        self._mask = names.index("mask")
        self._reward = names.index("reward")
        self._terminated = names.index("terminated")
        self._truncated = names.index("truncated")
        self._env = names.index("env")
        self._seat = names.index("seat")
        self._episode = names.index("episode")
        self._actions = self.spec.actions

    def read(self, message: Any) -> Any:
        """Reads one record-batch message (bytes, memoryview or pa.Buffer) as a pa.RecordBatch."""
        buf = message if isinstance(message, pa.Buffer) else pa.py_buffer(message)
        return pa.ipc.read_record_batch(buf, self.schema)

    def decode(self, message: Any) -> Batch:
        """Decodes one record-batch message into numpy views (see the module doc)."""
        buf = message if isinstance(message, pa.Buffer) else pa.py_buffer(message)
        rb = pa.ipc.read_record_batch(buf, self.schema)
        n = rb.num_rows
        col = rb.column
        obs: Obs = {}
        for i, name, shape in self._tensors:
            values = col(i).values.to_numpy(zero_copy_only=True)
            obs[name] = _aligned(values.reshape((n, *shape)))
        mask = col(self._mask).values.to_numpy(zero_copy_only=True).reshape((n, self._actions))
        return Batch(
            obs=obs,
            mask=mask,
            reward=_aligned(col(self._reward).to_numpy(zero_copy_only=True)),
            terminated=col(self._terminated).to_numpy(zero_copy_only=False),
            truncated=col(self._truncated).to_numpy(zero_copy_only=False),
            env=_aligned(col(self._env).to_numpy(zero_copy_only=True)),
            seat=_aligned(col(self._seat).to_numpy(zero_copy_only=True)),
            episode=_aligned(col(self._episode).to_numpy(zero_copy_only=True)),
            buffer=buf,
        )


@dataclass
class StepMessage:
    """A Reset/Step/StepStream response read straight from its wire bytes.

    ``batch``, ``ended`` and ``final_batch`` are zero-copy slices of ``raw``
    (pa.Buffer for the batches, memoryview for ended), or None when absent.
    ``raw`` is the received message: ``bytes`` from grpcio, or a numpy
    uint8 view of a receive buffer of the Connect transport.
    """

    raw: Any
    batch: Any
    ended: memoryview | None
    final_batch: Any


def _varint(data: bytes | memoryview, pos: int) -> tuple[int, int]:
    result = 0
    shift = 0
    while True:
        b = data[pos]
        pos += 1
        result |= (b & 0x7F) << shift
        if b < 0x80:
            return result, pos
        shift += 7
        if shift > 63:
            raise ValueError("malformed varint in response")


def parse_step_message(raw: Any) -> StepMessage:
    """Parses a ResetResponse/StepResponse/StepStreamResponse without copying.

    raw is the message: bytes or any buffer of bytes (a numpy uint8 array).
    The protobuf runtime would copy every bytes field (several MB per step for
    large pools); this reads the three length-delimited fields (1 batch,
    2 ended, 3 final_batch) in any order directly and slices the payload. It
    is the response deserializer of the hot-path calls. The server puts each
    batch at an 8-byte aligned offset of the message, so that a message
    received at an aligned address (grpcio's bytes, the Connect transport's
    buffers) needs no copy of its 4-byte columns.
    """
    buf = pa.py_buffer(raw)
    data = raw if isinstance(raw, bytes) else memoryview(raw).cast("B")
    n = len(data)
    pos = 0
    spans: dict[int, tuple[int, int]] = {}
    while pos < n:
        key, pos = _varint(data, pos)
        num, wt = key >> 3, key & 7
        if wt == 2:
            ln, pos = _varint(data, pos)
            spans[num] = (pos, ln)
            pos += ln
        elif wt == 0:
            _, pos = _varint(data, pos)
        elif wt == 1:
            pos += 8
        elif wt == 5:
            pos += 4
        else:
            raise ValueError(f"unexpected protobuf wire type {wt} in response")
    if pos != n:
        raise ValueError("truncated response message")
    batch = final = None
    ended: memoryview | None = None
    if 1 in spans:
        batch = buf.slice(*spans[1])
    if 2 in spans:
        off, ln = spans[2]
        ended = memoryview(data)[off : off + ln]
    if 3 in spans and spans[3][1] > 0:
        final = buf.slice(*spans[3])
    return StepMessage(raw, batch, ended, final)


def _put_varint(out: bytearray, v: int) -> None:
    while v >= 0x80:
        out.append((v & 0x7F) | 0x80)
        v >>= 7
    out.append(v)


def encode_step_request(pool_id: bytes, actions: bytes | memoryview, reset: bool = False) -> bytes:
    """Serializes a StepRequest / StepStreamRequest (fields 1 pool_id, 2 actions, 3 reset)."""
    out = bytearray()
    if pool_id:
        out.append(0x0A)
        _put_varint(out, len(pool_id))
        out += pool_id
    if len(actions):
        out.append(0x12)
        _put_varint(out, len(actions))
        out += actions
    if reset:
        out += b"\x18\x01"
    return bytes(out)
