"""Reset and Step as Connect unary calls over HTTP/1.1, received into reused buffers.

grpcio hands every response to Python as a new ``bytes`` object, built by
copying each received slice into a bytes object and joining them: two copies
of a 22 MB Bomberman batch and a 22 MB allocation per step, on top of the
receive and HTTP/2 framing work of grpc's core. The server speaks the Connect
protocol on the same port (``Content-Type: application/proto``; the request
and response bodies are the bare protobuf messages), so this module sends
Reset and Step as plain HTTP/1.1 POSTs on a keep-alive socket and reads the
response body with ``recv_into`` straight into a numpy buffer: one copy,
from the kernel. The buffer is reused for a later response once nothing
references it any more (no array of the batches it holds is alive), so a
loop that keeps at most the previous step's arrays allocates nothing per
step.

Errors follow the Connect protocol: a non-200 status with a JSON body
``{"code": "not_found", "message": ...}``, raised as the matching
:class:`~botarena.errors.BotarenaError`. A socket timeout is
:class:`~botarena.errors.DeadlineExceededError`, a refused or dropped
connection :class:`~botarena.errors.ServerUnavailableError`, both naming the
server. After any error the socket is closed, and the next call opens a new
one.

Retries. A call is retried (up to :data:`ATTEMPTS` times in all, after
:data:`BACKOFF_S` seconds) only when the server cannot have received all of
its request: the connection could not be opened (refused, reset, or closed
by a server at its connection cap before the request went out), or sending
the request failed. Once the request has been sent, a failure is raised and
never retried, whatever the call: a Step, Send or Recv may have been
applied, and none of these calls is idempotent. (A keep-alive connection
the server closed while idle is noticed before sending and replaced, which
is no failure.)

Pipelining. :meth:`ConnectUnary.post` sends a request without waiting for
its response, and :meth:`ConnectUnary.collect` reads the responses of the
posted requests, in order (HTTP/1.1 pipelining: the server answers the
requests of a connection one after another, in the order they came). An
async pool's Send and Recv then cost one round trip between them instead of
two. A posted request is retried as a call's is while nothing else is
posted on its connection; once anything is posted, a failure to send raises
:class:`~botarena.errors.ServerUnavailableError` (the posted calls may have
been applied).
"""

from __future__ import annotations

import json
import select
import socket
import ssl
import threading
import time
import types
from typing import Any, Callable

import grpc
import numpy as np
import numpy.typing as npt

from botarena.batch import BufferRing
from botarena.errors import BotarenaError, DeadlineExceededError, ServerUnavailableError, from_status

__all__ = ["ConnectUnary", "ATTEMPTS", "BACKOFF_S", "dial", "split_address"]

_SERVICE = "/botarena.v1.EnvService/"
_HEAD_LIMIT = 64 << 10

#: Attempts of a call whose request could not be sent (see the module doc).
ATTEMPTS = 3
#: Seconds to wait before the second and the third attempt.
BACKOFF_S = (0.05, 0.25)


def split_address(address: str) -> tuple[str, int]:
    """The host (an IPv6 literal without its brackets) and port of ``host:port``.

    Raises ValueError naming the address when it is not of that form.
    """
    host, _, port = address.rpartition(":")
    if not host or not port.isdigit():
        raise ValueError(f"address {address!r}: want host:port")
    return host.strip("[]"), int(port)


def dial(address: str, timeout: float | None, tls: ssl.SSLContext | None = None, alpn: str | None = None) -> socket.socket:
    """A new TCP connection to address (``host:port``) with TCP_NODELAY set.

    With tls the socket is wrapped by that context (the handshake done here),
    and with alpn the server must have selected that protocol. The socket's
    timeout is timeout (None: blocking). Raises
    :class:`~botarena.errors.DeadlineExceededError` when the connection or
    the handshake takes longer than timeout, and
    :class:`~botarena.errors.ServerUnavailableError` when the connection is
    refused, reset or closed during the handshake, the certificate is bad or
    the server does not speak alpn; both name the server. Nothing is left
    open after an error.
    """
    host, port = split_address(address)
    try:
        sock = socket.create_connection((host, port), timeout=timeout)
    except (socket.timeout, TimeoutError):
        raise DeadlineExceededError(f"server {address}: cannot connect within {timeout:g}s", grpc.StatusCode.DEADLINE_EXCEEDED) from None
    except OSError as e:
        raise ServerUnavailableError(f"server {address}: cannot connect: {e}", grpc.StatusCode.UNAVAILABLE) from None
    try:
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        if tls is not None:
            sock = tls.wrap_socket(sock, server_hostname=host)
            if alpn is not None and sock.selected_alpn_protocol() != alpn:
                raise OSError(f"the server does not speak {alpn} over TLS (ALPN)")
    except (socket.timeout, TimeoutError):
        sock.close()
        raise DeadlineExceededError(
            f"server {address}: no TLS handshake within {timeout:g}s", grpc.StatusCode.DEADLINE_EXCEEDED
        ) from None
    except OSError as e:  # closed or reset during the handshake (a server at its connection cap), a bad certificate
        sock.close()
        raise ServerUnavailableError(f"server {address}: cannot connect: {e}", grpc.StatusCode.UNAVAILABLE) from None
    sock.settimeout(timeout)
    return sock


def read_line(buf: bytearray, recv_more: Callable[[], None], error: Callable[[str], Exception]) -> bytes:
    """Takes one CRLF-terminated line off the front of buf (without the CRLF),
    calling recv_more to append to buf until one is there; a line longer than
    the header limit raises error(reason)."""
    while True:
        i = buf.find(b"\r\n")
        if i >= 0:
            line = bytes(buf[:i])
            del buf[: i + 2]
            return line
        if len(buf) > _HEAD_LIMIT:
            raise error("line too long")
        recv_more()


def read_head(buf: bytearray, recv_more: Callable[[], None], error: Callable[[str], Exception]) -> tuple[bytes, int, dict[bytes, bytes]]:
    """Takes an HTTP/1.x response head off the front of buf, skipping 100
    Continue heads, calling recv_more to append to buf as it needs: the
    version (b"HTTP/1.1"), the status and the headers (names lower-case,
    names and values stripped; a repeated header keeps its last value). A
    malformed status line or a head longer than the limit raises
    error(reason)."""
    while True:
        end = buf.find(b"\r\n\r\n")
        while end < 0:
            if len(buf) > _HEAD_LIMIT:
                raise error("header block too long")
            start = max(0, len(buf) - 3)
            recv_more()
            end = buf.find(b"\r\n\r\n", start)
        lines = bytes(buf[:end]).split(b"\r\n")
        del buf[: end + 4]
        parts = lines[0].split(b" ", 2)
        if len(parts) < 2 or not parts[0].startswith(b"HTTP/1.") or not parts[1].isdigit():
            raise error(f"status line {lines[0][:80]!r}")
        if int(parts[1]) != 100:
            break
    headers: dict[bytes, bytes] = {}
    for line in lines[1:]:
        name, _, value = line.partition(b":")
        headers[name.strip().lower()] = value.strip()
    return parts[0], int(parts[1]), headers


def _malformed(reason: str) -> ValueError:
    return ValueError(f"malformed response: {reason}")


class _NotSent(Exception):
    """The request did not reach the server in full: the call may be retried. error is what to raise if not."""

    def __init__(self, error: BotarenaError) -> None:
        super().__init__(str(error))
        self.error = error


class _Conn:
    """One keep-alive HTTP/1.1 connection and the receive buffers of its thread."""

    def __init__(self, sock: socket.socket) -> None:
        self.sock = sock
        self.head = bytearray()  # bytes read past the previous response (none, normally)
        self.buffers = BufferRing()
        self.posted: list[str] = []  # the methods of the requests sent by post whose responses are unread, in order


class ConnectUnary:
    """Connect unary calls (Reset, Step) to one server over HTTP/1.1.

    Each thread gets its own connection; with per_thread False there is one
    connection, which the caller must not use from two threads at once (a
    connection of its own, whose posted requests any thread may collect).
    The responses are numpy uint8 views of the connection's receive buffers
    (see the module doc).
    """

    def __init__(
        self,
        address: str,
        *,
        timeout: float | None,
        token: str | None = None,
        tls: bool = False,
        max_message_bytes: int = 512 << 20,
        per_thread: bool = True,
    ) -> None:
        split_address(address)  # a bad address fails here, not at the first call
        self.address = address
        self._timeout = timeout
        self._max = max_message_bytes
        self._tls = ssl.create_default_context() if tls else None
        # The connection: the calling thread's, or one for every thread.
        self._local: Any = threading.local() if per_thread else types.SimpleNamespace()
        head = f"Host: {address}\r\nContent-Type: application/proto\r\nConnect-Protocol-Version: 1\r\n"
        if timeout is not None:
            head += f"Connect-Timeout-Ms: {max(1, int(timeout * 1000))}\r\n"
        if token:
            head += f"Authorization: Bearer {token}\r\n"
        self._head = head

    # Connections -------------------------------------------------------------

    def _connect(self) -> _Conn:
        return _Conn(dial(self.address, self._timeout, self._tls))

    def _conn(self) -> _Conn:
        conn: _Conn | None = getattr(self._local, "conn", None)
        if conn is not None and not conn.head and not conn.posted:
            # The server closes idle connections (and a full server the
            # longest idle one); a closed socket reads as ready. Reconnect
            # rather than send a request it will never read.
            try:
                ready, _, _ = select.select([conn.sock], [], [], 0)
            except (OSError, ValueError):
                ready = [conn.sock]
            if ready:
                self._drop()
                conn = None
        if conn is None:
            conn = self._connect()
            self._local.conn = conn
        return conn

    def _drop(self) -> None:
        conn: _Conn | None = getattr(self._local, "conn", None)
        self._local.conn = None
        if conn is not None:
            try:
                conn.sock.close()
            except OSError:
                pass

    def close(self) -> None:
        """Closes the calling thread's connection (others close when their threads end); unread responses are lost."""
        self._drop()

    # Calls -------------------------------------------------------------------

    def call(self, method: str, request: bytes) -> npt.NDArray[np.uint8]:
        """Sends one unary request and returns the response message (a view of a receive buffer).

        Retried only while the request cannot have reached the server (see
        the module doc). With responses of posted requests unread, it reads
        them first (:meth:`collect`) and raises the first of their errors
        instead of making the call.
        """
        conn: _Conn | None = getattr(self._local, "conn", None)
        if conn is not None and conn.posted:
            for r in self.collect():
                if isinstance(r, BotarenaError):
                    raise r
        conn = self._send(method, request)
        r = self._response(conn, method, conn.buffers)
        if isinstance(r, BotarenaError):
            raise r
        return r

    def post(self, method: str, request: bytes) -> None:
        """Sends one unary request and returns without reading its response; :meth:`collect` reads it.

        The calling thread's next :meth:`collect` (or :meth:`call`) reads
        the response. Retried as :meth:`call` is while nothing else is
        posted on the connection (see the module doc).
        """
        self._send(method, request).posted.append(method)

    def collect(self) -> list[npt.NDArray[np.uint8] | BotarenaError]:
        """Reads the responses of the calling thread's posted requests, in the order they were posted.

        Each is a response message or the :class:`~botarena.errors.BotarenaError`
        the server answered with; the last message is a view of a receive
        buffer (as :meth:`call`'s), the others are arrays of their own. A
        failure to read (the connection dropped, no response within the
        timeout) is raised, and the remaining responses are lost.
        """
        conn: _Conn | None = getattr(self._local, "conn", None)
        if conn is None or not conn.posted:
            return []
        out: list[npt.NDArray[np.uint8] | BotarenaError] = []
        while conn.posted:
            method = conn.posted.pop(0)
            out.append(self._response(conn, method, None if conn.posted else conn.buffers, more=bool(conn.posted)))
        return out

    def _send(self, method: str, request: bytes) -> _Conn:
        """Writes one request on the calling thread's connection, retried while it cannot have reached the server."""
        for attempt in range(ATTEMPTS):
            try:
                return self._send_once(method, request)
            except _NotSent as e:
                if attempt == ATTEMPTS - 1:
                    raise e.error from None
                time.sleep(BACKOFF_S[min(attempt, len(BACKOFF_S) - 1)])
        raise AssertionError("unreachable")

    def _send_once(self, method: str, request: bytes) -> _Conn:
        """One attempt of _send; raises _NotSent when the request did not go out in full (nothing posted before it)."""
        try:
            conn = self._conn()
        except ServerUnavailableError as e:
            raise _NotSent(e) from None
        req = f"POST {_SERVICE}{method} HTTP/1.1\r\n{self._head}Content-Length: {len(request)}\r\n\r\n".encode()
        try:
            conn.sock.sendall(req + request)
        except (socket.timeout, TimeoutError):
            self._drop()  # the deadline is spent: not retried
            raise DeadlineExceededError(
                f"server {self.address}: {method}: the request not sent within {self._timeout:g}s",
                grpc.StatusCode.DEADLINE_EXCEEDED,
            ) from None
        except OSError as e:
            self._drop()
            err = ServerUnavailableError(f"server {self.address}: {method}: sending the request: {e}", grpc.StatusCode.UNAVAILABLE)
            if conn.posted:
                # Posted requests went out before it: they may have been applied.
                raise ServerUnavailableError(f"{err} (after {', '.join(conn.posted)} requests whose responses are lost)", grpc.StatusCode.UNAVAILABLE) from None
            # Not all of the request was handed to the kernel: the server
            # cannot have a whole request to act on.
            raise _NotSent(err) from None
        return conn

    def _response(self, conn: _Conn, method: str, into: BufferRing | None, more: bool = False) -> npt.NDArray[np.uint8] | BotarenaError:
        """Reads one response: the message, or the error the server answered with.

        After an error response the connection is closed unless more
        responses follow on it (more); a failure to read is raised.
        """
        try:
            status, length, chunked, close = self._read_head(conn)
            if status == 200:
                msg = self._read_body(conn, length, chunked, into=into)
                if close:
                    self._drop()
                return msg
            err = self._error(method, status, bytes(self._read_body(conn, length, chunked, into=None)))
        except BotarenaError:
            self._drop()  # over the size limit: the rest of the body is unread
            raise
        except (socket.timeout, TimeoutError):
            self._drop()
            raise DeadlineExceededError(
                f"server {self.address}: {method}: no response within {self._timeout:g}s",
                grpc.StatusCode.DEADLINE_EXCEEDED,
            ) from None
        except (OSError, ValueError) as e:
            self._drop()
            raise ServerUnavailableError(f"server {self.address}: {method}: {e}", grpc.StatusCode.UNAVAILABLE) from None
        if close or not more:
            self._drop()
        return err

    def _recv_more(self, conn: _Conn) -> None:
        data = conn.sock.recv(65536)
        if not data:
            raise ConnectionError("the server closed the connection")
        conn.head += data

    def _read_line(self, conn: _Conn) -> bytes:
        return read_line(conn.head, lambda: self._recv_more(conn), _malformed)

    def _read_head(self, conn: _Conn) -> tuple[int, int, bool, bool]:
        """Reads the status line and headers: (status, content length or -1, chunked, close)."""
        version, status, headers = read_head(conn.head, lambda: self._recv_more(conn), _malformed)
        length = int(headers[b"content-length"]) if b"content-length" in headers else -1
        chunked = headers.get(b"transfer-encoding", b"").lower() == b"chunked"
        close = headers[b"connection"].lower() == b"close" if b"connection" in headers else version == b"HTTP/1.0"
        return status, length, chunked, close

    def _fill(self, conn: _Conn, dst: memoryview) -> None:
        """Fills dst from the bytes already read, then from the socket."""
        n = min(len(conn.head), len(dst))
        if n:
            dst[:n] = conn.head[:n]
            del conn.head[:n]
        while n < len(dst):
            k = conn.sock.recv_into(dst[n:])
            if k == 0:
                raise ConnectionError("the server closed the connection mid-response")
            n += k

    def _read_body(self, conn: _Conn, length: int, chunked: bool, into: BufferRing | None) -> npt.NDArray[np.uint8]:
        """Reads a response body (Content-Length or chunked) into a buffer of into (or a new one)."""

        def buffer(n: int) -> npt.NDArray[np.uint8]:
            if n > self._max:
                raise BotarenaError(f"response of {n} bytes exceeds the client's limit of {self._max}", grpc.StatusCode.RESOURCE_EXHAUSTED)
            return into.get(n) if into is not None else np.empty(n, dtype=np.uint8)

        if not chunked:
            if length < 0:
                raise ValueError("response without Content-Length or chunked encoding")
            buf = buffer(length)
            self._fill(conn, buf.data[:length])
            return buf[:length]
        # Chunked: the server writes the message in one chunk; more are
        # gathered, growing the buffer.
        buf = buffer(0)
        n = 0
        while True:
            size = int(self._read_line(conn).split(b";", 1)[0], 16)
            if size == 0:
                while self._read_line(conn):  # trailers
                    pass
                return buf[:n]
            if n + size > buf.nbytes:
                grown = buffer(n + size)
                grown[:n] = buf[:n]
                buf = grown
            self._fill(conn, buf.data[n : n + size])
            n += size
            if self._read_line(conn):
                raise ValueError("malformed chunked response")

    def _error(self, method: str, status: int, body: bytes) -> BotarenaError:
        """The error of a Connect error response."""
        code = ""
        message = ""
        try:
            err: Any = json.loads(body)
            code = str(err.get("code", ""))
            message = str(err.get("message", ""))
        except (ValueError, AttributeError):
            message = body.decode("utf-8", "replace")[:500]
        return from_status(code, message or f"HTTP status {status}", method, self.address, http_status=status)
