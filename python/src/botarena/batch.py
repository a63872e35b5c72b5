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
* In the shared form (a pool made with ``shared_planes``), each tensor with
  shared channels is rebuilt: the message holds the channels every seat of
  an env sees alike once per env (an envs batch after the rows batch, see
  ``CreatePoolRequest.shared_planes`` in env.proto), and the decoder puts
  them back into every row of the env, giving exactly the full form's
  array. The rebuilt arrays are writable and come from a small ring of
  buffers that the decoder reuses once no array refers to them any more, so
  a loop that keeps at most the previous step's arrays allocates nothing.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt
import pyarrow as pa

from botarena.errors import MalformedResponseError
from botarena.spec import GameSpec

__all__ = ["Batch", "BatchDecoder", "BufferRing", "StepMessage", "parse_step_message", "encode_step_request"]

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


class BufferRing:
    """A few uint8 buffers, each handed out again once no array refers to it.

    :meth:`get` returns a buffer that nothing outside the ring references
    (no view of it is alive), or a new one. A caller that keeps at most the
    arrays of the previous call gets the same two buffers back in turn, so
    nothing is allocated per call; a caller that keeps more simply gets new
    buffers. Not safe for concurrent use.
    """

    def __init__(self, keep: int = 3) -> None:
        self._keep = keep
        self._bufs: list[npt.NDArray[np.uint8]] = []

    def get(self, n: int) -> npt.NDArray[np.uint8]:
        """A uint8 buffer of at least n bytes that nothing outside this ring references."""
        # A free buffer has two references here: the list's and
        # getrefcount's argument; a view of it (a message, its Arrow
        # buffers and numpy views) adds one.
        bufs = self._bufs
        for i in range(len(bufs)):
            if sys.getrefcount(bufs[i]) <= 2 and bufs[i].nbytes >= n:
                return bufs[i]
        # None fits: drop the free ones (too small), and the oldest busy
        # ones beyond the ring's size (the caller's arrays keep them alive).
        self._bufs = [bufs[i] for i in range(len(bufs)) if sys.getrefcount(bufs[i]) > 2][-(self._keep - 1) :]
        # Round up, so that a slightly larger message (a SAME_STEP final
        # batch, zstd) does not need a new buffer each time.
        buf = np.empty(max(n + (n >> 3), 4096), dtype=np.uint8)
        self._bufs.append(buf)
        return buf


def _runs(mask: list[bool]) -> list[tuple[int, int]]:
    """The runs of consecutive True entries of mask, as (start, end) pairs."""
    out = []
    c = 0
    while c < len(mask):
        if not mask[c]:
            c += 1
            continue
        end = c + 1
        while end < len(mask) and mask[end]:
            end += 1
        out.append((c, end))
        c = end
    return out


def _aligned(a: npt.NDArray[Any]) -> npt.NDArray[Any]:
    if a.dtype.itemsize > 1 and not a.flags.aligned:
        return a.copy()
    return a


class BatchDecoder:
    """Decodes the record-batch messages of one pool (one Arrow schema)."""

    def __init__(self, schema_message: bytes | memoryview | Any) -> None:
        """Reads the pool's schema message(s) (``CreatePoolResponse.arrow_schema``).

        Raises :class:`~botarena.errors.MalformedResponseError` for a schema
        that is not what :meth:`decode` relies on: every column of the type
        and width the spec in its metadata says (see :meth:`_check_schema`).
        """
        try:
            buf = schema_message if isinstance(schema_message, pa.Buffer) else pa.py_buffer(schema_message)
            reader = pa.BufferReader(buf)
            self.schema: pa.Schema = pa.ipc.read_schema(pa.ipc.read_message(reader))
            self.spec: GameSpec = GameSpec.from_schema_metadata(self.schema)
            #: The envs schema of the shared form, or None (the full form).
            self.env_schema: pa.Schema | None = None
            # Per tensor of the shared form: (seat runs, shared runs) of channels.
            self._split: dict[str, tuple[list[tuple[int, int]], list[tuple[int, int]]]] = {}
            self._ring = BufferRing()
            if (self.schema.metadata or {}).get(b"part") == b"rows":
                self.env_schema = pa.ipc.read_schema(pa.ipc.read_message(reader))
                for t in self.spec.observations:
                    if t.shared:
                        shared = [c in t.shared for c in range(t.shape[0])]
                        self._split[t.name] = (_runs([not x for x in shared]), _runs(shared))
            self._check_schema()
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
        except MalformedResponseError:
            raise
        except Exception as e:  # pyarrow's and the spec's errors: the schema message is not one
            raise MalformedResponseError(f"the pool's Arrow schema cannot be read: {type(e).__name__}: {e}") from None

    def _check_schema(self) -> None:
        """Checks that every column has the type and width decode's views assume.

        Each observation tensor a ``FixedSizeList`` of its dtype holding the
        tensor's elements (in the shared form: its seat channels in the rows
        schema, its shared channels in the envs schema), ``mask`` one of
        uint8 with one element per action, ``reward`` float32, ``terminated``
        and ``truncated`` bool, ``env``, ``seat`` and ``episode`` int32, no
        column nullable. A batch read with a checked schema and then
        validated (:meth:`decode`) has buffers as long as its rows need.
        """

        def check(schema: pa.Schema, name: str, want: pa.DataType) -> None:
            i = schema.get_field_index(name)
            if i < 0:
                raise MalformedResponseError(f"the pool's Arrow schema has no column {name!r}")
            f = schema.field(i)
            if not f.type.equals(want) or f.nullable:
                raise MalformedResponseError(f"the pool's Arrow schema: column {name!r} is {f.type}{'' if not f.nullable else ' (nullable)'}, want {want} not null")

        def fixed(dtype: np.dtype[Any], n: int) -> pa.DataType:
            return pa.list_(pa.field("item", pa.from_numpy_dtype(dtype), nullable=False), n)

        if self.spec.actions <= 0:
            raise MalformedResponseError(f"the pool's Arrow schema: {self.spec.actions} actions")
        for t in self.spec.observations:
            if not t.shape or any(d <= 0 for d in t.shape):
                raise MalformedResponseError(f"the pool's Arrow schema: tensor {t.name!r} has shape {t.shape}")
            rest = int(np.prod(t.shape[1:], dtype=np.int64))
            if t.name in self._split:
                if len(set(t.shared)) != len(t.shared) or not all(0 <= c < t.shape[0] for c in t.shared):
                    raise MalformedResponseError(f"the pool's Arrow schema: tensor {t.name!r} shares channels {t.shared} of {t.shape[0]}")
                assert self.env_schema is not None
                check(self.schema, t.name, fixed(t.dtype, (t.shape[0] - len(t.shared)) * rest))
                check(self.env_schema, t.name, fixed(t.dtype, len(t.shared) * rest))
            else:
                check(self.schema, t.name, fixed(t.dtype, t.shape[0] * rest))
        check(self.schema, "mask", fixed(np.dtype(np.uint8), self.spec.actions))
        check(self.schema, "reward", pa.float32())
        for name in ("terminated", "truncated"):
            check(self.schema, name, pa.bool_())
        for name in ("env", "seat", "episode"):
            check(self.schema, name, pa.int32())

    @property
    def shared(self) -> bool:
        """Whether the decoder reads the shared form (a pool made with ``shared_planes``)."""
        return self.env_schema is not None

    def read(self, message: Any) -> Any:
        """Reads one record-batch message (bytes, memoryview or pa.Buffer) as a pa.RecordBatch.

        In the shared form it returns the rows batch (see :meth:`read_shared`).
        """
        return self.read_shared(message)[0]

    def read_shared(self, message: Any) -> tuple[Any, Any]:
        """Reads a batch message as (rows batch, envs batch); the envs batch is None in the full form."""
        buf = message if isinstance(message, pa.Buffer) else pa.py_buffer(message)
        if self.env_schema is None:
            return pa.ipc.read_record_batch(buf, self.schema), None
        reader = pa.BufferReader(buf)
        rows = pa.ipc.read_record_batch(pa.ipc.read_message(reader), self.schema)
        envs = pa.ipc.read_record_batch(pa.ipc.read_message(reader), self.env_schema)
        return rows, envs

    def _rebuild(self, name: str, shape: tuple[int, ...], seat: npt.NDArray[Any], shared: npt.NDArray[Any]) -> npt.NDArray[Any]:
        """The full (rows, *shape) array of a tensor of the shared form."""
        seat_runs, shared_runs = self._split[name]
        rows, envs = seat.shape[0], shared.shape[0]
        if envs == 0 or rows % envs:
            raise MalformedResponseError(f"tensor {name!r}: {rows} rows in {envs} envs")
        per = rows // envs
        c, rest = shape[0], int(np.prod(shape[1:], dtype=np.int64))
        buf = self._ring.get(rows * c * rest * seat.dtype.itemsize)
        out = buf[: rows * c * rest * seat.dtype.itemsize].view(seat.dtype).reshape((envs, per, c, rest))
        seat = seat.reshape((envs, per, -1, rest))
        shared = shared.reshape((envs, 1, -1, rest))
        k = 0
        for a, b in seat_runs:
            out[:, :, a:b] = seat[:, :, k : k + b - a]
            k += b - a
        k = 0
        for a, b in shared_runs:
            out[:, :, a:b] = shared[:, :, k : k + b - a]
            k += b - a
        return out.reshape((rows, *shape))

    def decode(self, message: Any, rows: int | None = None) -> Batch:
        """Decodes one record-batch message into numpy views (see the module doc).

        The batch is validated before any view is made of it: read against
        the pool's schema (checked once, in the constructor), every buffer
        long enough for its rows (``RecordBatch.validate``, which reads no
        data: about a microsecond), ``rows`` rows when given, and in the
        shared form a whole number of rows per env. A message that fails
        raises :class:`~botarena.errors.MalformedResponseError`; none makes
        a view that reaches outside it.
        """
        try:
            buf = message if isinstance(message, pa.Buffer) else pa.py_buffer(message)
            rb, eb = self.read_shared(buf)
            rb.validate()
            if rows is not None and rb.num_rows != rows:
                raise MalformedResponseError(f"batch message: {rb.num_rows} rows, want {rows}")
            if eb is not None:
                eb.validate()
                if eb.num_rows <= 0 or rb.num_rows % eb.num_rows:
                    raise MalformedResponseError(f"batch message: {rb.num_rows} rows in {eb.num_rows} envs")
        except MalformedResponseError:
            raise
        except Exception as e:  # pyarrow's errors (ArrowInvalid, OSError, EOFError, ...)
            raise MalformedResponseError(f"batch message cannot be read: {type(e).__name__}: {e}") from None
        n = rb.num_rows
        col = rb.column
        obs: Obs = {}
        for i, name, shape in self._tensors:
            values = col(i).values.to_numpy(zero_copy_only=True)
            if name in self._split:
                shared = eb.column(name).values.to_numpy(zero_copy_only=True)
                obs[name] = self._rebuild(name, shape, values.reshape((n, -1)), shared.reshape((eb.num_rows, -1)))
                continue
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
    n = len(data)
    while True:
        if pos >= n:
            raise MalformedResponseError("response message: truncated varint")
        b = data[pos]
        pos += 1
        result |= (b & 0x7F) << shift
        if b < 0x80:
            return result, pos
        shift += 7
        if shift > 63:
            raise MalformedResponseError("response message: varint longer than 10 bytes")


def parse_step_message(raw: Any) -> StepMessage:
    """Parses a ResetResponse/StepResponse/StepStreamResponse/RecvResponse without copying.

    raw is the message: bytes or any buffer of bytes (a numpy uint8 array).
    The protobuf runtime would copy every bytes field (several MB per step for
    large pools); this reads the three length-delimited fields (1 batch,
    2 ended, 3 final_batch) in any order directly and slices the payload. It
    is the response deserializer of the hot-path calls. The server puts each
    batch at an 8-byte aligned offset of the message, so that a message
    received at an aligned address (grpcio's bytes, the Connect transport's
    buffers) needs no copy of its 4-byte columns.

    A message that is not a well-formed protobuf message (a field running
    past its end, a truncated varint, a group) raises
    :class:`~botarena.errors.MalformedResponseError`; the fields returned
    always lie inside raw.
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
            if ln > n - pos:
                raise MalformedResponseError(f"response message: field {num} of {ln} bytes runs past the end ({n - pos} left)")
            spans[num] = (pos, ln)
            pos += ln
        elif wt == 0:
            _, pos = _varint(data, pos)
        elif wt == 1:
            pos += 8
        elif wt == 5:
            pos += 4
        else:
            raise MalformedResponseError(f"response message: unexpected protobuf wire type {wt}")
    if pos != n:
        raise MalformedResponseError("response message: truncated")
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


def put_varint(out: bytearray, v: int) -> None:
    """Appends v, 0 ≤ v < 2⁶⁴, to out as a protobuf varint (7 bits a byte, low first)."""
    while v >= 0x80:
        out.append((v & 0x7F) | 0x80)
        v >>= 7
    out.append(v)


def encode_send_request(pool_id: bytes, env_ids: bytes | memoryview, actions: bytes | memoryview) -> bytes:
    """Serializes a SendRequest (fields 1 pool_id, 2 env_ids, 3 actions; little-endian int32s)."""
    out = bytearray()
    for tag, data in ((0x0A, pool_id), (0x12, env_ids), (0x1A, actions)):
        if len(data):
            out.append(tag)
            put_varint(out, len(data))
            out += data
    return bytes(out)


def encode_step_request(pool_id: bytes, actions: bytes | memoryview, reset: bool = False) -> bytes:
    """Serializes a StepRequest / StepStreamRequest (fields 1 pool_id, 2 actions, 3 reset).

    With no actions and no reset it is also a ResetRequest, AsyncResetRequest
    or RecvRequest (field 1 pool_id only).
    """
    out = bytearray()
    if pool_id:
        out.append(0x0A)
        put_varint(out, len(pool_id))
        out += pool_id
    if len(actions):
        out.append(0x12)
        put_varint(out, len(actions))
        out += actions
    if reset:
        out += b"\x18\x01"
    return bytes(out)
