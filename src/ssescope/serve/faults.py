"""Fault injection for the replay server: a pure transformation of body bytes.

:func:`parse_fault` reads a fault spec (``cut@120``, ``stall@record:3:2.5``, ``crlf`` …);
:func:`apply_faults` applies faults to a body using the record spans of the framing layer
and returns a :class:`FaultPlan`: the bytes to send, where to pause, which chunk
boundaries to force, and an HTTP error to answer with instead. :func:`schedule` turns a
plan into timed chunks. Nothing here does I/O or sleeps.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from ..errors import UsageError
from ..framing.framer import Framer
from ..framing.records import JSONRecord, SSEComment, SSEEvent
from ..providers.detect import detect_provider
from ..providers.registry import error_body, error_frame, terminal_events

__all__ = [
    "FAULT_KINDS",
    "SOCKET_ONLY",
    "Fault",
    "FaultPlan",
    "Span",
    "apply_faults",
    "error_body",
    "error_frame",
    "parse_fault",
    "record_spans",
    "schedule",
]

FAULT_KINDS = (
    "cut",
    "stall",
    "drop-blank-lines",
    "crlf",
    "cr",
    "split-utf8",
    "garble",
    "error",
    "no-done",
    "http-error",
    "close",
    "drop",
)
"""Every fault the server can inject (``close`` and ``drop`` over a WebSocket only)."""

SOCKET_ONLY = ("close", "drop")
"""The faults that apply to a WebSocket stream only (:mod:`ssescope.serve.ws_script`)."""


@dataclass(frozen=True, slots=True)
class Fault:
    """One fault: its kind and, depending on it, a record, a byte offset, seconds, a status."""

    kind: str
    record: int | None = None
    byte: int | None = None
    seconds: float | None = None
    status: int | None = None

    def __str__(self) -> str:
        if self.kind == "cut" and self.byte is not None:
            return f"cut@{self.byte}"
        if self.kind == "stall":
            return f"stall@record:{self.record}:{self.seconds:g}"
        if self.kind == "close":
            return f"close@record:{self.record}:{self.status}"
        if self.record is not None:
            return f"{self.kind}@record:{self.record}"
        if self.status is not None:
            return f"{self.kind}:{self.status}"
        return self.kind


_CLOSE_CODES = frozenset({1000, 1001, 1002, 1003, 1007, 1008, 1009, 1010, 1011, 1012, 1013, 1014})


def _int(text: str, spec: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise UsageError(f"bad fault {spec!r}: {text!r} is not a whole number") from None
    if value < 0:
        raise UsageError(f"bad fault {spec!r}: {value} is negative")
    return value


def parse_fault(spec: str) -> Fault:
    """Parse a fault spec.

    Accepted: ``cut@BYTE``, ``cut@record:N``, ``stall@record:N:SECONDS``,
    ``drop-blank-lines``, ``crlf``, ``cr``, ``split-utf8``, ``garble@record:N``,
    ``error@record:N``, ``no-done``, ``http-error:STATUS``; over a WebSocket also
    ``close@record:N:CODE`` (a close frame with CODE before message N) and
    ``drop@record:N`` (the connection cut with no close frame before message N).

    Raises:
        UsageError: for anything else.
    """
    spec = spec.strip()
    if spec in ("drop-blank-lines", "crlf", "cr", "split-utf8", "no-done"):
        return Fault(spec)
    if spec.startswith("http-error:"):
        status = _int(spec.split(":", 1)[1], spec)
        if not 400 <= status <= 599:
            raise UsageError(f"bad fault {spec!r}: the status must be between 400 and 599")
        return Fault("http-error", status=status)
    kind, sep, where = spec.partition("@")
    if not sep or kind not in ("cut", "stall", "garble", "error", "close", "drop"):
        raise UsageError(f"unknown fault {spec!r}; expected one of: {', '.join(FAULT_KINDS)}")
    if kind == "cut" and not where.startswith("record:"):
        return Fault("cut", byte=_int(where, spec))
    parts = where.split(":")
    if parts[0] != "record" or len(parts) < 2:
        raise UsageError(f"bad fault {spec!r}: expected {kind}@record:N")
    record = _int(parts[1], spec)
    if kind == "stall":
        if len(parts) != 3:
            raise UsageError(f"bad fault {spec!r}: expected stall@record:N:SECONDS")
        try:
            seconds = float(parts[2])
        except ValueError:
            raise UsageError(f"bad fault {spec!r}: {parts[2]!r} is not a number") from None
        if not seconds >= 0:
            raise UsageError(f"bad fault {spec!r}: the pause must not be negative")
        return Fault("stall", record=record, seconds=seconds)
    if kind == "close":
        if len(parts) != 3:
            raise UsageError(f"bad fault {spec!r}: expected close@record:N:CODE")
        code = _int(parts[2], spec)
        if not (code in _CLOSE_CODES or 3000 <= code <= 4999):
            raise UsageError(
                f"bad fault {spec!r}: {code} is not a close code a close frame may carry "
                "(1000-1003, 1007-1014, 3000-4999)"
            )
        return Fault("close", record=record, status=code)
    if len(parts) != 2:
        raise UsageError(f"bad fault {spec!r}: expected {kind}@record:N")
    return Fault(kind, record=record)


@dataclass(frozen=True, slots=True)
class Span:
    """Where one record lies in the body, as the framing layer found it."""

    index: int
    start: int
    end: int
    event: str | None
    data: str | None


def record_spans(body: bytes) -> tuple[list[Span], str, str]:
    """Frame ``body``; return its record spans, its framing and its provider (or ``unknown``)."""
    framer = Framer()
    items = framer.feed(body)
    items.extend(framer.close())
    spans: list[Span] = []
    provider: str | None = None
    for item in items:
        if not isinstance(item, SSEComment | SSEEvent | JSONRecord):
            continue
        # A record that ends on the CR of a CRLF keeps the LF: a cut, an injected frame
        # or a chunk boundary never falls between the two.
        end = item.end + 1 if body[item.end - 1 : item.end + 1] == b"\r\n" else item.end
        if isinstance(item, SSEComment):
            spans.append(Span(item.index, item.start, end, None, None))
        else:
            spans.append(Span(item.index, item.start, end, item.event, item.data))
            if provider is None:
                found = detect_provider(item)
                if found is not None:
                    provider = found[0]
    return spans, framer.framing or "sse", provider or "unknown"


@dataclass(slots=True)
class FaultPlan:
    """What to send: bytes, pauses before some byte offsets, forced chunk boundaries.

    Attributes:
        body: the bytes to send.
        pauses: ``(offset, seconds)``: wait before sending the byte at ``offset``.
        boundaries: offsets where a chunk must end (``split-utf8``, pauses).
        http_status: answer with this status and ``body`` instead of a stream, if set.
        provider: the provider detected in the original body.
        framing: the framing of the original body.
    """

    body: bytes
    pauses: list[tuple[int, float]] = field(default_factory=list)
    boundaries: set[int] = field(default_factory=set)
    http_status: int | None = None
    provider: str = "unknown"
    framing: str = "sse"


def _garble(segment: bytes) -> bytes:
    """Break the JSON of a record: drop its last closing brace or bracket."""
    for i in range(len(segment) - 1, -1, -1):
        if segment[i] in b"}]":
            return segment[:i] + segment[i + 1 :]
    return segment + b"{"


def _is_terminal(span: Span) -> bool:
    if span.data is None:
        return False
    if span.data.strip() == "[DONE]":
        return True
    return span.event in terminal_events()


def _lines(segment: bytes, faults: set[str]) -> bytes:
    if "drop-blank-lines" in faults:
        while b"\n\n" in segment:
            segment = segment.replace(b"\n\n", b"\n")
    if "crlf" in faults:
        segment = segment.replace(b"\n", b"\r\n")
    elif "cr" in faults:
        segment = segment.replace(b"\n", b"\r")
    return segment


def _check_fits(faults: list[Fault], spans: list[Span], size: int) -> None:
    """Refuse a fault that points past the stream: it would serve the stream unharmed.

    A record fault must name a record of the stream (``error@record:N`` may also name the
    place just after the last one: the error is then appended), and ``cut@BYTE`` must fall
    inside the body.
    """
    count = len(spans)
    where = f"0 to {count - 1}" if count else "none"
    for f in faults:
        if f.record is not None:
            last = count if f.kind == "error" else count - 1
            if f.record > last:
                raise UsageError(
                    f"fault {f} does not fit this stream: it has {count} record(s) "
                    f"(numbered {where})"
                )
        elif f.kind == "cut" and f.byte is not None and f.byte >= size:
            raise UsageError(
                f"fault {f} does not fit this stream: it has {size} bytes, so nothing would be cut"
            )


def apply_faults(body: bytes, faults: list[Fault]) -> FaultPlan:
    """Apply ``faults`` to ``body`` (record numbers are the framing layer's record indices).

    Raises:
        UsageError: a fault names a record past the stream's last one, or a byte past its
            end (the stream would be served unharmed).

    Record faults (``stall``, ``garble``, ``error``, ``cut@record``, ``no-done``) are applied
    first, then line-ending faults, then ``cut@BYTE`` (an offset in the bytes sent).
    """
    for f in faults:
        if f.kind in SOCKET_ONLY:
            raise UsageError(f"fault {f} applies to a WebSocket stream only (serve it over ws://)")
    spans, framing, provider = record_spans(body)
    _check_fits(faults, spans, len(body))
    plan = FaultPlan(b"", provider=provider, framing=framing)
    kinds = {f.kind for f in faults}
    for f in faults:
        if f.kind == "http-error":
            assert f.status is not None
            plan.http_status = f.status
            plan.body = error_body(provider, f.status)
            return plan
    stalls = {f.record: f.seconds or 0.0 for f in faults if f.kind == "stall"}
    garble = {f.record for f in faults if f.kind == "garble"}
    errors = [f.record for f in faults if f.kind == "error" and f.record is not None]
    error_at = min(errors) if errors else None
    cuts = [f.record for f in faults if f.kind == "cut" and f.record is not None]
    cut_at = min(cuts) if cuts else None
    no_done = "no-done" in kinds
    if no_done and not any(_is_terminal(s) for s in spans):
        data_spans = [s for s in spans if s.data is not None]
        last = data_spans[-1].index if data_spans else None
    else:
        last = None

    pieces: list[tuple[bytes, float | None]] = []  # (bytes, pause before them)
    current = bytearray()
    pos = 0
    ended = False
    for span in spans:
        current += body[pos : span.start]
        pos = span.start
        idx = span.index
        if idx in stalls:
            pieces.append((bytes(current), None))
            current = bytearray()
            pieces.append((b"", stalls[idx]))
        if error_at is not None and idx >= error_at:
            current += error_frame(provider, framing)
            ended = True
            break
        if cut_at is not None and idx >= cut_at:
            size = span.end - span.start
            current += body[span.start : span.start + max(1, size // 2)]
            ended = True
            break
        segment = body[span.start : span.end]
        if idx in garble:
            segment = _garble(segment)
        if no_done and (idx == last or (last is None and _is_terminal(span))):
            segment = b""
        current += segment
        pos = span.end
    if not ended:
        if error_at is not None:  # the error record is past the end: append it
            current += error_frame(provider, framing)
        else:
            current += body[pos:]
    pieces.append((bytes(current), None))

    out = bytearray()
    for data, pause in pieces:
        if pause is not None:
            plan.pauses.append((len(out), pause))
            plan.boundaries.add(len(out))
            continue
        out += _lines(data, kinds)
    for f in faults:
        if f.kind == "cut" and f.byte is not None:
            del out[f.byte :]
    plan.body = bytes(out)
    size = len(plan.body)
    plan.pauses = [(o, s) for o, s in plan.pauses if o < size]
    if "split-utf8" in kinds:
        plan.boundaries.update(_utf8_splits(plan.body))
    plan.boundaries = {b for b in plan.boundaries if 0 < b < size}
    return plan


def _utf8_splits(body: bytes) -> set[int]:
    """Offsets just after the first byte of every multi-byte UTF-8 sequence."""
    return {i + 1 for i, b in enumerate(body) if b >= 0xC0}


def schedule(
    plan: FaultPlan,
    *,
    chunk: int | str = "original",
    delay: float | str = 0.0,
    speed: float = 1.0,
    original: list[tuple[int, float]] | None = None,
) -> list[tuple[bytes, float]]:
    """Cut the plan's body into chunks, each with the seconds to wait before sending it.

    Args:
        plan: the output of :func:`apply_faults`.
        chunk: a size in bytes, ``"random:SEED"`` (1..64 bytes, reproducible), or
            ``"original"`` (the capture's chunk boundaries; one chunk per record if none).
        delay: milliseconds between chunks, or ``"original"`` (the capture's timing).
        speed: divide every wait (not the injected stalls) by this.
        original: the capture's ``(end offset, arrival time)`` per chunk, if known.

    Raises:
        UsageError: for a bad chunk or delay value.
    """
    body = plan.body
    size = len(body)
    cuts: set[int] = set(plan.boundaries)
    times: dict[int, float] = {}
    if isinstance(chunk, int) or (isinstance(chunk, str) and chunk.isdigit()):
        n = int(chunk)
        if n <= 0:
            raise UsageError(f"bad chunk size {chunk!r}: must be at least 1")
        cuts.update(range(n, size, n))
    elif isinstance(chunk, str) and chunk.startswith("random:"):
        rng = random.Random(chunk.split(":", 1)[1])
        at = 0
        while at < size:
            at += rng.randint(1, 64)
            cuts.add(at)
    elif chunk == "original":
        if original:
            cuts.update(end for end, _ in original)
        else:
            spans, _, _ = record_spans(body)
            cuts.update(s.end for s in spans)
    else:
        raise UsageError(f"bad chunking {chunk!r}; expected N, random:SEED or original")
    if original:
        times = dict(original)
    if delay != "original":
        try:
            fixed = float(delay) / 1000.0
        except ValueError:
            raise UsageError(f"bad delay {delay!r}; expected milliseconds or original") from None
    else:
        fixed = 0.0
    if speed <= 0:
        raise UsageError(f"bad speed {speed!r}: must be positive")
    pauses = dict(plan.pauses)
    bounds = sorted(b for b in cuts if 0 < b < size)
    out: list[tuple[bytes, float]] = []
    prev = 0
    prev_t = 0.0
    for end in [*bounds, size]:
        if end <= prev:
            continue
        if delay == "original":
            known = [t for e, t in times.items() if prev < e <= end]
            t = max(known) if known else prev_t
            wait = max(0.0, t - prev_t) / speed
            prev_t = t
        else:
            wait = (fixed / speed) if out else 0.0
        wait += pauses.get(prev, 0.0)
        out.append((body[prev:end], wait))
        prev = end
    return out
