"""The one pool interface, :class:`Pool`, and what its implementations share.

A pool is ``num_envs`` envs of one game, numpy in and out. :class:`Pool` is
the interface every backend implements: :class:`~botarena.native.NativePool`
runs the Go pool in this process, :class:`~botarena.remote.RemotePool` on a
``botarena serve``. :func:`botarena.make_pool` (also spelled
``botarena.Pool(...)``) returns the one a backend choice gives; nothing here
imports an implementation.

Both implementations make their pool from the same CreatePoolRequest
(:func:`pool_request`) and read the same CreatePoolResponse
(:meth:`Pool._created`): the proto is the one schema of their settings.
"""

from __future__ import annotations

import abc
import json
from dataclasses import dataclass, fields
from typing import Any, Mapping, Sequence, TypeAlias, TypeVar, Union

import numpy as np
import numpy.typing as npt

from botarena._closing import Closing
from botarena.errors import FailedPreconditionError, InvalidArgumentError
from botarena.spec import GameSpec
from botarena.v1 import env_pb2

__all__ = [
    "Pool",
    "PoolStats",
    "SeatStats",
    "OpponentStats",
    "Opponent",
    "Mixture",
    "Obs",
    "Info",
    "Step",
    "pool_request",
    "AUTORESET_MODES",
    "COMPRESSIONS",
]

Obs = dict[str, npt.NDArray[Any]]
Info = dict[str, Any]
#: What :meth:`Pool.step` and :meth:`Pool.recv` return: ``(obs, reward, terminated, truncated, info)``.
Step = tuple[Obs, npt.NDArray[np.float32], npt.NDArray[np.bool_], npt.NDArray[np.bool_], Info]

#: The autoreset modes by name, as CreatePoolRequest.auto_reset spells them (None: the default, next-step).
AUTORESET_MODES: dict[str | None, int] = {
    None: env_pb2.AUTO_RESET_UNSPECIFIED,
    "next_step": env_pb2.AUTO_RESET_NEXT_STEP,
    "same_step": env_pb2.AUTO_RESET_SAME_STEP,
}
#: The compressions by name, as CreatePoolRequest.compression spells them (None: the default, none).
COMPRESSIONS: dict[str | None, int] = {
    None: env_pb2.COMPRESSION_UNSPECIFIED,
    "none": env_pb2.COMPRESSION_NONE,
    "zstd": env_pb2.COMPRESSION_ZSTD,
}
_AUTORESET_NAMES = {
    env_pb2.AUTO_RESET_UNSPECIFIED: "next_step",
    env_pb2.AUTO_RESET_NEXT_STEP: "next_step",
    env_pb2.AUTO_RESET_SAME_STEP: "same_step",
}


def pool_request(
    game: str,
    num_envs: int,
    *,
    config: Mapping[str, Any] | str | None = None,
    seed: int | None = None,
    learner_seats: Sequence[int] | None = None,
    opponents: Mapping[int, str] | None = None,
    default_opponent: str = "",
    autoreset: str | None = None,
    compression: str | None = None,
    workers: int = 0,
    shared_planes: bool = False,
    batch_size: int = 0,
) -> env_pb2.CreatePoolRequest:
    """The CreatePoolRequest of these settings; ValueError for an unknown autoreset or compression.

    config is a dict of config fields or their JSON; seed wraps to uint64;
    default_opponent plays every seat that is neither a learner seat nor
    in opponents (with learner_seats given).
    """
    if autoreset not in AUTORESET_MODES:
        raise ValueError(f"autoreset must be one of 'next_step', 'same_step', got {autoreset!r}")
    if compression not in COMPRESSIONS:
        raise ValueError(f"compression must be one of 'none', 'zstd', got {compression!r}")
    config_json = config if isinstance(config, str) else (json.dumps(dict(config)) if config else "")
    req = env_pb2.CreatePoolRequest(
        game=game,
        config_json=config_json,
        num_envs=num_envs,
        learner_seats=list(learner_seats or []),
        opponents={int(k): v for k, v in (opponents or {}).items()},
        default_opponent=default_opponent,
        auto_reset=AUTORESET_MODES[autoreset],  # type: ignore[arg-type]
        compression=COMPRESSIONS[compression],  # type: ignore[arg-type]
        workers=workers,
        shared_planes=shared_planes,
        batch_size=batch_size,
    )
    if seed is not None:
        req.seed = int(seed) & 0xFFFFFFFFFFFFFFFF
    return req


_Stats = TypeVar("_Stats", "SeatStats", "OpponentStats")


def _from_fields(cls: type[_Stats], msg: Any) -> _Stats:
    """cls built from the protobuf message's fields of the same names (the dataclass mirrors the message)."""
    return cls(**{f.name: getattr(msg, f.name) for f in fields(cls)})


@dataclass(frozen=True)
class SeatStats:
    """Completed-episode statistics of one learner seat, summed over the pool's envs."""

    seat: int
    episodes: int
    steps: int
    return_sum: float
    wins: int
    draws: int
    losses: int

    @property
    def mean_return(self) -> float:
        """The mean episode return (nan before the first episode ends)."""
        return self.return_sum / self.episodes if self.episodes else float("nan")

    @property
    def mean_length(self) -> float:
        """The mean episode length in steps (nan before the first episode ends)."""
        return self.steps / self.episodes if self.episodes else float("nan")

    @property
    def win_rate(self) -> float:
        """wins / episodes (nan before the first episode ends)."""
        return self.wins / self.episodes if self.episodes else float("nan")


@dataclass(frozen=True)
class OpponentStats:
    """The learner seats' results against one choice of one opponent seat's mixture.

    Counts the completed episodes whose opponent at ``seat`` was drawn from
    the choice ``name`` (its spec unless named): a win is an episode a
    learner seat won, a draw a drawn game, a loss anything else. ``weight``
    is the choice's weight now (0 once removed by :meth:`Pool.set_opponents`).
    ``invalid`` counts the opponent seat's own invalid actions in those
    episodes (what the game treated as invalid or illegal).
    """

    seat: int
    name: str
    weight: float
    episodes: int
    wins: int
    draws: int
    losses: int
    invalid: int = 0

    @property
    def win_rate(self) -> float:
        """wins / episodes (nan before the first episode ends)."""
        return self.wins / self.episodes if self.episodes else float("nan")

    @property
    def score(self) -> float:
        """(wins + draws / 2) / episodes (nan before the first episode ends)."""
        return (self.wins + self.draws / 2) / self.episodes if self.episodes else float("nan")


@dataclass(frozen=True)
class PoolStats:
    """A pool's statistics: one :class:`SeatStats` per learner seat, the Step calls served, and per opponent.

    ``invalid`` is the learner seats' invalid actions in the completed
    episodes (what the game treated as invalid or illegal and carried out as
    the original does, usually as nothing), summed over seats and episodes.
    """

    seats: tuple[SeatStats, ...]
    steps: int
    opponents: tuple[OpponentStats, ...] = ()
    invalid: int = 0

    @classmethod
    def from_proto(cls, msg: env_pb2.StatsResponse) -> PoolStats:
        """Builds PoolStats from its protobuf message (the Stats call of either backend)."""
        return cls(
            seats=tuple(_from_fields(SeatStats, s) for s in msg.seats),
            steps=int(msg.steps),
            opponents=tuple(_from_fields(OpponentStats, o) for o in msg.opponents),
            invalid=int(msg.invalid),
        )

    @property
    def mean_invalid(self) -> float:
        """The learner seats' invalid actions per completed episode (nan before the first episode ends)."""
        episodes = self.seats[0].episodes if self.seats else 0
        return self.invalid / episodes if episodes else float("nan")

    def by_opponent(self, seat: int | None = None) -> dict[str, OpponentStats]:
        """The opponent stats by choice name, of ``seat`` (default: the lowest opponent seat)."""
        if not self.opponents:
            return {}
        if seat is None:
            seat = min(o.seat for o in self.opponents)
        return {o.name: o for o in self.opponents if o.seat == seat}


@dataclass(frozen=True)
class Opponent:
    """One weighted choice of an opponent seat's mixture (see :meth:`Pool.set_opponents`).

    spec is an agent: a built-in agent name, or (on a server started with
    ``--bots-dir``, ``--allow-cmd-bots``, ...) ``policy:PATH``, ``cmd:...``, ...; name
    identifies it in :class:`OpponentStats` (default: the spec).
    """

    spec: str
    weight: float = 1.0
    name: str = ""


#: A seat's mixture: one agent spec, ``{spec: weight}``, or :class:`Opponent` choices.
Mixture: TypeAlias = Union[str, Mapping[str, float], Sequence[Opponent]]

class Pool(Closing, abc.ABC):
    """A pool of ``num_envs`` envs of one game, numpy in and out: the interface of every backend.

    Make one with :func:`botarena.make_pool` (or ``botarena.Pool(...)``, the
    same function), which returns a :class:`~botarena.native.NativePool` or
    a :class:`~botarena.remote.RemotePool`; their arguments, methods and
    results are these, and they give the same bytes for the same seed.

    Every env has the same learner seats (default: all seats, for self-play);
    the pool has ``rows = num_envs * len(learner_seats)`` rows in the order
    ``row = env * len(learner_seats) + k``. Other seats are played by
    built-in agents (``opponents``: one name for every other seat, or a dict
    seat → name).

    Async stepping, as EnvPool's send/recv, works on both backends:
    ``batch_size=B`` (1..num_envs) makes the pool step its envs in the
    background in batches of B envs:

    * :meth:`async_reset` resets every env in the background;
      :meth:`send` queues envs with their actions and returns at once;
      :meth:`recv` returns the next B envs that finished, as
      ``(obs, reward, terminated, truncated, info)`` with
      ``B * len(learner_seats)`` rows (an env's rows together, in
      learner-seat order) and ``info["env_id"]`` the envs in row order;
    * :meth:`reset` is ``async_reset()`` then ``recv()``, returning
      ``(obs, info)``; :meth:`step` is ``send(actions, env_id)`` then
      ``recv()``, with ``env_id`` defaulting to the last batch's envs.

    A batch holds the envs in the order they finished; with ``workers=1``
    that is the order they were sent (:meth:`async_reset`: env order), the
    same on both backends. An env's results are the same bytes whatever the
    order, the worker count or the backend: those :meth:`step` of a
    synchronous pool gives it for the same actions. :meth:`stats` waits for
    the envs in flight and counts :meth:`send` calls as steps.

    Not safe for concurrent use: call a pool's methods from one thread at a
    time.
    """

    #: Which backend runs the pool: "native" or "remote".
    backend: str
    #: Envs per async batch; None when stepping synchronously.
    batch_size: int | None = None
    #: Whether the batches have the shared form (remote backend with ``shared_planes``).
    shared_planes: bool = False
    # Set by _created from CreatePoolResponse:
    spec: GameSpec
    seed: int
    rows: int
    learner_seats: tuple[int, ...]
    autoreset: str
    workers: int

    def __init__(
        self,
        game: str,
        num_envs: int,
        *,
        learner_seats: Sequence[int] | None = None,
        opponents: str | Mapping[int, str] | None = None,
        autoreset: str = "next_step",
        compression: str | None = None,
        workers: int = 0,
        transport: str = "unary",
        batch_size: int | None = None,
        shared_planes: bool = False,
        **config: Any,
    ) -> None:
        """Checks and keeps the settings every backend shares (ValueError for bad ones); creates nothing.

        The settings are :func:`botarena.make_pool`'s; config holds the game's config fields.
        """
        if transport not in ("unary", "stream"):
            raise ValueError(f"transport must be 'unary' or 'stream', got {transport!r}")
        if batch_size is not None and not 1 <= batch_size <= num_envs:
            raise ValueError(f"batch_size must be in 1..{num_envs} (num_envs), got {batch_size}")
        if autoreset not in AUTORESET_MODES or autoreset is None:
            raise ValueError(f"autoreset must be one of 'next_step', 'same_step', got {autoreset!r}")
        if compression not in COMPRESSIONS:
            raise ValueError(f"compression must be one of 'none', 'zstd', got {compression!r}")
        self.game = game
        self.num_envs = num_envs
        self.config: dict[str, Any] = dict(config)
        self.transport = transport
        self.batch_size = batch_size
        self._autoreset = autoreset
        self._compression = compression
        self._workers = workers
        self._shared_planes = shared_planes
        self._learner_seats_arg = None if learner_seats is None else [int(s) for s in learner_seats]
        self._opponents_arg = opponents
        self._mixtures: dict[int, list[tuple[str, float, str]]] = {}
        self._pool_id: str | None = None
        self.closed = False

    def _request(self, seed: int | None) -> env_pb2.CreatePoolRequest:
        """The CreatePoolRequest of this pool's settings with seed."""
        opponents = self._opponents_arg
        return pool_request(
            self.game,
            self.num_envs,
            config=self.config,
            seed=seed,
            learner_seats=self._learner_seats_arg,
            opponents=opponents if isinstance(opponents, Mapping) else None,
            default_opponent=opponents if isinstance(opponents, str) else "",
            autoreset=self._autoreset,
            compression=self._compression,
            workers=self._workers,
            shared_planes=self._shared_planes,
            batch_size=self.batch_size or 0,
        )

    def _created(self, resp: env_pb2.CreatePoolResponse) -> None:
        """Takes the pool's description from its CreatePoolResponse."""
        self._pool_id = resp.pool_id
        self.spec = GameSpec.from_proto(resp.spec)
        self.seed = int(resp.seed)
        self.rows = int(resp.rows)
        self.learner_seats = tuple(int(s) for s in resp.learner_seats)
        self.autoreset = _AUTORESET_NAMES.get(resp.auto_reset, "next_step")
        self.workers = int(resp.workers)

    @property
    def pool_id(self) -> str:
        """The backend's id of the pool; RuntimeError once closed."""
        if self._pool_id is None:
            raise RuntimeError("pool is closed")
        return self._pool_id

    @abc.abstractmethod
    def reseed(self, seed: int | None) -> None:
        """Replaces the pool by a new one with this seed (same settings and mixtures); call :meth:`reset` next.

        Used for Gymnasium-style ``reset(seed=...)``: the same seed always
        gives the same episodes.
        """

    # Stepping --------------------------------------------------------------

    @abc.abstractmethod
    def reset(self) -> tuple[Obs, Info]:
        """Starts a new episode in every env; returns ``(obs, info)``.

        obs maps each tensor name to a ``(rows, *shape)`` array; info holds
        ``env``, ``seat``, ``episode`` (int32), ``ended`` (bool, all False)
        and ``mask`` (``(rows, actions)`` uint8).

        In async mode: :meth:`async_reset`, then the first batch from
        :meth:`recv` (``info["env_id"]`` names its envs).
        """

    @abc.abstractmethod
    def step(self, actions: npt.ArrayLike, env_id: npt.ArrayLike | None = None) -> Step:
        """Applies one action per row; returns ``(obs, rewards, terminated, truncated, info)``.

        actions: ``rows`` integers in ``0..actions-1`` (any integer dtype; a
        value of a wider dtype outside the range is an InvalidArgumentError
        naming its index, never wrapped: see :func:`int32_values`). info is
        as for :meth:`reset`, with ``ended`` True on the rows whose episode
        ended in this step (in next-step mode their env resets on the
        following step, ignoring its actions and returning reward 0); in
        same-step mode ``final_obs`` (and ``final_mask``) hold the final
        observation of the ended rows when any ended (``mask`` is already
        the new episode's).

        In async mode: :meth:`send` (to ``env_id``, default the last batch's
        envs) then :meth:`recv`; env_id is for async mode only.
        """

    def _need_async(self) -> int:
        if self.batch_size is None:
            raise FailedPreconditionError("async stepping needs a pool made with batch_size=N (Pool(..., batch_size=N))")
        return self.batch_size

    @abc.abstractmethod
    def async_reset(self) -> None:
        """Resets every env in the background; the next :meth:`recv` calls return their first observations.

        Batches not yet received and envs in flight are dropped. With
        num_envs not a multiple of batch_size, the last batch of first
        observations needs more envs sent first.
        """

    @abc.abstractmethod
    def send(self, actions: npt.ArrayLike, env_id: npt.ArrayLike | None = None) -> None:
        """Queues envs ``env_id`` (default: the last batch's) with their actions and returns at once.

        actions holds ``len(env_id) * len(learner_seats)`` integers: each env's
        learner seats in order. An env can be sent again once :meth:`recv` has
        returned it; at most ``batch_size`` envs per call. Raises
        :class:`~botarena.errors.InvalidArgumentError` for an env out of
        range, in flight or named twice, or an action out of range.
        """

    @abc.abstractmethod
    def recv(self) -> Step:
        """Waits for the next ``batch_size`` envs to finish; returns their ``(obs, reward, terminated, truncated, info)``.

        ``info["env_id"]`` lists the batch's envs; the rest of info is as for
        :meth:`step`. Raises :class:`~botarena.errors.FailedPreconditionError`
        when fewer than ``batch_size`` envs are in flight.
        """

    # Opponents -------------------------------------------------------------

    @property
    def opponent_seats(self) -> tuple[int, ...]:
        """The seats played by built-in agents (every seat that is not a learner seat)."""
        learners = set(self.learner_seats)
        return tuple(s for s in range(self.spec.seats) if s not in learners)

    def set_opponents(self, opponents: Mixture | Mapping[int, Mixture]) -> None:
        """Replaces who plays the opponent seats, from each env's next episode on.

        ``opponents`` is a mixture for every opponent seat, or a dict
        ``{seat: mixture}`` for some of them. A mixture is one agent spec
        (``"sniper"``), a dict ``{spec: weight}`` (``{"nop": 1, "sniper": 3}``)
        or a sequence of :class:`Opponent` choices (to name them). At each
        episode start every env draws one choice per seat with probability
        weight / sum of the weights, from the episode's seed, so runs stay
        reproducible from the pool seed. Episodes in progress finish against
        the opponents they started with; a choice keeps its instances under
        its name. :meth:`stats` reports the results per choice. The mixtures
        survive :meth:`reseed`.

        Raises :class:`~botarena.errors.NotFoundError` for an unknown agent,
        :class:`~botarena.errors.PermissionDeniedError` for an external bot or
        policy file a server does not allow (``--bots-dir``, ``--allow-cmd-bots``, ...), and
        :class:`~botarena.errors.InvalidArgumentError` for learner seats, empty
        mixtures, repeated names and weights that are negative or sum to 0.
        """
        if isinstance(opponents, Mapping) and opponents and all(isinstance(k, int) for k in opponents):
            per_seat = {int(k): _choices(v) for k, v in opponents.items()}  # type: ignore[arg-type]
        else:
            mix = _choices(opponents)  # type: ignore[arg-type]
            per_seat = {s: mix for s in self.opponent_seats}
        if not per_seat:
            raise ValueError("set_opponents: the pool has no opponent seats (every seat is a learner seat)")
        self._set_mixtures(per_seat)
        self._mixtures.update(per_seat)

    @abc.abstractmethod
    def _set_mixtures(self, mixtures: Mapping[int, Sequence[tuple[str, float, str]]]) -> None:
        """Sends checked mixtures ``{seat: [(spec, weight, name), ...]}`` to the pool."""

    # Other calls -----------------------------------------------------------

    @abc.abstractmethod
    def stats(self, *, reset: bool = False) -> PoolStats:
        """Episode statistics per learner seat and per opponent; reset clears them after reading."""

    @abc.abstractmethod
    def render(self, env: int = 0, *, format: str = "", seat: int = -1) -> str:
        """One env's state in a native text format (default: the game's first, map.txt for Bomberman)."""

    @abc.abstractmethod
    def render_rgb(self, env: int = 0, *, seat: int = -1) -> npt.NDArray[np.uint8]:
        """One env's picture as seat sees it (-1: the full state): a ``(height, width, 3)`` uint8 array.

        The game draws it in Go (its ``Paint``); the size depends only on the
        game's config, so the frames of an episode make a video.
        """

    @staticmethod
    def _picture(r: env_pb2.RenderResponse) -> npt.NDArray[np.uint8]:
        """The picture of a Render response: a read-only ``(height, width, 3)`` view of its data."""
        h, w = int(r.height), int(r.width)
        data: bytes = r.data
        if h <= 0 or w <= 0 or len(data) != h * w * 3:
            raise ValueError(f"render_rgb: got {len(data)} bytes for a {w}x{h} picture")
        return np.frombuffer(data, dtype=np.uint8).reshape(h, w, 3)

    # Lifetime ----------------------------------------------------------------

    def __getstate__(self) -> dict[str, Any]:
        """What a copy needs to make an equal pool: the constructor's arguments and the opponent mixtures.

        A pool pickles by its settings, not its state: unpickling creates a
        new pool with them (on the remote backend on the same server, which
        :meth:`_copy_state` and the backend's additions to this state say how
        to reach), which must be reset before its first step. Used by
        copy.deepcopy, multiprocessing, SuperSuit and Ray.
        """
        return {
            "game": self.game,
            "num_envs": self.num_envs,
            "learner_seats": self._learner_seats_arg,
            "opponents": self._opponents_arg,
            "seed": getattr(self, "seed", None),
            "autoreset": self._autoreset,
            "compression": self._compression,
            "workers": self._workers,
            "shared_planes": self._shared_planes,
            "batch_size": self.batch_size,
            "transport": self.transport,
            "config": self.config,
            "mixtures": self._mixtures,
        }

    def __setstate__(self, state: dict[str, Any]) -> None:
        state = dict(state)
        mixtures = state.pop("mixtures")
        config = state.pop("config")
        self.__init__(**state, **config)  # type: ignore[misc]
        if mixtures:
            self._set_mixtures(mixtures)
            self._mixtures = dict(mixtures)

    def _copy_state(self) -> tuple[bool, str | None]:
        """What a copy in another process needs besides the settings: whether this pool started its
        own server (the copy starts its own too), and the token of its server (None for none)."""
        return False, None

    @abc.abstractmethod
    def close(self) -> None:
        """Closes the pool (and what it started). Safe to call twice."""

    def __repr__(self) -> str:
        return (
            f"{type(self).__name__}({self.game!r}, num_envs={self.num_envs}, learner_seats={getattr(self, 'learner_seats', None)}, "
            f"batch_size={self.batch_size}, config={json.dumps(self.config)})"
        )


_INT32 = np.dtype("<i4")


def _wider_than_int32(dtype: np.dtype[Any]) -> bool:
    """Whether an integer dtype holds values int32 does not (int64, uint32, uint64)."""
    return dtype.itemsize > 4 or (dtype.kind == "u" and dtype.itemsize == 4)


def int32_action(value: Any, where: str) -> int:
    """One action as an int, refused with InvalidArgumentError (naming ``where``) when int32 cannot hold it.

    For the single-agent and PettingZoo envs, which take one Python or numpy
    integer per seat: a value outside int32 would otherwise overflow in the
    int32 action buffer (numpy's OverflowError) or wrap; the game itself
    checks the range 0..actions-1 and names the seat.
    """
    v = int(value)
    if not -(1 << 31) <= v < (1 << 31):
        raise InvalidArgumentError(f"action {v} of {where} is outside int32 (values are refused, not wrapped)")
    return v


def check_int32_range(a: npt.NDArray[Any], what: str = "action", high: int | None = None, at: str = "row") -> None:
    """Raises InvalidArgumentError naming the first value of integer array a outside 0..high-1 (or int32).

    The message reads as Go's for an action out of range: "action 99 at row 1
    is outside 0..33 ..." (what, the value, at and its index).

    For arrays of a dtype wider than int32, whose values would wrap when
    cast (2**32 + 5 to 5): with ``high`` (the actions, the envs) the values
    must lie in 0..high-1, else in int32. With ``high`` it is one pass, the
    maximum of the values read as unsigned (a negative one reads as huge):
    4 µs for 4096 int64 actions, against 2 µs for the cast itself; a second
    pass only names the index when one is out of range.
    """
    if a.size == 0:
        return
    lo, hi = (0, high - 1) if high is not None else (-(1 << 31), (1 << 31) - 1)
    if high is not None:
        unsigned = a if a.dtype.kind == "u" else a.view(np.dtype(a.dtype.str.replace("i", "u")))
        if int(unsigned.max()) <= hi:
            return
    elif int(a.min()) >= lo and int(a.max()) <= hi:
        return
    flat = a.reshape(-1)
    bad = flat > hi if a.dtype.kind == "u" else (flat < lo) | (flat > hi)
    i = int(np.flatnonzero(bad)[0])
    raise InvalidArgumentError(
        f"{what} {int(flat[i])} at {at} {i} is outside {lo}..{hi}" + ("" if high is not None else " (int32)")
        + f" ({a.dtype} values are refused, not wrapped to int32)"
    )


def int32_values(values: npt.ArrayLike, what: str = "action", high: int | None = None, at: str = "row") -> npt.NDArray[np.int32]:
    """values as a flat, contiguous little-endian int32 array, refusing what would wrap.

    An int32 array (or a narrower integer or bool one) is taken as it is,
    its values unread: the pool checks them (an action outside
    0..actions-1 or an env out of range is an InvalidArgumentError from Go).
    A wider one (int64, numpy's default for Python ints and what argmax
    returns; uint32; uint64) is checked first by :func:`check_int32_range`
    against 0..high-1 (int32 when high is None), so that ``2**32 + 5`` is
    an error naming its index instead of action 5. TypeError for
    non-integers.
    """
    a = checked_ints(values, what, high, at)
    if a.dtype != _INT32:
        a = a.astype(_INT32)
    return np.ascontiguousarray(a).reshape(-1)


def checked_ints(values: npt.ArrayLike, what: str = "action", high: int | None = None, at: str = "row") -> npt.NDArray[Any]:
    """values as an integer (or bool) array that casts to int32 without wrapping, not converted.

    The checks of :func:`int32_values` without its copy, for a caller that
    casts into a buffer of its own: TypeError for non-integers, and for a
    dtype wider than int32 :func:`check_int32_range` against 0..high-1 (int32
    when high is None). An int32 array is returned unread.
    """
    a = values if isinstance(values, np.ndarray) else np.asarray(values)
    if a.dtype != _INT32:
        if a.dtype.kind not in "iub":
            raise TypeError(f"{what}s must be integers, got dtype {a.dtype}")
        if _wider_than_int32(a.dtype):
            check_int32_range(a, what, high, at)
    return a


def _choices(mix: Mixture) -> list[tuple[str, float, str]]:
    """A mixture as ``(spec, weight, name)`` tuples."""
    if isinstance(mix, str):
        return [(mix, 1.0, "")]
    if isinstance(mix, Mapping):
        return [(str(spec), float(w), "") for spec, w in mix.items()]
    out: list[tuple[str, float, str]] = []
    for c in mix:
        if not isinstance(c, Opponent):
            raise TypeError(f"a mixture is a spec, a dict spec → weight or a sequence of Opponent, got an item {c!r}")
        out.append((c.spec, float(c.weight), c.name))
    return out

