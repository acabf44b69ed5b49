"""The one shape every layer has: :class:`Incremental` (``feed`` and ``close``).

Framers (bytes → records), provider adapters (records → unified events), the aggregator
(events → responses) and the :class:`~ssescope.pipeline.Pipeline` (bytes → events, then a
Report) all implement it::

    out = layer.feed(x)     # what this input completed; an empty list means "need more"
    out += layer.close()    # end of input: flush, report what was left unfinished

Feeding after ``close``, or closing twice, raises :class:`~ssescope.errors.UsageError`
with the messages below, in every layer, written one way: ``feed`` starts with
``if self._closed: refuse_feed_after_close()`` and ``close`` with ``close_once(self)``. Layers may take extra optional arguments (the
framers and the pipeline take an arrival ``time``) and still fit the protocol.
"""

from __future__ import annotations

from typing import Any, NoReturn, Protocol, TypeVar, runtime_checkable

from .errors import UsageError

__all__ = [
    "CLOSE_TWICE",
    "FEED_AFTER_CLOSE",
    "Incremental",
    "close_once",
    "refuse_feed_after_close",
]

FEED_AFTER_CLOSE = "feed() called after close()"
"""The :class:`~ssescope.errors.UsageError` message for input fed after ``close``."""

CLOSE_TWICE = "close() called twice"
"""The :class:`~ssescope.errors.UsageError` message for a second ``close``."""


def close_once(layer: Any) -> None:
    """Start ``layer.close()``: set its ``_closed`` flag (which its ``feed`` checks).

    Raises:
        UsageError: if the flag is already set (:data:`CLOSE_TWICE`).
    """
    if layer._closed:
        raise UsageError(CLOSE_TWICE)
    layer._closed = True


def refuse_feed_after_close() -> NoReturn:
    """Raise the :class:`~ssescope.errors.UsageError` of a ``feed`` after ``close``."""
    raise UsageError(FEED_AFTER_CLOSE)


_In_contra = TypeVar("_In_contra", contravariant=True)
_Out = TypeVar("_Out")


@runtime_checkable
class Incremental(Protocol[_In_contra, _Out]):
    """A sans-I/O layer: fed input piece by piece, closed once at the end."""

    def feed(self, data: _In_contra, /) -> list[_Out]:
        """Take the next piece of input; return what it completed (maybe nothing).

        Raises:
            UsageError: after :meth:`close`.
        """

    def close(self) -> list[_Out]:
        """End of input: return what was left (unfinished blocks, the final results).

        Raises:
            UsageError: if called twice.
        """
