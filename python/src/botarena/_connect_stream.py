"""StepStream as a Connect bidirectional stream, received into reused buffers.

grpcio copies every StepStream response twice into a new ``bytes`` object
(see :mod:`botarena._connect`), which made Python's StepStream slower than
the Connect unary Step. This module speaks Connect's streaming protocol to
the same port instead, on a connection of its own, over HTTP/1.1 where the
server allows it and HTTP/2 where it does not.

The wire. The request is one POST with ``Content-Type:
application/connect+proto``; its body and the response's are sequences of
envelopes: a flags byte, the message length as 4 bytes big-endian, the
message. The response ends with an end-of-stream envelope (flags 2) holding
JSON ``{"error": {"code", "message"}, "metadata": ...}``, the error absent
when the stream ended cleanly. Each response message is read from the
socket straight into a numpy buffer of a
:class:`~botarena.batch.BufferRing`, handed out again once nothing
references it, as the unary calls' buffers are. On a plain socket on Linux
or macOS the socket is blocking, the deadline the kernel's (SO_RCVTIMEO,
SO_SNDTIMEO: see ``_Stream._blocking``), and the rest of a message is one
``recv_into`` with MSG_WAITALL, the framing before it read in pieces of
at most 16 KiB: a step's few system calls and no Python loop over the
pieces the kernel hands out. Python's socket timeout cost an ioctl
(switching the socket's mode) and a poll for every read, and the loop
about 0.2 ms of the client's CPU per step of a 5 MB batch, which made the
stream's client CPU per step exceed unary Step's
(bench/2026-11-30-stream-client.txt). Elsewhere (TLS, other systems) the
socket keeps Python's timeout, its reads of the last 256 KiB of a message
taking the framing after it too (the next chunk's or frame's header).

HTTP/1.1 (:class:`ConnectStreamH1`, the default). botarena's server serves
the Connect StepStream over HTTP/1.1 in full duplex: the request body is
chunked, one chunk per envelope, and the response is chunked, each message
flushed as it is written. Go's HTTP/1.1 server writes each batch from the
pool's buffer as it is, where its HTTP/2 server copies every DATA frame
into its framer's buffer first (bench/2026-11-30-stream-http1.txt). A
server that answers 505 (one from before botarena served streams over
HTTP/1.1, or connect-go's own) gets the same stream over HTTP/2 instead
(:class:`ConnectStream` falls back by itself).

HTTP/2 (:class:`ConnectStreamH2`). connect-go serves bidirectional streams
over HTTP/2, and Python's standard library has no HTTP/2 client. So this is
a minimal one, for exactly one stream per connection: h2c with prior
knowledge on plaintext (as gRPC clients connect), h2 by ALPN over TLS.
Flow control: the client grants 1 GiB windows and tops them up as it reads;
it honours the server's windows and frame size for the requests. HPACK:
requests are literal fields (no indexing, no Huffman); responses are
decoded in full (static and dynamic table, Huffman). PING is answered,
SETTINGS acknowledged, server push refused (SETTINGS_ENABLE_PUSH 0),
PRIORITY and unknown frames ignored.

Errors, as the unary transport raises them: an end-of-stream error (or a
non-200 status) is the :class:`~botarena.errors.BotarenaError` of its code;
a response not within the timeout is
:class:`~botarena.errors.DeadlineExceededError`; a refused or dropped
connection, a reset stream or a GOAWAY that drops the stream is
:class:`~botarena.errors.ServerUnavailableError`. After any error the
connection is closed and the next call opens a new stream. Nothing is
retried: a StepStream request may have been applied (the fallback to
HTTP/2 resends the first request only after a 505, which the server sends
without reading it).
"""

from __future__ import annotations

import json
import socket
import ssl
import struct
import sys
import time
from typing import TYPE_CHECKING, Any, TypedDict

import grpc
import numpy as np
import numpy.typing as npt

from botarena._hpack_tables import HUFFMAN_CODES, STATIC_TABLE
from botarena._connect import dial, read_head, read_line, split_address
from botarena.batch import BufferRing
from botarena.errors import BotarenaError, DeadlineExceededError, ServerUnavailableError, from_status

if TYPE_CHECKING:
    from typing_extensions import Required, Unpack  # typing's own from Python 3.11

__all__ = ["ConnectStream", "ConnectStreamH1", "ConnectStreamH2"]

_PREFACE = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n"
# Frame types.
_DATA, _HEADERS, _PRIORITY, _RST_STREAM, _SETTINGS, _PUSH_PROMISE, _PING, _GOAWAY, _WINDOW_UPDATE, _CONTINUATION = range(10)
# Flags.
_END_STREAM, _ACK, _END_HEADERS, _PADDED, _PRIORITY_FLAG = 0x1, 0x1, 0x4, 0x8, 0x20
# Settings.
_HEADER_TABLE_SIZE, _ENABLE_PUSH, _INITIAL_WINDOW_SIZE, _MAX_FRAME_SIZE = 1, 2, 4, 5

_STREAM_ID = 1
_WINDOW = 1 << 30  # the receive windows this client grants (stream and connection)
_TOP_UP = 64 << 20  # granted again once this much has been received
# The largest DATA frame this client accepts (SETTINGS_MAX_FRAME_SIZE). Go's
# HTTP/2 server copies each DATA frame into its framer's buffer before
# writing it (the HTTP/1.1 unary response is written from the pool's buffer
# as it is): frames of 512 KiB keep that buffer in the server's cache, where
# 16 MiB frames (a 5.4 MB batch in one) sent it to memory and back.
_MAX_FRAME = 512 << 10
_SPILL = 64 << 10  # bytes a read may take past the end of the data it fills (the next frame's header)
# A read takes the bytes past the data it fills only once at most this much
# is left to fill: recvmsg_into costs more than recv_into per call.
_SCATTER = 256 << 10
_HEAD_LIMIT = 64 << 10  # header block limit
_RECV = 16 << 10  # the most a read of framing takes on a blocking socket (the rest of a message is read into its buffer)
# How far the kernel's read timeout may be from the time left to the
# deadline before it is set again (a system call): a read ends at most this
# late, and one that ends early is made again.
_SLACK = 0.01
_ERROR_NAMES = {0: "NO_ERROR", 1: "PROTOCOL_ERROR", 2: "INTERNAL_ERROR", 3: "FLOW_CONTROL_ERROR", 7: "REFUSED_STREAM", 8: "CANCEL", 11: "ENHANCE_YOUR_CALM"}


def _frame(type_: int, flags: int, stream: int, payload: bytes = b"") -> bytes:
    return len(payload).to_bytes(3, "big") + bytes((type_, flags)) + stream.to_bytes(4, "big") + payload


# HPACK ------------------------------------------------------------------------


def _hpack_int(value: int, prefix: int, first: int) -> bytes:
    """An HPACK integer with a prefix of prefix bits, first holding the bits above it."""
    top = (1 << prefix) - 1
    if value < top:
        return bytes((first | value,))
    out = bytearray((first | top,))
    value -= top
    while value >= 128:
        out.append((value & 127) | 128)
        value >>= 7
    out.append(value)
    return bytes(out)


def encode_headers(fields: list[tuple[bytes, bytes]]) -> bytes:
    """A header block of literal fields without indexing (new names, no Huffman)."""
    out = bytearray()
    for name, value in fields:
        out += b"\x00" + _hpack_int(len(name), 7, 0) + name + _hpack_int(len(value), 7, 0) + value
    return bytes(out)


_HUFFMAN: dict[tuple[int, int], int] = {(n, c): sym for sym, (c, n) in enumerate(HUFFMAN_CODES)}


def huffman_decode(data: bytes) -> bytes:
    """Decodes an HPACK Huffman string (RFC 7541 Appendix B); padding must be at most 7 one bits."""
    out = bytearray()
    code = n = 0
    for byte in data:
        for shift in range(7, -1, -1):
            code = (code << 1) | ((byte >> shift) & 1)
            n += 1
            sym = _HUFFMAN.get((n, code))
            if sym is not None:
                out.append(sym)
                code = n = 0
            elif n > 30:
                raise ValueError("HPACK: bad Huffman code")
    if n > 7 or code != (1 << n) - 1:
        raise ValueError("HPACK: bad Huffman padding")
    return bytes(out)


class HpackDecoder:
    """An HPACK decoder (RFC 7541): static and dynamic tables, Huffman strings."""

    def __init__(self, max_size: int = 4096) -> None:
        self._dynamic: list[tuple[bytes, bytes]] = []  # newest first
        self._size = 0
        self._max = max_size
        self._limit = max_size  # the most the peer may set (our SETTINGS_HEADER_TABLE_SIZE)

    def _evict(self) -> None:
        while self._size > self._max:
            name, value = self._dynamic.pop()
            self._size -= len(name) + len(value) + 32

    def _entry(self, index: int) -> tuple[bytes, bytes]:
        if index <= 0:
            raise ValueError("HPACK: index 0")
        if index <= len(STATIC_TABLE):
            return STATIC_TABLE[index - 1]
        i = index - len(STATIC_TABLE) - 1
        if i >= len(self._dynamic):
            raise ValueError(f"HPACK: index {index} out of range")
        return self._dynamic[i]

    @staticmethod
    def _int(data: bytes, i: int, prefix: int) -> tuple[int, int]:
        top = (1 << prefix) - 1
        value = data[i] & top
        i += 1
        if value < top:
            return value, i
        shift = 0
        while True:
            if i >= len(data) or shift > 28:
                raise ValueError("HPACK: bad integer")
            b = data[i]
            i += 1
            value += (b & 127) << shift
            shift += 7
            if not b & 128:
                return value, i

    def _string(self, data: bytes, i: int) -> tuple[bytes, int]:
        if i >= len(data):
            raise ValueError("HPACK: truncated string")
        huffman = data[i] & 128
        n, i = self._int(data, i, 7)
        if i + n > len(data):
            raise ValueError("HPACK: truncated string")
        s = data[i : i + n]
        return (huffman_decode(s) if huffman else bytes(s)), i + n

    def decode(self, data: bytes) -> list[tuple[bytes, bytes]]:
        """The fields of a header block."""
        fields = []
        i = 0
        while i < len(data):
            b = data[i]
            if b & 0x80:  # indexed field
                index, i = self._int(data, i, 7)
                fields.append(self._entry(index))
                continue
            if b & 0xE0 == 0x20:  # dynamic table size update
                size, i = self._int(data, i, 5)
                if size > self._limit:
                    raise ValueError(f"HPACK: table size {size} over {self._limit}")
                self._max = size
                self._evict()
                continue
            indexing = b & 0xC0 == 0x40
            index, i = self._int(data, i, 6 if indexing else 4)
            if index:
                name = self._entry(index)[0]
            else:
                name, i = self._string(data, i)
            value, i = self._string(data, i)
            fields.append((name, value))
            if indexing:
                self._dynamic.insert(0, (name, value))
                self._size += len(name) + len(value) + 32
                self._evict()
        return fields


# The stream ---------------------------------------------------------------------


class _Failed(Exception):
    """A failure of the connection or of the protocol: ServerUnavailableError."""


def _protocol_error(reason: str) -> _Failed:
    return _Failed(f"protocol error: {reason}")


class StreamOptions(TypedDict, total=False):
    """The keyword arguments of a stream's constructor: the response deadline
    in seconds (None for none), the bearer token, TLS with the system's roots,
    the largest response message, and the buffers responses are read into."""

    timeout: Required[float | None]
    token: str | None
    tls: bool
    max_message_bytes: int
    buffers: BufferRing | None


class _Stream:
    """What the HTTP/1.1 and HTTP/2 streams share: the socket, reads into buffers, messages, errors."""

    _sock: socket.socket  # the subclass's connection

    def __init__(
        self,
        address: str,
        procedure: str,
        *,
        timeout: float | None,
        token: str | None = None,
        tls: bool = False,
        max_message_bytes: int = 512 << 20,
        buffers: BufferRing | None = None,
    ) -> None:
        split_address(address)  # a bad address is a ValueError, not an unreachable server
        self.address = address
        self._procedure = procedure
        self._method = procedure.rsplit("/", 1)[-1]
        self._timeout = timeout
        self._max = max_message_bytes
        self._buffers = buffers if buffers is not None else BufferRing()
        self._head = bytearray()  # bytes read past what has been handled
        self._spill = bytearray(_SPILL)  # where a read into a message puts the bytes past its end
        self._status = 0  # the response's status, 0 until its headers came
        self._deadline: float | None = None
        self._closed = False
        self._tls = tls
        self._kernel = False  # the socket is blocking, its timeouts the kernel's (see _blocking)
        self._read_timeout: float | None = None  # SO_RCVTIMEO, with _kernel
        self._open(token)

    def _open(self, token: str | None) -> None:
        """Sets up the protocol's state and dials the server (the subclass's part of the constructor)."""
        raise NotImplementedError

    def _dial(self, alpn: str, *, require_alpn: bool) -> None:
        """Connects (over TLS offering alpn, which the server must choose when require_alpn) and makes the socket blocking where it can."""
        context = None
        if self._tls:
            context = ssl.create_default_context()
            context.set_alpn_protocols([alpn])
        self._sock = dial(self.address, self._timeout, context, alpn=alpn if require_alpn else None)
        self._blocking()

    # Connection --------------------------------------------------------------

    def close(self) -> None:
        """Closes the connection (the server cancels the stream)."""
        if not self._closed:
            self._closed = True
            try:
                self._sock.close()
            except OSError:
                pass

    def _fail(self, e: BaseException, doing: str) -> BotarenaError:
        """Closes the connection and returns the error to raise for e."""
        self.close()
        if isinstance(e, BotarenaError):
            return e
        # BlockingIOError: a read or send of a blocking socket stopped by SO_RCVTIMEO or SO_SNDTIMEO.
        if isinstance(e, (socket.timeout, TimeoutError, BlockingIOError)):
            return DeadlineExceededError(
                f"server {self.address}: {self._method}: {doing}: no response within {self._timeout:g}s",
                grpc.StatusCode.DEADLINE_EXCEEDED,
            )
        return ServerUnavailableError(f"server {self.address}: {self._method}: {doing}: {e}", grpc.StatusCode.UNAVAILABLE)

    def _write(self, data: bytes, doing: str) -> None:
        try:
            self._settimeout(send=True)
            self._sock.sendall(data)
        except (OSError, ValueError) as e:
            raise self._fail(e, doing) from None

    def _blocking(self) -> None:
        """Puts the new connection in the kernel's blocking mode where reads can wait for all they ask.

        Only a plain socket on Linux or macOS: there a read of a message
        into its buffer is one ``recv_into`` with MSG_WAITALL, and the
        deadline is the kernel's: SO_SNDTIMEO is the timeout (a send, which
        starts a response's deadline, waits at most that long), SO_RCVTIMEO
        the time left, set again only when it is more than _SLACK from it
        (a read ends at most _SLACK past the deadline; one the kernel ends
        early is made again), so a step usually makes no system call for
        it. Python's socket timeout would switch the socket's mode (an
        ioctl) on every change and poll before every read. Elsewhere (TLS,
        other systems) the socket keeps Python's timeout.
        """
        if self._tls or sys.platform not in ("linux", "darwin") or struct.calcsize("l") != 8:
            return
        self._sock.settimeout(None)
        self._kernel = True
        self._set_kernel_timeout(socket.SO_SNDTIMEO, self._timeout)
        self._set_kernel_timeout(socket.SO_RCVTIMEO, self._timeout)
        self._read_timeout = self._timeout

    def _set_kernel_timeout(self, option: int, seconds: float | None) -> None:
        if seconds is None:
            seconds = 0.0  # none
        else:
            seconds = max(seconds, 1e-6)  # 0 would mean none
        sec = int(seconds)
        self._sock.setsockopt(socket.SOL_SOCKET, option, struct.pack("ll", sec, int((seconds - sec) * 1e6)))

    def _settimeout(self, send: bool = False) -> None:
        """Gives the next blocking call (a read, or a send) the time left to the deadline; raises TimeoutError past it."""
        if self._deadline is not None:
            left = self._deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError
            if not self._kernel:
                self._sock.settimeout(left)
            elif not send and (self._read_timeout is None or abs(self._read_timeout - left) > _SLACK):
                self._set_kernel_timeout(socket.SO_RCVTIMEO, left)
                self._read_timeout = left

    def _recv_more(self) -> None:
        # With MSG_WAITALL a message's bytes are read into its buffer
        # straight from the kernel; the framing before it is read here,
        # with as little of the message as may come along.
        while True:
            self._settimeout()
            try:
                data = self._sock.recv(_RECV if self._kernel else 1 << 16)
                break
            except BlockingIOError:
                if not self._kernel:
                    raise
                # SO_RCVTIMEO ran out: past the deadline _settimeout raises.
        if not data:
            raise _Failed("the server closed the connection")
        self._head += data

    def _read(self, n: int) -> bytes:
        while len(self._head) < n:
            self._recv_more()
        out = bytes(self._head[:n])
        del self._head[:n]
        return out

    def _fill(self, dst: memoryview, tail: int = 0) -> None:
        """Fills dst from the bytes already read, then from the socket.

        A plain socket's reads of the last _SCATTER bytes take the bytes
        after dst too (into the spill buffer, then _head), so that the framing after it (the next
        chunk's size line, the next frame's header) usually needs no read
        of its own. On a blocking socket (see _blocking) the read waits for
        all of dst and tail bytes more, which the caller knows follow at once
        (the CRLF that ends a chunk), and takes nothing else.
        """
        n = min(len(self._head), len(dst))
        if n:
            dst[:n] = self._head[:n]
            del self._head[:n]
        if self._kernel:
            while n < len(dst):
                self._settimeout()
                # Returns less than asked only at SO_RCVTIMEO, a signal or the connection's end.
                try:
                    if tail:
                        k = self._sock.recvmsg_into([dst[n:], memoryview(self._spill)[:tail]], 0, socket.MSG_WAITALL)[0]
                    else:
                        k = self._sock.recv_into(dst[n:], 0, socket.MSG_WAITALL)
                except BlockingIOError:
                    continue  # SO_RCVTIMEO ran out: past the deadline _settimeout raises
                if k == 0:
                    raise _Failed("the server closed the connection mid-message")
                if k > len(dst) - n:
                    self._head += memoryview(self._spill)[: k - (len(dst) - n)]
                    k = len(dst) - n
                n += k
            return
        scatter = not self._tls
        while n < len(dst):
            self._settimeout()
            if scatter and len(dst) - n <= _SCATTER:
                k = self._sock.recvmsg_into([dst[n:], self._spill])[0]
                if k > len(dst) - n:
                    self._head += memoryview(self._spill)[: k - (len(dst) - n)]
            else:
                k = self._sock.recv_into(dst[n:])
            if k == 0:
                raise _Failed("the server closed the connection mid-message")
            n += min(k, len(dst) - n)

    def _check_response(self, headers: dict[bytes, bytes]) -> None:
        """Raises unless the response (status set) is a Connect stream's."""
        if self._status != 200:
            # Connect: a stream answered with another status fails with the
            # status's code.
            raise from_status("", f"HTTP status {self._status}", self._method, self.address, http_status=self._status)
        ctype = headers.get(b"content-type", b"")
        if ctype != b"application/connect+proto":
            raise BotarenaError(f"{self._method}: not a Connect stream response (content-type {ctype.decode('latin-1')!r})", grpc.StatusCode.UNKNOWN)

    # Body and messages -------------------------------------------------------

    def _body_into(self, dst: memoryview) -> None:
        """Fills dst with the next bytes of the response body."""
        raise NotImplementedError

    def _received_message(self) -> None:
        """Called after a whole message has been read."""

    def receive(self) -> npt.NDArray[np.uint8]:
        """The next response message: a uint8 view of a reused buffer.

        Raises the stream's error when it ended with one, and
        :class:`~botarena.errors.BotarenaError` when it ended cleanly.
        """
        if self._closed:
            raise ServerUnavailableError(f"server {self.address}: {self._method}: the stream is closed", grpc.StatusCode.UNAVAILABLE)
        if self._deadline is None and self._timeout is not None:
            self._deadline = time.monotonic() + self._timeout
        try:
            prefix = bytearray(5)
            self._body_into(memoryview(prefix))
            flags = prefix[0]
            n = int.from_bytes(prefix[1:5], "big")
            if n > self._max:
                raise BotarenaError(
                    f"{self._method}: response of {n} bytes exceeds the client's limit of {self._max}", grpc.StatusCode.RESOURCE_EXHAUSTED
                )
            if flags & 2:
                end = bytearray(n)
                self._body_into(memoryview(end))
                raise self._end_of_stream(bytes(end))
            if flags & 1:
                raise BotarenaError(f"{self._method}: a compressed message (identity was asked for)", grpc.StatusCode.INTERNAL)
            buf = self._buffers.get(n)
            self._body_into(buf.data[:n])
            self._received_message()
            self._deadline = None
            return buf[:n]
        except (BotarenaError, _Failed, OSError, ValueError) as e:
            raise self._fail(e, "receiving") from None

    def _end_of_stream(self, body: bytes) -> BotarenaError:
        try:
            end: Any = json.loads(body) if body else {}
            err = end.get("error")
        except (ValueError, AttributeError):
            return BotarenaError(f"{self._method}: protocol error: bad end-of-stream message", grpc.StatusCode.INTERNAL)
        if not err:
            return BotarenaError(f"{self._method}: the server closed the stream", grpc.StatusCode.UNKNOWN)
        return from_status(str(err.get("code", "") or "unknown"), str(err.get("message", "")), self._method, self.address)


class _Refused(Exception):
    """The server answered an HTTP/1.1 stream with 505: it serves streams over HTTP/2 only."""


class ConnectStreamH1(_Stream):
    """One Connect bidirectional stream (a procedure such as StepStream) on its own HTTP/1.1 connection.

    The request body is chunked, one chunk per envelope; the response is
    read as the server frames it (chunked, or with a Content-Length for a
    response written whole, or up to the connection's end). The headers go
    out with the first message. :meth:`send` writes a request message;
    :meth:`receive` returns the next response message as a uint8 view of a
    reused buffer. Not safe for concurrent use. Use once: after an error or
    :meth:`close`, open another. A 505 answer raises :class:`_Refused` from
    the first :meth:`receive` (:class:`ConnectStream` then goes over HTTP/2).
    """

    def _open(self, token: str | None) -> None:
        """Dials the server; the request's head goes out with the first message."""
        self._chunked = False  # the response's framing: chunked ...
        self._left = 0  # ... and the bytes left of its current chunk, or of the whole body (Content-Length, or up to the end)
        self._crlf = False  # a chunk's CRLF is due before the next size line
        self._ended = False  # the response body has ended
        self._dial("http/1.1", require_alpn=False)
        head = (
            f"POST {self._procedure} HTTP/1.1\r\nHost: {self.address}\r\nContent-Type: application/connect+proto\r\n"
            "Connect-Protocol-Version: 1\r\nConnect-Accept-Encoding: identity\r\nTransfer-Encoding: chunked\r\n"
            "User-Agent: botarena-python\r\n"
        )
        if token:
            head += f"Authorization: Bearer {token}\r\n"
        self._pending = (head + "\r\n").encode()  # sent with the first message

    def send(self, message: bytes) -> None:
        """Sends one request message: an envelope in a chunk of its own."""
        if self._closed:
            raise ServerUnavailableError(f"server {self.address}: {self._method}: the stream is closed", grpc.StatusCode.UNAVAILABLE)
        self._deadline = None if self._timeout is None else time.monotonic() + self._timeout
        data = self._pending + b"%x\r\n" % (len(message) + 5) + len(message).to_bytes(5, "big") + message + b"\r\n"
        self._pending = b""
        try:
            self._settimeout(send=True)
            self._sock.sendall(data)
        except (OSError, ValueError) as e:
            raise self._fail(e, "sending") from None

    def _line(self) -> bytes:
        return read_line(self._head, self._recv_more, _protocol_error)

    def _response_head(self) -> None:
        """Reads the status line and headers, and checks them."""
        _, status, headers = read_head(self._head, self._recv_more, _protocol_error)
        if status == 505:
            raise _Refused()
        self._status = status
        self._check_response(headers)
        if headers.get(b"transfer-encoding", b"").lower() == b"chunked":
            self._chunked = True
        elif b"content-length" in headers:
            self._left = int(headers[b"content-length"])
        else:
            self._left = 1 << 62  # up to the connection's end

    def _body_into(self, dst: memoryview) -> None:
        """Fills dst with the next bytes of the response body."""
        if not self._status:
            self._response_head()
        i = 0
        while i < len(dst):
            if self._left == 0:
                if not self._chunked or self._ended:
                    raise _Failed("protocol error: the response ended without an end-of-stream message")
                if self._crlf and self._line():
                    raise _Failed("protocol error: malformed chunk")
                size_line = self._line().split(b";", 1)[0].strip()
                try:
                    self._left = int(size_line, 16)
                except ValueError:
                    raise _Failed(f"protocol error: chunk size {size_line[:20]!r}") from None
                self._crlf = True
                if self._left == 0:
                    self._ended = True
                continue
            k = min(self._left, len(dst) - i)
            # A chunk's data is followed by its CRLF.
            self._fill(dst[i : i + k], 2 if self._chunked and k == self._left else 0)
            i += k
            self._left -= k


class ConnectStreamH2(_Stream):
    """One Connect bidirectional stream (a procedure such as StepStream) on its own HTTP/2 connection.

    :meth:`send` writes a request message; :meth:`receive` returns the next
    response message as a uint8 view of a reused buffer. Not safe for
    concurrent use. Use once: after an error or :meth:`close`, open another.
    """

    def _open(self, token: str | None) -> None:
        """Dials the server and opens the stream (the preface, SETTINGS and the request's HEADERS)."""
        self._hpack = HpackDecoder()
        self._data_left = 0  # unread payload bytes of the current DATA frame (padding excluded)
        self._pad_left = 0  # its padding, skipped after the payload
        self._received = 0  # DATA bytes received since the windows were last topped up
        self._send_conn = 65535  # the server's windows for our DATA
        self._send_stream = 65535
        self._peer_initial = 65535
        self._peer_frame = 16384
        self._remote_done = False  # the server ended its side of the stream
        self._dial("h2", require_alpn=True)
        fields = [
            (b":method", b"POST"),
            (b":scheme", b"https" if self._tls else b"http"),
            (b":authority", self.address.encode()),
            (b":path", self._procedure.encode()),
            (b"content-type", b"application/connect+proto"),
            (b"connect-protocol-version", b"1"),
            (b"connect-accept-encoding", b"identity"),
            (b"user-agent", b"botarena-python"),
        ]
        if token:
            fields.append((b"authorization", f"Bearer {token}".encode()))
        settings = b"".join(k.to_bytes(2, "big") + v.to_bytes(4, "big") for k, v in ((_ENABLE_PUSH, 0), (_INITIAL_WINDOW_SIZE, _WINDOW), (_MAX_FRAME_SIZE, _MAX_FRAME)))
        block = encode_headers(fields)
        if len(block) > self._peer_frame:
            raise ValueError("request headers over 16 KB")
        self._write(
            _PREFACE
            + _frame(_SETTINGS, 0, 0, settings)
            + _frame(_WINDOW_UPDATE, 0, 0, (_WINDOW - 65535).to_bytes(4, "big"))
            + _frame(_HEADERS, _END_HEADERS, _STREAM_ID, block),
            "opening the stream",
        )

    # Frames ------------------------------------------------------------------

    def _next_frame(self) -> None:
        """Reads and handles one frame; a DATA frame of the stream leaves its payload to be read."""
        hdr = self._read(9)
        length = int.from_bytes(hdr[:3], "big")
        type_, flags = hdr[3], hdr[4]
        stream = int.from_bytes(hdr[5:9], "big") & 0x7FFFFFFF
        if type_ == _DATA:
            if stream != _STREAM_ID or self._remote_done:
                raise _Failed(f"protocol error: DATA on stream {stream}")
            if length > _MAX_FRAME:
                raise _Failed(f"protocol error: DATA frame of {length} bytes")
            self._received += length
            pad = self._read(1)[0] if flags & _PADDED else 0
            self._data_left = length - (1 if flags & _PADDED else 0) - pad
            self._pad_left = pad
            if self._data_left < 0:
                raise _Failed("protocol error: DATA padding too long")
            if flags & _END_STREAM:
                self._remote_done = True
            if self._data_left == 0 and self._pad_left:
                self._read(self._pad_left)
                self._pad_left = 0
            return
        if length > _HEAD_LIMIT and type_ != _HEADERS:
            raise _Failed(f"protocol error: frame of type {type_} with {length} bytes")
        payload = self._read(length) if type_ != _HEADERS else b""
        if type_ == _HEADERS:
            self._headers(length, flags, stream)
        elif type_ == _SETTINGS:
            if not flags & _ACK:
                self._settings(payload)
                self._write(_frame(_SETTINGS, _ACK, 0), "acknowledging settings")
        elif type_ == _PING:
            if not flags & _ACK:
                self._write(_frame(_PING, _ACK, 0, payload), "answering a ping")
        elif type_ == _WINDOW_UPDATE:
            inc = int.from_bytes(payload[:4], "big") & 0x7FFFFFFF
            if stream == 0:
                self._send_conn += inc
            elif stream == _STREAM_ID:
                self._send_stream += inc
        elif type_ == _RST_STREAM:
            if stream == _STREAM_ID:
                code = int.from_bytes(payload[:4], "big")
                raise _Failed(f"the server reset the stream ({_ERROR_NAMES.get(code, code)})")
        elif type_ == _GOAWAY:
            last = int.from_bytes(payload[:4], "big") & 0x7FFFFFFF
            code = int.from_bytes(payload[4:8], "big")
            if last < _STREAM_ID or code != 0:
                raise _Failed(f"the server closed the connection (GOAWAY {_ERROR_NAMES.get(code, code)})")
        elif type_ == _PUSH_PROMISE or type_ == _CONTINUATION:
            raise _Failed(f"protocol error: unexpected frame of type {type_}")
        # PRIORITY and unknown types are ignored.

    def _settings(self, payload: bytes) -> None:
        for i in range(0, len(payload) - 5, 6):
            key = int.from_bytes(payload[i : i + 2], "big")
            value = int.from_bytes(payload[i + 2 : i + 6], "big")
            if key == _INITIAL_WINDOW_SIZE:
                self._send_stream += value - self._peer_initial
                self._peer_initial = value
            elif key == _MAX_FRAME_SIZE:
                self._peer_frame = value

    def _headers(self, length: int, flags: int, stream: int) -> None:
        block = bytearray(self._read(length))
        if flags & _PADDED:
            pad = block[0]
            block = block[1 : len(block) - pad]
        if flags & _PRIORITY_FLAG:
            block = block[5:]
        end_stream = flags & _END_STREAM
        while not flags & _END_HEADERS:
            hdr = self._read(9)
            n = int.from_bytes(hdr[:3], "big")
            flags = hdr[4]
            if hdr[3] != _CONTINUATION or len(block) + n > _HEAD_LIMIT:
                raise _Failed("protocol error: bad header block")
            block += self._read(n)
        try:
            fields = self._hpack.decode(bytes(block))  # always, to keep the dynamic table in step
        except ValueError as e:
            raise _Failed(str(e)) from None
        if stream != _STREAM_ID:
            raise _Failed(f"protocol error: HEADERS on stream {stream}")
        if end_stream:
            self._remote_done = True
        if self._status:
            return  # trailers: Connect streams put theirs in the end-of-stream message
        headers = dict(fields)
        status = headers.get(b":status", b"")
        if not status.isdigit():
            raise _Failed("protocol error: response without a status")
        self._status = int(status)
        self._check_response(headers)

    # Body --------------------------------------------------------------------

    def _body_into(self, dst: memoryview) -> None:
        """Fills dst with the next bytes of the response body."""
        i = 0
        while i < len(dst):
            if self._data_left == 0:
                if self._remote_done:
                    raise _Failed("protocol error: the response ended without an end-of-stream message")
                self._next_frame()
                continue
            k = min(self._data_left, len(dst) - i)
            self._fill(dst[i : i + k])
            i += k
            self._data_left -= k
            if self._data_left == 0 and self._pad_left:
                self._read(self._pad_left)
                self._pad_left = 0

    def _top_up(self) -> None:
        """Grants the server more window once enough has been received."""
        if self._received >= _TOP_UP:
            inc = self._received.to_bytes(4, "big")
            self._received = 0
            self._write(_frame(_WINDOW_UPDATE, 0, 0, inc) + _frame(_WINDOW_UPDATE, 0, _STREAM_ID, inc), "updating the window")

    # Messages ----------------------------------------------------------------

    def send(self, message: bytes) -> None:
        """Sends one request message (an envelope in DATA frames, within the server's windows)."""
        if self._closed:
            raise ServerUnavailableError(f"server {self.address}: {self._method}: the stream is closed", grpc.StatusCode.UNAVAILABLE)
        self._deadline = None if self._timeout is None else time.monotonic() + self._timeout
        data = memoryview(len(message).to_bytes(5, "big") + message)
        try:
            while data:
                window = min(self._send_conn, self._send_stream, self._peer_frame)
                if window <= 0:
                    # Wait for a WINDOW_UPDATE; a response arriving first
                    # (an error) is left for receive.
                    self._next_frame()
                    if self._data_left or self._remote_done:
                        return
                    continue
                chunk = data[:window]
                self._settimeout(send=True)
                self._sock.sendall(len(chunk).to_bytes(3, "big") + bytes((_DATA, 0)) + _STREAM_ID.to_bytes(4, "big") + chunk)
                self._send_conn -= len(chunk)
                self._send_stream -= len(chunk)
                data = data[len(chunk) :]
        except (BotarenaError, _Failed, OSError, ValueError) as e:
            raise self._fail(e, "sending") from None

    def _received_message(self) -> None:
        self._top_up()


class ConnectStream:
    """One Connect bidirectional stream: over HTTP/1.1 (:class:`ConnectStreamH1`), else HTTP/2.

    The stream opens over HTTP/1.1; when the server answers that with 505
    (it serves bidirectional streams over HTTP/2 only), the first message
    goes again on a :class:`ConnectStreamH2`, which the stream uses from
    then on. http2 True opens it over HTTP/2 at once. The options are the
    streams' (:class:`StreamOptions`). :meth:`send` writes a
    request message; :meth:`receive` returns the next response message as a
    uint8 view of a reused buffer. Not safe for concurrent use. Use once:
    after an error or :meth:`close`, open another.
    """

    def __init__(self, address: str, procedure: str, *, http2: bool = False, **options: Unpack[StreamOptions]) -> None:
        self._args = options
        self._address = address
        self._procedure = procedure
        self._stream: ConnectStreamH1 | ConnectStreamH2
        if http2:
            self._stream = ConnectStreamH2(address, procedure, **self._args)
        else:
            self._stream = ConnectStreamH1(address, procedure, **self._args)
        self._first: bytes | None = None  # the first message, until the HTTP/1.1 stream's first response

    @property
    def http_version(self) -> int:
        """1 or 2: the HTTP version the stream goes over."""
        return 1 if isinstance(self._stream, ConnectStreamH1) else 2

    def close(self) -> None:
        """Closes the connection (the server cancels the stream)."""
        self._stream.close()

    def send(self, message: bytes) -> None:
        """Sends one request message."""
        if isinstance(self._stream, ConnectStreamH1) and self._stream._status == 0 and self._first is None:
            self._first = bytes(message)
        self._stream.send(message)

    def receive(self) -> npt.NDArray[np.uint8]:
        """The next response message: a uint8 view of a reused buffer (see :meth:`_Stream.receive`)."""
        try:
            msg = self._stream.receive()
        except _Refused:
            # Answered without reading the request: sent again over HTTP/2.
            first, self._first = self._first, None
            self._stream.close()
            if first is None:
                raise BotarenaError(f"server {self._address}: HTTP status 505 in the middle of a stream", grpc.StatusCode.INTERNAL) from None
            self._stream = ConnectStreamH2(self._address, self._procedure, **self._args)
            self._stream.send(first)
            return self._stream.receive()
        self._first = None
        return msg
