"""botarena: Python client of the botarena environment server.

* ``gymnasium.make("botarena/<game>-v0")`` — a single-agent Gymnasium
  ``Env`` (:class:`BotarenaEnv`); the ids are registered on import, with
  ``/`` in a game name written as ``-`` (``botarena/bomberman-2p-v0``), each
  also as ``botarena/<game>-flat-v0`` (one float32 vector per observation),
  and ``gymnasium.make_vec`` of them returns botarena's own batched vector env.
* :func:`make_vec` — a Gymnasium 1.x ``VectorEnv``, one learner seat per env,
  built-in opponents in the other seats (next-step or same-step autoreset).
* :mod:`botarena.sb3` — Stable-Baselines3 ``VecEnv`` (with ``action_masks()``
  for MaskablePPO) and a features extractor for the games' small planes;
  ``botarena.sb3`` is imported on first use (``import botarena`` does not
  import SB3 or PyTorch).
* :func:`parallel_env` — a PettingZoo ``ParallelEnv``, every seat a learner.
* :func:`Pool` (the same function as :func:`make_pool`) — the raw batched
  multi-agent API, numpy in and out: it returns a :class:`botarena.pool.Pool`,
  the one pool interface. With the native backend (:class:`NativePool`, the
  default where the library is available) the Go pool runs in this process
  and writes into numpy arrays without a copy, and steps asynchronously
  (EnvPool's send/recv) with ``batch_size``; the remote backend
  (:class:`RemotePool`) steps a pool of a ``botarena serve``.
* :class:`Server` — starts a local ``botarena serve``; :class:`Client` — the
  gRPC client of ``botarena.v1.EnvService``.
* :class:`League` — a league (``botarena league``) kept by a server's
  leagues folder, a local one it starts by default: agents, ratings, games,
  runs with streamed progress, and PFSP opponent mixtures for
  :meth:`Pool.set_opponents`.

Observations arrive without copies: as views of the arrays the Go pool
writes (native backend, :mod:`botarena.native`) or of the Arrow record
batches a server sends (remote backend, :mod:`botarena.batch`). Server errors are raised as
:class:`BotarenaError` subclasses carrying the server's message and code.
"""

from botarena.backend import make_pool
from botarena.batch import Batch, BatchDecoder
from botarena.client import Client
from botarena.env import BotarenaEnv, env_id, register_envs
from botarena.errors import (
    AlreadyExistsError,
    BotarenaError,
    DeadlineExceededError,
    FailedPreconditionError,
    InvalidArgumentError,
    MalformedResponseError,
    NotFoundError,
    PermissionDeniedError,
    ResourceExhaustedError,
    ServerError,
    ServerUnavailableError,
    UnauthenticatedError,
    UnavailableError,
)
from botarena.league import League, LeagueError, LeagueRow, RunProgress, RunSummary
from botarena.native import NativePool, NativeUnavailableError
from botarena.parallel import BotarenaParallelEnv, aec_env, parallel_env
from botarena.pool import Opponent, OpponentStats, PoolStats, SeatStats
from botarena.remote import RemotePool
from botarena.server import Server
from botarena.spec import ConfigField, GameInfo, GameSpec, TensorSpec, TrainingDefaults
from botarena.vector import BotarenaVectorEnv, make_vec

__version__ = "0.1.0"

#: ``botarena.Pool(game, num_envs, ...)`` makes a pool: it is :func:`make_pool`, which returns the
#: native or the remote implementation of the one interface, :class:`botarena.pool.Pool` (the type
#: to annotate with and to test with isinstance), as ``multiprocessing.Pool`` returns a
#: ``multiprocessing.pool.Pool``.
Pool = make_pool

register_envs()

# Submodules that need an extra (SB3 and PyTorch, ...): attributes of the
# package, imported on first access so that ``import botarena`` stays light.
_LAZY_SUBMODULES = {"sb3": "sb3"}


def __getattr__(name: str) -> object:
    extra = _LAZY_SUBMODULES.get(name)
    if extra is None:
        raise AttributeError(f"module 'botarena' has no attribute {name!r}")
    import importlib

    try:
        return importlib.import_module(f"botarena.{name}")
    except ImportError as e:
        raise ImportError(f"botarena.{name} needs the {extra} extra (pip install 'botarena[{extra}]'): {e}") from e

__all__ = [
    "AlreadyExistsError",
    "Batch",
    "BatchDecoder",
    "BotarenaEnv",
    "BotarenaError",
    "BotarenaParallelEnv",
    "BotarenaVectorEnv",
    "Client",
    "ConfigField",
    "DeadlineExceededError",
    "FailedPreconditionError",
    "GameInfo",
    "TrainingDefaults",
    "GameSpec",
    "InvalidArgumentError",
    "MalformedResponseError",
    "League",
    "NativePool",
    "NativeUnavailableError",
    "LeagueError",
    "LeagueRow",
    "NotFoundError",
    "Opponent",
    "OpponentStats",
    "PermissionDeniedError",
    "Pool",
    "PoolStats",
    "RemotePool",
    "ResourceExhaustedError",
    "RunProgress",
    "RunSummary",
    "SeatStats",
    "Server",
    "ServerError",
    "ServerUnavailableError",
    "TensorSpec",
    "UnauthenticatedError",
    "UnavailableError",
    "aec_env",
    "env_id",
    "make_pool",
    "make_vec",
    "parallel_env",
    "register_envs",
    "__version__",
]
