"""What the client retries: only calls that cannot be applied twice.

A server at its connection cap closes connections (an idle one for a new
one, or a new one at once), and a restart drops them. A call whose request
could not be sent is retried; once sent, only the idempotent calls (ListGames,
Render, Stats without reset, ClosePool with missing_ok, the League's reads)
are retried on UNAVAILABLE; Step and the other Connect calls never are.
"""

from __future__ import annotations

import socket
import threading
from typing import Any, Iterator

import grpc
import numpy as np
import pytest

import botarena
from botarena import _connect


class _Unavailable(grpc.RpcError, grpc.Call):  # type: ignore[misc]
    """A failed call as grpcio raises it, UNAVAILABLE."""

    def code(self) -> grpc.StatusCode:
        return grpc.StatusCode.UNAVAILABLE

    def details(self) -> str:
        return "connection closed"

    # grpc.Call's other methods, unused
    def initial_metadata(self) -> Any: ...
    def trailing_metadata(self) -> Any: ...
    def is_active(self) -> bool:
        return False

    def time_remaining(self) -> Any: ...
    def cancel(self) -> bool:
        return False

    def add_callback(self, callback: Any) -> bool:
        return False


class _FailFirst:
    """Wraps a stub method: the first ``fails`` calls raise UNAVAILABLE, the rest go through."""

    def __init__(self, fn: Any, fails: int = 1) -> None:
        self.fn, self.fails, self.calls = fn, fails, 0

    def __call__(self, request: Any, **kw: Any) -> Any:
        self.calls += 1
        if self.calls <= self.fails:
            raise _Unavailable()
        return self.fn(request, **kw)


@pytest.fixture
def pool_client(address: str) -> Iterator[tuple[botarena.Client, Any]]:
    client = botarena.Client(address)
    resp = client.create_pool("battlebots", 2, seed=1)
    client.reset(resp.pool_id)
    yield client, resp
    client.close_pool(resp.pool_id, missing_ok=True)
    client.close()


@pytest.fixture(autouse=True)
def no_pauses(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(_connect, "BACKOFF_S", (0.0, 0.0))
    monkeypatch.setattr(botarena.client, "BACKOFF_S", (0.0, 0.0))


def test_idempotent_grpc_calls_are_retried_when_unavailable(pool_client: tuple[botarena.Client, Any], monkeypatch: pytest.MonkeyPatch) -> None:
    client, resp = pool_client
    for name, call in [
        ("ListGames", lambda: client.list_games()),
        ("Stats", lambda: client.stats(resp.pool_id)),
        ("Render", lambda: client.render(resp.pool_id, 0)),
    ]:
        fake = _FailFirst(getattr(client.stub, name), fails=2)
        monkeypatch.setattr(client.stub, name, fake)
        assert call()
        assert fake.calls == 3, name
    fake = _FailFirst(client.stub.Stats, fails=botarena.client.ATTEMPTS)
    monkeypatch.setattr(client.stub, "Stats", fake)
    with pytest.raises(botarena.ServerUnavailableError):
        client.stats(resp.pool_id)
    assert fake.calls == botarena.client.ATTEMPTS


def test_calls_that_change_state_are_not_retried_once_sent(pool_client: tuple[botarena.Client, Any], monkeypatch: pytest.MonkeyPatch) -> None:
    client, resp = pool_client
    for name, call in [
        ("Stats", lambda: client.stats(resp.pool_id, reset=True)),
        ("CreatePool", lambda: client.create_pool("battlebots", 1)),
        ("SetOpponents", lambda: client.set_opponents(resp.pool_id, {1: [("random", 1.0, "")]})),
        ("ClosePool", lambda: client.close_pool(resp.pool_id)),
    ]:
        fake = _FailFirst(getattr(client.stub, name))
        monkeypatch.setattr(client.stub, name, fake)
        with pytest.raises(botarena.ServerUnavailableError):
            call()
        assert fake.calls == 1, name
    grpc_client = botarena.Client(client.address, protocol="grpc")
    fake = _FailFirst(grpc_client._step)
    monkeypatch.setattr(grpc_client, "_step", fake)
    client.reset(resp.pool_id)
    with pytest.raises(botarena.ServerUnavailableError):
        grpc_client.step(resp.pool_id, bytes(4 * resp.rows))
    assert fake.calls == 1
    grpc_client.close()


class _BrokenSocket:
    """A socket whose sendall fails: the request never went out."""

    def __init__(self, sock: socket.socket) -> None:
        self._sock = sock

    def sendall(self, data: bytes) -> None:
        raise BrokenPipeError(32, "Broken pipe")

    def __getattr__(self, name: str) -> Any:
        return getattr(self._sock, name)


def test_a_step_that_could_not_be_sent_is_retried(pool_client: tuple[botarena.Client, Any], monkeypatch: pytest.MonkeyPatch) -> None:
    client, resp = pool_client
    assert client._connect is not None
    connect = client._connect
    real = connect._connect
    opened: list[str] = []

    def flaky() -> Any:
        opened.append("x")
        if len(opened) == 1:  # refused (a server restarting)
            raise botarena.ServerUnavailableError(f"server {client.address}: cannot connect: refused", grpc.StatusCode.UNAVAILABLE)
        conn = real()
        if len(opened) == 2:  # closed while sending (a server at its cap)
            conn.sock = _BrokenSocket(conn.sock)  # type: ignore[assignment]
        return conn

    connect.close()  # the next call opens a connection
    monkeypatch.setattr(connect, "_connect", flaky)
    before = client.stats(resp.pool_id).steps
    client.step(resp.pool_id, np.zeros(resp.rows, dtype="<i4").tobytes())
    assert len(opened) == 3
    assert client.stats(resp.pool_id).steps == before + 1  # applied once


def test_a_step_sent_and_then_dropped_is_not_retried() -> None:
    """A server that reads the request and closes the connection without an answer: the Step may have been applied."""
    listener = socket.create_server(("127.0.0.1", 0))
    requests: list[bytes] = []

    def serve() -> None:
        while True:
            try:
                conn, _ = listener.accept()
            except OSError:
                return
            data = b""
            while b"\r\n\r\n" not in data:
                chunk = conn.recv(65536)
                if not chunk:
                    break
                data += chunk
            requests.append(data)
            conn.close()

    t = threading.Thread(target=serve, daemon=True)
    t.start()
    address = f"127.0.0.1:{listener.getsockname()[1]}"
    client = botarena.Client(address, token="t", timeout=10)
    with pytest.raises(botarena.ServerUnavailableError, match=address):
        client.step("p", b"\0\0\0\0")
    assert len(requests) == 1
    with pytest.raises(botarena.ServerUnavailableError):
        client.reset("p")
    assert len(requests) == 2
    client.close()
    listener.close()
