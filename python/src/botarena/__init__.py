"""botarena: Python client of the botarena environment server.

* :func:`make_vec` — a Gymnasium 1.x ``VectorEnv``, one learner seat per env,
  built-in opponents in the other seats.
* :func:`parallel_env` — a PettingZoo ``ParallelEnv``, every seat a learner.
* :class:`Pool` — the raw batched multi-agent API, numpy in and out.
* :class:`Server` — starts a local ``botarena serve``; :class:`Client` — the
  gRPC client of ``botarena.v1.EnvService``.
* :class:`League` — a league directory (``botarena league``): agents,
  ratings, games, and PFSP opponent mixtures for :meth:`Pool.set_opponents`.

Observations arrive as numpy views of Arrow record batches, without copies
(see :mod:`botarena.batch`). Server errors are raised as
:class:`BotarenaError` subclasses carrying the server's message and code.
"""

from botarena.batch import Batch, BatchDecoder
from botarena.client import Client
from botarena.errors import (
    BotarenaError,
    FailedPreconditionError,
    InvalidArgumentError,
    NotFoundError,
    PermissionDeniedError,
    ResourceExhaustedError,
    ServerError,
    UnavailableError,
)
from botarena.league import League, LeagueError, LeagueRow, RunSummary
from botarena.parallel import BotarenaParallelEnv, parallel_env
from botarena.pool import Opponent, OpponentStats, Pool, PoolStats, SeatStats
from botarena.server import Server
from botarena.spec import GameInfo, GameSpec, TensorSpec
from botarena.vector import BotarenaVectorEnv, make_vec

__version__ = "0.1.0"

__all__ = [
    "Batch",
    "BatchDecoder",
    "BotarenaError",
    "BotarenaParallelEnv",
    "BotarenaVectorEnv",
    "Client",
    "FailedPreconditionError",
    "GameInfo",
    "GameSpec",
    "InvalidArgumentError",
    "League",
    "LeagueError",
    "LeagueRow",
    "NotFoundError",
    "Opponent",
    "OpponentStats",
    "PermissionDeniedError",
    "Pool",
    "PoolStats",
    "ResourceExhaustedError",
    "RunSummary",
    "SeatStats",
    "Server",
    "ServerError",
    "TensorSpec",
    "UnavailableError",
    "make_vec",
    "parallel_env",
    "__version__",
]
