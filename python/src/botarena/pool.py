"""The raw batched multi-agent API: :class:`Pool`."""

from __future__ import annotations

import json
from dataclasses import dataclass
from types import TracebackType
from typing import Any, Mapping, Sequence, TypeAlias, Union

import numpy as np
import numpy.typing as npt

from botarena.batch import Batch, BatchDecoder, StepMessage
from botarena.client import Client, StepStream
from botarena.errors import FailedPreconditionError, InvalidArgumentError, MalformedResponseError
from botarena.server import Server, remember_token
from botarena.spec import GameSpec
from botarena.v1 import env_pb2

__all__ = ["Pool", "PoolStats", "SeatStats", "OpponentStats", "Opponent", "Mixture", "Obs", "Info"]

Obs = dict[str, npt.NDArray[Any]]
Info = dict[str, Any]

_AUTORESET_NAMES = {
    env_pb2.AUTO_RESET_UNSPECIFIED: "next_step",
    env_pb2.AUTO_RESET_NEXT_STEP: "next_step",
    env_pb2.AUTO_RESET_SAME_STEP: "same_step",
}


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


class Pool:
    """A pool of ``num_envs`` envs of one game, numpy in and out, stepped in this process or on a server.

    Every env has the same learner seats (default: all seats, for self-play);
    the pool has ``rows = num_envs * len(learner_seats)`` rows in the order
    ``row = env * len(learner_seats) + k``. Other seats are played on the
    server by built-in agents (``opponents``: one name for every other seat,
    or a dict seat → name).

    Two backends give the same bytes for the same seed (``backend``):

    * ``"native"``: the Go pool runs inside this process (the shared library
      ``libbotarena``, see :mod:`botarena.native`) and writes observations,
      masks, rewards and flags straight into numpy arrays this object owns:
      no copy, no server, microseconds per call. ``Pool(...)`` then returns a
      :class:`~botarena.native.NativePool`, a subclass with the same methods,
      whose returned arrays are overwritten by the next step (copy what you
      keep; in async mode a batch's arrays stay valid until the next
      :meth:`recv` returns).
    * ``"remote"``: the pool lives in a ``botarena serve`` (at ``address``, or
      a local one this pool starts) and every step is a gRPC call; the
      returned arrays are views of each response and stay valid.

    Async stepping, as EnvPool's send/recv, works on both backends:
    ``batch_size=B`` (1..num_envs) makes the pool step its envs in the
    background (on the server's workers, or the in-process pool's), in
    batches of B envs:

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
    * ``"auto"`` (the default; ``$BOTARENA_BACKEND`` overrides it): native
      when no ``address`` or ``client`` is given and the library is
      available (bundled, or built from this checkout with Go and a C
      compiler), else remote. ``"native"`` where the library is not
      available says why in one line on stderr and uses the remote backend.

    Args:
        game: registry name, e.g. ``"bomberman"`` or ``"bomberman/2p"``.
        num_envs: number of envs.
        learner_seats: seats whose actions :meth:`step` takes (default all).
        opponents: agent for the other seats: a name or ``{seat: name}``.
        seed: pool seed (None: the server picks one; see :attr:`seed`).
        address: ``host:port`` of a server; None starts a local :class:`Server`
            owned by the pool.
        autoreset: ``"next_step"`` (Gymnasium 1.x) or ``"same_step"``.
        compression: None/``"none"`` or ``"zstd"`` (Arrow body compression,
            for remote links; observations are then decompressed copies).
        workers: server goroutines stepping the pool (0: all cores).
        transport: ``"unary"`` (a Step call per step, the default: over
            HTTP/1.1 with the client's default ``protocol="connect"``) or
            ``"stream"`` (one gRPC StepStream; synchronous pools only: an
            async pool's Send and Recv are unary calls). Measured on 2 cores, unary
            is ahead: 147–155k against 97–112k agent-steps/s at 1024
            Bomberman envs, 175k against 56k at 64, 0.27 against 0.52 ms
            for one env.
        client: an existing :class:`Client` to use instead of ``address``.
        backend: ``"auto"``, ``"native"`` or ``"remote"`` (see above).
        batch_size: step asynchronously in batches of this many envs,
            1..num_envs (EnvPool's send/recv; see above); None (the
            default) steps synchronously.
        shared_planes: send the channels every seat of an env sees alike
            (``TensorSpec.shared``: walls, bombs, ...) once per env; the
            client rebuilds the same arrays (writable, from reused buffers).
            Halves Bomberman's batches: for links slower than loopback.
        **config: fields of the game's JSON config, e.g. ``players=2``.

    Remote observations are read-only numpy views of the response message
    (see :mod:`botarena.batch`); they stay valid after later steps.
    """

    #: Which backend runs the pool: "remote" here, "native" for NativePool.
    backend = "remote"
    #: Envs per async batch; None when stepping synchronously.
    batch_size: int | None = None

    def __new__(cls, *args: Any, **kwargs: Any) -> Pool:
        # A constructor call picks the backend; unpickling (no arguments)
        # makes the class that was pickled.
        if cls is Pool and (args or kwargs):
            from botarena import native

            if native.choose_backend(kwargs.get("backend", "auto"), kwargs.get("address"), kwargs.get("client")) == "native":
                return object.__new__(native.NativePool)
        return object.__new__(cls)

    def __init__(
        self,
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
    ) -> None:
        if transport not in ("unary", "stream"):
            raise ValueError(f"transport must be 'unary' or 'stream', got {transport!r}")
        if batch_size is not None and not 1 <= batch_size <= num_envs:
            raise ValueError(f"batch_size must be in 1..{num_envs} (num_envs), got {batch_size}")
        self.batch_size = batch_size
        self._last_ids: npt.NDArray[np.int32] | None = None
        self.game = game
        self.num_envs = num_envs
        self.config: dict[str, Any] = dict(config)
        self.transport = transport
        self._autoreset = autoreset
        self._compression = compression
        self._workers = workers
        self._shared_planes = shared_planes
        self._server: Server | None = None
        self._own_client = client is None
        self._pool_id: str | None = None
        self._stream: StepStream | None = None
        self._needs_reset = True
        self._mixtures: dict[int, list[tuple[str, float, str]]] = {}
        self.closed = False
        try:
            if client is None:
                if address is None:
                    self._server = Server().start()
                    address = self._server.address
                client = Client(address)
            self.client: Client = client
            self._learner_seats_arg = None if learner_seats is None else [int(s) for s in learner_seats]
            self._opponents = self._opponent_map(opponents)
            self._create(seed)
        except BaseException:
            self.close()
            raise

    # Construction ----------------------------------------------------------

    def _opponent_map(self, opponents: str | Mapping[int, str] | None) -> dict[int, str]:
        if opponents is None:
            return {}
        if isinstance(opponents, str):
            if self._learner_seats_arg is None:
                return {}
            spec = self.client.game_spec(self.game, self.config)
            learners = set(self._learner_seats_arg)
            return {s: opponents for s in range(spec.seats) if s not in learners}
        return {int(k): str(v) for k, v in opponents.items()}

    def _create(self, seed: int | None) -> None:
        resp = self.client.create_pool(
            self.game,
            self.num_envs,
            config=self.config,
            seed=seed,
            learner_seats=self._learner_seats_arg,
            opponents=self._opponents,
            autoreset=self._autoreset,
            compression=self._compression,
            workers=self._workers,
            shared_planes=self._shared_planes,
            batch_size=self.batch_size or 0,
        )
        self._pool_id = resp.pool_id
        self.spec: GameSpec = GameSpec.from_proto(resp.spec)
        self.decoder = BatchDecoder(resp.arrow_schema)
        self.seed: int = int(resp.seed)
        self.rows: int = int(resp.rows)
        self.learner_seats: tuple[int, ...] = tuple(int(s) for s in resp.learner_seats)
        self.autoreset: str = _AUTORESET_NAMES.get(resp.auto_reset, "next_step")
        self.workers: int = int(resp.workers)
        #: Whether the batches have the shared form (see ``shared_planes``).
        self.shared_planes: bool = bool(resp.shared_planes)
        self._needs_reset = True
        self._ended_zero = np.zeros(self.rows, dtype=bool)
        self._last_ids = None
        if self._mixtures:
            self.client.set_opponents(self._pool_id, self._mixtures)

    @property
    def pool_id(self) -> str:
        """The server's id of the pool."""
        if self._pool_id is None:
            raise RuntimeError("pool is closed")
        return self._pool_id

    def reseed(self, seed: int | None) -> None:
        """Replaces the pool on the server by a new one with this seed (same settings).

        Used for Gymnasium-style ``reset(seed=...)``: the same seed always
        gives the same episodes. Call :meth:`reset` next.
        """
        self._close_pool()
        self._create(seed)

    # Stepping --------------------------------------------------------------

    def _send(self, actions: bytes | memoryview, reset: bool) -> StepMessage:
        if self.transport == "stream":
            if self._stream is None:
                self._stream = self.client.step_stream(self.pool_id)
            return self._stream.send(actions, reset=reset)
        if reset:
            return self.client.reset(self.pool_id)
        return self.client.step(self.pool_id, actions)

    def _info(self, b: Batch, msg: StepMessage) -> Info:
        if msg.ended is not None and len(msg.ended):
            if len(msg.ended) != b.rows:
                raise MalformedResponseError(f"response message: {len(msg.ended)} ended flags for {b.rows} rows")
            ended = np.frombuffer(msg.ended, dtype=np.bool_)
        else:
            ended = self._ended_zero[: b.rows]
        info: Info = {"env": b.env, "seat": b.seat, "episode": b.episode, "ended": ended, "mask": b.mask}
        if msg.final_batch is not None:
            final = self.decoder.decode(msg.final_batch, b.rows)
            info["final_obs"] = final.obs
            info["final_mask"] = final.mask
        return info

    def reset(self) -> tuple[Obs, Info]:
        """Starts a new episode in every env; returns ``(obs, info)``.

        obs maps each tensor name to a ``(rows, *shape)`` array; info holds
        ``env``, ``seat``, ``episode`` (int32), ``ended`` (bool, all False)
        and ``mask`` (``(rows, actions)`` uint8).

        In async mode: :meth:`async_reset`, then the first batch from
        :meth:`recv` (``info["env_id"]`` names its envs).
        """
        if self.batch_size is not None:
            self.async_reset()
            obs, _, _, _, info = self.recv()
            return obs, info
        msg = self._send(b"", True)
        self._needs_reset = False
        b = self._decode(msg, self.rows)
        return b.obs, self._info(b, msg)

    def step(
        self, actions: npt.ArrayLike, env_id: npt.ArrayLike | None = None
    ) -> tuple[Obs, npt.NDArray[np.float32], npt.NDArray[np.bool_], npt.NDArray[np.bool_], Info]:
        """Applies one action per row; returns ``(obs, rewards, terminated, truncated, info)``.

        actions: ``rows`` integers in ``0..actions-1`` (any integer dtype; sent
        as little-endian int32; a value of a wider dtype outside the range is
        an InvalidArgumentError naming its index, never wrapped: see
        :func:`int32_values`). info is as for :meth:`reset`, with ``ended``
        True on the rows whose episode ended in this step (in next-step mode
        their env resets on the following step, ignoring its actions and
        returning reward 0); in same-step mode ``final_obs`` (and ``final_mask``) hold the final
        observation of the ended rows when any ended (``mask`` is already the
        new episode's).

        In async mode: :meth:`send` (to ``env_id``, default the last batch's
        envs) then :meth:`recv`; env_id is for async mode only.
        """
        if self.batch_size is not None:
            self.send(actions, env_id)
            return self.recv()
        if env_id is not None:
            raise FailedPreconditionError("step: env_id is for async pools (Pool(..., batch_size=N))")
        a = int32_values(actions, "action", self.spec.actions)
        msg = self._send(a.data.cast("B"), False)
        b = self._decode(msg, self.rows)
        return b.obs, b.reward, b.terminated, b.truncated, self._info(b, msg)

    def _need_async(self) -> int:
        if self.batch_size is None:
            raise FailedPreconditionError("async stepping needs a pool made with batch_size=N (Pool(..., batch_size=N))")
        return self.batch_size

    def async_reset(self) -> None:
        """Resets every env in the background; the next :meth:`recv` calls return their first observations.

        Batches not yet received and envs in flight are dropped. With
        num_envs not a multiple of batch_size, the last batch of first
        observations needs more envs sent first.
        """
        self._need_async()
        self.client.async_reset(self.pool_id)
        self._needs_reset = False
        self._last_ids = None

    def send(self, actions: npt.ArrayLike, env_id: npt.ArrayLike | None = None) -> None:
        """Queues envs ``env_id`` (default: the last batch's) with their actions and returns at once.

        actions holds ``len(env_id) * len(learner_seats)`` integers: each env's
        learner seats in order. An env can be sent again once :meth:`recv` has
        returned it; at most ``batch_size`` envs per call. Raises
        :class:`~botarena.errors.InvalidArgumentError` for an env out of
        range, in flight or named twice, or an action out of range.
        """
        batch_size = self._need_async()
        if env_id is None:
            if self._last_ids is None:
                raise FailedPreconditionError("send: no batch received yet to take the env ids from; pass env_id")
            ids = self._last_ids
        else:
            ids = int32_values(env_id, "env_id", self.num_envs, "index")
        if ids.size > batch_size:
            raise InvalidArgumentError(f"send: {ids.size} envs, at most batch_size={batch_size} per call")
        a = int32_values(actions, "action", self.spec.actions)
        n = ids.size * len(self.learner_seats)
        if a.size != n:
            raise InvalidArgumentError(f"actions: got {a.size}, want {n} (one per row)")
        self.client.send(self.pool_id, ids.data.cast("B"), a.data.cast("B"))

    def recv(self) -> tuple[Obs, npt.NDArray[np.float32], npt.NDArray[np.bool_], npt.NDArray[np.bool_], Info]:
        """Waits for the next ``batch_size`` envs to finish; returns their ``(obs, reward, terminated, truncated, info)``.

        ``info["env_id"]`` lists the batch's envs; the rest of info is as for
        :meth:`step`. The arrays are views of the response and stay valid.
        Raises :class:`~botarena.errors.FailedPreconditionError` when fewer
        than ``batch_size`` envs are in flight.
        """
        self._need_async()
        msg = self.client.recv(self.pool_id)
        b = self._decode(msg, self._need_async() * len(self.learner_seats))
        info = self._info(b, msg)
        ids = b.env[:: len(self.learner_seats)]
        info["env_id"] = ids
        self._last_ids = np.ascontiguousarray(ids, dtype="<i4")
        return b.obs, b.reward, b.terminated, b.truncated, info

    def step_batch(self, actions: npt.ArrayLike) -> tuple[Batch, StepMessage]:
        """Like :meth:`step` but returns the decoded :class:`Batch` and the raw message."""
        a = int32_values(actions, "action", self.spec.actions)
        msg = self._send(a.data.cast("B"), False)
        return self._decode(msg, self.rows), msg

    def _decode(self, msg: StepMessage, rows: int) -> Batch:
        """The batch of a response, which must hold rows rows (MalformedResponseError otherwise)."""
        if msg.batch is None:
            raise MalformedResponseError("response message: no batch")
        return self.decoder.decode(msg.batch, rows)

    # Opponents -------------------------------------------------------------

    @property
    def opponent_seats(self) -> tuple[int, ...]:
        """The seats played on the server (every seat that is not a learner seat)."""
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
        the opponents they started with; a choice keeps its server-side
        instances under its name. :meth:`stats` reports the results per
        choice. The mixtures survive :meth:`reseed`.

        Raises :class:`~botarena.errors.NotFoundError` for an unknown agent,
        :class:`~botarena.errors.PermissionDeniedError` for an external bot or
        policy file the server does not allow (``--bots-dir``, ``--allow-cmd-bots``, ...), and
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

    def _set_mixtures(self, mixtures: Mapping[int, Sequence[tuple[str, float, str]]]) -> None:
        """Sends checked mixtures ``{seat: [(spec, weight, name), ...]}`` to the pool."""
        self.client.set_opponents(self.pool_id, mixtures)

    # Other calls -----------------------------------------------------------

    def stats(self, *, reset: bool = False) -> PoolStats:
        """Episode statistics per learner seat and per opponent; reset clears them after reading."""
        r = self.client.stats(self.pool_id, reset=reset)
        return PoolStats(
            seats=tuple(
                SeatStats(s.seat, s.episodes, s.steps, s.return_sum, s.wins, s.draws, s.losses) for s in r.seats
            ),
            steps=int(r.steps),
            opponents=tuple(
                OpponentStats(o.seat, o.name, o.weight, o.episodes, o.wins, o.draws, o.losses, o.invalid)
                for o in r.opponents
            ),
            invalid=int(r.invalid),
        )

    def render(self, env: int = 0, *, format: str = "", seat: int = -1) -> str:
        """One env's state in a native text format (default: the game's first, map.txt for Bomberman)."""
        r = self.client.render(self.pool_id, env, format=format, seat=seat)
        data: bytes = r.data
        return data.decode("utf-8", "replace")

    def render_rgb(self, env: int = 0, *, seat: int = -1) -> npt.NDArray[np.uint8]:
        """One env's picture as seat sees it (-1: the full state): a ``(height, width, 3)`` uint8 array.

        The game draws it in Go (its ``Paint``); the size depends only on the
        game's config, so the frames of an episode make a video. The array is
        a read-only view of the response.
        """
        r = self.client.render(self.pool_id, env, format="rgb_array", seat=seat)
        h, w = int(r.height), int(r.width)
        data: bytes = r.data
        if h <= 0 or w <= 0 or len(data) != h * w * 3:
            raise ValueError(f"render_rgb: got {len(data)} bytes for a {w}x{h} picture")
        return np.frombuffer(data, dtype=np.uint8).reshape(h, w, 3)

    # Pickling ---------------------------------------------------------------

    def __getstate__(self) -> dict[str, Any]:
        """What a copy needs to make an equal pool: the constructor's arguments and the opponent mixtures.

        A pool pickles by its settings, not its state: unpickling creates a
        new pool on the same server (or, for a pool that started its own
        server, on a new local server), which must be reset before its first
        step. Used by copy.deepcopy, multiprocessing, SuperSuit and Ray.
        The state holds the client's token for another server, so that a
        copy in another process reaches a server this process started.
        """
        own_server = self._server is not None
        client = getattr(self, "client", None)
        return {
            "token": None if own_server or client is None else client._token,
            "game": self.game,
            "num_envs": self.num_envs,
            "learner_seats": self._learner_seats_arg,
            "opponents": self._opponents,
            "seed": getattr(self, "seed", None),
            "address": None if own_server else self.client.address,
            "autoreset": self._autoreset,
            "compression": self._compression,
            "workers": self._workers,
            "shared_planes": self._shared_planes,
            "batch_size": self.batch_size,
            "transport": self.transport,
            "backend": self.backend,
            "config": self.config,
            "mixtures": self._mixtures,
        }

    def __setstate__(self, state: dict[str, Any]) -> None:
        token = state.pop("token", None)
        if state.get("address"):
            remember_token(state["address"], token)
        mixtures = state.pop("mixtures")
        config = state.pop("config")
        opponents = state.pop("opponents")
        learner_seats = state.pop("learner_seats")
        self.__init__(  # type: ignore[misc]
            learner_seats=learner_seats, opponents=opponents or None, **state, **config
        )
        if mixtures:
            self.client.set_opponents(self.pool_id, mixtures)
            self._mixtures = dict(mixtures)

    def _close_pool(self) -> None:
        if self._stream is not None:
            self._stream.close()
            self._stream = None
        if self._pool_id is not None:
            pool_id, self._pool_id = self._pool_id, None
            try:
                self.client.close_pool(pool_id, missing_ok=True)
            except Exception:
                if not self.closed:
                    raise

    def close(self) -> None:
        """Closes the pool, and the client and server the pool started. Safe to call twice."""
        if self.closed:
            return
        self.closed = True
        try:
            if hasattr(self, "client"):
                self._close_pool()
        finally:
            if self._own_client and hasattr(self, "client"):
                self.client.close()
            if self._server is not None:
                self._server.stop()
                self._server = None

    def __enter__(self) -> Pool:
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()

    def __repr__(self) -> str:
        return (
            f"Pool({self.game!r}, num_envs={self.num_envs}, learner_seats={getattr(self, 'learner_seats', None)}, "
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
    a = values if isinstance(values, np.ndarray) else np.asarray(values)
    if a.dtype != _INT32:
        if a.dtype.kind not in "iub":
            raise TypeError(f"{what}s must be integers, got dtype {a.dtype}")
        if _wider_than_int32(a.dtype):
            check_int32_range(a, what, high, at)
        a = a.astype(_INT32)
    return np.ascontiguousarray(a).reshape(-1)


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
