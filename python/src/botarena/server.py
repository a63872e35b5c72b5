"""Starting a local ``botarena serve`` for tests, notebooks and benchmarks."""

from __future__ import annotations

import collections
import contextlib
import hashlib
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
from typing import Iterable, Iterator, Mapping

try:
    import fcntl
except ImportError:  # Windows: msvcrt instead (_file_lock)
    fcntl = None  # type: ignore[assignment]

from botarena._closing import Running, release_quietly
from botarena.errors import ServerError

__all__ = [
    "Server",
    "absolute_spec",
    "bots_dirs",
    "checkout_key",
    "find_binary",
    "go_build",
    "remember_token",
    "repo_root",
    "source_files",
    "source_hash",
    "token_for",
]

#: The environment variable ``botarena serve`` reads its token from.
TOKEN_ENV = "BOTARENA_AUTH_TOKEN"

_LISTENING = "listening on "
_build_lock = threading.Lock()
# address → token of the servers this process started (and of those whose
# token came with an unpickled env or pool); see token_for.
_tokens: dict[str, str] = {}
_tokens_lock = threading.Lock()
_built: dict[str, str] = {}
# While a build runs, a line every this many seconds says it still does.
_HEARTBEAT_S = 30.0
_BUILDING = "building {what} from {root} with go build ({why}; this can take a few minutes) ..."


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
    """The server binary built from the checkout at root into ~/.cache/botarena/bin/<checkout>/ (see :func:`go_build`)."""
    go = shutil.which("go")
    if go is None:
        raise ServerError(
            "cannot start botarena serve: no `botarena` binary on PATH and no Go toolchain to build one "
            f"from {root} (install Go 1.26+, put botarena on PATH, or set BOTARENA_BIN)"
        )
    target = _cache_dir() / "bin" / checkout_key(root) / "botarena"
    return go_build(root, "./cmd/botarena", target, what="the server binary")


def checkout_key(root: pathlib.Path) -> str:
    """The folder name of a checkout's builds under ~/.cache/botarena/{bin,lib}: a hash of its path.

    Each checkout has its own, so that two clones (or worktrees) never take turns rebuilding one file.
    """
    return hashlib.sha256(str(root).encode()).hexdigest()[:12]


# Build inputs -------------------------------------------------------------------

#: Suffixes of the files of a Go module that a build compiles: Go, and the C, C++, assembly and
#: object files of cgo packages. Go files ending in _test.go are left out.
_SOURCE_SUFFIXES = (".go", ".c", ".h", ".s", ".S", ".cc", ".cpp", ".cxx", ".hh", ".hpp", ".hxx", ".m", ".syso")

#: Top-level folders of the checkout that hold outputs, never sources: not walked.
_OUTPUT_DIRS = frozenset({"bin", "dist", "runs", "leagues", "replays", "node_modules"})

#: What ``go env`` says about the toolchain and the settings that change what go build writes.
_GO_ENV_KEYS = (
    "GOVERSION", "GOROOT", "GOOS", "GOARCH", "GOAMD64", "GOARM", "GOARM64", "GOEXPERIMENT", "GOFLAGS", "GOWORK",
    "CGO_ENABLED", "CC", "CXX", "CGO_CFLAGS", "CGO_CPPFLAGS", "CGO_CXXFLAGS", "CGO_LDFLAGS",
)


def _embed_patterns(source: bytes) -> list[str]:
    """The patterns of the ``//go:embed`` directives of a Go file's text (quotes removed)."""
    out: list[str] = []
    for line in source.splitlines():
        line = line.strip()
        if line.startswith(b"//go:embed"):
            for word in line[len(b"//go:embed") :].decode("utf-8", "replace").split():
                out.append(word.strip("`\"").removeprefix("all:"))
    return out


def source_files(root: pathlib.Path) -> list[pathlib.Path]:
    """The files of the Go module at root that a build of any of its packages reads, sorted.

    go.mod, go.sum (and go.work), every Go file that is not a test (``_test.go``), the cgo sources
    (C, C++, assembly, .syso), and every file a ``//go:embed`` directive names. The walk skips
    what the go command skips (folders named ``testdata`` or starting with ``.`` or ``_``, and
    nested modules: folders with their own go.mod) and the checkout's output folders (bin, dist,
    runs, leagues, replays). Tests, documentation, Python and other files are not inputs, so
    changing them does not call for a rebuild.
    """
    files: set[pathlib.Path] = set()
    for name in ("go.mod", "go.sum", "go.work", "go.work.sum"):
        if (root / name).is_file():
            files.add(root / name)
    for dirpath, dirnames, filenames in os.walk(root):
        here = pathlib.Path(dirpath)
        dirnames[:] = sorted(
            d
            for d in dirnames
            if not d.startswith((".", "_"))
            and d != "testdata"
            and not (here == root and d in _OUTPUT_DIRS)
            and not os.path.isfile(os.path.join(dirpath, d, "go.mod"))
        )
        for name in filenames:
            if not name.endswith(_SOURCE_SUFFIXES) or name.endswith("_test.go") or name.startswith((".", "_")):
                continue
            path = here / name
            files.add(path)
            if name.endswith(".go"):
                try:
                    text = path.read_bytes()
                except OSError:
                    continue
                if b"//go:embed" in text:
                    files.update(_embedded(here, _embed_patterns(text)))
    return sorted(files)


def _embedded(folder: pathlib.Path, patterns: list[str]) -> list[pathlib.Path]:
    """The files the embed patterns of a package in folder name (every file under a named folder)."""
    out: list[pathlib.Path] = []
    for pattern in patterns:
        for match in sorted(folder.glob(pattern)) if pattern else []:
            if match.is_file():
                out.append(match)
            elif match.is_dir():
                out.extend(p for p in sorted(match.rglob("*")) if p.is_file())
    return out


def source_hash(root: pathlib.Path) -> str:
    """A SHA-256 of the contents and paths (relative to root) of :func:`source_files`.

    It changes when a source of the module changes, and only then: not with git's state (a
    commit, a branch switch to the same files, an untracked file), nor with tests or docs.
    Reading the files takes a few tens of milliseconds for botarena's 2 MB of Go.
    """
    h = hashlib.sha256()
    for path in source_files(root):
        try:
            data = path.read_bytes()
        except OSError:
            continue  # vanished while walking
        rel = path.relative_to(root).as_posix().encode()
        h.update(len(rel).to_bytes(4, "little") + rel + len(data).to_bytes(8, "little"))
        h.update(data)
    return h.hexdigest()


def _build_key(go: str, root: pathlib.Path, package: str, args: tuple[str, ...]) -> str:
    """The key of a build: the sources, the toolchain and its settings (go env), the package and flags."""
    try:
        proc = subprocess.run(
            [go, "env", "-json", *_GO_ENV_KEYS],
            cwd=root,
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
            timeout=120,
        )
        settings = proc.stdout if proc.returncode == 0 else f"go env failed: {proc.returncode}"
    except (OSError, subprocess.SubprocessError) as e:
        settings = f"go env failed: {e}"
    h = hashlib.sha256()
    for part in (source_hash(root), os.path.realpath(go), settings, package, *args):
        h.update(part.encode() + b"\0")
    return h.hexdigest()


def _stamp(target: pathlib.Path) -> pathlib.Path:
    """The file next to target that holds the key target was built from."""
    return target.with_name(target.name + ".sources")


def _built_from(target: pathlib.Path, key: str) -> bool:
    try:
        return target.is_file() and _stamp(target).read_text().strip() == key
    except OSError:
        return False


@contextlib.contextmanager
def _file_lock(path: pathlib.Path, waiting: str) -> Iterator[None]:
    """Holds an exclusive lock on path (created) across processes; says ``waiting`` if it has to wait.

    fcntl.flock on POSIX, msvcrt.locking on Windows; the lock goes with the process if it dies.
    """
    with open(path, "a+b") as f:
        if fcntl is not None:
            try:
                fcntl.flock(f.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError:
                _say(waiting)
                fcntl.flock(f.fileno(), fcntl.LOCK_EX)
            try:
                yield
            finally:
                fcntl.flock(f.fileno(), fcntl.LOCK_UN)
            return
        import msvcrt  # Windows

        said = False
        while True:
            try:
                f.seek(0)
                msvcrt.locking(f.fileno(), msvcrt.LK_NBLCK, 1)  # type: ignore[attr-defined]
                break
            except OSError:
                if not said:
                    _say(waiting)
                    said = True
                time.sleep(0.2)
        try:
            yield
        finally:
            f.seek(0)
            msvcrt.locking(f.fileno(), msvcrt.LK_UNLCK, 1)  # type: ignore[attr-defined]


def go_build(root: pathlib.Path, package: str, target: pathlib.Path, *, args: tuple[str, ...] = (), what: str) -> str:
    """Builds package of the checkout at root into target with ``go build``, only when its sources changed.

    The build's key (:func:`source_hash` of the module, ``go env``'s toolchain and settings, the
    package and args) is kept next to target in ``<target>.sources``; when it matches, target is
    used as it is, without running go build, so a new process pays a hash of the sources (tens of
    milliseconds), not a link (a minute for the native library on a loaded machine). Tests,
    docs and git's state (commits, untracked files) are not part of the key. The build uses
    ``-buildvcs=false``, so that what it writes depends on the sources alone.

    Concurrent processes build once: the build holds a lock file next to target
    (``<target>.lock``); the others wait for it (saying so on stderr), then find the key written
    and use its result. The build goes to a temporary name that is then renamed, so nobody runs a
    half-written file. A real build is said on stderr (``botarena: building ...``, a line every
    30 s while it runs, then ``built ... in N s``; $BOTARENA_QUIET=1 silences them). Once per
    process per target. A failed build raises :class:`ServerError` with the compiler's output.
    """
    go = shutil.which("go") or "go"
    with _build_lock:
        done = _built.get(f"{root}|{target}")
        if done is not None:
            return done
        target.parent.mkdir(parents=True, exist_ok=True)
        key = _build_key(go, root, package, args)
        if not _built_from(target, key):
            lock = target.with_name(target.name + ".lock")
            with _file_lock(lock, f"waiting for another process's build of {what} ({_display(lock)}) ..."):
                if not _built_from(target, key):  # else another process built it while we waited
                    _run_go_build(go, root, package, target, args, key, what)
        _built[f"{root}|{target}"] = str(target)
        return str(target)


def _run_go_build(
    go: str, root: pathlib.Path, package: str, target: pathlib.Path, args: tuple[str, ...], key: str, what: str
) -> None:
    why = "first use" if not target.exists() else "its Go sources or the toolchain changed since the last build"
    _say(_BUILDING.format(what=what, root=root, why=why))
    start = time.monotonic()
    fd, tmp = tempfile.mkstemp(prefix=target.name + ".", dir=target.parent)
    os.close(fd)
    try:
        proc = subprocess.Popen(
            [go, "build", "-buildvcs=false", *args, "-o", tmp, package],
            cwd=root,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        try:
            while True:
                try:
                    _, stderr = proc.communicate(timeout=_HEARTBEAT_S)
                    break
                except subprocess.TimeoutExpired:
                    _say(f"still building {what} ({time.monotonic() - start:.0f} s so far) ...")
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
    stamp = _stamp(target)
    stamp_tmp = stamp.with_name(stamp.name + ".tmp")
    stamp_tmp.write_text(key + "\n")
    os.replace(stamp_tmp, stamp)
    _say(f"built {_display(target)} in {time.monotonic() - start:.1f} s")


def find_binary() -> str:
    """The botarena binary to run, building it if needed.

    In order: $BOTARENA_BIN; in a source checkout (an editable install) with
    Go on PATH, a binary built from that checkout with ``go build`` into
    ``~/.cache/botarena/bin/<hash of the checkout path>/``, rebuilt only
    when the checkout's Go sources changed (see :func:`go_build`: it says
    so on stderr when it really builds; $BOTARENA_QUIET=1 silences it);
    the binary bundled in a
    platform wheel (``botarena/bin/botarena``, ``make wheel``); ``botarena``
    on PATH, other than this package's own ``botarena`` command (which runs
    the binary found here). Raises :class:`ServerError` naming what is missing.
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
    on_path = _binary_on_path()
    if on_path:
        return on_path
    if root is not None:
        return _build(root)  # raises the "no Go" error
    raise ServerError(
        "cannot find the botarena binary: put it on PATH (go install ./cmd/botarena), set BOTARENA_BIN, "
        "or install the platform wheel that bundles it (make wheel)"
    )


def _binary_on_path() -> str | None:
    """The first ``botarena`` on PATH that is not this package's console script (botarena._cli)."""
    for folder in os.environ.get("PATH", "").split(os.pathsep):
        found = shutil.which("botarena", path=folder) if folder else None
        if found and not _is_console_script(found):
            return found
    return None


def _is_console_script(path: str) -> bool:
    """Whether path is the ``botarena`` command pip wrote for this package (a script that runs botarena._cli)."""
    try:
        with open(path, "rb") as f:
            head = f.read(4096)
    except OSError:
        return False
    # POSIX: a "#!...python" script; Windows: a launcher .exe with the script appended (a zip).
    return b"botarena._cli" in head or (head.startswith(b"MZ") and b"botarena._cli" in _tail(path))


def _tail(path: str, size: int = 65536) -> bytes:
    try:
        with open(path, "rb") as f:
            f.seek(max(0, os.path.getsize(path) - size))
            return f.read()
    except OSError:
        return b""


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


class Server(Running):
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

    def __del__(self) -> None:
        release_quietly(self.stop)

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
