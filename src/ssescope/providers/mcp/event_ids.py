"""The order of an MCP stream's SSE event ids: what a resuming client sends back.

With resumability (an event store on the server), each event's ``id:`` is the
``Last-Event-ID`` a client reconnects with, and the server replays what came after it.
An id that repeats makes that replay ambiguous; one that goes backwards makes it skip or
repeat events. This tracker reports both (``mcp.event-id-order``):

* an id that an earlier event had, and the previous event's was another;
* an id that is smaller than the previous one, when both are numbers, or a shared prefix
  and a number (``e12`` after ``e13``); other ids (UUIDs) are only checked for repeats.

The framing keeps the last-event-ID on every record, as the SSE rules say: an event
without an ``id:`` line carries the previous one. So an id equal to the previous event's
is not reported (it cannot be told from no ``id:`` line), and an empty id (a reset) is
skipped.
"""

from __future__ import annotations

import re

from ...framing.records import SSEEvent
from .._base import AdapterOutput, diag
from . import codes

__all__ = ["EventIds"]

_NUMBERED = re.compile(r"(.*?)(\d{1,30})")  # a prefix and a trailing number
_SEEN_LIMIT = 1 << 16  # ids remembered for the repeat check (a stream's first ones)


class EventIds:
    """Checks each SSE event's id against the ones before it."""

    __slots__ = ("_last", "_last_numbered", "_seen")

    def __init__(self) -> None:
        self._last = ""
        self._last_numbered: tuple[str, int] | None = None
        self._seen: set[str] = set()

    def check(self, record: SSEEvent, out: list[AdapterOutput]) -> None:
        """Report ``record``'s id in ``out`` when it repeats or goes backwards."""
        event_id = record.id
        if event_id == self._last or not event_id:
            self._last = event_id
            return
        match = _NUMBERED.fullmatch(event_id)
        numbered = (match.group(1), int(match.group(2))) if match is not None else None
        what = ""
        if event_id in self._seen:
            what = "an earlier event already had"
        elif (
            numbered is not None
            and self._last_numbered is not None
            and numbered[0] == self._last_numbered[0]
            and numbered[1] < self._last_numbered[1]
        ):
            what = f"goes backwards after {self._last!r}"
        if what:
            out.append(diag(codes.EVENT_ID_ORDER, record, event_id=event_id, what=what))
        if len(self._seen) < _SEEN_LIMIT:
            self._seen.add(event_id)
        self._last = event_id
        self._last_numbered = numbered
