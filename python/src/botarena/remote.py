"""The remote backend: :class:`RemotePool`, a :class:`~botarena.pool.Pool` on a ``botarena serve``.

Every call is a call of ``botarena.v1.EnvService`` (gRPC, or Connect over
HTTP/1.1 for Reset and Step, and for an async pool's AsyncReset, Send and
Recv, which go on a connection of the pool's own with Recv pipelined behind
the Sends; StepStream as a Connect stream over HTTP/1.1, or HTTP/2 from a
server that streams only over HTTP/2); observations arrive
as Arrow record batches, decoded into read-only numpy views of each response
(see :mod:`botarena.batch`) that stay valid after later steps.
"""

from __future__ import annotations

from typing import Any, Mapping, Sequence

import numpy as np
import numpy.typing as npt

from botarena._connect import ConnectUnary
from botarena.batch import Batch, BatchDecoder, StepMessage, encode_send_request, encode_step_request, parse_step_message
from botarena.client import MAX_MESSAGE_BYTES, Client, StepStream
from botarena.errors import BotarenaError, FailedPreconditionError, InvalidArgumentError, MalformedResponseError
from botarena.pool import Info, Obs, Pool, PoolStats, Step, int32_values
from botarena.server import Server, remember_token

__all__ = ["RemotePool"]


class RemotePool(Pool):
    """A :class:`~botarena.pool.Pool` living in a ``botarena serve``; every step is one call.

    ``botarena.make_pool(..., backend="remote")`` (or ``address=``, or
    ``client=``) returns one. The pool lives at ``address``, or in a local
    server this pool starts and stops, or on ``client``'s server.

    Args (besides :class:`~botarena.pool.Pool`'s):
        address: ``host:port`` of a server; None starts a local
            :class:`~botarena.server.Server` owned by the pool.
        client: an existing :class:`~botarena.client.Client` to use instead
            of ``address``.
        compression: None/``"none"`` or ``"zstd"`` (Arrow body compression,
            for remote links; observations are then decompressed copies).
        transport: ``"unary"`` (a Step call per step, the default: over
            HTTP/1.1 with the client's default ``protocol="connect"``) or
            ``"stream"`` (one StepStream, a Connect stream over HTTP/1.1 with
            that protocol, or HTTP/2 from a server that streams only over
            HTTP/2; synchronous pools only: an async pool's Send and Recv
            are unary calls). Measured on 2 cores, Bomberman
            (bench/2026-11-30-stream-http1.txt, 2026-11-30-stream-client.txt):
            the stream is 1.6-1.7x unary for one env and even with it for
            256 and 1024 envs (0.99-1.06 by the rounds' own ratios), its
            CPU per step lower on both sides (the client's 11-20% below).
        shared_planes: send the channels every seat of an env sees alike
            (``TensorSpec.shared``: walls, bombs, ...) once per env; the
            client rebuilds the same arrays (writable, from reused buffers).
            Halves Bomberman's batches: for links slower than loopback.

    The observations are read-only numpy views of the response message (see
    :mod:`botarena.batch`); they stay valid after later steps.
    """

    backend = "remote"

    def __init__(
        self,
        game: str,
        num_envs: int,
        *,
        seed: int | None = None,
        address: str | None = None,
        client: Client | None = None,
        **settings: Any,
    ) -> None:
        """Makes the pool (settings: :class:`~botarena.pool.Pool`'s, and the game's config fields)."""
        super().__init__(game, num_envs, **settings)
        self._last_ids: npt.NDArray[np.int32] | None = None
        # Async pools: the envs sent (or reset) and not yet received, as the
        # server counts them (None before the first async_reset), and a Recv
        # response read along with a failed Send, for the next recv.
        self._in_flight: npt.NDArray[np.bool_] | None = None
        self._held: StepMessage | None = None
        self._conn: ConnectUnary | None = None  # an async pool's own connection (Connect)
        # The posted requests, in order: the envs each sent (None for none)
        # and whether it receives (a Recv, which may carry a Send).
        self._posted: list[tuple[npt.NDArray[np.int32] | None, bool]] = []
        self._server: Server | None = None
        self._own_client = client is None
        self._stream: StepStream | None = None
        self._needs_reset = True
        try:
            if client is None:
                if address is None:
                    self._server = Server().start()
                    address = self._server.address
                client = Client(address)
            self.client: Client = client
            self._create(seed)
        except BaseException:
            self.close()
            raise

    def _create(self, seed: int | None) -> None:
        resp = self.client.create(self._request(seed))
        self._created(resp)
        self.decoder = BatchDecoder(resp.arrow_schema)
        #: Whether the batches have the shared form (see ``shared_planes``).
        self.shared_planes = bool(resp.shared_planes)
        self._needs_reset = True
        self._ended_zero = np.zeros(self.rows, dtype=bool)
        self._last_ids = None
        self._in_flight = None
        self._held = None
        self._posted = []
        if self._mixtures:
            self.client.set_opponents(self.pool_id, self._mixtures)

    def reseed(self, seed: int | None) -> None:
        """Replaces the pool on the server by a new one with this seed (same settings); call :meth:`reset` next."""
        self._close_pool()
        self._create(seed)

    # Stepping --------------------------------------------------------------

    def _send(self, actions: bytes | memoryview, reset: bool) -> StepMessage:
        if self.transport == "stream":
            if self._stream is None:
                self._stream = self.client.step_stream(self.pool_id)
            return self._stream.send(actions, reset=reset)
        if reset:
            return self.client.reset(self.pool_id)
        return self.client.step(self.pool_id, actions)

    def _info(self, b: Batch, msg: StepMessage) -> Info:
        if msg.ended is not None and len(msg.ended):
            if len(msg.ended) != b.rows:
                raise MalformedResponseError(f"response message: {len(msg.ended)} ended flags for {b.rows} rows")
            ended = np.frombuffer(msg.ended, dtype=np.bool_)
        else:
            ended = self._ended_zero[: b.rows]
        info: Info = {"env": b.env, "seat": b.seat, "episode": b.episode, "ended": ended, "mask": b.mask}
        if msg.final_batch is not None:
            final = self.decoder.decode(msg.final_batch, b.rows)
            info["final_obs"] = final.obs
            info["final_mask"] = final.mask
        return info

    def reset(self) -> tuple[Obs, Info]:
        """Starts a new episode in every env; returns ``(obs, info)`` (see :meth:`Pool.reset`)."""
        if self.batch_size is not None:
            self.async_reset()
            obs, _, _, _, info = self.recv()
            return obs, info
        msg = self._send(b"", True)
        self._needs_reset = False
        b = self._decode(msg, self.rows)
        return b.obs, self._info(b, msg)

    def step(self, actions: npt.ArrayLike, env_id: npt.ArrayLike | None = None) -> Step:
        """Applies one action per row (see :meth:`Pool.step`); the actions are sent as little-endian int32.

        In async mode it is :meth:`send` then :meth:`recv` in one request
        (a Recv that carries the Send).
        """
        if self.batch_size is not None:
            if self._held is not None or self._posted:
                # A batch or Sends still to collect: their order matters.
                self.send(actions, env_id)
                return self.recv()
            ids, a = self._flight(actions, env_id)
            try:
                msg = self._receive(ids, a)
            except BaseException:
                # The one request failed: the server queued nothing.
                assert self._in_flight is not None
                self._in_flight[ids] = False
                raise
            return self._received(msg)
        if env_id is not None:
            raise FailedPreconditionError("step: env_id is for async pools (Pool(..., batch_size=N))")
        a = int32_values(actions, "action", self.spec.actions)
        msg = self._send(a.data.cast("B"), False)
        b = self._decode(msg, self.rows)
        return b.obs, b.reward, b.terminated, b.truncated, self._info(b, msg)

    def async_reset(self) -> None:
        """Resets every env in the background (see :meth:`Pool.async_reset`)."""
        self._need_async()
        conn = self._async_conn()
        if conn is None:
            self.client.async_reset(self.pool_id)
        else:
            self._collect()
            conn.call("AsyncReset", encode_step_request(self.pool_id.encode(), b""))
        self._needs_reset = False
        self._last_ids = None
        self._held = None
        self._in_flight = np.ones(self.num_envs, dtype=bool)

    def send(self, actions: npt.ArrayLike, env_id: npt.ArrayLike | None = None) -> None:
        """Queues envs with their actions and returns at once (see :meth:`Pool.send`).

        Over Connect (the client's default protocol) the Send request is
        written and not waited for: the next :meth:`recv` writes its Recv
        request behind it and reads both answers, one round trip for the two
        (HTTP/1.1 pipelining on a connection of this pool's, see
        :mod:`botarena._connect`). The envs named are checked here against
        those this pool has in flight, so an env in flight or named twice
        raises at once; an error only the server finds is raised by the next
        :meth:`recv` (which keeps the batch it received for the recv after).
        """
        ids, a = self._flight(actions, env_id)
        conn = self._async_conn()
        try:
            if conn is None:
                self.client.send(self.pool_id, ids.data.cast("B"), a.data.cast("B"))
            else:
                conn.post("Send", encode_send_request(self.pool_id.encode(), ids.data.cast("B"), a.data.cast("B")))
                self._posted.append((ids.copy(), False))
        except BaseException:
            assert self._in_flight is not None
            self._in_flight[ids] = False
            raise

    def _flight(self, actions: npt.ArrayLike, env_id: npt.ArrayLike | None) -> tuple[npt.NDArray[np.int32], npt.NDArray[np.int32]]:
        """Checks a send's envs and actions against the envs in flight and marks the envs in flight; returns both as int32."""
        batch_size = self._need_async()
        if env_id is None:
            if self._last_ids is None:
                raise FailedPreconditionError("send: no batch received yet to take the env ids from; pass env_id")
            ids = self._last_ids
        else:
            ids = int32_values(env_id, "env_id", self.num_envs, "index")
        if ids.size > batch_size:
            raise InvalidArgumentError(f"send: {ids.size} envs, at most batch_size={batch_size} per call")
        a = int32_values(actions, "action", self.spec.actions)
        n = ids.size * len(self.learner_seats)
        if a.size != n:
            raise InvalidArgumentError(f"actions: got {a.size}, want {n} (one per row)")
        flight = self._in_flight
        if flight is None:
            raise FailedPreconditionError(f"pool {self.pool_id!r}: send before the first async_reset; call reset or async_reset first")
        busy = flight[ids]
        if busy.any():
            j = int(busy.argmax())
            raise InvalidArgumentError(f"send: env_id[{j}] = {ids[j]} is in flight (sent and not yet returned by recv)")
        before = np.count_nonzero(flight)
        flight[ids] = True
        if np.count_nonzero(flight) != before + ids.size:
            flight[ids] = False
            raise InvalidArgumentError(f"send: env_id {ids.tolist()}: an env is named twice")
        return ids, a

    def recv(self) -> Step:
        """Waits for the next batch (see :meth:`Pool.recv`); the arrays are views of the response and stay valid."""
        self._need_async()
        msg, self._held = self._held, None
        if msg is None:
            msg = self._receive(None, None)
        return self._received(msg)

    def _receive(self, ids: npt.NDArray[np.int32] | None, actions: npt.NDArray[np.int32] | None) -> StepMessage:
        """Posts a Recv, carrying the send of ids with actions when given, and returns its batch.

        A Recv that carries a send needs batch_size envs in flight with them
        (checked here, so that a server error always means it queued nothing;
        the caller takes the envs back out of flight when this raises).
        """
        if ids is not None:
            assert self._in_flight is not None and actions is not None
            if np.count_nonzero(self._in_flight) < self._need_async():
                raise FailedPreconditionError(
                    f"recv: {np.count_nonzero(self._in_flight)} envs in flight, fewer than batch_size={self.batch_size}: the batch could never complete"
                )
        raw_ids = b"" if ids is None else ids.data.cast("B")
        raw_actions = b"" if actions is None else actions.data.cast("B")
        conn = self._async_conn()
        if conn is None:
            return self.client.recv(self.pool_id, raw_ids, raw_actions)
        conn.post("Recv", encode_send_request(self.pool_id.encode(), raw_ids, raw_actions))
        self._posted.append((None if ids is None else ids.copy(), True))
        msg = self._collect()
        assert msg is not None
        return msg

    def _received(self, msg: StepMessage) -> Step:
        """The step of a Recv's batch; its envs are no longer in flight."""
        b = self._decode(msg, self._need_async() * len(self.learner_seats))
        info = self._info(b, msg)
        ids = b.env[:: len(self.learner_seats)]
        info["env_id"] = ids
        self._last_ids = np.ascontiguousarray(ids, dtype="<i4")
        if self._in_flight is not None:
            self._in_flight[self._last_ids] = False
        return b.obs, b.reward, b.terminated, b.truncated, info

    def _async_conn(self) -> ConnectUnary | None:
        """This async pool's own Connect connection (None with the gRPC protocol), opened on first use."""
        if self._conn is None and self.client._connect is not None:
            c = self.client
            self._conn = ConnectUnary(c.address, timeout=c.timeout, token=c._token, tls=c._tls, max_message_bytes=MAX_MESSAGE_BYTES, per_thread=False)
        return self._conn

    def _collect(self) -> StepMessage | None:
        """Reads the answers of the posted Sends and Recv; returns the Recv's batch (None when no Recv was posted).

        Raises the first error among them; the envs of a refused Send are not
        in flight (the server queued nothing), and a batch received after it
        is kept for the next recv.
        """
        if self._conn is None or not self._posted:
            return None
        posted, self._posted = self._posted, []
        msg: StepMessage | None = None
        failed: BotarenaError | None = None
        for (ids, receives), r in zip(posted, self._conn.collect()):
            if isinstance(r, BotarenaError):
                failed = failed or r
                if ids is not None and self._in_flight is not None:
                    self._in_flight[ids] = False
            elif receives:
                msg = parse_step_message(r)
        if failed is not None:
            self._held = msg
            raise failed
        return msg

    def step_batch(self, actions: npt.ArrayLike) -> tuple[Batch, StepMessage]:
        """Like :meth:`step` but returns the decoded :class:`~botarena.batch.Batch` and the raw message."""
        a = int32_values(actions, "action", self.spec.actions)
        msg = self._send(a.data.cast("B"), False)
        return self._decode(msg, self.rows), msg

    def _decode(self, msg: StepMessage, rows: int) -> Batch:
        """The batch of a response, which must hold rows rows (MalformedResponseError otherwise)."""
        if msg.batch is None:
            raise MalformedResponseError("response message: no batch")
        return self.decoder.decode(msg.batch, rows)

    # Opponents, stats, render ------------------------------------------------

    def _set_mixtures(self, mixtures: Mapping[int, Sequence[tuple[str, float, str]]]) -> None:
        self.client.set_opponents(self.pool_id, mixtures)

    def stats(self, *, reset: bool = False) -> PoolStats:
        """Episode statistics per learner seat and per opponent (see :meth:`Pool.stats`)."""
        return PoolStats.from_proto(self.client.stats(self.pool_id, reset=reset))

    def render(self, env: int = 0, *, format: str = "", seat: int = -1) -> str:
        """One env's state in a native text format (see :meth:`Pool.render`)."""
        r = self.client.render(self.pool_id, env, format=format, seat=seat)
        data: bytes = r.data
        return data.decode("utf-8", "replace")

    def render_rgb(self, env: int = 0, *, seat: int = -1) -> npt.NDArray[np.uint8]:
        """One env's picture (see :meth:`Pool.render_rgb`): a read-only view of the response."""
        r = self.client.render(self.pool_id, env, format="rgb_array", seat=seat)
        return self._picture(r)

    # Pickling ---------------------------------------------------------------

    def _copy_state(self) -> tuple[bool, str | None]:
        own = self._server is not None
        client = getattr(self, "client", None)
        return own, None if own or client is None else client._token

    def __getstate__(self) -> dict[str, Any]:
        """Pool's state (the settings and mixtures), the server's address and the client's token.

        The address is None for a pool that started its own server (the copy
        starts a new local one). The token for another server travels with
        the state, so that a copy in another process reaches a server this
        process started.
        """
        own_server, token = self._copy_state()
        return {**super().__getstate__(), "token": token, "address": None if own_server else self.client.address}

    def __setstate__(self, state: dict[str, Any]) -> None:
        state = dict(state)
        token = state.pop("token", None)
        if state.get("address"):
            remember_token(state["address"], token)
        state.pop("backend", None)
        super().__setstate__(state)

    def _close_pool(self) -> None:
        if self._stream is not None:
            self._stream.close()
            self._stream = None
        if self._conn is not None:
            try:
                self._collect()  # the posted Sends' answers, before the pool closes under them
            except BotarenaError:
                pass
            self._conn.close()
            self._conn = None
        if self._pool_id is not None:
            pool_id, self._pool_id = self._pool_id, None
            try:
                self.client.close_pool(pool_id, missing_ok=True)
            except Exception:
                if not self.closed:
                    raise

    def close(self) -> None:
        """Closes the pool, and the client and server the pool started. Safe to call twice."""
        if self.closed:
            return
        self.closed = True
        try:
            if hasattr(self, "client"):
                self._close_pool()
        finally:
            if self._own_client and hasattr(self, "client"):
                self.client.close()
            if self._server is not None:
                self._server.stop()
                self._server = None
