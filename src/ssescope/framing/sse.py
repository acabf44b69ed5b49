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
The hot path has shortcuts, each giving exactly what the general path gives (a private
subclass with them turned off, ``_GeneralSSEParser``, is the reference the tests compare
them with, on any body and any chunking):

* a chunk that holds no CR is cut with one ``split(b"\\n")``: its first piece ends the
  unfinished line, its last starts the next one; a chunk that also holds no LF is only
  appended to the line's pieces (an 8 MiB line in 512-byte chunks costs little more
  than joining the chunks);
* the commonest event of LLM streams, a single ``data:`` line followed by a blank line,
  while no block is open or after one lone ``event:`` line (Anthropic's shape, in one
  chunk or split across two), becomes an :class:`SSEEvent` in one place, ``_lines``,
  without touching the block buffers and without calling the dataclass ``__init__``
  (its slots are set directly, which is markedly cheaper);
* a lone ``event:`` line opening a block, typically the last line of a chunk, sets the
  block state directly.

A leading BOM is recognised on bytes before any line is cut (at most two bytes that
could still begin one are held, and they can never complete a line), so every offset is
the same however the body is split.
"""

from __future__ import annotations

from dataclasses import replace
from typing import ClassVar

from .. import codes
from ..diagnostics import Diagnostic, diagnostic
from ..incremental import close_once, refuse_feed_after_close
from ..limits import EXCERPT_CHARS, excerpt
from ._text import BOM, check_max_event_bytes
from .records import FramingOutput, JSONRecord, SSEComment, SSEEvent, Tail

__all__ = ["SSEParser"]

_PENDING_LIMIT = 1 << 20  # bytes of an unterminated block kept as a pending event, at most
_LF = 0x0A
_CR = 0x0D
_SPACE = 0x20


def _head(pieces: list[bytes], limit: int) -> bytes:
    """The first ``limit`` bytes (or a few more) of ``pieces`` joined."""
    taken: list[bytes] = []
    size = 0
    for piece in pieces:
        taken.append(piece[: limit + 4 - size])
        size += len(taken[-1])
        if size > limit:
            break
    return b"".join(taken)


def _size(pieces: list[bytes]) -> int:
    """The total length of ``pieces`` (a loop the compiled core runs natively, where
    ``sum(map(len, ...))`` calls back into the interpreter)."""
    size = 0
    for piece in pieces:
        size += len(piece)
    return size


def _join_lines(lines: list[bytes]) -> str:
    """The text of a block's lines, for reports."""
    return "\n".join([line.decode("utf-8", "replace") for line in lines])


def _value(line: bytes, k: int) -> str:
    """``line[k:]`` decoded; a long value straight from the line's buffer, without a copy.

    Raises:
        UnicodeDecodeError: if the value is not valid UTF-8.
    """
    if len(line) < 65536:
        return line[k:].decode()
    return str(memoryview(line)[k:], "utf-8")


def _invalid_utf8(line: bytes, ls: int, at: int, record: int | None = None) -> Diagnostic:
    """The ``utf8.invalid-bytes`` finding for ``line`` (at ``ls``), first bad byte at ``at``."""
    text = line.decode("utf-8", "replace")
    return diagnostic(codes.UTF8_INVALID_BYTES, ls + at, record, form="line", at=ls + at, text=text)


class SSEParser:
    """Incremental, sans-I/O parser from body bytes to Server-Sent Events.

    Feed bytes in any chunking; the output is the same. Performs no I/O.

    Args:
        max_event_bytes: opt-in cap on the size of one event block (all its lines and
            terminators). A larger block is dropped with an ``sse.event-too-large``
            diagnostic and parsing resumes at the next blank line. ``None`` (the
            default) means no cap.

    Raises:
        UsageError: if ``max_event_bytes`` is not a positive integer.
    """

    name: ClassVar[str] = "sse"

    __slots__ = (
        "_block_diags",
        "_block_lines",
        "_block_start",
        "_closed",
        "_committed_id",
        "_data",
        "_discarding",
        "_event",
        "_event_only",
        "_fast",
        "_fields_seen",
        "_head",
        "_id",
        "_in_line",
        "_index",
        "_line_dropped",
        "_max",
        "_only_strays",
        "_partial",
        "_partial_start",
        "_pos",
        "_retry",
        "_skip_lf",
        "pending",
        "tail",
    )

    # Whether the shortcuts are taken (a private subclass turns them off, to check that
    # they give exactly what the general path gives).
    _shortcuts: ClassVar[bool] = True

    def __init__(self, *, max_event_bytes: object = None) -> None:
        self._max = check_max_event_bytes(max_event_bytes)
        self._closed = False
        self._pos = 0  # absolute offset of the next byte to be parsed
        self.tail: Tail | None = None  # the unterminated block or line, after close()
        # the event the unterminated block would have been, had its blank line come
        self.pending: SSEEvent | None = None
        self._index = 0  # index of the next record
        # bytes at byte 0 that may still turn out to be a BOM (None once decided)
        self._head: bytes | None = b""
        # the unfinished line
        self._in_line = False  # a line has started and not yet ended
        self._partial: list[bytes] = []  # its pieces (empty while it is being dropped)
        self._partial_start = 0
        self._line_dropped = False  # its pieces are dropped: it belongs to a too-large block
        self._skip_lf = False  # the last line ended with CR: one LF right after it is swallowed
        # a CR-free chunk may take the split shortcut: BOM decided, no CR pending (under a
        # cap, only a chunk of whole lines)
        self._fast = False
        # the block being built
        self._data: list[str] = []
        self._event = ""
        # the open block is exactly one clean "event:" line (the Anthropic shape), so a
        # "data:" line and a blank line can dispatch it without the general path
        self._event_only = False
        self._block_start = -1  # offset of the block's first line, -1 when no block is open
        self._block_lines: list[bytes] = []  # its lines, raw, for reports
        self._fields_seen = False
        self._only_strays = True
        self._block_diags: list[Diagnostic] = []
        self._discarding = False
        # stream state
        self._id = ""  # the last-event-ID buffer
        self._committed_id = ""  # its value at the last blank line that ended a block
        self._retry: int | None = None

    @property
    def last_event_id(self) -> str:
        """The last event ID string: what a reconnecting client would send.

        The ``id`` buffer is committed at every blank line that ends a block, even one
        that dispatches nothing; an ``id`` in a block the body never terminated is not
        (WHATWG: the EventSource's last event ID only changes when the event is
        dispatched).
        """
        return self._committed_id

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
        if (
            self._fast
            and self._block_start < 0
            and not self._in_line
            and not self._discarding
            and data[-2:] == b"\n\n"
            and _CR not in data
        ):
            # The commonest chunk of a live stream: one whole event, its "data:" line
            # alone or after an "event:" line (what the shortcut of _lines gives for it).
            event = self._one_event(data, time)
            if event is not None:
                return [event]
        if (
            self._fast
            and _CR not in data
            and (self._max is None or (not self._in_line and data.endswith(b"\n")))
        ):
            # The commonest chunk: LF line ends only. One split cuts all its lines; the
            # first continues the unfinished line, if any, and the last starts the next.
            # (Under a cap, only a chunk of whole lines, none pending: an unfinished
            # line's bytes are counted against the cap by the general path.)
            # (The CR and LF tests are ``in`` with an int, one memchr each: with a bytes
            # operand ``in`` first tries the operand as an int and builds and clears a
            # TypeError, ``find`` is a method call, and ``split`` scans byte by byte. No
            # local aliases of bound methods either: the compiled core calls methods
            # natively.)
            if _LF not in data:
                # No line ends here: the chunk starts or continues one. Only the piece
                # is kept, not even the offset: while a line is pending in this mode, the
                # offset is recounted from its pieces when needed.
                if self._in_line:
                    self._partial.append(data)
                elif data:
                    self._in_line = True
                    self._partial_start = self._pos
                    self._partial = [data]
                return []
            lines = data.split(b"\n")
            rest = lines.pop()
            if self._in_line:
                parts = self._partial
                pos = self._partial_start
                base = pos + _size(parts)
                parts.append(lines[0])
                lines[0] = b"".join(parts)
            else:
                base = pos = self._pos
            n = len(data)
            self._pos = base + n
            if rest:
                self._in_line = True
                self._partial_start = base + n - len(rest)
                self._partial = [rest]
            else:
                self._in_line = False
                self._partial = []
            out: list[FramingOutput] = []
            self._lines(lines, pos, time, out)
            return out
        if self._closed:
            refuse_feed_after_close()
        if self._fast and self._in_line and self._max is None:
            # Pieces kept by the shortcut above were not counted yet; this chunk holds a
            # CR, so the line ends in it and the pieces are counted once.
            self._pos = self._partial_start + _size(self._partial)
        out = []
        if self._head is not None:
            data = self._head + data
            if len(data) < 3 and BOM.startswith(data):
                self._head = data  # could still be a BOM; no line can end in it
                return out
            self._head = None
            self._fast = self._shortcuts
            if data.startswith(BOM):
                out.append(diagnostic(codes.SSE_BOM_STRIPPED, 0))
                data = data[3:]
                self._pos = 3
        n = len(data)
        if not n:
            return out
        base = self._pos
        self._pos = base + n
        i = 0
        if self._skip_lf:
            # The previous chunk ended in CR: an LF here completes that CRLF.
            self._skip_lf = False
            self._fast = self._shortcuts
            if data[0] == _LF:
                i = 1
                if n == 1:
                    return out
        if self._in_line:
            i = self._finish_line(data, i, base, time, out)
        if i < n:
            self._parse_rest(data, i, base, time, out)
        if data[n - 1] == _CR:
            # The chunk ended a line with CR: one LF at the start of the next is swallowed.
            self._skip_lf = True
            self._fast = False
        return out

    def _one_event(self, data: bytes, time: float | None) -> SSEEvent | None:
        """The event of a CR-free chunk that is exactly one block, ``data:`` or
        ``event:`` + ``data:`` then a blank line, with no block or line open before it;
        ``None`` (nothing done) for any other chunk, or one the general path reports on
        (a value that is not UTF-8, a block over the cap).

        (Cut with ``partition`` and compared by slices: the bytes methods that take a
        start or an end, ``find`` and ``startswith``, parse their arguments the slow way,
        which costs more than the rest of the event.)
        """
        n = len(data)
        cap = self._max
        if cap is not None and n > cap:
            return None
        line, _, rest = data.partition(b"\n")
        kind = "message"
        if rest != b"\n":
            if line[:6] != b"event:":
                return None
            try:
                kind = line[7 if line[6:7] == b" " else 6 :].decode() or "message"
            except UnicodeDecodeError:
                return None
            line, _, rest = rest.partition(b"\n")
            if rest != b"\n":
                return None
        if line[:6] == b"data: ":
            c = 6
        elif line[:5] == b"data:":
            c = 5
        else:
            return None
        try:
            text = line[c:].decode() if n < 65536 else str(memoryview(line)[c:], "utf-8")
        except UnicodeDecodeError:
            return None
        index = self._index
        self._index = index + 1
        pos = self._pos
        self._pos = pos + n
        return SSEEvent(index, kind, text, self._id, self._retry, pos, pos + n, time)

    def _parse_rest(
        self, data: bytes, i: int, base: int, time: float | None, out: list[FramingOutput]
    ) -> None:
        """Parse ``data[i:]``, which starts a line, ``data[0]`` being at offset ``base``."""
        if data.find(b"\r", i) >= 0:
            self._parse_any(data, i, base, time, out)
            return
        # No CR in the rest of the chunk: its complete lines are cut with one split.
        last = data.rfind(b"\n", i)
        if last >= 0:
            lines = (data[i:last] if i else data[:last]).split(b"\n")
            if self._shortcuts:
                self._lines(lines, base + i, time, out)
            else:
                pos = base + i
                for line in lines:
                    end = pos + len(line) + 1
                    self._line(line, pos, end, out, time)
                    pos = end
            i = last + 1
        if i < len(data):
            self._add_partial(data, i, base, out)

    def _lines(
        self, lines: list[bytes], pos: int, time: float | None, out: list[FramingOutput]
    ) -> None:
        """Interpret complete LF-ended ``lines``, the first at offset ``pos``, with the
        shortcuts.

        The shortcut for the commonest event, a ``data:`` line followed by a blank line
        (with no block open, after a lone ``event:`` line, or as the ``event:`` +
        ``data:`` + blank triple), is this one place: it appends exactly what the general
        path (``_line`` for each line, then ``_dispatch``) would, and leaves a ``data:``
        value that is not valid UTF-8 to the general path, which reports it. Under a cap
        (``max_event_bytes``) a block that may reach it, and every line while a block too
        large is discarded, go through the general path too, which checks and reports.
        """
        m = len(lines)
        k = 0
        cap = self._max
        if (
            cap is not None
            and self._pos - (pos if self._block_start < 0 else self._block_start) <= cap
        ):
            cap = None  # (no block these lines end can reach the cap: the chunk is smaller)
        while k < m:
            line = lines[k]
            step = 0  # lines taken by the shortcut: 2 ("data:", blank) or 3 (with "event:")
            if self._discarding:
                pass  # (the general path drops the rest of the block)
            # (prefixes compared by slices, not startswith: see _one_event)
            elif k + 1 < m and not lines[k + 1] and line[:5] == b"data:":
                value = line
                if self._block_start < 0:
                    kind = "message"
                    start = pos
                    step = 2
                elif self._event_only and not self._block_diags:
                    # after a lone "event:" line, maybe in an earlier chunk
                    kind = self._event or "message"
                    start = self._block_start
                    step = 2
            elif self._block_start < 0 and line[:6] == b"event:":
                try:
                    kind = line[7 if line[6:7] == b" " else 6 :].decode()
                except UnicodeDecodeError:
                    pass  # the general path reports it
                else:
                    if k + 2 < m and not lines[k + 2] and lines[k + 1][:5] == b"data:":
                        value = lines[k + 1]
                        kind = kind or "message"
                        start = pos
                        step = 3
                    elif cap is not None and len(line) + 1 > cap:
                        pass  # the general path reports the block too large
                    else:
                        # A lone "event:" line opening a block (what _line does for it),
                        # typically the last line of a chunk.
                        self._event = kind
                        self._block_start = pos
                        self._block_lines.append(line)
                        self._fields_seen = True
                        self._only_strays = False
                        self._event_only = True
                        pos += len(line) + 1
                        k += 1
                        continue
            if step and cap is not None:
                # the general path checks each line's end against the block's start: the
                # data line's end is the furthest (the blank line is not counted)
                last_end = pos + len(line) + 1 if step == 2 else pos + len(line) + len(value) + 2
                if last_end - start > cap:
                    step = 0
            if step:
                c = 6 if value[5:6] == b" " else 5
                try:
                    if len(value) < 65536:
                        text = value[c:].decode()
                    else:
                        text = str(memoryview(value)[c:], "utf-8")
                except UnicodeDecodeError:
                    pass  # the general path reports it
                else:
                    end = pos + len(line) + 2 if step == 2 else pos + len(line) + len(value) + 3
                    index = self._index
                    self._index = index + 1
                    # Positional arguments: the cheapest call, native in the compiled core.
                    out.append(SSEEvent(index, kind, text, self._id, self._retry, start, end, time))
                    if start != pos:
                        # The lone "event:" line's block is dispatched with it.
                        self._committed_id = self._id
                        self._event = ""
                        self._event_only = False
                        self._block_start = -1
                        self._block_lines = []
                        self._fields_seen = False
                        self._only_strays = True
                    pos = end
                    k += step
                    continue
            end = pos + len(line) + 1
            self._line(line, pos, end, out, time)
            pos = end
            k += 1

    def close(self, time: float | None = None) -> list[FramingOutput]:
        """Signal the end of the body.

        Args:
            time: when the body ended (not stamped on anything: nothing is completed).

        Returns:
            The diagnostics still pending for an unterminated block, then one
            ``sse.unterminated-event`` diagnostic (with the raw text) if the body ended
            inside an event block or a line; per the standard it is not dispatched.

        Raises:
            UsageError: if called twice.
        """
        out: list[FramingOutput] = []
        if self._head:  # (None after the first close, so a second one fails just below)
            # One or two bytes that began like a BOM and the body ended: plain text.
            head, self._head = self._head, None
            out += self.feed(head, time)
        close_once(self)
        self._fast = False
        self._head = None
        # only the start of an unfinished line is reported: it may be gigabytes long
        partial = self._partial
        tail_size = _size(partial)
        tail = _head(partial, EXCERPT_CHARS)
        in_line = self._in_line and not self._line_dropped
        self._in_line = False
        self._partial = []
        if self._discarding:
            return out
        has_block = self._block_start >= 0 and (bool(self._data) or self._fields_seen)
        self._flush_block_diags(out, None)
        if in_line or has_block:
            lines = list(self._block_lines) if has_block else []
            size = sum(map(len, lines)) + len(lines)
            if in_line:
                lines.append(tail)
                size += tail_size
            else:
                size -= 1
            raw = _join_lines(lines)
            start = self._block_start if has_block else self._partial_start
            what = "an event block" if has_block else "an unterminated line"
            kept = ""
            if len(raw) > EXCERPT_CHARS:
                raw = excerpt(raw)
                kept = f" ({size:,} bytes from byte {start}; the first {EXCERPT_CHARS:,} are kept)"
            end = self._partial_start + tail_size if in_line else self._pos
            self.tail = Tail(start, end, raw, codes.SSE_UNTERMINATED_EVENT)
            out.append(
                diagnostic(
                    codes.SSE_UNTERMINATED_EVENT,
                    start,
                    None,
                    raw,
                    what=what,
                    raw_text=raw,
                    kept=kept,
                )
            )
            self.pending = self._pending(partial if in_line else None, tail_size, time)
        return out

    # -- internals ---------------------------------------------------------------------

    def _pending(
        self, partial: list[bytes] | None, size: int, time: float | None
    ) -> SSEEvent | None:
        """The event an unterminated block would have dispatched, had its blank line come.

        Not dispatched (the standard discards it); kept in :attr:`pending` so that the
        pipeline can read a terminal event whose bytes all arrived but its blank line
        (see ``docs/verdicts.md``). ``partial`` is the last line when the body ended
        inside it; a block or line longer than :data:`_PENDING_LIMIT` is not kept.
        What reading the last line would report (an unknown field, invalid UTF-8) is
        left out: the block as a whole is reported as ``sse.unterminated-event``.
        """
        start = self._block_start if self._block_start >= 0 else self._partial_start
        end = self._partial_start + size if partial is not None else self._pos
        if end - start > _PENDING_LIMIT:
            return None
        found: list[FramingOutput] = []
        if partial is not None:
            self._line(b"".join(partial), self._partial_start, end, found, time)
        if self._block_start < 0 or not self._data:
            return None
        # What the blank line would have dispatched; the last event ID stays as it was.
        committed = self._committed_id
        self._dispatch(end, found, time)
        self._committed_id = committed
        event = found[-1]
        assert isinstance(event, SSEEvent)
        return event

    def _finish_line(
        self, data: bytes, i: int, base: int, time: float | None, out: list[FramingOutput]
    ) -> int:
        """Continue the unfinished line with ``data[i:]``; return where parsing resumes."""
        n = len(data)
        nl = data.find(b"\n", i)
        cr = data.find(b"\r", i, nl if nl >= 0 else n)
        if nl < 0 and cr < 0:
            self._add_partial(data, i, base, out)
            return n
        # the line ends at the first CR or LF; an LF right after a CR is swallowed (one
        # that comes in the next chunk is swallowed by ``feed``)
        j = nl if cr < 0 else cr
        nxt = j + 2 if cr >= 0 and cr + 1 < n and data[cr + 1] == _LF else j + 1
        self._in_line = False
        if self._line_dropped:
            # The rest of a line of a too-large block: dropped with it.
            self._line_dropped = False
            return nxt
        self._partial.append(data[i:j])
        line = b"".join(self._partial)
        self._partial = []
        # The span ends just past the CR of a CRLF: whether its LF had arrived yet
        # must not change the record, so the LF is counted in no span.
        self._line(line, self._partial_start, base + j + 1, out, time)
        return nxt

    def _parse_any(
        self,
        data: bytes,
        i: int,
        base: int,
        time: float | None,
        out: list[FramingOutput],
    ) -> None:
        """Split ``data[i:]`` into lines ended by CRLF, LF or CR."""
        n = len(data)
        find = data.find
        nl = find(b"\n", i)
        cr = find(b"\r", i)
        while nl >= 0 or cr >= 0:
            if cr < 0 or (0 <= nl < cr):
                j = nl
                nxt = nl + 1
            else:
                j = cr
                nxt = cr + 1
                if nxt < n and data[nxt] == _LF:
                    nxt += 1
            self._line(data[i:j], base + i, base + j + 1, out, time)
            i = nxt
            if 0 <= nl < i:
                nl = find(b"\n", i)
            if 0 <= cr < i:
                cr = find(b"\r", i)
        if i < n:
            self._add_partial(data, i, base, out)

    def _add_partial(self, data: bytes, i: int, base: int, out: list[FramingOutput]) -> None:
        """Keep ``data[i:]``, the start or a piece of a line that has not ended yet."""
        if not self._in_line:
            self._in_line = True
            self._partial_start = base + i
        if self._line_dropped or self._discarding:
            self._line_dropped = True
            return
        if self._max is not None:
            start = self._block_start if self._block_start >= 0 else self._partial_start
            if base + len(data) - start > self._max:
                self._overflow(start, out)
                self._line_dropped = True
                return
        self._partial.append(data[i:] if i else data)

    def _overflow(self, start: int, out: list[FramingOutput]) -> None:
        out.append(diagnostic(codes.SSE_EVENT_TOO_LARGE, start, start=start, max=self._max))
        self._discarding = True
        self._partial = []
        self._reset_block()

    def _line(
        self, line: bytes, ls: int, end: int, out: list[FramingOutput], time: float | None
    ) -> None:
        """Interpret one complete line (terminator excluded) spanning ``[ls, end)``."""
        if not line:
            if self._discarding:
                self._discarding = False
                self._committed_id = self._id
                self._reset_block()
            elif self._block_start >= 0:
                self._dispatch(end, out, time)
            return
        if self._discarding:
            return
        if self._max is not None:
            # Comment lines count too: a pending line cannot be told apart earlier.
            start = self._block_start if self._block_start >= 0 else ls
            if end - start > self._max:
                self._overflow(start, out)
                return
        comment = line[0] == 0x3A  # ":" a comment: a record of its own, not part of the block
        opens = False
        if not comment:
            opens = self._block_start < 0
            if opens:
                self._block_start = ls
            self._event_only = False
            self._block_lines.append(line)
            if line.startswith(b"data:"):
                # The most common line of LLM streams: decode only the value.
                k = 6 if line[5:6] == b" " else 5
                try:
                    value = _value(line, k)
                except UnicodeDecodeError as exc:
                    value = line[k:].decode("utf-8", "replace")
                    self._block_diags.append(_invalid_utf8(line, ls, k + exc.start))
                self._data.append(value)
                self._only_strays = False
                return
        try:
            text = line.decode()
            bad: Diagnostic | None = None
        except UnicodeDecodeError as exc:
            text = line.decode("utf-8", "replace")
            bad = _invalid_utf8(line, ls, exc.start)
        if comment:
            value = text[1:]
            if value[:1] == " ":
                value = value[1:]
            index = self._index
            self._index = index + 1
            if bad is not None:
                out.append(replace(bad, record=index))
            out.append(SSEComment(index, value, ls, end, time))
            return
        if bad is not None:
            self._block_diags.append(bad)
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
            self._event_only = opens and bad is None
        elif name == "id":
            self._only_strays = False
            if "\x00" in value:
                self._block_diags.append(diagnostic(codes.SSE_NUL_IN_ID, ls, value=value))
            else:
                self._id = value
        elif name == "retry":
            self._only_strays = False
            if value and value.isascii() and value.isdigit():
                self._retry = int(value)
            else:
                self._block_diags.append(diagnostic(codes.SSE_INVALID_RETRY, ls, value=value))
        else:
            self._block_diags.append(diagnostic(codes.SSE_UNKNOWN_FIELD, ls, line=text, field=name))

    def _flush_block_diags(self, out: list[FramingOutput], record: int | None) -> None:
        if self._block_diags:
            if record is None:
                out.extend(self._block_diags)
            else:
                out.extend(replace(found, record=record) for found in self._block_diags)
            self._block_diags.clear()

    def _dispatch(self, end: int, out: list[FramingOutput], time: float | None) -> None:
        self._committed_id = self._id
        if self._data:
            index = self._index
            self._index = index + 1
            if self._block_diags:
                self._flush_block_diags(out, index)
            out.append(
                SSEEvent(
                    index,
                    self._event or "message",
                    "\n".join(self._data),
                    self._id,
                    self._retry,
                    self._block_start,
                    end,
                    time,
                )
            )
        elif self._fields_seen:
            raw = _join_lines(self._block_lines)
            if self._only_strays and raw.lstrip()[:1] in ("{", "["):
                # Bare JSON without "data:" (Gemini writes errors this way). Not an
                # event for the standard; handed on so the provider layer can read it.
                self._block_diags.clear()
                record = JSONRecord(self._index, raw, self._block_start, end, time)
                self._index += 1
                out.append(
                    diagnostic(
                        codes.SSE_UNPREFIXED_JSON,
                        self._block_start,
                        record.index,
                        raw,
                        raw_text=raw,
                    )
                )
                out.append(record)
            else:
                self._flush_block_diags(out, None)
                out.append(
                    diagnostic(codes.SSE_DATALESS_BLOCK, self._block_start, None, raw, raw_text=raw)
                )
        else:
            self._flush_block_diags(out, None)
        self._reset_block()

    def _reset_block(self) -> None:
        if self._data:
            self._data = []
        self._event = ""
        self._event_only = False
        self._block_start = -1
        if self._block_lines:
            self._block_lines = []
        self._fields_seen = False
        self._only_strays = True
        self._block_diags.clear()


class _GeneralSSEParser(SSEParser):
    """:class:`SSEParser` with every shortcut off: each line goes through the general
    path. The shortcuts must give exactly what it gives; the tests check that."""

    __slots__ = ()

    _shortcuts: ClassVar[bool] = False
