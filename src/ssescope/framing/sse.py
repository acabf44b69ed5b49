"""Server-Sent Events framing, exactly as the WHATWG HTML standard says.

Theory of operation
===================

HTML Living Standard §9.2.5 "Parsing an event stream" and §9.2.6 "Interpreting an event
stream" (https://html.spec.whatwg.org/multipage/server-sent-events.html) define one
algorithm; this module implements it on *bytes*, incrementally, and reports everything
the algorithm silently ignores.

Invariants, each one a rule of the standard:

1. Lines are split on bytes. CR (0x0D) and LF (0x0A) never occur inside a multi-byte
   UTF-8 sequence, so splitting before decoding is safe, and each finished line is
   decoded on its own with replacement. Chunks are never decoded independently and
   ``str.splitlines()`` is never used (it also splits on U+2028, U+0085, VT, FF).
2. "Lines must be separated by either a U+000D CARRIAGE RETURN U+000A LINE FEED (CRLF)
   character pair, a single U+000A LINE FEED (LF) character, or a single U+000D
   CARRIAGE RETURN (CR) character." A CR ends the line *at once*; one LF right after it
   is swallowed, even when it arrives in the next chunk (``_skip_lf``). An event is
   therefore never held back waiting for the next chunk.
3. One UTF-8 BOM is stripped, only at byte 0 of the stream; any other BOM is text.
4. "If the line is empty, dispatch the event." A line starting with a colon is a comment.
   Otherwise the field name is everything up to the first colon and the value everything
   after it, with exactly one leading U+0020 removed; a line without a colon is a field
   name with an empty value. Names are compared literally.
5. ``data`` appends the value and LF to the data buffer; ``event`` sets the type buffer;
   ``id`` sets the last-event-ID buffer unless the value contains U+0000 (then the
   field is ignored), and an empty value resets it; ``retry`` sets the stream's
   reconnection time only if the value is nothing but ASCII digits. Other names are
   ignored.
6. On dispatch: the last-event-ID persists (it is never reset by dispatch); if no data
   field was seen, the data and type buffers are cleared and nothing fires; otherwise one
   trailing LF is removed and the type defaults to ``message``.
7. "Once the end of the file is reached, any pending data must be discarded": a final
   block without its blank line is not dispatched.

What the algorithm ignores is still reported, so that nothing is silently lost: comments
become :class:`SSEComment` records; data-less blocks, unknown fields, invalid ``retry``
values, NUL-containing ids, invalid UTF-8 and the unterminated tail (with its raw text)
become diagnostics with byte offsets. A block made only of non-field lines that starts
like JSON (a provider writing an error body without ``data:``, as Gemini does) is
reported as ``sse.unprefixed-json`` and passed on as a :class:`JSONRecord`, so the
provider layer can still read the error.

Cost is linear in the input: an unfinished line is kept as a list of pieces and joined
once, and within a chunk the positions of the next CR and LF are cached, never rescanned.
"""

from __future__ import annotations

from typing import ClassVar

from ..diagnostics import Diagnostic, Severity, quote
from ..errors import UsageError
from .records import FramingOutput, JSONRecord, SSEComment, SSEEvent

__all__ = ["SSEParser"]

_BOM = b"\xef\xbb\xbf"
_LF = 0x0A


class SSEParser:
    """Incremental, sans-I/O parser from body bytes to Server-Sent Events.

    Feed bytes in any chunking; the output is the same. Performs no I/O.

    Args:
        max_event_bytes: opt-in cap on the size of one event block (all its lines and
            terminators). A larger block is dropped with an ``sse.event-too-large``
            diagnostic and parsing resumes at the next blank line. ``None`` (the
            default) means no cap.
    """

    name: ClassVar[str] = "sse"

    def __init__(self, *, max_event_bytes: int | None = None) -> None:
        if max_event_bytes is not None and max_event_bytes <= 0:
            raise UsageError(f"max_event_bytes must be positive, got {max_event_bytes!r}")
        self._max = max_event_bytes
        self._closed = False
        self._pos = 0  # absolute offset of the next byte to be fed
        self._index = 0  # index of the next record
        # the unfinished line
        self._partial: list[bytes] = []
        self._partial_start = 0
        self._partial_len = 0
        self._skip_lf = False
        self._first_line = True
        # the block being built
        self._data: list[str] = []
        self._event = ""
        self._block_start = -1
        self._block_lines: list[str] = []
        self._fields_seen = False
        self._only_strays = True
        self._block_diags: list[tuple[str, Severity, str, int]] = []
        self._discarding = False
        # stream state
        self._id = ""
        self._retry: int | None = None

    @property
    def last_event_id(self) -> str:
        """The last-event-ID buffer (what a reconnecting client would send)."""
        return self._id

    @property
    def retry(self) -> int | None:
        """The stream's reconnection time in milliseconds, or ``None`` if never set."""
        return self._retry

    def feed(self, data: bytes, time: float | None = None) -> list[FramingOutput]:
        """Parse another chunk of the body.

        Args:
            data: the next bytes of the body, in any chunking.
            time: arrival time of this chunk, stamped on the records it completes.

        Returns:
            Records and diagnostics completed by this chunk, in stream order; an empty
            list means more input is needed.

        Raises:
            UsageError: if called after :meth:`close`.
        """
        if self._closed:
            raise UsageError("feed() called after close()")
        out: list[FramingOutput] = []
        n = len(data)
        if not n:
            return out
        base = self._pos
        self._pos = base + n
        i = 0
        if self._skip_lf:
            # The previous chunk ended in CR: an LF here completes that CRLF.
            self._skip_lf = False
            if data[0] == _LF:
                i = 1
        nl = data.find(b"\n", i)
        cr = data.find(b"\r", i)
        line_fn = self._line
        while nl >= 0 or cr >= 0:
            if cr < 0 or (0 <= nl < cr):
                j = nl
                nxt = nl + 1
            else:
                j = cr
                nxt = cr + 1
                if nxt < n:
                    if data[nxt] == _LF:
                        nxt += 1
                else:
                    self._skip_lf = True
            if self._partial:
                self._partial.append(data[i:j])
                line = b"".join(self._partial)
                ls = self._partial_start
                self._partial = []
                self._partial_len = 0
            else:
                line = data[i:j]
                ls = base + i
            # The span ends just past the CR of a CRLF: whether its LF had arrived yet
            # must not change the record, so the LF is counted in no span.
            line_fn(line, ls, base + j + 1, out, time)
            i = nxt
            if 0 <= nl < i:
                nl = data.find(b"\n", i)
            if 0 <= cr < i:
                cr = data.find(b"\r", i)
        if i < n:
            self._add_partial(data, i, base, out)
        return out

    def close(self, time: float | None = None) -> list[FramingOutput]:  # noqa: ARG002
        """Signal the end of the body.

        Returns:
            A ``sse.unterminated-event`` diagnostic (with the raw text) if the body ended
            inside an event block; per the standard that block is not dispatched.

        Raises:
            UsageError: if called twice.
        """
        if self._closed:
            raise UsageError("close() called twice")
        self._closed = True
        out: list[FramingOutput] = []
        tail = b"".join(self._partial)
        if self._first_line and tail.startswith(_BOM):
            tail = tail[len(_BOM) :]
            self._partial_start += len(_BOM)
        if self._discarding:
            return out
        has_block = self._block_start >= 0 and (self._data or self._fields_seen)
        if tail or has_block:
            lines = list(self._block_lines)
            if tail:
                lines.append(tail.decode("utf-8", "replace"))
            raw = "\n".join(lines)
            start = self._block_start if self._block_start >= 0 else self._partial_start
            what = "an unterminated line" if tail and not has_block else "an event block"
            out.append(
                Diagnostic(
                    "sse.unterminated-event",
                    "warning",
                    f"The stream ended inside {what} that no blank line terminated; "
                    f"per the WHATWG algorithm it is discarded, not dispatched: {quote(raw)}.",
                    start,
                    None,
                    raw,
                )
            )
        return out

    # -- internals ---------------------------------------------------------------------

    def _add_partial(self, data: bytes, i: int, base: int, out: list[FramingOutput]) -> None:
        piece = data[i:]
        if not self._partial:
            self._partial_start = base + i
        if self._discarding:
            return
        self._partial_len += len(piece)
        if self._max is not None:
            start = self._block_start if self._block_start >= 0 else self._partial_start
            if base + len(data) - start > self._max:
                self._overflow(start, out)
                return
        self._partial.append(piece)

    def _overflow(self, start: int, out: list[FramingOutput]) -> None:
        out.append(
            Diagnostic(
                "sse.event-too-large",
                "error",
                f"An event block starting at byte {start} grew past max_event_bytes="
                f"{self._max}; it is dropped and parsing resumes at the next blank line.",
                start,
            )
        )
        self._discarding = True
        self._partial = []
        self._partial_len = 0
        self._reset_block()

    def _line(
        self, line: bytes, ls: int, end: int, out: list[FramingOutput], time: float | None
    ) -> None:
        if self._first_line:
            self._first_line = False
            if line.startswith(_BOM):
                line = line[3:]
                out.append(
                    Diagnostic(
                        "sse.bom-stripped",
                        "info",
                        "A UTF-8 byte order mark at byte 0 was stripped, as the standard says.",
                        0,
                    )
                )
                ls += 3
        if not line:
            if self._discarding:
                self._discarding = False
                self._reset_block()
                return
            if self._block_start >= 0:
                self._dispatch(end, out, time)
            return
        if self._discarding:
            return
        if self._block_start < 0:
            self._block_start = ls
        if self._max is not None and end - self._block_start > self._max:
            self._overflow(self._block_start, out)
            return
        try:
            text = line.decode()
        except UnicodeDecodeError as exc:
            text = line.decode("utf-8", "replace")
            self._block_diags.append(
                (
                    "utf8.invalid-bytes",
                    "warning",
                    f"Invalid UTF-8 at byte {ls + exc.start} was replaced by U+FFFD "
                    f"in the line {quote(text)}.",
                    ls + exc.start,
                )
            )
        self._block_lines.append(text)
        if text.startswith("data:"):
            # Fast path for the most common line of LLM streams.
            value = text[5:]
            if value[:1] == " ":
                value = value[1:]
            self._data.append(value)
            self._only_strays = False
            return
        if text[0] == ":":
            value = text[1:]
            if value[:1] == " ":
                value = value[1:]
            comment = SSEComment(self._index, value, ls, end, time)
            self._index += 1
            self._flush_block_diags(out, comment.index)
            out.append(comment)
            return
        colon = text.find(":")
        if colon < 0:
            name, value = text, ""
        else:
            name, value = text[:colon], text[colon + 1 :]
            if value[:1] == " ":
                value = value[1:]
        self._fields_seen = True
        if name == "data":
            self._data.append(value)
            self._only_strays = False
        elif name == "event":
            self._event = value
            self._only_strays = False
        elif name == "id":
            self._only_strays = False
            if "\x00" in value:
                self._block_diags.append(
                    (
                        "sse.nul-in-id",
                        "warning",
                        f"The id field {quote(value)} contains U+0000 NULL; as the standard "
                        "says, the whole field is ignored.",
                        ls,
                    )
                )
            else:
                self._id = value
        elif name == "retry":
            self._only_strays = False
            if value and value.isascii() and value.isdigit():
                self._retry = int(value)
            else:
                self._block_diags.append(
                    (
                        "sse.invalid-retry",
                        "warning",
                        f"The retry field {quote(value)} is not made only of ASCII digits; "
                        "as the standard says, it is ignored.",
                        ls,
                    )
                )
        else:
            self._block_diags.append(
                (
                    "sse.unknown-field",
                    "info",
                    f"The line {quote(text)} names the unknown field {quote(name)}; it is ignored.",
                    ls,
                )
            )

    def _flush_block_diags(self, out: list[FramingOutput], record: int | None) -> None:
        if self._block_diags:
            for code, severity, message, offset in self._block_diags:
                out.append(Diagnostic(code, severity, message, offset, record))
            self._block_diags.clear()

    def _dispatch(self, end: int, out: list[FramingOutput], time: float | None) -> None:
        if self._data:
            event = SSEEvent(
                self._index,
                self._event or "message",
                "\n".join(self._data),
                self._id,
                self._retry,
                self._block_start,
                end,
                time,
            )
            self._index += 1
            if self._block_diags:
                self._flush_block_diags(out, event.index)
            out.append(event)
        elif self._fields_seen:
            raw = "\n".join(self._block_lines)
            stray = self._only_strays and raw.lstrip()[:1] in ("{", "[")
            if stray:
                # Bare JSON without "data:" (Gemini writes errors this way). Not an
                # event for the standard; handed on so the provider layer can read it.
                self._block_diags.clear()
                record = JSONRecord(self._index, raw, self._block_start, end, time)
                self._index += 1
                out.append(
                    Diagnostic(
                        "sse.unprefixed-json",
                        "warning",
                        "A block of lines without any SSE field looks like JSON written "
                        f"without 'data:': {quote(raw)}; it is not an event, but it is "
                        "passed on as a record.",
                        self._block_start,
                        record.index,
                        raw,
                    )
                )
                out.append(record)
            else:
                self._flush_block_diags(out, None)
                out.append(
                    Diagnostic(
                        "sse.dataless-block",
                        "info",
                        f"The block {quote(raw)} has no data field, so no event is "
                        "dispatched (its id and retry still take effect).",
                        self._block_start,
                        None,
                        raw,
                    )
                )
        else:
            self._flush_block_diags(out, None)
        self._reset_block()

    def _reset_block(self) -> None:
        if self._data:
            self._data = []
        self._event = ""
        self._block_start = -1
        if self._block_lines:
            self._block_lines = []
        self._fields_seen = False
        self._only_strays = True
        self._block_diags.clear()
