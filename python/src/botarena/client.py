"""A gRPC client for ``botarena.v1.EnvService``.

:class:`Client` wraps the generated stub with raised message limits and turns
every failed call into a :class:`~botarena.errors.BotarenaError` carrying the
server's message and status code. The hot-path calls (Reset, Step and
StepStream) bypass the protobuf runtime: requests are serialized by hand and
responses parsed by :func:`~botarena.batch.parse_step_message`, so the Arrow
batches are sliced out of the received bytes instead of being copied.
"""

from __future__ import annotations

import json
import queue
from types import TracebackType
from typing import Any, Callable, Iterator, Mapping, Sequence, TypeVar

import grpc

from botarena.batch import StepMessage, encode_step_request, parse_step_message
from botarena.errors import BotarenaError, NotFoundError, from_rpc_error
from botarena.spec import GameInfo, GameSpec
from botarena.v1 import env_pb2, env_pb2_grpc

__all__ = ["Client", "StepStream", "MAX_MESSAGE_BYTES", "AUTORESET_MODES", "COMPRESSIONS"]

#: Send and receive limit of the channel (a 4096-env Bomberman batch is ~22 MB).
MAX_MESSAGE_BYTES = 512 * 1024 * 1024

AUTORESET_MODES: dict[str | None, int] = {
    None: env_pb2.AUTO_RESET_UNSPECIFIED,
    "next_step": env_pb2.AUTO_RESET_NEXT_STEP,
    "same_step": env_pb2.AUTO_RESET_SAME_STEP,
}
COMPRESSIONS: dict[str | None, int] = {
    None: env_pb2.COMPRESSION_UNSPECIFIED,
    "none": env_pb2.COMPRESSION_NONE,
    "zstd": env_pb2.COMPRESSION_ZSTD,
}

_SERVICE = "/botarena.v1.EnvService/"
T = TypeVar("T")


def _call(method: str, fn: Callable[..., T], *args: Any, **kwargs: Any) -> T:
    try:
        return fn(*args, **kwargs)
    except grpc.RpcError as e:
        raise from_rpc_error(e, method) from None


class Client:
    """A connection to a botarena server.

    Args:
        address: ``host:port`` of ``botarena serve`` (gRPC over h2c).
        timeout: per-call deadline in seconds for the unary calls (None: none).
        options: extra grpc channel options.
    """

    def __init__(
        self,
        address: str,
        *,
        timeout: float | None = None,
        options: Sequence[tuple[str, Any]] = (),
    ) -> None:
        self.address = address
        self.timeout = timeout
        opts = [
            ("grpc.max_send_message_length", MAX_MESSAGE_BYTES),
            ("grpc.max_receive_message_length", MAX_MESSAGE_BYTES),
            *options,
        ]
        self.channel = grpc.insecure_channel(address, options=opts)
        self.stub = env_pb2_grpc.EnvServiceStub(self.channel)
        self._reset = self.channel.unary_unary(_SERVICE + "Reset", response_deserializer=parse_step_message)
        self._step = self.channel.unary_unary(_SERVICE + "Step", response_deserializer=parse_step_message)
        self._stream = self.channel.stream_stream(_SERVICE + "StepStream", response_deserializer=parse_step_message)

    def wait_ready(self, timeout: float = 10.0) -> None:
        """Blocks until the channel is connected (raises UnavailableError after timeout)."""
        try:
            grpc.channel_ready_future(self.channel).result(timeout=timeout)
        except grpc.FutureTimeoutError:
            from botarena.errors import UnavailableError

            raise UnavailableError(f"cannot connect to {self.address} within {timeout:g}s", grpc.StatusCode.UNAVAILABLE) from None

    # Catalogue -------------------------------------------------------------

    def list_games(self) -> list[GameInfo]:
        """The registered games with their default specs and built-in agents."""
        resp = _call("ListGames", self.stub.ListGames, env_pb2.ListGamesRequest(), timeout=self.timeout)
        return [GameInfo.from_proto(g) for g in resp.games]

    def game_spec(self, game: str, config: Mapping[str, Any] | None = None) -> GameSpec:
        """The spec of game with config applied (a one-env pool made and closed)."""
        resp = self.create_pool(game, num_envs=1, config=config, seed=0)
        try:
            return GameSpec.from_proto(resp.spec)
        finally:
            self.close_pool(resp.pool_id, missing_ok=True)

    # Pools -----------------------------------------------------------------

    def create_pool(
        self,
        game: str,
        num_envs: int,
        *,
        config: Mapping[str, Any] | str | None = None,
        seed: int | None = None,
        learner_seats: Sequence[int] | None = None,
        opponents: Mapping[int, str] | None = None,
        autoreset: str | None = None,
        compression: str | None = None,
        workers: int = 0,
    ) -> env_pb2.CreatePoolResponse:
        """Creates a pool (CreatePool); returns the raw response (pool_id, spec, arrow_schema, ...)."""
        if autoreset not in AUTORESET_MODES:
            raise ValueError(f"autoreset must be one of 'next_step', 'same_step', got {autoreset!r}")
        if compression not in COMPRESSIONS:
            raise ValueError(f"compression must be one of 'none', 'zstd', got {compression!r}")
        if isinstance(config, str):
            config_json = config
        else:
            config_json = json.dumps(dict(config)) if config else ""
        req = env_pb2.CreatePoolRequest(
            game=game,
            config_json=config_json,
            num_envs=num_envs,
            learner_seats=list(learner_seats or []),
            opponents={int(k): v for k, v in (opponents or {}).items()},
            auto_reset=AUTORESET_MODES[autoreset],  # type: ignore[arg-type]
            compression=COMPRESSIONS[compression],  # type: ignore[arg-type]
            workers=workers,
        )
        if seed is not None:
            req.seed = int(seed) & 0xFFFFFFFFFFFFFFFF
        return _call("CreatePool", self.stub.CreatePool, req, timeout=self.timeout)

    def reset(self, pool_id: str) -> StepMessage:
        """Resets every env of the pool (unary Reset)."""
        req = encode_step_request(pool_id.encode(), b"")
        return _call("Reset", self._reset, req, timeout=self.timeout)

    def step(self, pool_id: str, actions: bytes | memoryview) -> StepMessage:
        """Steps the pool (unary Step); actions are little-endian int32, one per row."""
        req = encode_step_request(pool_id.encode(), actions)
        return _call("Step", self._step, req, timeout=self.timeout)

    def step_stream(self, pool_id: str) -> StepStream:
        """Opens a StepStream on the pool: one response per request, in order."""
        return StepStream(self, pool_id)

    def render(self, pool_id: str, env: int = 0, *, format: str = "", seat: int = -1) -> env_pb2.RenderResponse:
        """One env's state in a native format (Render)."""
        req = env_pb2.RenderRequest(pool_id=pool_id, env=env, format=format, seat=seat)
        return _call("Render", self.stub.Render, req, timeout=self.timeout)

    def stats(self, pool_id: str, *, reset: bool = False) -> env_pb2.StatsResponse:
        """The pool's episode statistics per learner seat (Stats)."""
        req = env_pb2.StatsRequest(pool_id=pool_id, reset=reset)
        return _call("Stats", self.stub.Stats, req, timeout=self.timeout)

    def set_opponents(self, pool_id: str, mixtures: Mapping[int, Sequence[tuple[str, float, str]]]) -> None:
        """Replaces the opponent mixtures of some of the pool's seats (SetOpponents).

        mixtures maps an opponent seat to its choices, each ``(spec, weight,
        name)``; an empty name means the spec.
        """
        req = env_pb2.SetOpponentsRequest(pool_id=pool_id)
        for seat, choices in mixtures.items():
            mix = req.opponents[int(seat)]
            for spec, weight, name in choices:
                mix.choices.add(spec=spec, weight=float(weight), name=name)
        _call("SetOpponents", self.stub.SetOpponents, req, timeout=self.timeout)

    def close_pool(self, pool_id: str, *, missing_ok: bool = False) -> None:
        """Closes a pool; with missing_ok an unknown or closed pool is not an error."""
        try:
            _call("ClosePool", self.stub.ClosePool, env_pb2.ClosePoolRequest(pool_id=pool_id), timeout=self.timeout)
        except NotFoundError:
            if not missing_ok:
                raise

    # Lifetime --------------------------------------------------------------

    def close(self) -> None:
        """Closes the channel."""
        self.channel.close()

    def __enter__(self) -> Client:
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"Client({self.address!r})"


_STOP = object()


class StepStream:
    """A StepStream call used in lock step: :meth:`send` one request, get its response.

    gRPC's synchronous API feeds the request iterator from its own thread, so
    each request goes through a queue. After an error the stream is closed and
    the next :meth:`send` opens a new one.
    """

    def __init__(self, client: Client, pool_id: str) -> None:
        self._client = client
        self._pool_id = pool_id.encode()
        self._queue: queue.SimpleQueue[object] | None = None
        self._call: Any = None
        self._responses: Iterator[StepMessage] | None = None

    def _open(self) -> None:
        q: queue.SimpleQueue[object] = queue.SimpleQueue()
        self._queue = q
        self._call = self._client._stream(iter(q.get, _STOP))
        self._responses = self._call
        self._first = True

    def send(self, actions: bytes | memoryview, *, reset: bool = False) -> StepMessage:
        """Sends one step (or reset) request and returns its response."""
        if self._queue is None:
            self._open()
        assert self._queue is not None and self._responses is not None
        req = encode_step_request(self._pool_id if self._first else b"", actions, reset)
        self._first = False
        self._queue.put(req)
        try:
            return next(self._responses)
        except grpc.RpcError as e:
            self.close()
            raise from_rpc_error(e, "StepStream") from None
        except StopIteration:
            self.close()
            raise BotarenaError("StepStream: the server closed the stream") from None

    def close(self) -> None:
        """Ends the stream."""
        if self._queue is not None:
            self._queue.put(_STOP)
            try:
                self._call.cancel()
            except Exception:
                pass
        self._queue = None
        self._call = None
        self._responses = None
