"""Starting a local ``botarena serve`` for tests, notebooks and benchmarks."""

from __future__ import annotations

import collections
import os
import pathlib
import secrets
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from types import TracebackType
from typing import Iterable, Mapping

from botarena.errors import ServerError

__all__ = ["Server", "absolute_spec", "bots_dirs", "find_binary", "go_build", "remember_token", "repo_root", "token_for"]

#: The environment variable ``botarena serve`` reads its token from.
TOKEN_ENV = "BOTARENA_AUTH_TOKEN"

_LISTENING = "listening on "
_build_lock = threading.Lock()
# address → token of the servers this process started (and of those whose
# token came with an unpickled env or pool); see token_for.
_tokens: dict[str, str] = {}
_tokens_lock = threading.Lock()
_built: dict[str, str] = {}
# A go build of an unchanged checkout takes well under a second (the Go cache
# holds the linked binary); past this many seconds it is compiling, so the
# user hears about it.
_ANNOUNCE_AFTER_S = 2.0
_BUILDING = "building the server binary from {root} with go build ({why}; this can take a few minutes) ..."


def repo_root() -> pathlib.Path | None:
    """The botarena source checkout this package lives in, if any.

    With ``pip install -e python`` the package source is python/src/botarena
    of the repository; the root is the directory above that holds go.mod and
    cmd/botarena.
    """
    here = pathlib.Path(__file__).resolve()
    for parent in here.parents:
        if (parent / "go.mod").is_file() and (parent / "cmd" / "botarena").is_dir():
            return parent
    return None


def _cache_dir() -> pathlib.Path:
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return pathlib.Path(base) / "botarena"


def _say(message: str) -> None:
    """One ``botarena: ...`` line on stderr, unless $BOTARENA_QUIET is set (not 0)."""
    if os.environ.get("BOTARENA_QUIET", "") in ("", "0"):
        print(f"botarena: {message}", file=sys.stderr, flush=True)


def _display(path: pathlib.Path) -> str:
    home = pathlib.Path(os.path.expanduser("~"))
    try:
        return "~/" + str(path.relative_to(home))
    except ValueError:
        return str(path)


def _bundled_binary() -> str | None:
    """The binary a bundling wheel build put next to the package (setup.py), if any."""
    path = pathlib.Path(__file__).resolve().parent / "bin" / "botarena"
    if not path.is_file():
        return None
    if not os.access(path, os.X_OK):
        # An installer that dropped the mode bits: restore them if we may.
        try:
            path.chmod(path.stat().st_mode | 0o111)
        except OSError:
            return None
    return str(path)


def _build(root: pathlib.Path) -> str:
    """Builds the binary from the checkout at root into ~/.cache/botarena/bin.

    Runs ``go build`` once per process (incremental: well under a second when
    nothing changed). Says so on stderr when it is a real build: a
    "building ..." line when the binary does not exist yet, or once the build
    has taken longer than _ANNOUNCE_AFTER_S, then a "built ... in N s" line.
    $BOTARENA_QUIET=1 silences both.
    """
    go = shutil.which("go")
    if go is None:
        raise ServerError(
            "cannot start botarena serve: no `botarena` binary on PATH and no Go toolchain to build one "
            f"from {root} (install Go 1.26+, put botarena on PATH, or set BOTARENA_BIN)"
        )
    return go_build(root, "./cmd/botarena", _cache_dir() / "bin" / "botarena", what="the server binary")


def go_build(root: pathlib.Path, package: str, target: pathlib.Path, *, args: tuple[str, ...] = (), what: str) -> str:
    """Builds package of the checkout at root into target with ``go build`` (once per process per target).

    The build goes to a temporary name that is then renamed, so that
    concurrent builders never use a half-written file. See :func:`_build`
    for what it says on stderr; a failed build raises :class:`ServerError`
    with the compiler's output.
    """
    go = shutil.which("go") or "go"
    key = f"{root}|{target}"
    with _build_lock:
        if key in _built:
            return _built[key]
        target.parent.mkdir(parents=True, exist_ok=True)
        building = _BUILDING.replace("the server binary", what)
        announced = not target.exists()
        if announced:
            _say(building.format(root=root, why="first use"))
        start = time.monotonic()
        fd, tmp = tempfile.mkstemp(prefix=target.name + ".", dir=target.parent)
        os.close(fd)
        try:
            proc = subprocess.Popen(
                [go, "build", *args, "-o", tmp, package],
                cwd=root,
                stdin=subprocess.DEVNULL,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
            )
            try:
                try:
                    _, stderr = proc.communicate(timeout=None if announced else _ANNOUNCE_AFTER_S)
                except subprocess.TimeoutExpired:
                    announced = True
                    _say(building.format(root=root, why="the checkout changed since the last build"))
                    _, stderr = proc.communicate()
            except BaseException:
                proc.kill()
                proc.wait()
                raise
            if proc.returncode != 0:
                raise ServerError(f"go build {package} failed in {root}:\n{stderr.strip()}")
            os.chmod(tmp, 0o755)
            os.replace(tmp, target)
        finally:
            if os.path.exists(tmp):
                os.unlink(tmp)
        if announced:
            _say(f"built {_display(target)} in {time.monotonic() - start:.1f} s")
        _built[key] = str(target)
        return str(target)


def find_binary() -> str:
    """The botarena binary to run, building it if needed.

    In order: $BOTARENA_BIN; in a source checkout (an editable install) with
    Go on PATH, a binary built from that checkout with ``go build`` into
    ``~/.cache/botarena/bin`` (incremental, once per process) so that it
    matches the source, saying so on stderr when it really builds (see
    ``_build``; $BOTARENA_QUIET=1 silences it); the binary bundled in a
    platform wheel (``botarena/bin/botarena``, ``make wheel``); ``botarena``
    on PATH. Raises :class:`ServerError` naming what is missing.
    """
    env = os.environ.get("BOTARENA_BIN")
    if env:
        if not os.access(env, os.X_OK):
            raise ServerError(f"BOTARENA_BIN={env} is not an executable file")
        return env
    root = repo_root()
    if root is not None and shutil.which("go") is not None:
        return _build(root)
    bundled = _bundled_binary()
    if bundled is not None:
        return bundled
    on_path = shutil.which("botarena")
    if on_path:
        return on_path
    if root is not None:
        return _build(root)  # raises the "no Go" error
    raise ServerError(
        "cannot find the botarena binary: put it on PATH (go install ./cmd/botarena), set BOTARENA_BIN, "
        "or install the platform wheel that bundles it (make wheel)"
    )


def token_for(address: str) -> str | None:
    """The token of the server at ``address`` if this process started it with :class:`Server`, else None.

    :class:`~botarena.Client` sends it when given no ``token=``, so that
    ``Client(server.address)`` and every ``address=server.address`` reach
    the server. Only the address the server printed (``Server.address``)
    is known, not other names of the same host.
    """
    with _tokens_lock:
        return _tokens.get(address)


def remember_token(address: str, token: str | None) -> None:
    """Makes :func:`token_for` return ``token`` for ``address`` (an unpickled copy's server)."""
    if token:
        with _tokens_lock:
            _tokens[address] = token


def _forget_token(address: str, token: str) -> None:
    with _tokens_lock:
        if _tokens.get(address) == token:
            del _tokens[address]


def _spec_path(spec: str) -> tuple[str, str] | None:
    """(scheme, absolute path) of a ``policy:`` or ``dir:`` agent spec, without its query; None for others."""
    for prefix in ("policy:", "dir:"):
        if spec.startswith(prefix):
            path = spec[len(prefix) :].partition("?")[0]
            return prefix, os.path.abspath(path) if path else ""
    return None


def bots_dirs(specs: Iterable[str]) -> list[str]:
    """The narrowest ``--bots-dir`` folders that let a server play ``specs``.

    For each ``policy:PATH`` spec the folder that holds the file, for each
    ``dir:PATH`` the bot folder itself (relative paths taken from the
    working directory, as :func:`absolute_spec` makes them); other specs
    (built-in agents) need none. Each folder once, in the order of the
    specs. A server started with these plays the named files and folders
    (and their neighbours in the same folder), nothing elsewhere.
    """
    out: list[str] = []
    for spec in specs:
        sp = _spec_path(spec)
        if sp is None or not sp[1]:
            continue
        scheme, path = sp
        folder = path if scheme == "dir:" else os.path.dirname(path)
        if folder not in out:
            out.append(folder)
    return out


def absolute_spec(spec: str) -> str:
    """spec with the path of a ``policy:`` or ``dir:`` agent made absolute (a query kept)."""
    sp = _spec_path(spec)
    if sp is None or not sp[1]:
        return spec
    _, sep, query = spec.partition("?")
    return sp[0] + sp[1] + sep + query


class Server:
    """A local ``botarena serve --addr 127.0.0.1:0`` process.

    Use it as a context manager; ``address`` is the ``host:port`` it listens
    on, read from the server's ``listening on ADDR`` line on stderr::

        with botarena.Server() as server:
            env = botarena.make_vec("bomberman", 64, address=server.address)

    Startup failures (a missing binary, a build error, the process exiting or
    not listening within ``timeout`` seconds) raise :class:`ServerError` with
    the server's output. On exit the process gets SIGTERM, then SIGKILL if it
    has not stopped after ``stop_timeout`` seconds. ``args`` are more flags
    of ``botarena serve``; ``env`` sets environment variables of the process
    over this one's (``{"BOTARENA_AUTH_TOKEN": token}`` keeps the token out of
    ``ps``).

    Every server gets a bearer token, which every call must send: ``token``,
    else the one given in ``env`` (``BOTARENA_AUTH_TOKEN``) or ``args``
    (``--auth-token``), else a new random one (``secrets.token_urlsafe``).
    It reaches the process in the environment variable BOTARENA_AUTH_TOKEN,
    never on its command line (which other users see in ``ps``), and
    :class:`~botarena.Client` sends it by itself to ``address`` (see
    :func:`token_for`), so no other process, local or not, can use the
    server. ``token`` is the attribute to give a client elsewhere.

    The server dies with this process, however it ends (kill -9 included):
    it runs with ``--exit-on-stdin-eof`` and its standard input is a pipe
    whose only writer is this process, so the kernel's closing of that pipe
    stops the server.
    """

    def __init__(
        self,
        *,
        binary: str | None = None,
        addr: str = "127.0.0.1:0",
        args: list[str] | None = None,
        timeout: float = 60.0,
        stop_timeout: float = 5.0,
        env: Mapping[str, str] | None = None,
        token: str | None = None,
    ) -> None:
        self.binary = binary
        self.addr = addr
        self.args = list(args or [])
        self.env = dict(env or {})
        if not token:
            token = _flag_value(self.args, "--auth-token") or self.env.get(TOKEN_ENV, "").strip()
        #: The bearer token the server requires (see the class doc).
        self.token: str = token or secrets.token_urlsafe(32)
        self.env[TOKEN_ENV] = self.token
        self.timeout = timeout
        self.stop_timeout = stop_timeout
        self._proc: subprocess.Popen[bytes] | None = None
        self._address: str | None = None
        self._lines: collections.deque[str] = collections.deque(maxlen=200)
        self._reader: threading.Thread | None = None
        self._ready = threading.Event()

    @property
    def address(self) -> str:
        """The ``host:port`` the server listens on (after :meth:`start`)."""
        if self._address is None:
            raise ServerError("server not started")
        return self._address

    @property
    def pid(self) -> int | None:
        """The server process's id while it runs, else None."""
        return self._proc.pid if self._proc is not None else None

    @property
    def output(self) -> str:
        """The server's most recent stderr lines."""
        return "\n".join(self._lines)

    def start(self) -> Server:
        """Starts the server and waits until it listens. Returns self."""
        if self._proc is not None:
            return self
        binary = self.binary or find_binary()
        self._address = None
        self._ready.clear()
        self._lines.clear()
        cmd = [binary, "serve", "--addr", self.addr, "--exit-on-stdin-eof", *self.args]
        try:
            # stdin: a pipe nobody writes to; it closes when this process ends.
            self._proc = subprocess.Popen(
                cmd,
                stdin=subprocess.PIPE,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.PIPE,
                env={**os.environ, **self.env},
            )
        except OSError as e:
            raise ServerError(f"cannot run {' '.join(cmd)}: {e}") from e
        self._reader = threading.Thread(target=self._read_stderr, name="botarena-serve-stderr", daemon=True)
        self._reader.start()
        deadline = time.monotonic() + self.timeout
        while not self._ready.wait(0.05):
            if self._proc.poll() is not None:
                self._reader.join(1.0)
                code = self._proc.returncode
                self._proc = None
                raise ServerError(f"botarena serve exited with status {code} before listening:\n{self.output}")
            if time.monotonic() > deadline:
                self.stop()
                raise ServerError(f"botarena serve did not listen within {self.timeout:g}s:\n{self.output}")
        remember_token(self.address, self.token)
        return self

    def _read_stderr(self) -> None:
        proc = self._proc
        assert proc is not None and proc.stderr is not None
        for raw in proc.stderr:
            line = raw.decode("utf-8", "replace").rstrip("\n")
            self._lines.append(line)
            if self._address is None and _LISTENING in line:
                addr = line.split(_LISTENING, 1)[1].strip().split()[0]
                for scheme in ("http://", "https://"):
                    if addr.startswith(scheme):
                        addr = addr[len(scheme) :]
                self._address = addr
                self._ready.set()

    def stop(self) -> None:
        """Stops the server: SIGTERM, wait, SIGKILL. Safe to call twice."""
        proc = self._proc
        if proc is None:
            return
        self._proc = None
        if self._address is not None:
            _forget_token(self._address, self.token)
        if proc.poll() is None:
            if proc.stdin is not None:
                try:
                    proc.stdin.close()  # --exit-on-stdin-eof: the server starts shutting down
                except OSError:
                    pass
            proc.send_signal(signal.SIGTERM)
            try:
                proc.wait(self.stop_timeout)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
        self._address = None
        # At interpreter shutdown (an env closed by its __del__) the daemon
        # reader thread is frozen, possibly holding the pipe's lock: closing
        # the pipe then would abort the interpreter. The process is gone; the
        # pipe goes with the interpreter.
        if sys.is_finalizing():
            return
        reader_done = True
        if self._reader is not None:
            self._reader.join(1.0)
            reader_done = not self._reader.is_alive()
        if proc.stderr is not None and reader_done:
            proc.stderr.close()

    def __enter__(self) -> Server:
        return self.start()

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.stop()

    def __del__(self) -> None:
        try:
            self.stop()
        except Exception:
            pass

    def __repr__(self) -> str:
        return f"Server(address={self._address!r}, running={self._proc is not None})"


def _flag_value(args: list[str], flag: str) -> str:
    """The value of ``flag`` in a command line (``--flag V`` or ``--flag=V``; the last wins), or ""."""
    value = ""
    for i, a in enumerate(args):
        if a == flag and i + 1 < len(args):
            value = args[i + 1]
        elif a.startswith(flag + "="):
            value = a[len(flag) + 1 :]
    return value.strip()
