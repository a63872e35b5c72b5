"""A Ray cluster on this machine, for tests and benchmarks: :class:`LocalCluster`.

Each node is a ``ray start`` run in a session of its own, so that its
processes (GCS, raylet, workers, and the ``botarena serve`` processes its
actors start) share one session id: :meth:`LocalCluster.kill_node`
kills a node the way a machine failure would (SIGKILL to every process of
the session, all at once),
and :meth:`LocalCluster.stop` ends every node this object started and
nothing else. ``ray stop`` is never called: it would end every Ray process
of the machine, other users' included.

Every node listens on a loopback address of its own (:func:`node_host`), with its own CPU count and a small
object store; the dashboard and usage statistics are off.
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from typing import Any, Mapping

from botarena._closing import Running

__all__ = ["LocalCluster", "ray_executable"]



def node_host(i: int) -> str:
    """The address of node i (0 is the head): 127.0.0.2, 127.0.0.3, ...

    Each node has a loopback address of its own, as machines of a cluster
    have their own addresses, and none is 127.0.0.1: Ray replaces that one
    (and localhost) by the machine's network address, and every connection
    of a LocalCluster stays on the loopback interface.
    """
    return f"127.0.0.{2 + i}"


def ray_executable() -> str:
    """The ``ray`` command next to this Python (a virtual environment's), else on PATH."""
    here = os.path.join(os.path.dirname(sys.executable), "ray")
    if os.access(here, os.X_OK):
        return here
    found = shutil.which("ray")
    if found is None:
        raise FileNotFoundError("no `ray` command: pip install 'botarena[ray]'")
    return found


def _free_port() -> int:
    with socket.socket() as s:
        s.bind((node_host(0), 0))
        port: int = s.getsockname()[1]
        return port


class LocalCluster(Running):
    """A head node and ``nodes - 1`` worker nodes on this machine, started by ``ray start``.

    Args:
        nodes: how many nodes (at least 1: the head).
        num_cpus: the CPUs each node offers to Ray.
        object_store_memory: each node's object store, in bytes.
        env: variables added to the nodes' environment (their actors'
            workers inherit it: BOTARENA_BIN, PYTHONPATH, ...).
        timeout: seconds one ``ray start`` may take.

    Use it as a context manager; ``address`` is the head's ``host:port``
    for ``ray.init(address=...)`` (see
    :meth:`init`).
    """

    def __init__(
        self,
        nodes: int = 2,
        *,
        num_cpus: int = 1,
        object_store_memory: int = 200_000_000,
        env: Mapping[str, str] | None = None,
        timeout: float = 120.0,
    ) -> None:
        if nodes < 1:
            raise ValueError(f"nodes must be at least 1, got {nodes}")
        self.nodes = nodes
        self.num_cpus = num_cpus
        self.object_store_memory = object_store_memory
        # Token authentication off, explicitly: a Ray token file of the machine's
        # user (~/.ray/auth_token) otherwise makes the head ask for a token
        # that the other nodes do not send. The nodes listen on loopback only.
        self.env = {**os.environ, "RAY_USAGE_STATS_ENABLED": "0", "RAY_AUTH_MODE": "disabled", **(env or {})}
        self.timeout = timeout
        self.port = 0
        # Short: Ray puts Unix sockets under it (108-byte path limit).
        self.temp_dir = tempfile.mkdtemp(prefix="bray", dir="/tmp")
        self._groups: list[int] = []  # one session (and process group) id per node, head first
        self._killed: set[int] = set()

    @property
    def address(self) -> str:
        """The head's GCS address, ``127.0.0.2:PORT`` (see :func:`node_host`)."""
        if not self.port:
            raise RuntimeError("the cluster is not started")
        return f"{node_host(0)}:{self.port}"

    def _ray_start(self, args: list[str]) -> None:
        cmd = [
            ray_executable(),
            "start",
            *args,
            "--node-ip-address",
            node_host(len(self._groups)),
            "--num-cpus",
            str(self.num_cpus),
            "--object-store-memory",
            str(self.object_store_memory),
            "--dashboard-agent-listen-port",  # default 52365, one per machine
            str(_free_port()),
            "--disable-usage-stats",
        ]
        proc = subprocess.Popen(
            cmd,
            env=self.env,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            start_new_session=True,  # its own process group: kill_node and stop end exactly this node
        )
        self._groups.append(proc.pid)
        try:
            out, _ = proc.communicate(timeout=self.timeout)
        except subprocess.TimeoutExpired:
            self._kill(len(self._groups) - 1)
            raise RuntimeError(f"`{' '.join(cmd)}` did not finish within {self.timeout:g}s")
        if proc.returncode != 0:
            raise RuntimeError(f"`{' '.join(cmd)}` failed with status {proc.returncode}:\n{out[-4000:]}")

    def start(self) -> LocalCluster:
        """Starts the head, then the other nodes; returns self. On failure, stops what started."""
        try:
            self.port = _free_port()
            self._ray_start(
                [
                    "--head",
                    "--port",
                    str(self.port),
                    "--ray-client-server-port",  # default 10001: taken by any other head of the machine
                    str(_free_port()),
                    "--include-dashboard=false",
                    "--temp-dir",
                    self.temp_dir,
                ]
            )
            for _ in range(self.nodes - 1):
                self.add_node()
        except BaseException:
            self.stop()
            raise
        return self

    def add_node(self) -> int:
        """Starts one more worker node; returns its index (the head is 0)."""
        self._ray_start(["--address", self.address])
        return len(self._groups) - 1

    def init(self, **kwargs: Any) -> None:
        """``ray.init`` this process as a driver of the cluster (on the head), unless it already is one."""
        import ray

        if not ray.is_initialized():
            ray.init(address=self.address, _node_ip_address=node_host(0), include_dashboard=False, **kwargs)

    def wait_nodes(self, n: int, timeout: float = 60.0) -> None:
        """Waits until the cluster has ``n`` nodes alive (as the driver's ray.nodes() sees them)."""
        import ray

        deadline = time.monotonic() + timeout
        while True:
            alive = sum(1 for nd in ray.nodes() if nd.get("Alive"))
            if alive == n:
                return
            if time.monotonic() > deadline:
                raise TimeoutError(f"{alive} Ray nodes alive after {timeout:g}s, want {n}")
            time.sleep(0.2)

    def _kill(self, i: int, sig: int = signal.SIGKILL) -> None:
        """Sends sig to every process of node i's session (Ray's workers set process groups of their own)."""
        if i >= len(self._groups):
            return
        sid = self._groups[i]
        for pid in _session_pids(sid) or [-sid]:
            try:
                os.kill(pid, sig)
            except (ProcessLookupError, PermissionError):
                pass

    def kill_node(self, i: int) -> None:
        """Kills node i (0 is the head) and everything it started, at once (SIGKILL)."""
        if not 0 <= i < len(self._groups):
            raise IndexError(f"no node {i}: the cluster has {len(self._groups)}")
        self._kill(i)
        self._killed.add(i)

    def stop(self) -> None:
        """Ends every node this cluster started (SIGTERM, then SIGKILL after a few seconds). Safe to call twice."""
        try:
            import ray

            if ray.is_initialized():
                ray.shutdown()
        except ImportError:
            pass
        live = [i for i in range(len(self._groups)) if i not in self._killed]
        for i in reversed(live):  # workers first, the head last
            self._kill(i, signal.SIGTERM)
        deadline = time.monotonic() + 5.0
        while live and time.monotonic() < deadline:
            live = [i for i in live if _group_alive(self._groups[i])]
            time.sleep(0.1)
        for i in live:
            self._kill(i)
        deadline = time.monotonic() + 5.0
        while any(_group_alive(self._groups[i]) for i in live) and time.monotonic() < deadline:
            time.sleep(0.05)
        self._groups.clear()
        self._killed.clear()
        shutil.rmtree(self.temp_dir, ignore_errors=True)

    def __repr__(self) -> str:
        return f"LocalCluster(nodes={self.nodes}, address={self.address if self.port else None!r})"


def _session_pids(sid: int) -> list[int]:
    """The processes of session sid, from /proc (empty where there is no /proc)."""
    pids = []
    try:
        entries = os.listdir("/proc")
    except OSError:
        return []
    for name in entries:
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat", "rb") as f:
                stat = f.read()
        except OSError:
            continue
        # pid (comm) state ppid pgrp session ...: comm may hold spaces and parentheses.
        fields = stat[stat.rindex(b")") + 2 :].split()
        if len(fields) > 3 and int(fields[3]) == sid and fields[0] != b"Z":
            pids.append(int(name))
    return pids


def _group_alive(sid: int) -> bool:
    """Whether a process of session sid is still running."""
    if os.path.isdir("/proc"):
        return bool(_session_pids(sid))
    try:
        os.killpg(sid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True
