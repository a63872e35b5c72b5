"""Exceptions raised by the botarena client.

Every failed RPC is raised as a :class:`BotarenaError` (or the subclass for its
gRPC status code) whose message is the server's own error text, for example
``NotFoundError: [NOT_FOUND] unknown game "chess"``. The subclasses also derive
from the matching built-in exception where one fits, so ``except ValueError``
catches a bad config or bad actions and ``except LookupError`` an unknown game.
"""

from __future__ import annotations

import grpc

__all__ = [
    "BotarenaError",
    "NotFoundError",
    "AlreadyExistsError",
    "InvalidArgumentError",
    "FailedPreconditionError",
    "ResourceExhaustedError",
    "UnavailableError",
    "ServerUnavailableError",
    "DeadlineExceededError",
    "UnauthenticatedError",
    "PermissionDeniedError",
    "ServerError",
    "MalformedResponseError",
    "from_rpc_error",
    "from_status",
]


class BotarenaError(Exception):
    """An error reported by the botarena server (or while talking to it).

    Attributes:
        code: the gRPC status code (``None`` for errors raised locally).
        message: the server's error message, without the code prefix.
    """

    code: grpc.StatusCode | None
    message: str

    def __init__(self, message: str, code: grpc.StatusCode | None = None) -> None:
        self.code = code
        self.message = message
        prefix = f"[{code.name}] " if code is not None else ""
        super().__init__(prefix + message)


class NotFoundError(BotarenaError, LookupError):
    """Unknown game, agent or pool (gRPC NOT_FOUND)."""


class AlreadyExistsError(BotarenaError):
    """A name that is taken, e.g. a league or a league agent (gRPC ALREADY_EXISTS)."""


class InvalidArgumentError(BotarenaError, ValueError):
    """Bad config, shapes or action values (gRPC INVALID_ARGUMENT)."""


class PermissionDeniedError(BotarenaError, PermissionError):
    """The server does not allow this, e.g. a policy file outside the server's --bots-dir (PERMISSION_DENIED)."""


class FailedPreconditionError(BotarenaError):
    """The call is not valid in the pool's state, e.g. step before reset (FAILED_PRECONDITION)."""


class ResourceExhaustedError(BotarenaError):
    """A server limit was reached: envs, pools or message size (RESOURCE_EXHAUSTED)."""


class ServerUnavailableError(BotarenaError, ConnectionError):
    """The server cannot be reached, stopped answering (keepalive) or is shutting down (UNAVAILABLE).

    The message names the server's address.
    """


#: The former name of :class:`ServerUnavailableError`.
UnavailableError = ServerUnavailableError


class DeadlineExceededError(BotarenaError, TimeoutError):
    """The call did not finish within its deadline (DEADLINE_EXCEEDED): the server is stuck or overloaded.

    The message names the server's address and the deadline.
    """


class UnauthenticatedError(BotarenaError, PermissionError):
    """The server wants a valid bearer token (UNAUTHENTICATED): pass ``token=`` or set BOTARENA_AUTH_TOKEN."""


class MalformedResponseError(BotarenaError, ValueError):
    """A response the client cannot read: not a protobuf message, or a batch that does not match the pool's schema.

    Raised before any array is made of the response, so a corrupted or
    hostile response never reads memory outside itself. ``code`` is None
    (the client found it, not the server).
    """


class ServerError(BotarenaError, RuntimeError):
    """A local ``botarena serve`` process could not be built, started or stopped."""


_BY_CODE: dict[grpc.StatusCode, type[BotarenaError]] = {
    grpc.StatusCode.NOT_FOUND: NotFoundError,
    grpc.StatusCode.ALREADY_EXISTS: AlreadyExistsError,
    grpc.StatusCode.INVALID_ARGUMENT: InvalidArgumentError,
    grpc.StatusCode.FAILED_PRECONDITION: FailedPreconditionError,
    grpc.StatusCode.PERMISSION_DENIED: PermissionDeniedError,
    grpc.StatusCode.RESOURCE_EXHAUSTED: ResourceExhaustedError,
    grpc.StatusCode.UNAVAILABLE: ServerUnavailableError,
    grpc.StatusCode.DEADLINE_EXCEEDED: DeadlineExceededError,
    grpc.StatusCode.UNAUTHENTICATED: UnauthenticatedError,
}


def from_rpc_error(err: grpc.RpcError, method: str = "", address: str = "") -> BotarenaError:
    """Converts a failed gRPC call into the matching :class:`BotarenaError`.

    Errors about the connection (unavailable, deadline exceeded) name the
    server's address, when given.
    """
    code: grpc.StatusCode | None = None
    details = ""
    if isinstance(err, grpc.Call):
        code = err.code()
        details = err.details() or ""
    if not details:
        details = str(err)
    if method:
        details = f"{method}: {details}"
    if address and code in (grpc.StatusCode.UNAVAILABLE, grpc.StatusCode.DEADLINE_EXCEEDED, grpc.StatusCode.UNAUTHENTICATED):
        details = f"server {address}: {details}"
    cls = _BY_CODE.get(code, BotarenaError) if code is not None else BotarenaError
    return cls(details, code)


# Connect's HTTP status for errors without a code (the Connect protocol's
# table; anything else is UNKNOWN).
_BY_HTTP_STATUS: dict[int, grpc.StatusCode] = {
    400: grpc.StatusCode.INTERNAL,
    401: grpc.StatusCode.UNAUTHENTICATED,
    403: grpc.StatusCode.PERMISSION_DENIED,
    404: grpc.StatusCode.UNIMPLEMENTED,
    429: grpc.StatusCode.UNAVAILABLE,
    502: grpc.StatusCode.UNAVAILABLE,
    503: grpc.StatusCode.UNAVAILABLE,
    504: grpc.StatusCode.UNAVAILABLE,
}


def from_status(code: str, message: str, method: str = "", address: str = "", *, http_status: int = 0) -> BotarenaError:
    """Converts a Connect protocol error (``{"code": "not_found", "message": ...}``) into a :class:`BotarenaError`.

    code is the Connect code name (the gRPC code's name in snake case,
    ``canceled`` for CANCELLED); an empty or unknown code is taken from the
    HTTP status. The message is decorated as :func:`from_rpc_error` does.
    """
    name = code.upper()
    status = grpc.StatusCode.CANCELLED if name == "CANCELED" else getattr(grpc.StatusCode, name, None) if name else None
    if not isinstance(status, grpc.StatusCode):
        status = _BY_HTTP_STATUS.get(http_status, grpc.StatusCode.UNKNOWN)
    details = f"{method}: {message}" if method else message
    if address and status in (grpc.StatusCode.UNAVAILABLE, grpc.StatusCode.DEADLINE_EXCEEDED, grpc.StatusCode.UNAUTHENTICATED):
        details = f"server {address}: {details}"
    return _BY_CODE.get(status, BotarenaError)(details, status)
