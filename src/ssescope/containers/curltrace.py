"""curl ``--trace-ascii`` and ``--trace`` output, with or without ``--trace-time``.

Theory of operation
===================

curl writes one header line per event, then, for data events, a dump of the bytes::

    12:00:00.100000 => Send header, 87 bytes (0x57)
    0000: POST /v1/chat/completions HTTP/1.1
    ...
    12:00:00.350000 <= Recv data, 81 bytes (0x51)
    0000: 4b
    0004: data: {"choices":[{"index":0,"delta":{"role":"assistant","conten
    0044: t":""}}]}..

The time prefix (``HH:MM:SS.ffffff``, local wall clock) is there with ``--trace-time``;
``--trace-ids`` adds ``[0-0]``. Each ``<= Recv data`` event is one read from the
socket: it becomes one :class:`Chunk`, timed relative to the first ``=> Send header``.
``<= Recv header`` events give the status line and headers (a new status line starts
a new head, so ``100 Continue`` is replaced by the final response); ``=> Send header``
gives the request. SSL, ``Send data`` and ``Info`` events are skipped, except that
``Info`` lines tell whether TLS was used (for the URL's scheme).

The dump (curl ``src/tool_cb_dbg.c``, ``dump()``) has two layouts:

``--trace``
    16 bytes per line, hex then text: lossless; the hex is read.
``--trace-ascii``
    64 bytes per line, text only, every byte outside 0x20-0x7F printed as ``.``; a
    CRLF pair is not printed but ends the line. The offsets at the start of each line
    therefore tell exactly where a CRLF was dropped (the next offset is 2 more than the
    text accounts for), so CRLFs are restored exactly. A lone LF, though, is printed as
    ``.`` like every other unprintable byte (and each byte of a multi-byte UTF-8
    character). Where a run of ``.`` stands where a line must end (before an SSE field
    name such as ``data:``, at the end of a read after ``}`` / ``]`` or after two
    dots, between ``}`` and ``{``), at most two of them are read as LF; the rest stay
    ``.``. The result says it lost ``exact bytes``.

curl 7.x/8.x dump the body as received, so an HTTP/1.1 chunked body still has its chunk
size lines: it is de-chunked here (each payload byte stays in the read it arrived in).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from .. import codes
from ..diagnostics import Diagnostic, diagnostic
from ._body import (
    LOST_EXACT_BYTES,
    LOST_REQUEST,
    LOST_TIMING,
    Body,
    Chunk,
    RequestInfo,
)
from ._httpbody import check_status, decode_transfer, parse_header_line, parse_status_line
from .redact import redact_header_bytes, redact_headers, redact_url

__all__ = ["guess_line_feeds", "read_curl_trace"]

_EVENT = re.compile(
    rb"(?:(\d\d):(\d\d):(\d\d)(\.\d+)? )?(?:\[[^\]\r\n]*\] )?"
    rb"(== Info: ?|=> Send header|=> Send data|=> Send SSL data|<= Recv header|<= Recv data"
    rb"|<= Recv SSL data)(?:, (\d+) bytes(?: \(0x[0-9a-fA-F]+\))?)?([^\r\n]*)"
)
_DUMP = re.compile(rb"([0-9a-fA-F]{4,}): ?([^\r\n]*)\r?")
_HEX_LAYOUT = re.compile(rb"(?:[0-9a-fA-F]{2} ){1,16}(?:   ){0,15}")
_SSE_FIELD = re.compile(rb"(?:data|event|id|retry)?:")
_DOTS = re.compile(rb"\.+")
_DAY = 86400.0


@dataclass(slots=True, eq=False)
class _Block:
    kind: bytes
    time: float | None
    size: int | None
    at: int
    lines: list[tuple[int, bytes, int]] = field(default_factory=list)
    """(offset in dump, text, file offset) of each line."""


def read_curl_trace(data: bytes) -> Body:
    """Read curl ``--trace-ascii`` / ``--trace`` output into a :class:`Body`.

    Never raises: what is wrong becomes a diagnostic.
    """
    return _TraceReader(data).read()


class _TraceReader:
    def __init__(self, data: bytes) -> None:
        self.data = data
        self.diags: list[Diagnostic] = []
        self.hex: bool | None = None
        self.day = 0.0
        self.last_clock: float | None = None
        self.t0: float | None = None
        self.timed = False
        self.untimed = False
        self.tls = False
        self.request: RequestInfo | None = None
        self.host = ""
        self.status: int | None = None
        self.reason = ""
        self.status_at: int | None = None
        self.status_time: float | None = None
        self.headers: list[tuple[str, str]] = []
        self.chunks: list[Chunk] = []
        self.responded = False
        self.exchanges = 0
        self.body_at: int | None = None
        self.last_time: float | None = None
        self.bad_lines = 0

    def read(self) -> Body:
        block: _Block | None = None
        pos = 0
        data = self.data
        n = len(data)
        while pos < n:
            end = data.find(b"\n", pos)
            if end < 0:
                end = n
            line = data[pos:end]
            m = _EVENT.fullmatch(line.rstrip(b"\r"))
            if m is not None:
                if block is not None:
                    self._finish(block)
                block = self._start(m, pos)
            else:
                d = _DUMP.fullmatch(line)
                if d is not None and block is not None:
                    block.lines.append((int(d[1], 16), d[2], pos))
                elif line.strip():
                    self._bad_line(line, pos)
            pos = end + 1
        if block is not None:
            self._finish(block)
        return self._body()

    # -- events ----------------------------------------------------------------------

    def _clock(self, m: re.Match[bytes]) -> float | None:
        if m[1] is None:
            self.untimed = True
            return None
        self.timed = True
        clock = int(m[1]) * 3600 + int(m[2]) * 60 + int(m[3]) + float(m[4] or b"0")
        if self.last_clock is not None and clock < self.last_clock - _DAY / 2:
            self.day += _DAY  # the trace ran past midnight
        self.last_clock = clock
        return clock + self.day

    def _start(self, m: re.Match[bytes], pos: int) -> _Block:
        clock = self._clock(m)
        kind = m[5]
        if kind.startswith(b"== Info"):
            info = m[7]
            if b"SSL connection" in info or b"TLS" in info or b"[:scheme: https]" in info:
                self.tls = True
        size = int(m[6]) if m[6] is not None else None
        return _Block(kind, clock, size, pos)

    def _finish(self, block: _Block) -> None:
        kind = block.kind
        if kind.startswith(b"== Info") or b"SSL" in kind or kind == b"=> Send data":
            return
        raw = self._bytes(block)
        if kind == b"=> Send header":
            if self.t0 is None and block.time is not None:
                self.t0 = block.time
            self._request(raw)
        elif kind == b"<= Recv header":
            self.responded = True
            self._response_head(raw, block.at, self._rel(block.time))
        elif kind == b"<= Recv data":
            self.responded = True
            if self.body_at is None:
                self.body_at = block.at
            t = self._rel(block.time)
            if t is not None:
                self.last_time = t
            if raw:
                self.chunks.append(Chunk(raw, t))

    def _rel(self, clock: float | None) -> float | None:
        """Seconds since the first request was sent (trace times have microseconds)."""
        if clock is None:
            return None
        return round(clock - (self.t0 if self.t0 is not None else clock), 6)

    def _request(self, raw: bytes) -> None:
        if self.responded:
            self.exchanges += 1
            self.responded = False
            self.status = None
            self.status_time = None
            self.headers = []
            self.chunks = []
            self.body_at = None
        lines = raw.split(b"\n")
        parts = lines[0].rstrip(b"\r").split(b" ")
        method = parts[0].decode("utf-8", "replace")
        target = parts[1].decode("utf-8", "replace") if len(parts) > 1 else ""
        headers: list[tuple[str, str]] = []
        for line in lines[1:]:
            header = parse_header_line(line.rstrip(b"\r"))
            if header is not None:
                headers.append(header)
        host = next((v for k, v in headers if k.lower() in ("host", ":authority")), "")
        if "://" in target:
            url = target
        else:
            url = f"{'https' if self.tls else 'http'}://{host}{target}" if host else target
        self.request = RequestInfo(
            method=method, url=redact_url(url), headers=redact_headers(headers)
        )

    def _response_head(self, raw: bytes, at: int, time: float | None) -> None:
        for piece in raw.split(b"\n"):
            line = piece.rstrip(b"\r")
            if not line:
                continue
            parsed = parse_status_line(line)
            if parsed is not None:
                if self.status is not None:
                    self.diags.append(
                        diagnostic(
                            codes.HTTP_INTERIM_RESPONSE_SKIPPED,
                            self.status_at,
                            head=f"{self.status} {self.reason}",
                        )
                    )
                self.status, self.reason = parsed
                self.status_at = at
                self.status_time = time
                self.headers = []
                self.chunks = []
                continue
            header = parse_header_line(line)
            if header is not None:
                self.headers.append(header)

    # -- dump lines ------------------------------------------------------------------

    def _bytes(self, block: _Block) -> bytes:
        if not block.lines:
            return b""
        if self.hex is None:
            first = block.lines[0][1]
            self.hex = len(first) >= 48 and _HEX_LAYOUT.fullmatch(first[:48]) is not None
        out = bytearray()
        if self.hex:
            for _off, text, at in block.lines:
                hexpart = text[:48]
                if _HEX_LAYOUT.fullmatch(hexpart) is None:
                    self._bad_line(text, at)
                    continue
                out += bytes.fromhex(hexpart.decode("ascii"))
        else:
            lines = block.lines
            for k, (off, text, _at) in enumerate(lines):
                nxt = lines[k + 1][0] if k + 1 < len(lines) else block.size
                out += text
                if nxt is None:
                    continue
                gap = nxt - off - len(text)
                if gap == 2:
                    out += b"\r\n"  # a CRLF ends the printed line without being shown
                elif gap != 0:
                    break  # reported just below: the bytes do not add up
        if block.size is not None and len(out) != block.size:
            self._mismatch(block, block.at)
        return bytes(out)

    def _mismatch(self, block: _Block, at: int | None) -> None:
        self.diags.append(
            diagnostic(
                codes.CURL_TRACE_SIZE_MISMATCH,
                at,
                decode=block.kind.decode(),
                at=block.at,
                size=block.size,
            )
        )

    def _bad_line(self, line: bytes, at: int) -> None:
        self.bad_lines += 1
        if self.bad_lines <= 3:
            shown = redact_header_bytes(line)[:60]  # (a header line of a mangled dump)
            self.diags.append(diagnostic(codes.CURL_TRACE_BAD_LINE, at, form="line", line=shown))

    # -- result ----------------------------------------------------------------------

    def _body(self) -> Body:
        diags = self.diags
        if self.bad_lines > 3:
            diags.append(
                diagnostic(codes.CURL_TRACE_BAD_LINE, form="more", more=self.bad_lines - 3)
            )
        if self.exchanges:
            diags.append(
                diagnostic(codes.CURL_TRACE_MULTIPLE_EXCHANGES, exchanges=self.exchanges + 1)
            )
        if self.status is None and not self.chunks:
            diags.append(diagnostic(codes.CURL_TRACE_NO_RESPONSE, len(self.data)))
        lossy = not self.hex
        chunks, more = decode_transfer(self.chunks, self.headers, self.body_at, lossy=lossy)
        diags.extend(more)
        diags.extend(check_status(self.status, self.reason, self.status_at))
        lost: list[str] = []
        if lossy and chunks:
            chunks = self._guess(chunks)
            lost.append(LOST_EXACT_BYTES)
        if not self.timed or self.untimed:
            lost.append(LOST_TIMING)
        if self.request is None:
            lost.append(LOST_REQUEST)
        timing: dict[str, float] = {}
        first = self.status_time
        if first is None and chunks:
            first = chunks[0].time
        if first is not None:
            timing["first_byte_s"] = first
        if self.timed and self.last_time is not None:
            timing["total_s"] = self.last_time
        return Body(
            chunks,
            "curl-trace",
            status=self.status,
            headers=redact_headers(self.headers),
            request=self.request,
            lost=lost,
            diagnostics=diags,
            timing=timing,
        )

    def _guess(self, chunks: list[Chunk]) -> list[Chunk]:
        out: list[Chunk] = []
        guessed = 0
        unprintable = 0
        for k, chunk in enumerate(chunks):
            before = chunks[k - 1].data[-1:] if k else b""
            after = chunks[k + 1].data[:8] if k + 1 < len(chunks) else b""
            data, count, left = guess_line_feeds(chunk.data, before, after)
            guessed += count
            unprintable += left
            out.append(Chunk(data, chunk.time) if count else chunk)
        if guessed:
            self.diags.append(
                diagnostic(codes.CURL_TRACE_LINE_FEEDS_GUESSED, self.body_at, guessed=guessed)
            )
        if unprintable:
            self.diags.append(
                diagnostic(
                    codes.CURL_TRACE_UNPRINTABLE_BYTES, self.body_at, unprintable=unprintable
                )
            )
        return out


def guess_line_feeds(
    data: bytes, before: bytes = b"", after: bytes = b""
) -> tuple[bytes, int, int]:
    """Turn the ``.`` that stand where lines end in a ``--trace-ascii`` read back into LF.

    Args:
        data: one read, as printed by ``--trace-ascii`` (CRLFs already restored).
        before: the last byte of the previous read (context).
        after: the first bytes of the next read (context).

    Returns:
        The bytes with guessed line feeds, how many ``.`` were turned into LF, and how
        many runs of two or more ``.`` were left (likely unprintable bytes).
    """
    if b"." not in data:
        return data, 0, 0
    out = bytearray()
    last = 0
    count = 0
    left = 0
    n = len(data)
    for m in _DOTS.finditer(data):
        s, e = m.span()
        run = e - s
        prev = data[s - 1 : s] if s else before
        nxt = data[e : e + 8] if e < n else after
        at_end = e == n
        convert = 0
        ends_line = (
            _SSE_FIELD.match(nxt) is not None  # before an SSE field: "data:", "event:", ":"…
            or (prev in (b"}", b"]") and nxt[:1] in (b"{", b"["))  # between JSON lines
            or (at_end and (run >= 2 or prev in (b"}", b"]")))  # a read ending an event
        )
        if ends_line:
            convert = min(run, 2)
        if convert:
            out += data[last : e - convert]
            out += b"\n" * convert
            last = e
            count += convert
            if run - convert >= 2:
                left += 1
        elif run >= 2:
            left += 1
    out += data[last:]
    return bytes(out), count, left
