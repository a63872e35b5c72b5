"""The native backend: botarena's Go pools inside this Python process.

``make_pool(..., backend="native")`` (and ``"auto"``, the default, where the
library is available and no server address is given; see
:func:`botarena.make_pool`) returns a :class:`NativePool`, a
:class:`~botarena.pool.Pool`. It loads ``libbotarena`` (the Go package ``native``
built with ``go build -buildmode=c-shared ./cmd/libbotarena``) with ctypes,
allocates every array a step writes as numpy arrays it owns, and hands their
addresses to the Go pool once (``bta_bind``). From then on a step is one
ctypes call: Go's workers write observations, masks, rewards and flags
straight into those arrays, and the arrays :meth:`NativePool.step` returns
are read-only views of them. Nothing is copied, so **the returned arrays are
overwritten by the next step** (as PufferLib's are): copy what you keep.

Async stepping (EnvPool's send/recv): with ``batch_size=B`` the pool steps
its envs on background goroutines; :meth:`NativePool.send` hands some envs
their actions and returns at once, :meth:`NativePool.recv` returns the next
B envs that finished (``info["env_id"]`` names them), so a trainer's forward
pass overlaps the env step. An env's results are the same bytes whatever the
order envs finish in, and the same as on the remote backend, whose async
pools make the same batches (see :class:`botarena.pool.Pool`). The arrays of a
batch stay valid until the next ``recv`` returns.

Off the step path the library speaks the env service's own messages: a
call (``bta_call``) takes a request message of ``botarena.v1.EnvService``
(CreatePool, Stats, SetOpponents, Render, ClosePool, ListGames) in binary
protobuf and returns its response message, so both backends describe a
pool with the same CreatePoolResponse.

The library is found in this order (:func:`library_path`): ``$BOTARENA_LIB``;
in a source checkout with Go and cgo (a C compiler), a build into
``~/.cache/botarena/lib/<checkout>/``, made once for all processes and
redone only when the checkout's Go sources change (a content hash kept next
to the library, a lock file around the build: see
:func:`botarena.server.go_build`); the library bundled in a platform wheel
(``botarena/lib/``). Without any of them
the remote backend is used instead (see :func:`botarena.make_pool`).

Process rules: the library is loaded once per process and stays loaded. Calls
are thread-safe (calls on one pool are serialised, and ctypes releases the
GIL while Go works). The Go runtime does not survive ``fork()``: a child
forked after the library was loaded cannot use it (its pools raise, and new
pools there use the remote backend); use the ``spawn`` or ``forkserver``
start methods, or create native pools after forking. Errors come back as the
same :class:`~botarena.errors.BotarenaError` subclasses (and codes) the remote
backend raises; a game that panics closes its pool and raises, never crashes
Python.
"""

from __future__ import annotations

import atexit
import ctypes
import os
import pathlib
import sys
import threading
import weakref
from typing import Any, Callable, Mapping, Protocol, Sequence, TypeVar

import grpc
import numpy as np
import numpy.typing as npt

from botarena._cgo import cgo_problem
from botarena.errors import BotarenaError, FailedPreconditionError, InvalidArgumentError
from botarena.pool import Info, Obs, Pool, PoolStats, Step, checked_ints, int32_values
from botarena.server import _cache_dir, checkout_key, go_build, repo_root
from botarena.v1 import env_pb2

__all__ = ["NativePool", "NativeUnavailableError", "library_path", "load", "available", "ABI"]

#: The C interface version this module speaks (the Go package native's ABI).
ABI = 3

_LIB_FILE = {"darwin": "libbotarena.dylib", "win32": "botarena.dll"}.get(sys.platform, "libbotarena.so")

M = TypeVar("M")


class _Request(Protocol):
    """A request message of botarena.v1.EnvService."""

    def SerializeToString(self) -> bytes: ...


class NativeUnavailableError(BotarenaError, RuntimeError):
    """The native library cannot be found, built or loaded here (the message says why)."""


# Library -------------------------------------------------------------------


def _bundled_library() -> str | None:
    path = pathlib.Path(__file__).resolve().parent / "lib" / _LIB_FILE
    return str(path) if path.is_file() else None


def library_path() -> str:
    """The shared library to load, building it from this checkout if needed.

    In order: ``$BOTARENA_LIB``; in a source checkout (an editable install)
    with Go and cgo, a build of ``./cmd/libbotarena`` into
    ``~/.cache/botarena/lib/<hash of the checkout path>/``, rebuilt only
    when a Go source of the checkout changed (not for tests, docs or git's
    state) and built once when several processes ask at the same time (see
    :func:`botarena.server.go_build`; said on stderr when it really builds);
    the library bundled in a platform wheel (``make wheel``). Raises
    :class:`NativeUnavailableError` naming what is missing.
    """
    env = os.environ.get("BOTARENA_LIB")
    if env:
        if not os.path.isfile(env):
            raise NativeUnavailableError(f"BOTARENA_LIB={env} is not a file")
        return env
    root = repo_root()
    problem = None
    if root is not None and (root / "cmd" / "libbotarena").is_dir():
        problem = cgo_problem()
        if problem is None:
            target = _cache_dir() / "lib" / checkout_key(root) / _LIB_FILE
            return go_build(root, "./cmd/libbotarena", target, args=("-buildmode=c-shared",), what="the native library")
    bundled = _bundled_library()
    if bundled is not None:
        return bundled
    if problem is not None:
        raise NativeUnavailableError(f"cannot build the native library from {root}: {problem}")
    raise NativeUnavailableError(
        "no native library: this installation bundles none (install the platform wheel, make wheel) "
        "and is not a source checkout with Go and a C compiler; or set BOTARENA_LIB"
    )


class _Library:
    """The loaded library and its functions' ctypes signatures."""

    def __init__(self, path: str) -> None:
        self.path = path
        self.dll = dll = ctypes.CDLL(path)
        i64, i32, p, cp = ctypes.c_int64, ctypes.c_int32, ctypes.c_void_p, ctypes.c_char_p
        dll.bta_abi.argtypes, dll.bta_abi.restype = [], i32
        dll.bta_call.argtypes, dll.bta_call.restype = [cp, cp, i64, ctypes.POINTER(i64), ctypes.POINTER(i32)], p
        dll.bta_free.argtypes, dll.bta_free.restype = [p], None
        dll.bta_bind.argtypes, dll.bta_bind.restype = [i64, ctypes.POINTER(p), i64, p, i64], i32
        for name in ("bta_reset", "bta_async_reset"):
            getattr(dll, name).argtypes, getattr(dll, name).restype = [i64, p, i64], i32
        dll.bta_step.argtypes, dll.bta_step.restype = [i64, p, i64, p, i64], i32
        dll.bta_send.argtypes, dll.bta_send.restype = [i64, p, i64, p, i64, p, i64], i32
        dll.bta_recv.argtypes, dll.bta_recv.restype = [i64, ctypes.POINTER(i64), p, i64], i32
        dll.bta_send_recv.argtypes, dll.bta_send_recv.restype = [i64, p, i64, p, i64, ctypes.POINTER(i64), p, i64], i32
        abi = int(dll.bta_abi())
        if abi != ABI:
            raise NativeUnavailableError(f"{path} speaks native ABI {abi}, this package {ABI}: rebuild or reinstall it")

    def call(self, method: str, request: _Request, response: Callable[[bytes], M]) -> M:
        """Runs the env service's method on request (bta_call, binary protobuf); raises the error it returns.

        response parses the response message (``env_pb2.XResponse.FromString``).
        """
        data = request.SerializeToString()
        n, code = ctypes.c_int64(), ctypes.c_int32()
        ptr = self.dll.bta_call(method.encode(), data, len(data), ctypes.byref(n), ctypes.byref(code))
        try:
            raw = ctypes.string_at(ptr, n.value)
        finally:
            self.dll.bta_free(ptr)
        if code.value:
            raise _error(code.value, raw.decode("utf-8", "replace"))
        return response(raw)


def _error(code: int, message: str) -> BotarenaError:
    """The BotarenaError subclass the remote backend raises for a gRPC code."""
    from botarena.errors import _BY_CODE

    status = next((c for c in grpc.StatusCode if c.value[0] == code), None)
    cls = _BY_CODE.get(status, BotarenaError) if status is not None else BotarenaError
    return cls(message, status)


_lock = threading.Lock()
_lib: _Library | None = None
_lib_error: NativeUnavailableError | None = None
_loaded_in: int | None = None  # the pid that loaded the library


def load() -> _Library:
    """The library, found (or built) and loaded once per process; raises :class:`NativeUnavailableError`."""
    global _lib, _lib_error, _loaded_in
    with _lock:
        if _loaded_in is not None and _loaded_in != os.getpid():
            raise NativeUnavailableError(
                f"the native library was loaded in process {_loaded_in} before this process forked from it; "
                "Go's runtime does not survive fork(): use the 'spawn' or 'forkserver' start method, "
                "or create native pools only after forking"
            )
        if _lib is not None:
            return _lib
        if _lib_error is not None:
            raise _lib_error
        try:
            path = library_path()
            _lib = _Library(path)
            _loaded_in = os.getpid()
        except NativeUnavailableError as e:
            _lib_error = e
            raise
        except (OSError, BotarenaError) as e:
            _lib_error = NativeUnavailableError(f"cannot load the native library: {e}")
            raise _lib_error from e
        return _lib


def available() -> tuple[bool, str]:
    """Whether the native backend can be used here, and if not, why (loads or builds the library)."""
    try:
        load()
    except NativeUnavailableError as e:
        return False, e.message
    return True, ""


# Pools ---------------------------------------------------------------------

_live: weakref.WeakSet[NativePool] = weakref.WeakSet()


def _close_all() -> None:
    # At exit, stop every pool's workers before numpy frees their memory.
    for pool in list(_live):
        pool.close()


atexit.register(_close_all)


def _after_fork_in_child() -> None:
    for pool in list(_live):
        pool._forked()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_after_fork_in_child)


class _Output:
    """The numpy arrays of one output (the Go layout), and read-only views of them."""

    def __init__(self, layout: Sequence[env_pb2.TensorSpec], rows: int, tensors: Sequence[str]) -> None:
        self.arrays = [np.zeros((rows, *a.shape), dtype=np.dtype(a.dtype)) for a in layout]
        self.ptrs = [a.ctypes.data for a in self.arrays]
        views: dict[str, npt.NDArray[Any]] = {}
        for a, arr in zip(layout, self.arrays):
            v = arr.view()
            v.flags.writeable = False
            views[a.name] = v
        self.obs: Obs = {t: views["obs/" + t] for t in tensors}
        self.final_obs: Obs = {t: views["final_obs/" + t] for t in tensors if "final_obs/" + t in views}
        self.mask = views["mask"]
        self.reward = views["reward"]
        self.terminated = views["terminated"]
        self.truncated = views["truncated"]
        self.env = views["env"]
        self.seat = views["seat"]
        self.episode = views["episode"]
        self.ended = views["ended"]


class NativePool(Pool):
    """A :class:`~botarena.pool.Pool` whose Go pool runs in this process (see :mod:`botarena.native`).

    ``make_pool(..., backend="native")`` returns one; the arguments are
    :class:`~botarena.pool.Pool`'s (``transport`` and ``compression`` are
    accepted and have no effect; ``shared_planes`` is a wire form of the
    remote backend: here the arrays are the full ones).

    Differences from the remote backend: the arrays returned by
    :meth:`reset` and :meth:`step` are read-only views of arrays the pool
    owns and overwrites at the next call (copy what you keep). In async mode
    (``batch_size``) a batch's arrays stay valid until the next :meth:`recv`
    returns (they are a ring of ``ceil(num_envs / batch_size) + 1``
    batches), or until the next :meth:`step`, which hands them back.

    The library is thread-safe, but one NativePool is not: call its methods
    from one thread at a time (the actions buffer is shared). Closing it (or
    losing the last reference, or the interpreter exiting) stops its Go
    workers before its arrays are freed.
    """

    backend = "native"

    def __init__(self, game: str, num_envs: int, *, seed: int | None = None, **settings: Any) -> None:
        """Makes the pool (settings: :class:`~botarena.pool.Pool`'s, and the game's config fields)."""
        super().__init__(game, num_envs, **settings)
        self._handle = 0
        self._opponents: dict[int, str] = {}
        self._tls = threading.local()
        self._lib = load()
        dll = self._lib.dll
        self._c_reset: Callable[..., int] = dll.bta_reset
        self._c_step: Callable[..., int] = dll.bta_step
        self._c_async_reset: Callable[..., int] = dll.bta_async_reset
        self._c_send: Callable[..., int] = dll.bta_send
        self._c_recv: Callable[..., int] = dll.bta_recv
        self._c_send_recv: Callable[..., int] = dll.bta_send_recv
        self._batch = ctypes.c_int64()  # the ring index bta_recv and bta_send_recv store
        self._batch_ref = ctypes.byref(self._batch)
        self._create(seed)
        _live.add(self)

    # Construction ----------------------------------------------------------

    def _create(self, seed: int | None) -> None:
        resp = self._lib.call("CreatePool", self._request(seed), env_pb2.CreatePoolResponse.FromString)
        self._handle = int(resp.pool_id)
        try:
            self._created(resp)
            self._opponents = {int(k): str(v) for k, v in resp.opponents.items()}
            tensors = [t.name for t in self.spec.observations]
            layout = list(resp.output_arrays)
            L = len(self.learner_seats)
            if self.batch_size is None:
                self._outputs = [_Output(layout, self.rows, tensors)]
                self._acts = np.zeros(self.rows, dtype=np.int32)
            else:
                nb = (self.num_envs + self.batch_size - 1) // self.batch_size + 1
                self._outputs = [_Output(layout, self.batch_size * L, tensors) for _ in range(nb)]
                self._acts = np.zeros(self.batch_size * L, dtype=np.int32)
                self._env_ids = np.zeros(self.batch_size, dtype=np.int32)
                self._env_ids_ptr = self._env_ids.ctypes.data
            ptrs = [p for out in self._outputs for p in out.ptrs]
            array = (ctypes.c_void_p * len(ptrs))(*ptrs)
            self._check(self._lib.dll.bta_bind(self._handle, array, len(ptrs), *self._errbuf()))
            self._acts_ptr = self._acts.ctypes.data
            self._last: _Output | None = None
            if self._mixtures:
                self._set_mixtures(self._mixtures)
        except BaseException:
            self._close_pool()
            raise

    def _errbuf(self) -> tuple[Any, int]:
        buf = getattr(self._tls, "buf", None)
        if buf is None:
            buf = self._tls.buf = ctypes.create_string_buffer(2048)
        return buf, 2048

    def _check(self, code: int) -> None:
        if code:
            raise _error(code, self._tls.buf.value.decode("utf-8", "replace"))

    def reseed(self, seed: int | None) -> None:
        """Replaces the pool by a new one with this seed (same settings); call :meth:`reset` next.

        The arrays returned so far keep their contents; the new pool writes new ones.
        """
        self._close_pool()
        self._create(seed)

    # Stepping --------------------------------------------------------------

    def _actions(self, actions: npt.ArrayLike, n: int) -> None:
        # The cast below would wrap 2**32 + 5 to 5: a wider dtype's values are
        # checked here (an int32 array's values are the Go pool's to check).
        a = checked_ints(actions, "action", self.spec.actions)
        if a.size != n:
            raise InvalidArgumentError(f"actions: got {a.size}, want {n} (one per row)")
        np.copyto(self._acts[:n], a.reshape(n), casting="unsafe")

    def _result(self, out: _Output) -> Step:
        info: Info = {"env": out.env, "seat": out.seat, "episode": out.episode, "ended": out.ended, "mask": out.mask}
        if out.final_obs and out.ended.any():
            info["final_obs"] = out.final_obs
            info["final_mask"] = out.mask
        if self.batch_size is not None:
            info["env_id"] = out.env[:: len(self.learner_seats)]
        return out.obs, out.reward, out.terminated, out.truncated, info

    def reset(self) -> tuple[Obs, Info]:
        """Starts a new episode in every env; returns ``(obs, info)`` (see :meth:`Pool.reset`).

        In async mode: :meth:`async_reset`, then the first batch from :meth:`recv`.
        """
        if self.batch_size is not None:
            self.async_reset()
            obs, _, _, _, info = self.recv()
            return obs, info
        self._check(self._c_reset(self._handle, *self._errbuf()))
        obs, _, _, _, info = self._result(self._outputs[0])
        return obs, info

    def step(self, actions: npt.ArrayLike, env_id: npt.ArrayLike | None = None) -> Step:
        """Applies one action per row; returns ``(obs, rewards, terminated, truncated, info)``.

        As :meth:`Pool.step`, but the arrays are overwritten by the next call.
        In async mode: :meth:`send` (to ``env_id``, default the last batch's
        envs) then :meth:`recv`, in one call into the library, which hands
        the last batch back: its arrays are overwritten by this call, as a
        synchronous step's are, and the envs sent back in its order (the
        default) step into their own rows, where the games write only what
        changed instead of whole observations.
        """
        if self.batch_size is not None:
            ids, envs, n = self._queue(actions, env_id)
            self._check(self._c_send_recv(self._handle, ids, envs, self._acts_ptr, n, self._batch_ref, *self._errbuf()))
            return self._received()
        if env_id is not None:
            raise FailedPreconditionError("step: env_id is for async pools (Pool(..., batch_size=N))")
        self._actions(actions, self.rows)
        self._check(self._c_step(self._handle, self._acts_ptr, self.rows, *self._errbuf()))
        return self._result(self._outputs[0])

    def step_batch(self, actions: npt.ArrayLike) -> Any:
        """Not on the native backend: it is the remote backend's raw response; use :meth:`step`."""
        raise NotImplementedError("step_batch returns the remote backend's raw message; use step() on a native pool")

    def async_reset(self) -> None:
        """Resets every env in the background; the next :meth:`recv` calls return their first observations."""
        self._need_async()
        self._check(self._c_async_reset(self._handle, *self._errbuf()))

    def send(self, actions: npt.ArrayLike, env_id: npt.ArrayLike | None = None) -> None:
        """Queues envs ``env_id`` (default: the last batch's) with their actions and returns at once.

        actions holds ``len(env_id) * len(learner_seats)`` integers: each env's
        learner seats in order. An env can be sent again once :meth:`recv` has
        returned it.
        """
        ids, envs, n = self._queue(actions, env_id)
        self._check(self._c_send(self._handle, ids, envs, self._acts_ptr, n, *self._errbuf()))

    def _queue(self, actions: npt.ArrayLike, env_id: npt.ArrayLike | None) -> tuple[int, int, int]:
        """Checks a send's envs and copies its actions; returns the env ids' address, their count and the actions' count.

        The env ids stay in ``self._sent`` (alive until the call that reads them returns).
        """
        self._need_async()
        if env_id is None:
            if self._last is None:
                raise FailedPreconditionError("send: no batch received yet to take the env ids from; pass env_id")
            self._sent = self._env_ids
            ptr = self._env_ids_ptr
        else:
            self._sent = int32_values(env_id, "env_id", self.num_envs, "index")
            ptr = self._sent.ctypes.data
        n = self._sent.size * len(self.learner_seats)
        if n > self._acts.size:
            raise InvalidArgumentError(f"send: {self._sent.size} envs, at most batch_size={self.batch_size} per call")
        self._actions(actions, n)
        return ptr, self._sent.size, n

    def recv(self) -> Step:
        """Waits for the next ``batch_size`` envs to finish; returns their ``(obs, reward, terminated, truncated, info)``.

        ``info["env_id"]`` lists the batch's envs; the rest of info is as for
        :meth:`step`. Raises :class:`~botarena.errors.FailedPreconditionError`
        when fewer than ``batch_size`` envs are in flight.
        """
        self._need_async()
        self._check(self._c_recv(self._handle, self._batch_ref, *self._errbuf()))
        return self._received()

    def _received(self) -> Step:
        # The batch bta_recv or bta_send_recv stored the index of.
        out = self._outputs[self._batch.value]
        self._last = out
        np.copyto(self._env_ids, out.env[:: len(self.learner_seats)])
        return self._result(out)

    # Opponents, stats, render ------------------------------------------------

    # set_opponents is Pool's: it checks the mixtures and calls _set_mixtures.

    def _set_mixtures(self, mixtures: Mapping[int, Sequence[tuple[str, float, str]]]) -> None:
        req = env_pb2.SetOpponentsRequest(pool_id=self.pool_id)
        for seat, choices in mixtures.items():
            req.opponents[int(seat)].choices.extend(
                env_pb2.OpponentChoice(spec=spec, weight=float(w), name=name) for spec, w, name in choices
            )
        self._lib.call("SetOpponents", req, env_pb2.SetOpponentsResponse.FromString)

    def stats(self, *, reset: bool = False) -> PoolStats:
        """Episode statistics per learner seat and per opponent (see :meth:`Pool.stats`).

        ``steps`` counts step calls (``send`` calls in async mode), which wait
        for the envs in flight first.
        """
        req = env_pb2.StatsRequest(pool_id=self.pool_id, reset=reset)
        return PoolStats.from_proto(self._lib.call("Stats", req, env_pb2.StatsResponse.FromString))

    def _render(self, env: int, format: str, seat: int) -> env_pb2.RenderResponse:
        req = env_pb2.RenderRequest(pool_id=self.pool_id, env=env, seat=seat, format=format)
        return self._lib.call("Render", req, env_pb2.RenderResponse.FromString)

    def render(self, env: int = 0, *, format: str = "", seat: int = -1) -> str:
        """One env's state in a native text format (see :meth:`Pool.render`)."""
        data: bytes = self._render(env, format, seat).data
        return data.decode("utf-8", "replace")

    def render_rgb(self, env: int = 0, *, seat: int = -1) -> npt.NDArray[np.uint8]:
        """One env's picture as seat sees it: a ``(height, width, 3)`` uint8 array (see :meth:`Pool.render_rgb`)."""
        r = self._render(env, "rgb_array", seat)
        return self._picture(r)

    # Lifetime ----------------------------------------------------------------

    def _close_pool(self) -> None:
        if self._pool_id is not None:
            pool_id, self._pool_id = self._pool_id, None
            self._lib.call("ClosePool", env_pb2.ClosePoolRequest(pool_id=pool_id), env_pb2.ClosePoolResponse.FromString)

    def _forked(self) -> None:
        # In a child forked after the library was loaded: calling into Go
        # would hang, so every call raises instead.
        def dead(*_: Any) -> int:
            raise NativeUnavailableError(
                "this native pool belongs to the process that forked this one; Go's runtime does not survive fork()"
            )

        self._c_reset = self._c_step = self._c_async_reset = self._c_send = self._c_recv = self._c_send_recv = dead
        self._pool_id = None
        self.closed = True

    def close(self) -> None:
        """Stops the pool's workers and frees its envs; the arrays stay readable. Safe to call twice."""
        if self.closed:
            return
        self.closed = True
        self._close_pool()

    def __del__(self) -> None:
        # The Go pool must stop before numpy frees the arrays it writes.
        try:
            if not getattr(self, "closed", True):
                self.close()
        except Exception:
            pass


