"""Framing auto-detection, and :class:`Framer`, the single entry point that detects the
framing from the first bytes and then delegates to the right parser.

Rules, in order (the first bytes that are not whitespace or a BOM decide):

=================================================  ==================
first bytes                                        framing
=================================================  ==================
an AWS event-stream prelude whose CRC checks out   ``aws-eventstream``
``data:`` ``event:`` ``id:`` ``retry:`` ``:``      ``sse``
``[``                                              ``json-array``
``{`` and a first line that leaves it open         ``json`` (one document)
``{`` (once the first line is seen)                ``ndjson``
anything else (once a full line is seen)           ``sse`` (fallback)
=================================================  ==================

A body that starts with ``{`` is NDJSON when its first line holds a whole JSON value,
and one JSON document over several lines (a pretty-printed response that was not
streamed) when the first line opens an object it does not close. A first line longer
than 4 KiB, or a body without a line end, is NDJSON.

Detection looks only at the first bytes of the body, never at how they were chunked: a
rule that decides on a prefix decides the same on any longer prefix, and if the first
4 KiB are all blank the body is taken as SSE. So the choice, and every record, is the
same whether the body arrives whole or a byte at a time.
"""

from __future__ import annotations

import binascii
from typing import Literal, Protocol

from ..errors import UsageError
from ..incremental import mark_closed
from ._text import BOM, check_max_event_bytes
from .jsonarray import JSONArrayParser
from .ndjson import NDJSONParser
from .records import FramingOutput, SSEEvent, Tail
from .sse import SSEParser

__all__ = ["FRAMINGS", "Framer", "FramingName", "FramingParser", "detect_framing", "make_parser"]

FramingName = Literal["sse", "ndjson", "json-array", "json", "aws-eventstream"]
FRAMINGS: tuple[FramingName, ...] = ("sse", "ndjson", "json-array", "json", "aws-eventstream")

_SSE_PREFIXES = (b"data:", b"event:", b"id:", b"retry:", b":", b"data\n", b"data\r")
_WS = b" \t\r\n"
_DECIDE_AFTER = 256  # bytes after which an undecided first line falls back to SSE
_HEAD_MAX = 4096  # bytes of the body detection looks at, at most (then it decides)


class FramingParser(Protocol):
    """What every framer offers: ``feed`` bytes, ``close`` at the end.

    ``tail`` is ``None`` until ``close``; then it holds the bytes after the last complete
    record that no record took (the unterminated event, element or message), if any.
    """

    tail: Tail | None

    def feed(self, data: bytes, time: float | None = None) -> list[FramingOutput]:
        """Parse another chunk."""

    def close(self, time: float | None = None) -> list[FramingOutput]:
        """Signal the end of the body."""


def _looks_like_eventstream(prefix: bytes) -> bool | None:
    """AWS event-stream prelude: total length, headers length, CRC32 of those 8 bytes."""
    if len(prefix) < 12:
        return None
    total = int.from_bytes(prefix[0:4], "big")
    headers = int.from_bytes(prefix[4:8], "big")
    crc = int.from_bytes(prefix[8:12], "big")
    return total >= 16 and headers < total and binascii.crc32(prefix[0:8]) == crc


def detect_framing(prefix: bytes, *, final: bool = False) -> tuple[FramingName | None, str]:
    """Decide the framing from the first bytes of a body.

    Args:
        prefix: the first bytes seen so far.
        final: ``True`` when no more bytes will come (decide whatever is seen).

    Returns:
        ``(framing, rule)``: the framing, or ``None`` if more bytes are needed, and a
        sentence saying which rule decided.
    """
    if prefix[:1] == b"\x00":
        binary = _looks_like_eventstream(prefix)
        if binary:
            return "aws-eventstream", "the body starts with an AWS event-stream prelude"
        if binary is None and not final:
            return None, "waiting for the first 12 bytes"
    body = prefix[3:] if prefix.startswith(BOM) else prefix
    stripped = body.lstrip(_WS)
    if not stripped:
        if final:
            return "sse", "the body is empty or blank; SSE assumed"
        return None, "waiting for the first non-blank byte"
    first = stripped[:1]
    if first == b"[":
        return "json-array", "the first non-blank byte is '['"
    if first == b"{":
        end = _line_end(stripped)
        if end < 0:
            if not final:
                return None, "waiting for the end of the first line"
            return "ndjson", "the first non-blank byte is '{'"
        if _leaves_open(stripped[:end]):
            return (
                "json",
                "the first line opens a JSON object it does not close: one JSON document",
            )
        return "ndjson", "the first non-blank byte is '{'"
    for p in _SSE_PREFIXES:
        if stripped.startswith(p):
            name = p.rstrip(b"\r\n").decode()
            return "sse", f"the first line starts with {name!r}"
        if p.startswith(stripped) and not final:
            return None, "waiting for the first field name"
    if (
        not final
        and len(prefix) < _DECIDE_AFTER
        and b"\n" not in stripped
        and b"\r" not in stripped
    ):
        return None, "waiting for the end of the first line"
    return "sse", "no known framing matched the first line; SSE assumed"


def _line_end(data: bytes) -> int:
    ends = [i for i in (data.find(b"\n"), data.find(b"\r")) if i >= 0]
    return min(ends) if ends else -1


def _leaves_open(line: bytes) -> bool:
    """Whether a line opens more JSON objects and arrays than it closes (strings skipped)."""
    depth = 0
    in_string = escape = False
    for c in line:
        if in_string:
            if escape:
                escape = False
            elif c == 0x5C:  # backslash
                escape = True
            elif c == 0x22:
                in_string = False
        elif c == 0x22:
            in_string = True
        elif c in b"{[":
            depth += 1
        elif c in b"}]":
            depth -= 1
    return depth > 0


def make_parser(framing: FramingName, *, max_event_bytes: int | None = None) -> FramingParser:
    """Return a new parser for ``framing``.

    Raises:
        UsageError: for an unknown framing name.
    """
    if framing == "sse":
        return SSEParser(max_event_bytes=max_event_bytes)
    if framing == "ndjson":
        return NDJSONParser()
    if framing == "json-array":
        return JSONArrayParser()
    if framing == "json":
        return JSONArrayParser(document=True)
    if framing == "aws-eventstream":
        from .eventstream import EventStreamParser

        return EventStreamParser()
    raise UsageError(f"unknown framing {framing!r}; expected one of {', '.join(FRAMINGS)}")


class Framer:
    """Detect the framing from the first bytes (or use the one given), then parse.

    Args:
        framing: ``"auto"`` (default) or one of :data:`FRAMINGS`.
        max_event_bytes: passed to the SSE parser.

    Until the framing is decided, chunks are held (with their times) and replayed into the
    chosen parser, so detection never changes the records.
    """

    def __init__(self, framing: str = "auto", *, max_event_bytes: object = None) -> None:
        if framing != "auto" and framing not in FRAMINGS:
            raise UsageError(
                f"unknown framing {framing!r}; expected auto or one of {', '.join(FRAMINGS)}"
            )
        self._max = check_max_event_bytes(max_event_bytes)
        self._held: list[tuple[bytes, float | None]] = []
        self._head = b""  # the first bytes of the body (at most _HEAD_MAX)
        self._closed = False
        self.framing: FramingName | None = None
        self.rule = "given by the caller"
        self._parser: FramingParser | None = None
        if framing != "auto":
            self.framing = framing  # type: ignore[assignment]
            self._parser = make_parser(self.framing, max_event_bytes=self._max)  # type: ignore[arg-type]

    def feed(self, data: bytes, time: float | None = None) -> list[FramingOutput]:
        """Parse another chunk (see :meth:`SSEParser.feed`).

        Raises:
            UsageError: if called after :meth:`close`.
        """
        if self._closed:
            raise UsageError("feed() called after close()")
        if self._parser is not None:
            return self._parser.feed(data, time)
        self._held.append((data, time))
        if len(self._head) < _HEAD_MAX:
            self._head = (self._head + data)[:_HEAD_MAX]
        full = len(self._head) >= _HEAD_MAX
        framing, rule = detect_framing(self._head, final=full)
        if framing is None:
            return []
        return self._start(framing, rule)

    @property
    def tail(self) -> Tail | None:
        """After :meth:`close`: the unterminated bytes at the end of the body, if any."""
        return None if self._parser is None else self._parser.tail

    @property
    def pending(self) -> SSEEvent | None:
        """After :meth:`close`: the event an unterminated last SSE block would have been
        (see :attr:`SSEParser.pending`); ``None`` for other framings."""
        parser = self._parser
        return parser.pending if isinstance(parser, SSEParser) else None

    def close(self, time: float | None = None) -> list[FramingOutput]:
        """Signal the end of the body (see :meth:`SSEParser.close`).

        Raises:
            UsageError: if called twice.
        """
        mark_closed(self)
        out: list[FramingOutput] = []
        if self._parser is None:
            framing, rule = detect_framing(self._head, final=True)
            assert framing is not None  # final=True always decides
            out = self._start(framing, rule)
        assert self._parser is not None
        out.extend(self._parser.close(time))
        return out

    def _start(self, framing: FramingName, rule: str) -> list[FramingOutput]:
        self.framing = framing
        self.rule = rule
        self._parser = make_parser(framing, max_event_bytes=self._max)
        out: list[FramingOutput] = []
        for data, t in self._held:
            out.extend(self._parser.feed(data, t))
        self._held = []
        return out
