"""The ``with`` statement of the objects that hold a connection, a pool or a process."""

from __future__ import annotations

from types import TracebackType
from typing import TypeVar

__all__ = ["Closing"]

_C = TypeVar("_C", bound="Closing")


class Closing:
    """A base class that makes an object with a ``close`` method a context manager.

    ``with obj:`` (or ``with obj as o:``, ``o`` being obj itself) calls
    ``obj.close()`` when the block ends, whether or not it raised; an
    exception is not suppressed. Subclasses define :meth:`close`, which must
    be safe to call twice (a ``with`` block may follow an explicit close).
    """

    def close(self) -> None:
        """Releases what the object holds; subclasses define it."""
        raise NotImplementedError(f"{type(self).__name__}.close")

    def __enter__(self: _C) -> _C:
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None) -> None:
        self.close()
