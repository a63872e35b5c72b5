"""The ``with`` statement of the objects that hold a connection, a pool or a process."""

from __future__ import annotations

from types import TracebackType
from typing import Callable, TypeVar

__all__ = ["Closing", "Running", "release_quietly"]

_C = TypeVar("_C", bound="Closing")
_R = TypeVar("_R", bound="Running")


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


class Running:
    """A base class that makes an object that runs something between ``start`` and ``stop`` a context manager.

    ``with obj as o:`` calls ``obj.start()`` (``o`` is what it returns, obj
    itself) and ``obj.stop()`` when the block ends, whether or not it
    raised; an exception is not suppressed. Subclasses define :meth:`stop`,
    which must be safe to call twice, and :meth:`start` where the object is
    not running from its construction on; ``start`` returns the object.
    """

    def start(self: _R) -> _R:
        """Starts what the object runs; by default it runs from its construction on."""
        return self

    def stop(self) -> None:
        """Stops what the object runs; subclasses define it."""
        raise NotImplementedError(f"{type(self).__name__}.stop")

    def __enter__(self: _R) -> _R:
        return self.start()

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None) -> None:
        self.stop()


def release_quietly(release: Callable[[], None]) -> None:
    """Calls ``release`` (an object's ``close`` or ``stop``) from ``__del__``, swallowing any exception.

    A finalizer must not raise: it runs at any point in another frame, and
    at interpreter shutdown with half the modules it needs gone.
    """
    try:
        release()
    except Exception:
        pass
