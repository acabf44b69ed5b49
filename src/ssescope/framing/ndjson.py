"""Newline-delimited JSON framing (Ollama, SDK dumps, ``.jsonl`` captures).

One JSON value per line; lines end with LF (a CR before it is dropped); blank lines are
skipped. Each non-blank line becomes a :class:`JSONRecord` holding its raw text: whether
it *is* valid JSON is decided, and reported, by the provider layer, so that a bad line is
kept with its offset and the next lines are still processed.
"""

from __future__ import annotations

from typing import ClassVar

from .. import codes
from ..diagnostics import diagnostic
from ..incremental import close_once, refuse_feed_after_close
from ._text import BOM, decode_utf8
from .records import FramingOutput, JSONRecord, Tail

__all__ = ["NDJSONParser"]


class NDJSONParser:
    """Incremental, sans-I/O parser from body bytes to one record per JSON line."""

    name: ClassVar[str] = "ndjson"

    def __init__(self) -> None:
        self._closed = False
        self._pos = 0
        self._index = 0
        self._partial: list[bytes] = []
        self._partial_start = 0
        # a last line without LF is still a record, so an NDJSON body never leaves a tail
        self.tail: Tail | None = None

    def feed(self, data: bytes, time: float | None = None) -> list[FramingOutput]:
        """Parse another chunk of the body.

        Returns:
            The records (and diagnostics) of the lines this chunk completed.

        Raises:
            UsageError: if called after :meth:`close`.
        """
        if self._closed:
            refuse_feed_after_close()
        out: list[FramingOutput] = []
        base = self._pos
        self._pos += len(data)
        i = 0
        j = data.find(b"\n")
        while j >= 0:
            if self._partial:
                self._partial.append(data[i:j])
                line = b"".join(self._partial)
                ls = self._partial_start
                self._partial = []
            else:
                line = data[i:j]
                ls = base + i
            self._line(line, ls, base + j + 1, out, time)
            i = j + 1
            j = data.find(b"\n", i)
        if i < len(data):
            if not self._partial:
                self._partial_start = base + i
            self._partial.append(data[i:])
        return out

    def close(self, time: float | None = None) -> list[FramingOutput]:
        """Signal the end of the body; a last line without LF is still a record.

        Raises:
            UsageError: if called twice.
        """
        close_once(self)
        out: list[FramingOutput] = []
        if self._partial:
            line = b"".join(self._partial)
            self._partial = []
            self._line(line, self._partial_start, self._pos, out, time)
        return out

    def _line(
        self, line: bytes, ls: int, end: int, out: list[FramingOutput], time: float | None
    ) -> None:
        if ls == 0 and line.startswith(BOM):
            line = line[3:]
            ls = 3
            out.append(diagnostic(codes.NDJSON_BOM_STRIPPED, 0))
        stripped = line.strip()
        if not stripped:
            return
        lead = len(line) - len(line.lstrip())
        text, diag = decode_utf8(stripped, ls + lead, self._index)
        if diag is not None:
            out.append(diag)
        if stripped[:1] not in (b"{", b"["):
            out.append(diagnostic(codes.NDJSON_NOT_JSON_LINE, ls + lead, self._index, text=text))
        out.append(JSONRecord(self._index, text, ls + lead, end, time))
        self._index += 1
