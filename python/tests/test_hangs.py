"""No hangs: deadlines, keepalive, typed errors naming the server, and a local server that dies with its launcher."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
from typing import Iterator

import pytest

import botarena
from botarena.errors import DeadlineExceededError, ServerUnavailableError, UnavailableError

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="uses POSIX signals")


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    # A zombie (exited, not yet reaped by its parent) counts as gone.
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().split(")")[-1].split()[0] != "Z"
    except OSError:
        return True


def _stop(pid: int) -> None:
    """SIGSTOPs pid and waits until every thread of it has stopped (signal delivery is asynchronous)."""
    os.kill(pid, signal.SIGSTOP)
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        try:
            states = set()
            for tid in os.listdir(f"/proc/{pid}/task"):
                with open(f"/proc/{pid}/task/{tid}/stat") as f:
                    states.add(f.read().rsplit(")", 1)[1].split()[0])
        except OSError:
            return  # no /proc: trust the signal
        if states <= {"T", "t"}:
            return
        time.sleep(0.01)
    raise AssertionError(f"process {pid} did not stop within 10 s")


@pytest.fixture
def stoppable() -> Iterator[botarena.Server]:
    server = botarena.Server().start()
    yield server
    if server.pid is not None:
        os.kill(server.pid, signal.SIGCONT)
    server.stop()


@pytest.mark.parametrize("transport", ["unary", "stream"])
def test_a_stopped_server_fails_steps_at_the_deadline(stoppable: botarena.Server, transport: str) -> None:
    client = botarena.Client(stoppable.address, timeout=1.5)
    pool = botarena.Pool("battlebots", 2, client=client, transport=transport, seed=1)
    pool.reset()
    assert stoppable.pid is not None
    _stop(stoppable.pid)
    start = time.monotonic()
    with pytest.raises(DeadlineExceededError) as info:
        pool.step([0] * pool.rows)
    assert time.monotonic() - start < 10
    assert stoppable.address in str(info.value)
    assert isinstance(info.value, TimeoutError)
    if transport == "stream":
        assert "StepStream" in str(info.value)
    os.kill(stoppable.pid, signal.SIGCONT)
    if transport == "stream":
        pool.reset()  # a new stream works once the server answers again
    pool.step([0] * pool.rows)  # the server answers again
    pool.close()
    client.close()


def test_an_unreachable_server_is_a_typed_error_naming_it() -> None:
    client = botarena.Client("127.0.0.1:9", timeout=5)  # the discard port: nothing listens
    with pytest.raises(ServerUnavailableError) as info:
        client.list_games()
    assert "127.0.0.1:9" in str(info.value)
    assert UnavailableError is ServerUnavailableError and isinstance(info.value, ConnectionError)
    client.close()


def test_the_local_server_dies_with_a_killed_launcher() -> None:
    launcher = subprocess.Popen(
        [sys.executable, "-c", textwrap.dedent(
            """
            import sys, time, botarena
            s = botarena.Server().start()
            print(s.pid, flush=True)
            time.sleep(600)
            """
        )],
        stdout=subprocess.PIPE,
        text=True,
    )
    assert launcher.stdout is not None
    line = launcher.stdout.readline()
    server_pid = int(line)
    assert _alive(server_pid)
    launcher.kill()  # SIGKILL: no cleanup runs in the launcher
    launcher.wait()
    deadline = time.monotonic() + 15
    while _alive(server_pid) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not _alive(server_pid), "botarena serve outlived the process that started it"
