"""One tool-call tracker for every adapter whose wire streams a call's arguments.

A call is started (its identity, maybe announced as a first :class:`ToolCallDelta`), fed
argument fragments, and ended once (:class:`ToolCallEnd`), or it arrives whole
(:class:`ToolCall`). The tracker keeps the calls of a response by the key the wire names
them by (a block or output index, a call id, an item), knows which are open and which
ended, and writes the unified events. What a provider's wire does besides (the ids a
Chat Completions fragment restates, the argument paths Gemini builds, the input an
Anthropic block starts with) stays in that provider.

Events address a call the way the protocol does: a delta by the call's key alone (its
``index``, or its ``id`` when the tracker is ``by_id``), an end by the index and id the
call was started with.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Generic, TypeVar

from ..events import ToolCall, ToolCallDelta, ToolCallEnd
from ._base import AdapterOutput

__all__ = ["ToolCallTracker", "TrackedCall"]

_K = TypeVar("_K", bound=Hashable)


class TrackedCall:
    """One tool call of the current response, as far as the stream has got.

    Attributes:
        output: the choice / candidate it belongs to.
        index: its position (a block or output index), when the wire gives one.
        id: its call id, as its events carry it.
        name: its tool's name, when known.
        kind: ``"function"``, ``"custom"``, ``"server"``, ``"mcp"``.
        format: ``"json"`` or ``"text"`` arguments.
        announced: its first delta (identity, name, type) was emitted.
        streamed: an argument fragment arrived.
        ended: its end (or the whole call) was emitted.
        arguments: the arguments built so far, for a wire whose calls are emitted whole
            once over (:meth:`ToolCallTracker.append`); ``""`` otherwise.
    """

    __slots__ = (
        "announced",
        "arguments",
        "ended",
        "format",
        "id",
        "index",
        "kind",
        "name",
        "output",
        "streamed",
    )

    def __init__(
        self,
        output: int,
        index: int | None,
        call_id: str | None,
        name: str | None,
        kind: str,
        fmt: str,
    ) -> None:
        self.output = output
        self.index = index
        self.id = call_id
        self.name = name
        self.kind = kind
        self.format = fmt
        self.announced = False
        self.streamed = False
        self.ended = False
        self.arguments = ""


class ToolCallTracker(Generic[_K]):
    """The tool calls of one response, by key (see the module docstring).

    Args:
        by_id: the wire names a call by its id (a delta carries the id, not an index).
    """

    __slots__ = ("_by_id", "_calls")

    def __init__(self, by_id: bool = False) -> None:
        self._by_id = by_id
        self._calls: dict[_K, TrackedCall] = {}

    def __len__(self) -> int:
        return len(self._calls)

    def __contains__(self, key: object) -> bool:
        return key in self._calls

    def get(self, key: _K) -> TrackedCall | None:
        """The call kept under ``key``, if any."""
        return self._calls.get(key)

    def pop(self, key: _K) -> TrackedCall | None:
        """Forget the call kept under ``key`` and return it (``None`` if there was none)."""
        return self._calls.pop(key, None)

    def clear(self) -> None:
        """Forget every call (a new response starts)."""
        self._calls.clear()

    def keys(self) -> list[_K]:
        """The keys of the calls, in the order they were started."""
        return list(self._calls)

    def open_keys(self) -> list[_K]:
        """The keys of the calls not ended yet, in the order they were started."""
        return [key for key, call in self._calls.items() if not call.ended]

    def track(
        self,
        key: _K,
        output: int = 0,
        index: int | None = None,
        call_id: str | None = None,
        name: str | None = None,
        kind: str = "function",
        fmt: str = "json",
    ) -> TrackedCall:
        """Keep a new call under ``key``, the newest (replacing any other there); no event."""
        call = TrackedCall(output, index, call_id, name, kind, fmt)
        self._calls.pop(key, None)
        self._calls[key] = call
        return call

    def announce(
        self,
        call: TrackedCall,
        record: int,
        out: list[AdapterOutput],
        call_type: str | None = None,
        call_id: str | None = None,
        index: int | None = None,
    ) -> None:
        """Emit a call's first delta: its index (``index`` when the event names another
        position), id (``call_id`` when its events do not carry one), name, type, kind and
        format, with no arguments."""
        call.announced = True
        out.append(
            ToolCallDelta(
                record,
                call.output,
                index if index is not None else call.index,
                call_id if call_id is not None else call.id,
                call.name,
                None,
                call_type,
                call.kind,
                call.format,
            )
        )

    def start(
        self,
        key: _K,
        record: int,
        out: list[AdapterOutput],
        output: int = 0,
        index: int | None = None,
        call_id: str | None = None,
        name: str | None = None,
        kind: str = "function",
    ) -> TrackedCall:
        """Keep a new call under ``key`` and announce it (:meth:`track`, :meth:`announce`)."""
        call = self.track(key, output, index, call_id, name, kind)
        self.announce(call, record, out)
        return call

    def delta(
        self,
        call: TrackedCall | None,
        record: int,
        arguments: str,
        out: list[AdapterOutput],
        index: int | None = None,
        kind: str | None = None,
        fmt: str | None = None,
    ) -> None:
        """Emit an argument fragment of ``call`` (``None``: of a call never started).

        ``index`` (when the event names another position), ``kind`` and ``fmt`` (when the
        event's type says them) take the place of the call's.
        """
        if call is None:
            out.append(
                ToolCallDelta(
                    record, 0, index, None, None, arguments, None, kind or "function", fmt or "json"
                )
            )
            return
        call.streamed = True
        out.append(
            ToolCallDelta(
                record,
                call.output,
                index if index is not None else call.index,
                call.id if self._by_id else None,
                None,
                arguments,
                None,
                kind or call.kind,
                fmt or call.format,
            )
        )

    def append(self, call: TrackedCall, fragment: str) -> None:
        """Add an argument fragment to ``call``'s arguments; the first one replaces the
        arguments the call started with (the fragments restate them)."""
        if not call.streamed:
            call.arguments = ""
            call.streamed = True
        call.arguments += fragment

    def end(
        self,
        call: TrackedCall,
        record: int,
        out: list[AdapterOutput],
        arguments: str | None = None,
        name: str | None = None,
        index: int | None = None,
    ) -> bool:
        """Emit the end of ``call`` once, with the whole ``arguments`` when the wire
        restates them; ``False`` (and nothing) when it already ended."""
        if call.ended:
            return False
        call.ended = True
        out.append(
            ToolCallEnd(
                record,
                call.output,
                index if index is not None else call.index,
                call.id,
                arguments,
                name,
            )
        )
        return True

    def whole(
        self,
        call: TrackedCall,
        record: int,
        out: list[AdapterOutput],
        arguments: str,
        complete: bool = True,
        call_id: str | None = None,
    ) -> None:
        """Emit ``call`` as one whole :class:`ToolCall` and mark it ended (``complete``
        false: the wire says it was cut short). ``call_id`` is the id the event carries
        when the call's own events carry none."""
        call.ended = True
        out.append(
            ToolCall(
                record,
                call.output,
                call.index,
                call_id if call_id is not None else call.id,
                call.name,
                arguments,
                call.kind,
                call.format,
                complete,
            )
        )

    def finish(
        self, key: _K, record: int, out: list[AdapterOutput], arguments: str, complete: bool
    ) -> None:
        """Forget the call under ``key`` and emit it whole (:meth:`whole`): a wire that
        gives a call's arguments only once the call is over."""
        call = self._calls.pop(key)
        self.whole(call, record, out, arguments, complete)
