"""Framing auto-detection, and :class:`Framer`, the single entry point that detects the
framing from the first bytes and then delegates to the right parser.

Rules, in order (the first bytes that are not whitespace or a BOM decide):

=================================================  ==================
first bytes                                        framing
=================================================  ==================
an AWS event-stream prelude whose CRC checks out   ``aws-eventstream``
``data:`` ``event:`` ``id:`` ``retry:`` ``:``      ``sse``
``[``                                              ``json-array``
``{`` and a first line that leaves it open         ``json`` (one document), unless
                                                   the lines after it are records
``{`` (once the first line is seen)                ``ndjson``
anything else ending in ``}``, then a JSON object  ``ndjson`` (first record broken)
anything else (once a full line is seen)           ``sse`` (fallback)
=================================================  ==================

A body that starts with ``{`` is NDJSON when its first line holds a whole JSON value.
When the first line opens an object it does not close, the body is one JSON document
over several lines (a pretty-printed response that was not streamed) only if it reads as
one: a later line closes the object before any line is a record of its own. A later line
that is a whole JSON object at the start of the line (an NDJSON record) makes it NDJSON
whose first line is broken: that line is one bad record, reported with its offset, and
the records after it are read. When neither is seen within the first 4 KiB (or before the
body ends), the first non-blank line after the first decides: one that starts with ``{``
is a record (NDJSON), anything else the inside of a document. The same look at the later
lines turns a body whose first line is no known framing but ends with ``}`` into NDJSON
when a later line is a JSON object (a record that lost its opening brace) before any is
an SSE field. A first line longer than 4 KiB, or a body without a line end, is NDJSON.

Detection looks only at the first bytes of the body, never at how they were chunked: a
rule that decides on a prefix decides the same on any longer prefix, and if the first
4 KiB are all blank the body is taken as SSE. So the choice, and every record, is the
same whether the body arrives whole or a byte at a time.
"""

from __future__ import annotations

import binascii
import json
import re
from typing import Literal, Protocol

from ..errors import UsageError
from ..incremental import close_once, refuse_feed_after_close
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
        depth = _depth(stripped[:end])
        if depth > 0:
            return _document_or_records(stripped, end, depth, final)
        return "ndjson", "the first non-blank byte is '{'"
    for p in _SSE_PREFIXES:
        if stripped.startswith(p):
            name = p.rstrip(b"\r\n").decode()
            return "sse", f"the first line starts with {name!r}"
        if p.startswith(stripped) and not final:
            return None, "waiting for the first field name"
    end = _line_end(stripped)
    if end < 0:
        if not final and len(prefix) < _DECIDE_AFTER:
            return None, "waiting for the end of the first line"
        return "sse", "no known framing matched the first line; SSE assumed"
    if stripped[:end].rstrip(_WS).endswith(b"}"):
        return _records_or_sse(stripped, end, final)  # maybe a record without its "{"
    return "sse", "no known framing matched the first line; SSE assumed"


def _line_end(data: bytes) -> int:
    ends = [i for i in (data.find(b"\n"), data.find(b"\r")) if i >= 0]
    return min(ends) if ends else -1


def _later_lines(body: bytes, end: int) -> list[tuple[bytes, bool]]:
    """The lines of ``body`` after its first (which ends at ``end``), each with whether
    its line end was seen (only the last can lack one); blank lines left out."""
    lines: list[tuple[bytes, bool]] = []
    rest = body[end:]
    while rest:
        rest = rest[1:] if rest[:1] != b"\r" or rest[1:2] != b"\n" else rest[2:]
        stop = _line_end(rest)
        line = rest if stop < 0 else rest[:stop]
        if line.strip(_WS):
            lines.append((line, stop >= 0))
        if stop < 0:
            break
        rest = rest[stop:]
    return lines


def _is_record(line: bytes) -> bool:
    """Whether a line is an NDJSON record: a whole JSON object from its first byte."""
    if line[:1] != b"{":
        return False
    try:
        value = json.loads(line)
    except ValueError:  # (UnicodeDecodeError is one)
        return False
    return isinstance(value, dict)


def _document_or_records(
    body: bytes, end: int, depth: int, final: bool
) -> tuple[FramingName | None, str]:
    """A first line that opens an object it does not close: one JSON document spread over
    lines, or NDJSON whose first record is broken (see the module docstring)."""
    lines = _later_lines(body, end)
    for line, whole in lines:
        if whole and _is_record(line):
            return (
                "ndjson",
                "the first line is not a whole JSON value but a later line is one: NDJSON "
                "whose first record is broken",
            )
        # (an unfinished line that closes the object closes it whatever follows: no
        # longer line can then be a record)
        depth += _depth(line)
        if depth <= 0:
            return (
                "json",
                "the first line opens a JSON object that a later line closes: one JSON document",
            )
    if not final and len(body) < _HEAD_MAX:
        return None, "waiting for the line that closes the first line's object"
    if lines and lines[0][0][:1] == b"{":
        return (
            "ndjson",
            "the first line is not a whole JSON value and the next starts a record: NDJSON "
            "whose first record is broken",
        )
    return "json", "the first line opens a JSON object it does not close: one JSON document"


def _records_or_sse(body: bytes, end: int, final: bool) -> tuple[FramingName | None, str]:
    """A first line that is no known framing but ends like a JSON object: NDJSON when a
    later line is a record before any is an SSE field (the first record lost its opening
    brace, or has text before it), else SSE."""
    lines = _later_lines(body, end)
    for line, whole in lines:
        if not whole:
            break
        if line.startswith(_SSE_PREFIXES):
            return "sse", "no known framing matched the first line; SSE assumed"
        if _is_record(line):
            return (
                "ndjson",
                "the first line is no known framing but a later line is a JSON object: NDJSON "
                "whose first record is broken",
            )
    if not final and len(body) < _HEAD_MAX:
        return None, "waiting for a line that tells SSE from NDJSON"
    if lines and lines[0][0][:1] == b"{" and not lines[0][1]:
        return (
            "ndjson",
            "the first line is no known framing and the next starts a record longer than "
            "detection reads: NDJSON whose first record is broken",
        )
    return "sse", "no known framing matched the first line; SSE assumed"


_STRING = re.compile(rb'"(?:[^"\\]|\\.)*"')


def _depth(line: bytes) -> int:
    """How many more JSON objects and arrays a line opens than it closes (strings skipped;
    a string the line leaves open hides the rest of the line)."""
    bare = _STRING.sub(b"", line)
    quote = bare.find(b'"')
    if quote >= 0:
        bare = bare[:quote]
    return bare.count(b"{") + bare.count(b"[") - bare.count(b"}") - bare.count(b"]")


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
            refuse_feed_after_close()
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
    def parser(self) -> FramingParser | None:
        """The parser of the framing, once it is decided (what :meth:`feed` passes each
        chunk to), or ``None``: a caller with many chunks may feed it directly."""
        return self._parser

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
        close_once(self)
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
