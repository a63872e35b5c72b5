"""Choosing a pool's backend: :func:`make_pool` returns the native or the remote :class:`~botarena.pool.Pool`.

The one place that knows both implementations: :mod:`botarena.pool` holds
the interface, :mod:`botarena.native` and :mod:`botarena.remote` the
implementations, which import the interface and never each other.
"""

from __future__ import annotations

import os
from typing import Any, Mapping, Sequence

from botarena import native
from botarena.client import Client
from botarena.pool import Pool
from botarena.remote import RemotePool
from botarena.server import _say

__all__ = ["make_pool", "choose_backend", "BACKENDS"]

#: The backend choices: "auto" picks native where it can.
BACKENDS = ("auto", "native", "remote")


def choose_backend(backend: str | None, address: str | None = None, client: Any = None) -> str:
    """The backend a pool with these arguments uses: "native" or "remote" (see :func:`make_pool`)."""
    backend = backend or "auto"
    if backend not in BACKENDS:
        raise ValueError(f"backend must be one of {', '.join(map(repr, BACKENDS))}, got {backend!r}")
    if backend == "auto":
        backend = os.environ.get("BOTARENA_BACKEND") or "auto"
        if backend not in BACKENDS:
            raise ValueError(f"$BOTARENA_BACKEND must be one of {', '.join(BACKENDS)}, got {backend!r}")
    if backend == "remote":
        return "remote"
    if address is not None or client is not None:
        if backend == "native":
            raise ValueError("backend='native' runs the pool in this process: give no address or client")
        return "remote"
    ok, why = native.available()
    if ok:
        return "native"
    if backend == "native":
        _say(f"native backend unavailable ({why}); using the remote backend (a local botarena serve)")
    return "remote"


def make_pool(
    game: str,
    num_envs: int,
    *,
    learner_seats: Sequence[int] | None = None,
    opponents: str | Mapping[int, str] | None = None,
    seed: int | None = None,
    address: str | None = None,
    autoreset: str = "next_step",
    compression: str | None = None,
    workers: int = 0,
    transport: str = "unary",
    client: Client | None = None,
    backend: str = "auto",
    batch_size: int | None = None,
    shared_planes: bool = False,
    **config: Any,
) -> Pool:
    """A pool of ``num_envs`` envs of ``game`` on the chosen backend; ``botarena.Pool(...)`` is this function.

    The two backends give the same bytes for the same seed:

    * ``"native"``: the Go pool runs inside this process (the shared library
      ``libbotarena``, see :mod:`botarena.native`) and writes observations,
      masks, rewards and flags straight into numpy arrays the pool owns: no
      copy, no server, microseconds per call. It returns a
      :class:`~botarena.native.NativePool`, whose returned arrays are
      overwritten by the next step (copy what you keep; in async mode a
      batch's arrays stay valid until the next ``recv`` returns).
    * ``"remote"``: the pool lives in a ``botarena serve`` (at ``address``,
      on ``client``'s server, or in a local one the pool starts) and every
      step is a call; it returns a :class:`~botarena.remote.RemotePool`,
      whose arrays are views of each response and stay valid.
    * ``"auto"`` (the default; ``$BOTARENA_BACKEND`` overrides it): native
      when no ``address`` or ``client`` is given and the library is
      available (bundled, or built from this checkout with Go and a C
      compiler), else remote. ``"native"`` where the library is not
      available says why in one line on stderr and uses the remote backend.

    Args:
        game: registry name, e.g. ``"bomberman"`` or ``"bomberman/2p"``.
        num_envs: number of envs.
        learner_seats: seats whose actions :meth:`~botarena.pool.Pool.step`
            takes (default all).
        opponents: agent for the other seats: a name (every seat that is not
            a learner seat) or ``{seat: name}``.
        seed: pool seed (None: one is drawn; see ``pool.seed``).
        address, client, compression, transport, shared_planes: the remote
            backend's (see :class:`~botarena.remote.RemotePool`); the native
            one ignores compression, transport and shared_planes.
        autoreset: ``"next_step"`` (Gymnasium 1.x) or ``"same_step"``.
        workers: goroutines stepping the pool (0: all cores).
        backend: ``"auto"``, ``"native"`` or ``"remote"`` (see above).
        batch_size: step asynchronously in batches of this many envs,
            1..num_envs (EnvPool's send/recv; see :class:`~botarena.pool.Pool`);
            None (the default) steps synchronously.
        **config: fields of the game's JSON config, e.g. ``players=2``.
    """
    settings: dict[str, Any] = dict(
        learner_seats=learner_seats,
        opponents=opponents,
        seed=seed,
        autoreset=autoreset,
        compression=compression,
        workers=workers,
        transport=transport,
        batch_size=batch_size,
        shared_planes=shared_planes,
    )
    if choose_backend(backend, address, client) == "native":
        return native.NativePool(game, num_envs, **settings, **config)
    return RemotePool(game, num_envs, address=address, client=client, **settings, **config)
