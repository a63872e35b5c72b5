"""Reset and Step over the Connect protocol on HTTP/1.1 (``Client(protocol="connect")``, the default)."""

from __future__ import annotations

import contextlib
import time
from typing import Any, Iterator

import numpy as np
import pytest

import botarena
from botarena.errors import InvalidArgumentError, NotFoundError, ServerUnavailableError, from_status


@contextlib.contextmanager
def _created(client: botarena.Client, game: str, num_envs: int, **settings: Any) -> Iterator[Any]:
    """A pool created on client (its CreatePoolResponse) for the with block, closed after it."""
    resp = client.create_pool(game, num_envs, **settings)
    try:
        yield resp
    finally:
        client.close_pool(resp.pool_id)


def _steps(client: botarena.Client, n: int, transport: str = "unary") -> list[dict[str, bytes]]:
    """The obs bytes of a reset and n steps of a fixed-seed pool stepped over transport."""
    with botarena.Pool("bomberman", 8, client=client, seed=5, transport=transport) as pool:
        out = []
        obs, _ = pool.reset()
        out.append({k: v.tobytes() for k, v in obs.items()})
        rng = np.random.default_rng(1)
        for _ in range(n):
            obs, *_ = pool.step(rng.integers(0, pool.spec.actions, pool.rows, dtype=np.int32))
            out.append({k: v.tobytes() for k, v in obs.items()})
        return out


def test_connect_and_grpc_give_the_same_bytes(address: str) -> None:
    with botarena.Client(address) as c, botarena.Client(address, protocol="grpc") as g:
        assert c.protocol == "connect" and g.protocol == "grpc"
        assert _steps(c, 6) == _steps(g, 6)


def test_unknown_protocol() -> None:
    with pytest.raises(ValueError, match="protocol"):
        botarena.Client("127.0.0.1:1", protocol="http3")


def test_receive_buffers_are_reused_and_views_stay_valid(client: botarena.Client) -> None:
    with _created(client, "bomberman", 16, seed=3) as resp:
        client.reset(resp.pool_id)
        actions = np.zeros(resp.rows, dtype=np.int32).tobytes()
        kept = client.step(resp.pool_id, actions)
        kept_bytes = bytes(kept.raw)
        bases = set()
        for _ in range(12):
            msg = client.step(resp.pool_id, actions)
            bases.add(id(msg.raw.base))
            del msg  # keep only the latest, as a training loop does
        # The kept message's buffer is never reused; the others cycle.
        assert bytes(kept.raw) == kept_bytes
        assert id(kept.raw.base) not in bases
        assert len(bases) <= 2


def test_batches_are_aligned(client: botarena.Client) -> None:
    with _created(client, "battlebots", 4, seed=3) as resp:
        msg = client.reset(resp.pool_id)
        assert msg.batch.address % 8 == 0
        decoder = botarena.batch.BatchDecoder(resp.arrow_schema)
        b = decoder.decode(msg.batch)
        # float32 and int32 columns are views, not copies.
        for a in (b.reward, b.env, b.obs["scalars"] if "scalars" in b.obs else b.reward):
            assert a.base is not None and not a.flags.owndata


def test_errors_have_their_codes(client: botarena.Client) -> None:
    with _created(client, "battlebots", 2, seed=1) as resp:
        client.reset(resp.pool_id)
        with pytest.raises(InvalidArgumentError, match="actions: got 4 bytes"):
            client.step(resp.pool_id, b"\0\0\0\0")
        # The connection is usable after an error.
        client.step(resp.pool_id, bytes(4 * resp.rows))
    with pytest.raises(NotFoundError, match="Step: pool"):
        client.step(resp.pool_id, bytes(4 * resp.rows))


def test_from_status() -> None:
    e = from_status("not_found", "pool gone", "Step", "h:1")
    assert isinstance(e, NotFoundError) and str(e) == "[NOT_FOUND] Step: pool gone"
    assert from_status("canceled", "x").code is not None and from_status("canceled", "x").code.name == "CANCELLED"
    assert isinstance(from_status("", "bad gateway", http_status=503), ServerUnavailableError)
    assert from_status("nonsense", "?").code.name == "UNKNOWN"  # type: ignore[union-attr]


@pytest.fixture
def short_idle() -> Iterator[botarena.Server]:
    with botarena.Server(args=["--conn-idle-timeout", "200ms"]) as server:
        yield server


def test_a_connection_the_server_closed_is_replaced(short_idle: botarena.Server) -> None:
    with botarena.Client(short_idle.address) as c:
        resp = c.create_pool("battlebots", 2, seed=1)
        c.reset(resp.pool_id)
        time.sleep(0.6)  # the server closes the idle connection
        c.step(resp.pool_id, bytes(4 * resp.rows))
        c.close_pool(resp.pool_id)


def test_a_stopped_server_is_unavailable() -> None:
    server = botarena.Server().start()
    address = server.address
    c = botarena.Client(address, timeout=5)
    resp = c.create_pool("battlebots", 2, seed=1)
    c.reset(resp.pool_id)
    server.stop()
    with pytest.raises(ServerUnavailableError, match=address):
        c.step(resp.pool_id, bytes(4 * resp.rows))
    c.close()


# Pipelining (ConnectUnary.post and collect; the remote async pool's Send and Recv) ---


def test_posted_requests_are_answered_in_order_and_an_error_keeps_the_connection_in_step(client: botarena.Client) -> None:
    from botarena._connect import ConnectUnary
    from botarena.batch import encode_send_request, encode_step_request, parse_step_message

    settings: dict[str, Any] = {"seed": 2, "batch_size": 2, "learner_seats": [0], "opponents": {1: "huggy"}}
    unary = ConnectUnary(client.address, timeout=30, token=client._token, per_thread=False)
    with _created(client, "battlebots", 4, **settings) as resp, contextlib.closing(unary) as conn:
        pid = resp.pool_id.encode()
        assert conn.collect() == []
        conn.call("AsyncReset", encode_step_request(pid, b""))
        first = parse_step_message(conn.call("Recv", encode_step_request(pid, b"")))
        envs = botarena.batch.BatchDecoder(resp.arrow_schema).decode(first.batch).env.astype("<i4")
        other = next(e for e in range(4) if e not in envs)
        conn.post("Send", encode_send_request(pid, np.array([other], "<i4").tobytes(), b"\0\0\0\0"))  # in flight: refused
        conn.post("Send", encode_send_request(pid, envs.tobytes(), bytes(8)))
        conn.post("Recv", encode_step_request(pid, b""))
        refused, sent, batch = conn.collect()
        assert isinstance(refused, InvalidArgumentError) and "in flight" in str(refused)
        assert not isinstance(sent, Exception) and sent.nbytes == 0  # SendResponse is empty
        assert not isinstance(batch, Exception)
        got = botarena.batch.BatchDecoder(resp.arrow_schema).decode(parse_step_message(batch).batch).env
        busy = next(e for e in range(4) if e not in got)
        # A call with posted answers unread reads them first and raises the first error instead.
        conn.post("Send", encode_send_request(pid, np.array([busy], "<i4").tobytes(), b"\0\0\0\0"))
        with pytest.raises(InvalidArgumentError, match="in flight"):
            conn.call("Recv", encode_step_request(pid, b""))
        assert conn.collect() == []
        parse_step_message(conn.call("Recv", encode_step_request(pid, b"")))  # the connection is in step


def test_remote_async_send_refused_by_the_server_is_raised_by_recv_which_keeps_its_batch(client: botarena.Client) -> None:
    with botarena.Pool("battlebots", 4, client=client, seed=2, batch_size=2, learner_seats=[0], opponents="huggy") as pool:
        _, info = pool.reset()
        ids = info["env_id"].copy()
        pool.send(np.zeros(2, dtype=np.int32))  # back to the server
        pool.recv()
        pool.send(np.zeros(2, dtype=np.int32))
        # An env this pool's record says is idle but the server has in flight:
        # an error only the server finds, answered after send returned.
        pool._in_flight[ids[0]] = False
        pool.send(np.zeros(1, dtype=np.int32), [int(ids[0])])
        with pytest.raises(InvalidArgumentError, match="in flight"):
            pool.recv()
        _, _, _, _, held = pool.recv()  # the batch received with the refusal
        assert len(set(held["env_id"])) == 2
        # The pool's record agrees with the server's again: every env goes round.
        seen = set(held["env_id"])
        for _ in range(3):
            pool.send(np.zeros(2, dtype=np.int32))
            _, _, _, _, info = pool.recv()
            seen |= set(info["env_id"])
        assert seen == {0, 1, 2, 3}


# StepStream over Connect (HTTP/1.1, else HTTP/2: botarena._connect_stream) ----------


def test_stream_over_connect_gives_the_unary_and_grpc_bytes(address: str) -> None:
    with botarena.Client(address) as c, botarena.Client(address, protocol="grpc") as g:
        unary = _steps(c, 6)
        assert _steps(c, 6, "stream") == unary
        assert _steps(g, 6, "stream") == unary


def test_stream_buffers_are_reused_and_views_stay_valid(client: botarena.Client) -> None:
    with _created(client, "bomberman", 16, seed=3) as resp, contextlib.closing(client.step_stream(resp.pool_id)) as stream:
        stream.send(b"", reset=True)
        actions = np.zeros(resp.rows, dtype=np.int32).tobytes()
        kept = stream.send(actions)
        kept_bytes = bytes(kept.raw)
        bases = set()
        for _ in range(12):
            msg = stream.send(actions)
            bases.add(id(msg.raw.base))
            del msg
        assert bytes(kept.raw) == kept_bytes
        assert id(kept.raw.base) not in bases
        assert len(bases) <= 2


def test_stream_errors_have_their_codes_and_the_next_send_reopens(client: botarena.Client) -> None:
    stream = client.step_stream("no-such-pool")
    with pytest.raises(NotFoundError):
        stream.send(b"", reset=True)
    with pytest.raises(NotFoundError):  # a new stream, the same answer
        stream.send(b"", reset=True)
    stream.close()
    with _created(client, "bomberman", 4, seed=3) as resp, contextlib.closing(client.step_stream(resp.pool_id)) as stream:
        stream.send(b"", reset=True)
        with pytest.raises(InvalidArgumentError):
            stream.send(b"\x00\x00")  # not a whole int32 per row
        stream.send(b"", reset=True)  # reopened: the pool id goes again


def _stream_steps(
    address: str, n: int, *, http2: bool, via: str | None = None, tls: bool = False, token: str | None = None
) -> tuple[int, list[bytes]]:
    """The HTTP version and the raw responses of a reset and n steps of a fixed-seed pool over one ConnectStream (to via, else address)."""
    from botarena._connect_stream import ConnectStream
    from botarena.batch import encode_step_request

    with botarena.Client(address, token=token, tls=tls) as c, _created(c, "bomberman", 8, seed=11) as resp:
        stream = ConnectStream(via or address, "/botarena.v1.EnvService/StepStream", timeout=30, token=c._token, tls=tls, http2=http2)
        with contextlib.closing(stream):
            stream.send(encode_step_request(resp.pool_id.encode(), b"", True))
            out = [bytes(stream.receive())]
            rng = np.random.default_rng(4)
            for _ in range(n):
                stream.send(encode_step_request(b"", rng.integers(0, 6, resp.rows, dtype="<i4").tobytes()))
                out.append(bytes(stream.receive()))
            return stream.http_version, out


def test_stream_over_http1_and_http2_gives_the_same_bytes(address: str) -> None:
    version1, over1 = _stream_steps(address, 8, http2=False)
    version2, over2 = _stream_steps(address, 8, http2=True)
    assert (version1, version2) == (1, 2)
    assert over1 == over2


class _Refuse505:
    """A proxy to address that answers HTTP/1.1 requests 505 and forwards HTTP/2 (h2c) connections, as a server that streams over HTTP/2 only."""

    def __init__(self, address: str) -> None:
        import socket
        import threading

        self._target = address
        self._listener = socket.create_server(("127.0.0.1", 0))
        self.address = f"127.0.0.1:{self._listener.getsockname()[1]}"
        self.refused = 0
        threading.Thread(target=self._serve, daemon=True).start()

    def _serve(self) -> None:
        import socket
        import threading

        from botarena._connect import split_address

        while True:
            try:
                conn, _ = self._listener.accept()
            except OSError:
                return
            first = conn.recv(4, socket.MSG_PEEK | socket.MSG_WAITALL)
            if first == b"POST":
                self.refused += 1
                conn.sendall(b"HTTP/1.1 505 HTTP Version Not Supported\r\nConnection: close\r\nContent-Length: 0\r\n\r\n")
                conn.close()
                continue
            upstream = socket.create_connection(split_address(self._target))

            def pipe(a: socket.socket, b: socket.socket) -> None:
                with contextlib.suppress(OSError):
                    while data := a.recv(1 << 16):
                        b.sendall(data)
                with contextlib.suppress(OSError):
                    b.shutdown(socket.SHUT_WR)

            threading.Thread(target=pipe, args=(conn, upstream), daemon=True).start()
            threading.Thread(target=pipe, args=(upstream, conn), daemon=True).start()

    def close(self) -> None:
        self._listener.close()


def test_stream_falls_back_to_http2_when_http1_is_refused(address: str) -> None:
    proxy = _Refuse505(address)
    try:
        version, got = _stream_steps(address, 3, http2=False, via=proxy.address)
    finally:
        proxy.close()
    assert version == 2 and proxy.refused == 1
    assert got == _stream_steps(address, 3, http2=True)[1]


def test_hpack_decodes_huffman_and_the_dynamic_table() -> None:
    from botarena._connect_stream import HpackDecoder, huffman_decode

    # RFC 7541 C.4.1 and C.4.2: requests with Huffman strings, the second indexing the first's entry.
    assert huffman_decode(bytes.fromhex("f1e3c2e5f23a6ba0ab90f4ff")) == b"www.example.com"
    d = HpackDecoder()
    first = d.decode(bytes.fromhex("828684418cf1e3c2e5f23a6ba0ab90f4ff"))
    assert first == [(b":method", b"GET"), (b":scheme", b"http"), (b":path", b"/"), (b":authority", b"www.example.com")]
    second = d.decode(bytes.fromhex("828684be5886a8eb10649cbf"))
    assert second[3:] == [(b":authority", b"www.example.com"), (b"cache-control", b"no-cache")]


@pytest.mark.parametrize("stall", ["before_the_response", "mid_message"])
def test_stream_fails_at_its_deadline_when_the_server_stalls(stall: str) -> None:
    # A server that answers the stream's first message with the response's
    # head and part of a message (or nothing), then never sends more: the
    # receive (a blocking read waiting for all of the message, where the
    # platform allows) ends at the deadline with DeadlineExceededError.
    import socket
    import threading

    from botarena._connect_stream import ConnectStream
    from botarena.errors import DeadlineExceededError

    listener = socket.create_server(("127.0.0.1", 0))
    address = f"127.0.0.1:{listener.getsockname()[1]}"
    done = threading.Event()

    def serve() -> None:
        conn, _ = listener.accept()
        with conn:
            head = b""
            while b"\r\n\r\n" not in head:
                head += conn.recv(4096)
            if stall == "mid_message":
                message = (1000).to_bytes(5, "big") + bytes(300)  # 300 of the message's 1000 bytes
                conn.sendall(
                    b"HTTP/1.1 200 OK\r\nContent-Type: application/connect+proto\r\nTransfer-Encoding: chunked\r\n\r\n"
                    + b"%x\r\n" % (1005) + message
                )
            done.wait(30)

    threading.Thread(target=serve, daemon=True).start()
    stream = ConnectStream(address, "/botarena.v1.EnvService/StepStream", timeout=0.3)
    try:
        start = time.monotonic()
        stream.send(b"x")
        with pytest.raises(DeadlineExceededError, match="no response within 0.3s"):
            stream.receive()
        assert time.monotonic() - start < 10
        assert stream.http_version == 1
    finally:
        done.set()
        stream.close()
        listener.close()
