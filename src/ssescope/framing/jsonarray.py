"""Incrementally streamed JSON array framing (Gemini ``streamGenerateContent`` without
``alt=sse``).

The body is ``[`` element ``,`` element … ``]``, pretty-printed over many lines, and HTTP
chunk boundaries do not align with elements. Each top-level element becomes a
:class:`JSONRecord` as soon as its last byte has arrived, however the bytes are split.

Theory of operation: a small scanner tracks nesting depth and whether it is inside a
string (and after a backslash in one). It jumps between the bytes that matter with one
regular-expression search each, so its cost is linear in the body and independent of the
chunking. Bytes of an unfinished element are kept as a list of pieces and joined once.
Anything that is not where JSON allows it (text before ``[``, after ``]``, a stray
separator) is reported with its byte offset and skipped; the element is not validated
here (the provider layer decodes it and reports invalid JSON).

The same scanner frames a body that is one JSON document spread over several lines (a
response that was not streamed, pretty-printed): with ``document=True`` (the ``json``
framing) there are no brackets around it, and the document is the one record.
"""

from __future__ import annotations

import re
from typing import ClassVar

from .. import codes
from ..diagnostics import diagnostic
from ..incremental import close_once, refuse_feed_after_close
from ..limits import EXCERPT_CHARS, excerpt
from ._text import BOM, decode_utf8
from .records import FramingOutput, JSONRecord, Tail

__all__ = ["JSONArrayParser"]

_STRUCT = re.compile(rb'["\[\]{},]|[^\s"\[\]{},]+')  # outside strings
# A run of unexpected text outside the array, reported as one diagnostic however many
# chunks it spans: up to the next space, and before the array opens, up to its "[".
_OUTSIDE_RUN = {
    0: re.compile(rb"[^\s\[]*"),  # _BEFORE
    3: re.compile(rb"\S*"),  # _AFTER
}
# Inside the array, a run of "," where an element was expected, or of "}": one diagnostic.
_REPEAT = {0x2C: re.compile(rb",*"), 0x7D: re.compile(rb"}*")}
_STRUCTURAL = frozenset(b'"[]{},')
_JUNK_KEPT = 256  # bytes of unexpected text kept for its diagnostic
_IN_STRING = re.compile(rb'["\\]')
_SPACE = b" \t\r\n"

# phases
_BEFORE = 0  # waiting for "["
_BETWEEN = 1  # inside the array, waiting for an element, "," or "]"
_ELEMENT = 2  # inside an element
_AFTER = 3  # after the closing "]"


class JSONArrayParser:
    """Incremental, sans-I/O parser from a streamed JSON array to one record per element."""

    name: ClassVar[str] = "json-array"

    def __init__(self, *, document: bool = False) -> None:
        self._closed = False
        self._document = document
        self._pos = 0
        self.tail: Tail | None = None  # an element the body ended inside, after close()
        self._index = 0
        # a document has no "[": its one value is expected at once
        self._phase = _BETWEEN if document else _BEFORE
        self._depth = 0  # nesting inside the current element
        self._in_string = False
        self._escape = False
        self._pieces: list[bytes] = []
        self._elem_start = 0
        self._scalar = False  # current element is a bare number / literal / string
        self._expect_element = True
        self._head: bytes | None = b""  # bytes at byte 0 that may still be a BOM
        # a run of unexpected text that may continue in the next chunk
        self._junk: list[bytes] = []
        self._junk_len = 0
        self._junk_start = 0
        self._junk_where = ""
        self._junk_run = _OUTSIDE_RUN[_BEFORE]  # what may continue it

    def feed(self, data: bytes, time: float | None = None) -> list[FramingOutput]:
        """Parse another chunk of the body.

        Returns:
            One record per element completed by this chunk, and diagnostics.

        Raises:
            UsageError: if called after :meth:`close`.
        """
        if self._closed:
            refuse_feed_after_close()
        out: list[FramingOutput] = []
        if self._head is not None:
            data = self._head + data
            if len(data) < 3 and BOM.startswith(data):
                self._head = data  # could still be a BOM
                return out
            self._head = None
            if data.startswith(BOM):
                out.append(diagnostic(codes.JSON_ARRAY_BOM_STRIPPED, 0))
                data = data[3:]
                self._pos = 3
        self._parse(data, time, out)
        return out

    def _parse(self, data: bytes, time: float | None, out: list[FramingOutput]) -> None:
        base = self._pos
        self._pos += len(data)
        i = 0
        if self._junk:
            m = self._junk_run.match(data)
            assert m is not None  # the pattern matches the empty string
            i = m.end()
            self._keep_junk(data[:i])
            if i == len(data):
                return  # the run may go on in the next chunk
            self._flush_junk(out)
        n = len(data)
        piece_from = i  # start of the bytes of the current element within data
        while i < n:
            if self._phase == _ELEMENT and self._in_string:
                if self._escape:
                    self._escape = False
                    i += 1
                    continue
                m = _IN_STRING.search(data, i)
                if m is None:
                    i = n
                    break
                i = m.end()
                if m.group() == b"\\":
                    self._escape = True
                    continue
                self._in_string = False
                if self._scalar and self._depth == 0:
                    self._emit(data, piece_from, i, base, out, time)
                continue
            m = _STRUCT.search(data, i)
            if m is None:
                i = n
                break
            c = m.group()[0]
            if self._phase == _ELEMENT:
                if self._scalar and self._depth == 0 and c in _STRUCTURAL:
                    # end of a bare literal: emit without what follows it
                    self._emit(data, piece_from, m.start(), base, out, time)
                    i = m.start()
                    continue
                i = m.end()
                if c == 0x22:  # "
                    self._in_string = True
                elif c in b"[{":
                    self._depth += 1
                elif c in b"]}":
                    self._depth -= 1
                    if self._depth == 0 and not self._scalar:
                        self._emit(data, piece_from, i, base, out, time)
                continue
            start = m.start()
            if self._phase in (_BEFORE, _AFTER):
                i = m.end()
                if self._phase == _BEFORE:
                    if c == 0x5B:  # [
                        self._phase = _BETWEEN
                        self._expect_element = True
                        continue
                    where = "before the opening '['"
                else:
                    where = "after the JSON document" if self._document else "after the closing ']'"
                i = self._start_junk(data, start, base, where, _OUTSIDE_RUN[self._phase], out)
                continue
            # _BETWEEN
            if c == 0x2C:  # ,
                i = m.end()
                if self._expect_element:
                    where = "where an element was expected"
                    i = self._start_junk(data, start, base, where, _REPEAT[c], out)
                self._expect_element = True
            elif c == 0x5D:  # ]
                i = m.end()
                self._phase = _AFTER
            elif c == 0x7D:  # }
                where = "between array elements"
                i = self._start_junk(data, start, base, where, _REPEAT[c], out)
            else:
                if not self._expect_element:
                    out.append(
                        diagnostic(codes.JSON_ARRAY_MISSING_COMMA, base + start, at=base + start)
                    )
                self._phase = _ELEMENT
                self._elem_start = base + start
                piece_from = start
                self._depth = 0
                self._scalar = c not in b"[{"
                if c == 0x22:
                    self._in_string = True
                    i = m.end()
                elif c in b"[{":
                    self._depth = 1
                    i = m.end()
                else:
                    i = m.end()  # a bare literal; it ends at "," or "]" or the end
        if self._phase == _ELEMENT and piece_from < n:
            self._pieces.append(data[piece_from:n])

    def close(self, time: float | None = None) -> list[FramingOutput]:
        """Signal the end of the body.

        Returns:
            Diagnostics for an unfinished element (with its raw text) or a missing ``]``;
            a bare literal that ends with the body is still a record.

        Raises:
            UsageError: if called twice.
        """
        close_once(self)
        out: list[FramingOutput] = []
        if self._head:
            head, self._head = self._head, None
            self._parse(head, time, out)
        self._head = None
        if self._junk:
            self._flush_junk(out)
        if self._phase == _ELEMENT:
            raw = b"".join(self._pieces)
            self._pieces = []
            if self._scalar and not self._in_string:
                text, diag = decode_utf8(raw.rstrip(), self._elem_start, self._index)
                if diag is not None:
                    out.append(diag)
                out.append(JSONRecord(self._index, text, self._elem_start, self._pos, time))
                self._index += 1
                self._phase = _BETWEEN
                self._expect_element = False
            else:
                text = raw[: EXCERPT_CHARS + 4].decode("utf-8", "replace")
                kept = ""
                if len(raw) > EXCERPT_CHARS:
                    text = excerpt(text)
                    kept = f" ({len(raw):,} bytes; the first {EXCERPT_CHARS:,} are kept)"
                self.tail = Tail(
                    self._elem_start, self._pos, text, codes.JSON_ARRAY_UNTERMINATED_ELEMENT
                )
                out.append(
                    diagnostic(
                        codes.JSON_ARRAY_UNTERMINATED_ELEMENT,
                        self._elem_start,
                        None,
                        text,
                        form="document" if self._document else "element",
                        text=text,
                        kept=kept,
                    )
                )
        if self._document:
            pass  # no brackets to check; a cut document is reported above
        elif self._phase == _BEFORE and self._pos:
            out.append(diagnostic(codes.JSON_ARRAY_MISSING_OPEN, 0))
        elif self._phase in (_BETWEEN, _ELEMENT):
            out.append(diagnostic(codes.JSON_ARRAY_UNCLOSED, self._pos))
        return out

    def _emit(
        self,
        data: bytes,
        piece_from: int,
        end: int,
        base: int,
        out: list[FramingOutput],
        time: float | None,
    ) -> None:
        self._pieces.append(data[piece_from:end])
        raw = b"".join(self._pieces)
        self._pieces = []
        if self._scalar:
            raw = raw.rstrip(_SPACE)
        text, diag = decode_utf8(raw, self._elem_start, self._index)
        if diag is not None:
            out.append(diag)
        stop = self._elem_start + len(raw) if self._scalar else base + end
        out.append(JSONRecord(self._index, text, self._elem_start, stop, time))
        self._index += 1
        self._phase = _AFTER if self._document else _BETWEEN
        self._expect_element = False
        self._scalar = False
        self._depth = 0

    def _start_junk(
        self,
        data: bytes,
        start: int,
        base: int,
        where: str,
        run: re.Pattern[bytes],
        out: list[FramingOutput],
    ) -> int:
        """Begin a run of unexpected text at ``start``: reported whole, as one diagnostic,
        even if the next chunk goes on with it. Returns where the run stops in ``data``."""
        m = run.match(data, start)
        assert m is not None  # the patterns match the empty string
        end = max(m.end(), start + 1)
        self._junk_start = base + start
        self._junk_where = where
        self._junk_run = run
        self._keep_junk(data[start:end])
        if end < len(data):
            self._flush_junk(out)
        return end

    def _keep_junk(self, piece: bytes) -> None:
        if self._junk_len < _JUNK_KEPT and piece:
            self._junk.append(piece)
        self._junk_len += len(piece)

    def _flush_junk(self, out: list[FramingOutput]) -> None:
        text = b"".join(self._junk)[:_JUNK_KEPT]
        self._junk = []
        self._junk_len = 0
        self._unexpected(text, self._junk_start, self._junk_where, out)

    @staticmethod
    def _unexpected(tok: bytes, offset: int, where: str, out: list[FramingOutput]) -> None:
        text = tok.decode("utf-8", "replace")
        out.append(
            diagnostic(
                codes.JSON_ARRAY_UNEXPECTED_TEXT, offset, text=text, byte_offset=offset, where=where
            )
        )
