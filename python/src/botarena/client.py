"""A client for ``botarena.v1.EnvService``.

:class:`Client` wraps the generated gRPC stub with raised message limits and
turns every failed call into a :class:`~botarena.errors.BotarenaError`
carrying the server's message and status code. The hot-path calls (Reset,
Step, StepStream, and an async pool's AsyncReset, Send and Recv) bypass the
protobuf runtime: requests are serialized by
hand and responses parsed by :func:`~botarena.batch.parse_step_message`, so
the Arrow batches are sliced out of the received message instead of being
copied.

Reset and Step (and AsyncReset, Send and Recv) go as Connect protocol calls
over HTTP/1.1 by default
(``protocol="connect"``, module ``botarena._connect``): the response is read
from the socket straight into a reused numpy buffer, where grpcio would copy
it twice into a new ``bytes`` object. StepStream then goes as a Connect
bidirectional stream over HTTP/1.1, full duplex (HTTP/2 from a server that
streams over HTTP/2 only; module ``botarena._connect_stream``), its
responses read the same way; every other call is gRPC.
"""

from __future__ import annotations

import os
import queue
import threading
import time
from typing import Any, Callable, Iterator, Mapping, Sequence, TypeVar

import grpc

from botarena._closing import Closing
from botarena._connect import ATTEMPTS, BACKOFF_S, ConnectUnary
from botarena._connect_stream import ConnectStream
from botarena.batch import BufferRing, StepMessage, encode_send_request, encode_step_request, parse_step_message
from botarena.errors import BotarenaError, DeadlineExceededError, NotFoundError, from_rpc_error
from botarena.pool import AUTORESET_MODES, COMPRESSIONS, pool_request
from botarena.server import token_for
from botarena.spec import GameInfo, GameSpec
from botarena.v1 import env_pb2, env_pb2_grpc

__all__ = ["Client", "StepStream", "MAX_MESSAGE_BYTES", "AUTORESET_MODES", "COMPRESSIONS", "PROTOCOLS", "ATTEMPTS", "BACKOFF_S"]

#: Send and receive limit of the channel (a 4096-env Bomberman batch is ~22 MB).
MAX_MESSAGE_BYTES = 512 * 1024 * 1024

#: The protocols of :class:`Client`'s Reset and Step calls.
PROTOCOLS = ("connect", "grpc")

_SERVICE = "/botarena.v1.EnvService/"
T = TypeVar("T")


#: Default per-call deadline in seconds of the unary calls (CreatePool, Step, ...).
DEFAULT_TIMEOUT = 120.0

#: Keepalive: a PING every 20 s on an idle or busy connection, and the
#: connection is declared dead (UNAVAILABLE) when a PING is not answered in
#: 10 s, so that a stopped server fails streams instead of hanging them.
KEEPALIVE_OPTIONS: tuple[tuple[str, int], ...] = (
    ("grpc.keepalive_time_ms", 20_000),
    ("grpc.keepalive_timeout_ms", 10_000),
    ("grpc.keepalive_permit_without_calls", 1),
    ("grpc.http2.max_pings_without_data", 0),
)


class Client(Closing):
    """A connection to a botarena server.

    No call waits forever: unary calls have a deadline (``timeout``, default
    :data:`DEFAULT_TIMEOUT`), and keepalive PINGs (:data:`KEEPALIVE_OPTIONS`)
    fail a StepStream whose server stopped answering within about 30 s.
    Failures raise :class:`~botarena.errors.DeadlineExceededError` or
    :class:`~botarena.errors.ServerUnavailableError`, naming the address.

    Args:
        address: ``host:port`` of ``botarena serve``.
        timeout: per-call deadline in seconds for the unary calls (None: no
            deadline).
        token: bearer token sent on every call (``authorization`` metadata);
            default: the token of the :class:`~botarena.Server` this
            process started at ``address`` (:func:`botarena.server.token_for`),
            else ``$BOTARENA_AUTH_TOKEN`` when set.
        tls: True for TLS with the system's roots, or ``grpc.ChannelCredentials``
            (e.g. ``grpc.ssl_channel_credentials(root_certificates=...)``);
            False for plaintext (h2c, the default).
        options: extra grpc channel options (they override the defaults).
        protocol: how Reset and Step travel: ``"connect"`` (the default), the
            Connect protocol over HTTP/1.1 on a keep-alive connection per
            thread, received into reused buffers with one copy; or
            ``"grpc"``, over the gRPC channel like every other call. With
            ``tls`` given as ``grpc.ChannelCredentials`` it is always gRPC.

    Retries (a server at its connection cap closes connections, and
    restarts drop them): a call is retried only where that cannot apply
    it twice. Every call whose request could not be sent (no connection,
    or the connection failed while sending) is retried: by gRPC's
    transparent retries, and for the Connect calls by
    :mod:`botarena._connect`. Once sent, only the idempotent calls are
    retried on UNAVAILABLE, up to :data:`ATTEMPTS` attempts within the one
    deadline (:data:`BACKOFF_S` apart): ListGames, Render, Stats without
    ``reset``, ClosePool with ``missing_ok`` and the League's reads. Reset,
    Step, StepStream, AsyncReset, Send, Recv, CreatePool, SetOpponents and
    Stats with ``reset`` are not: their failure is raised, the call
    perhaps applied.
    """

    def __init__(
        self,
        address: str,
        *,
        timeout: float | None = DEFAULT_TIMEOUT,
        token: str | None = None,
        tls: bool | grpc.ChannelCredentials = False,
        options: Sequence[tuple[str, Any]] = (),
        protocol: str = "connect",
    ) -> None:
        if protocol not in PROTOCOLS:
            raise ValueError(f"protocol must be one of {', '.join(PROTOCOLS)}, got {protocol!r}")
        self.address = address
        self.timeout = timeout
        self._tls = tls is not False
        if token is None:
            token = token_for(address) or os.environ.get("BOTARENA_AUTH_TOKEN") or None
        self._token = token
        self._metadata: tuple[tuple[str, str], ...] | None = (("authorization", f"Bearer {token}"),) if token else None
        opts = [
            ("grpc.max_send_message_length", MAX_MESSAGE_BYTES),
            ("grpc.max_receive_message_length", MAX_MESSAGE_BYTES),
            ("grpc.enable_retries", 1),  # transparent retries of calls that never left this process (gRPC's default)
            *KEEPALIVE_OPTIONS,
            *options,
        ]
        if tls is False:
            self.channel = grpc.insecure_channel(address, options=opts)
        else:
            creds = grpc.ssl_channel_credentials() if tls is True else tls
            self.channel = grpc.secure_channel(address, creds, options=opts)
        self.stub = env_pb2_grpc.EnvServiceStub(self.channel)
        self._reset = self.channel.unary_unary(_SERVICE + "Reset", response_deserializer=parse_step_message)
        self._step = self.channel.unary_unary(_SERVICE + "Step", response_deserializer=parse_step_message)
        self._stream = self.channel.stream_stream(_SERVICE + "StepStream", response_deserializer=parse_step_message)
        self._async_reset = self.channel.unary_unary(_SERVICE + "AsyncReset")
        self._send = self.channel.unary_unary(_SERVICE + "Send")
        self._recv = self.channel.unary_unary(_SERVICE + "Recv", response_deserializer=parse_step_message)
        if protocol == "connect" and not isinstance(tls, grpc.ChannelCredentials):
            self._connect: ConnectUnary | None = ConnectUnary(
                address, timeout=timeout, token=token, tls=bool(tls), max_message_bytes=MAX_MESSAGE_BYTES
            )
        else:
            protocol, self._connect = "grpc", None
        #: The protocol of Reset and Step: "connect" or "grpc".
        self.protocol = protocol

    def _invoke(self, method: str, fn: Callable[..., T], request: Any, *, idempotent: bool = False) -> T:
        """Calls fn(request) with the deadline and the token; failures raise BotarenaError.

        An idempotent call (one that only reads, or whose repetition changes
        nothing) is tried again when it fails with UNAVAILABLE, up to
        ATTEMPTS times in all within the one deadline; any call that never
        left this process is retried by gRPC itself (its transparent
        retries). See :class:`Client` for which calls are which.
        """
        deadline = None if self.timeout is None else time.monotonic() + self.timeout
        for attempt in range(ATTEMPTS):
            timeout = None if deadline is None else max(0.001, deadline - time.monotonic())
            try:
                return fn(request, timeout=timeout, metadata=self._metadata)
            except grpc.RpcError as e:
                pause = BACKOFF_S[min(attempt, len(BACKOFF_S) - 1)]
                if (
                    not idempotent
                    or attempt == ATTEMPTS - 1
                    or not isinstance(e, grpc.Call)
                    or e.code() != grpc.StatusCode.UNAVAILABLE
                    or (deadline is not None and time.monotonic() + pause >= deadline)
                ):
                    raise from_rpc_error(e, method, self.address) from None
                time.sleep(pause)
        raise AssertionError("unreachable")

    def wait_ready(self, timeout: float = 10.0) -> None:
        """Blocks until the channel is connected (raises UnavailableError after timeout)."""
        try:
            grpc.channel_ready_future(self.channel).result(timeout=timeout)
        except grpc.FutureTimeoutError:
            from botarena.errors import UnavailableError

            raise UnavailableError(f"server {self.address}: cannot connect within {timeout:g}s", grpc.StatusCode.UNAVAILABLE) from None

    # Catalogue -------------------------------------------------------------

    def list_games(self) -> list[GameInfo]:
        """The registered games with their default specs and built-in agents."""
        resp = self._invoke("ListGames", self.stub.ListGames, env_pb2.ListGamesRequest(), idempotent=True)
        return [GameInfo.from_proto(g) for g in resp.games]

    def game_spec(self, game: str, config: Mapping[str, Any] | None = None) -> GameSpec:
        """The spec of game with config applied (a one-env pool made and closed)."""
        resp = self.create_pool(game, num_envs=1, config=config, seed=0)
        try:
            return GameSpec.from_proto(resp.spec)
        finally:
            self.close_pool(resp.pool_id, missing_ok=True)

    # Pools -----------------------------------------------------------------

    def create_pool(self, game: str, num_envs: int, **settings: Any) -> env_pb2.CreatePoolResponse:
        """Creates a pool (CreatePool); returns the raw response (pool_id, spec, arrow_schema, ...).

        settings are :func:`~botarena.pool.pool_request`'s: config, seed,
        learner_seats, opponents, default_opponent, autoreset, compression,
        workers, shared_planes (the shared form of the batches: channels every
        seat of an env sees alike sent once per env;
        :class:`~botarena.batch.BatchDecoder` rebuilds the same arrays from
        either form) and batch_size (from 1 to num_envs an async pool,
        stepped with :meth:`async_reset`, :meth:`send` and :meth:`recv`; 0 a
        synchronous pool, stepped with :meth:`reset` and :meth:`step`).
        """
        return self.create(pool_request(game, num_envs, **settings))

    def create(self, req: env_pb2.CreatePoolRequest) -> env_pb2.CreatePoolResponse:
        """Sends a CreatePoolRequest as it is (see :func:`botarena.pool.pool_request`); returns the raw response.
        """
        return self._invoke("CreatePool", self.stub.CreatePool, req)

    def reset(self, pool_id: str) -> StepMessage:
        """Resets every env of the pool (unary Reset)."""
        req = encode_step_request(pool_id.encode(), b"")
        if self._connect is not None:
            return parse_step_message(self._connect.call("Reset", req))
        return self._invoke("Reset", self._reset, req)

    def step(self, pool_id: str, actions: bytes | memoryview) -> StepMessage:
        """Steps the pool (unary Step); actions are little-endian int32, one per row."""
        req = encode_step_request(pool_id.encode(), actions)
        if self._connect is not None:
            return parse_step_message(self._connect.call("Step", req))
        return self._invoke("Step", self._step, req)

    def async_reset(self, pool_id: str) -> None:
        """Resets every env of an async pool in the background (AsyncReset); :meth:`recv` returns them."""
        req = encode_step_request(pool_id.encode(), b"")
        if self._connect is not None:
            self._connect.call("AsyncReset", req)
        else:
            self._invoke("AsyncReset", self._async_reset, req)

    def send(self, pool_id: str, env_ids: bytes | memoryview, actions: bytes | memoryview) -> None:
        """Queues envs of an async pool with their actions (Send) and returns once the server has queued them.

        env_ids and actions are little-endian int32s: the envs, and one action
        per learner row of them (per env in learner-seat order).
        """
        req = encode_send_request(pool_id.encode(), env_ids, actions)
        if self._connect is not None:
            self._connect.call("Send", req)
        else:
            self._invoke("Send", self._send, req)

    def recv(self, pool_id: str, env_ids: bytes | memoryview = b"", actions: bytes | memoryview = b"") -> StepMessage:
        """Waits for the next batch of an async pool (Recv); its env column names the envs.

        With env_ids (and their actions, as :meth:`send` takes them) the
        request sends them first: Send and Recv in one call. A send that
        fails raises its error and receives nothing.
        """
        req = encode_send_request(pool_id.encode(), env_ids, actions)
        if self._connect is not None:
            return parse_step_message(self._connect.call("Recv", req))
        return self._invoke("Recv", self._recv, req)

    def step_stream(self, pool_id: str) -> StepStream:
        """Opens a StepStream on the pool: one response per request, in order."""
        return StepStream(self, pool_id)

    def render(self, pool_id: str, env: int = 0, *, format: str = "", seat: int = -1) -> env_pb2.RenderResponse:
        """One env's state in a native format (Render)."""
        req = env_pb2.RenderRequest(pool_id=pool_id, env=env, format=format, seat=seat)
        return self._invoke("Render", self.stub.Render, req, idempotent=True)

    def stats(self, pool_id: str, *, reset: bool = False) -> env_pb2.StatsResponse:
        """The pool's episode statistics per learner seat (Stats; retried when unavailable unless reset)."""
        req = env_pb2.StatsRequest(pool_id=pool_id, reset=reset)
        return self._invoke("Stats", self.stub.Stats, req, idempotent=not reset)

    def set_opponents(self, pool_id: str, mixtures: Mapping[int, Sequence[tuple[str, float, str]]]) -> None:
        """Replaces the opponent mixtures of some of the pool's seats (SetOpponents).

        mixtures maps an opponent seat to its choices, each ``(spec, weight,
        name)``; an empty name means the spec.
        """
        req = env_pb2.SetOpponentsRequest(pool_id=pool_id)
        for seat, choices in mixtures.items():
            mix = req.opponents[int(seat)]
            for spec, weight, name in choices:
                mix.choices.add(spec=spec, weight=float(weight), name=name)
        self._invoke("SetOpponents", self.stub.SetOpponents, req)

    def close_pool(self, pool_id: str, *, missing_ok: bool = False) -> None:
        """Closes a pool; with missing_ok an unknown or closed pool is not an error (and the call is retried when unavailable)."""
        try:
            self._invoke("ClosePool", self.stub.ClosePool, env_pb2.ClosePoolRequest(pool_id=pool_id), idempotent=missing_ok)
        except NotFoundError:
            if not missing_ok:
                raise

    # Lifetime --------------------------------------------------------------

    def close(self) -> None:
        """Closes the channel (and the calling thread's Connect connection)."""
        if self._connect is not None:
            self._connect.close()
        self.channel.close()

    def __repr__(self) -> str:
        return f"Client({self.address!r})"


_STOP = object()


class StepStream:
    """A StepStream call used in lock step: :meth:`send` one request, get its response.

    With the client's Connect protocol the stream is a Connect stream on a
    connection of its own, HTTP/1.1 (HTTP/2 from a server that streams
    only over HTTP/2; see :mod:`botarena._connect_stream`): each
    response is read into a reused buffer (a view of it, valid while
    referenced, as unary Step's), and must arrive within the client's
    ``timeout``. After an error the connection is closed and the next
    :meth:`send` opens a new stream.

    With gRPC: gRPC's synchronous API feeds the request iterator from its own thread, so
    each request goes through a queue. After an error the stream is closed and
    the next :meth:`send` opens a new one.

    Each response must arrive within the client's ``timeout`` (a stream has no
    per-message deadline in gRPC): a watchdog thread cancels the call when it
    does not, and :meth:`send` raises
    :class:`~botarena.errors.DeadlineExceededError`.
    """

    def __init__(self, client: Client, pool_id: str) -> None:
        self._client = client
        self._pool_id = pool_id.encode()
        self._queue: queue.SimpleQueue[object] | None = None
        self._call: Any = None
        self._responses: Iterator[StepMessage] | None = None
        self._timeout = client.timeout
        self._deadline = 0.0  # monotonic time by which the awaited response is due; 0 when none is awaited
        self._timed_out = False
        self._watchdog: threading.Thread | None = None
        self._closed = threading.Event()
        self._connect: ConnectStream | None = None
        self._buffers = BufferRing()  # kept across Connect streams

    def _send_connect(self, actions: bytes | memoryview, reset: bool) -> StepMessage:
        c = self._client
        if self._connect is None:
            self._connect = ConnectStream(
                c.address,
                _SERVICE + "StepStream",
                timeout=self._timeout,
                token=c._token,
                tls=c._tls,
                max_message_bytes=MAX_MESSAGE_BYTES,
                buffers=self._buffers,
            )
            self._first = True
        req = encode_step_request(self._pool_id if self._first else b"", actions, reset)
        self._first = False
        try:
            self._connect.send(req)
            return parse_step_message(self._connect.receive())
        except BaseException:
            self._connect.close()
            self._connect = None
            raise

    def _open(self) -> None:
        q: queue.SimpleQueue[object] = queue.SimpleQueue()
        self._queue = q
        self._call = self._client._stream(iter(q.get, _STOP), metadata=self._client._metadata)
        self._responses = self._call
        self._first = True
        self._timed_out = False
        if self._timeout is not None and self._watchdog is None:
            self._closed.clear()
            self._watchdog = threading.Thread(target=self._watch, name="botarena-stepstream-watchdog", daemon=True)
            self._watchdog.start()

    def _watch(self) -> None:
        """Cancels the call when a response is overdue; polls a few times a second."""
        assert self._timeout is not None
        period = min(0.25, self._timeout / 4)
        while not self._closed.wait(period):
            deadline, call = self._deadline, self._call
            if deadline and call is not None and time.monotonic() > deadline:
                self._timed_out = True
                call.cancel()

    def send(self, actions: bytes | memoryview, *, reset: bool = False) -> StepMessage:
        """Sends one step (or reset) request and returns its response."""
        if self._client._connect is not None:
            return self._send_connect(actions, reset)
        if self._queue is None:
            self._open()
        assert self._queue is not None and self._responses is not None
        req = encode_step_request(self._pool_id if self._first else b"", actions, reset)
        self._first = False
        if self._timeout is not None:
            self._deadline = time.monotonic() + self._timeout
        self._queue.put(req)
        try:
            return next(self._responses)
        except grpc.RpcError as e:
            timed_out = self._timed_out
            self._reset_call()
            if timed_out:
                raise DeadlineExceededError(
                    f"server {self._client.address}: StepStream: no response within {self._timeout:g}s",
                    grpc.StatusCode.DEADLINE_EXCEEDED,
                ) from None
            raise from_rpc_error(e, "StepStream", self._client.address) from None
        except StopIteration:
            self._reset_call()
            raise BotarenaError("StepStream: the server closed the stream") from None
        finally:
            self._deadline = 0.0

    def _reset_call(self) -> None:
        if self._queue is not None:
            self._queue.put(_STOP)
            try:
                self._call.cancel()
            except Exception:
                pass
        self._queue = None
        self._call = None
        self._responses = None

    def close(self) -> None:
        """Ends the stream and its watchdog."""
        if self._connect is not None:
            self._connect.close()
            self._connect = None
        self._reset_call()
        self._closed.set()
        self._watchdog = None
