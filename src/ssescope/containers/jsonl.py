"""SDK JSONL dumps: one ``{"ts": ..., "chunk": {...}}`` object per line.

This is what logging code writes when it dumps each chunk an SDK yields
(``json.dumps({"ts": time.time(), "chunk": chunk.model_dump()})``). Each ``chunk`` is
re-emitted as one NDJSON line (a string chunk is emitted as it is, so a dump of raw SSE
text keeps its framing), at its ``ts`` relative to the first line's. ``ts`` may be epoch
seconds or milliseconds, or an ISO 8601 string; ``t``, ``time`` and ``timestamp`` are
accepted as its name.

What it loses: the wire framing (the SDK parsed it away; re-serialised JSON has the same
values, not the same bytes), headers and request, and timing if there is no ``ts``.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import Any

from .. import codes
from ..diagnostics import Diagnostic, diagnostic
from ..framing import BOM
from ..sourceinfo import EntryInfo
from ._body import (
    LOST_EXACT_BYTES,
    LOST_FRAMING,
    LOST_HEADERS,
    LOST_REQUEST,
    LOST_TIMING,
    Body,
    Chunk,
)
from .redact import redact_url

__all__ = ["STREAM_KEYS", "TIME_KEYS", "is_jsonl_wrapper", "read_jsonl", "read_jsonl_all"]

TIME_KEYS = ("ts", "t", "time", "timestamp")
"""Names of the time field of a wrapped chunk, in order of preference."""


def is_jsonl_wrapper(obj: object) -> bool:
    """Return whether a decoded line is a wrapped SDK chunk (``{"ts": …, "chunk": …}``)."""
    if not isinstance(obj, dict) or "chunk" not in obj:
        return False
    if any(k in obj for k in TIME_KEYS):
        return True
    # A lone {"chunk": {"bytes": ...}} is Bedrock InvokeModelWithResponseStream on the
    # wire (decoded), not an SDK dump.
    inner = obj["chunk"]
    return len(obj) == 1 and not (isinstance(inner, dict) and "bytes" in inner)


def _loads(raw: bytes) -> Any:
    # The standard library, not orjson: orjson turns integers beyond 64 bits into floats,
    # and re-emitted chunks must keep the values they had.
    return json.loads(raw)


def _dumps(value: Any) -> bytes:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode(
        "utf-8", "surrogatepass"
    )


def _seconds(value: object) -> float | None:
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        try:
            f = float(value)
        except OverflowError:  # an integer beyond a double
            return None
        if not math.isfinite(f) or f < 0:
            return None
        return f / 1000 if f > 1e11 else f  # epoch milliseconds
    if isinstance(value, str):
        try:
            return datetime.fromisoformat(value.replace("Z", "+00:00")).timestamp()
        except (ValueError, OverflowError, OSError):
            return None
    return None


STREAM_KEYS = ("request_id", "stream_id", "response_id")
"""Wrapper fields that name the stream a line belongs to, in a log holding several."""


@dataclass(slots=True)
class _Stream:
    """The lines of one stream of the log, as they are read."""

    key: str | None
    chunks: list[Chunk] = field(default_factory=list)
    diagnostics: list[Diagnostic] = field(default_factory=list)
    origin: float | None = None
    timed: bool = False
    method: str | None = None
    url: str | None = None


def _stream_key(obj: dict[str, Any]) -> str | None:
    for key in STREAM_KEYS:
        value = obj.get(key)
        if isinstance(value, (str, int)) and not isinstance(value, bool):
            return f"{key}={value}"
    return None


def _read_lines(data: bytes) -> tuple[list[_Stream], list[Diagnostic]]:
    """Read every line; group the chunks by stream (one stream when no line names one)."""
    diags: list[Diagnostic] = []
    streams: dict[str | None, _Stream] = {}
    pos = 3 if data.startswith(BOM) else 0
    n = len(data)
    lineno = 0
    while pos < n:
        end = data.find(b"\n", pos)
        if end < 0:
            end = n
        raw = data[pos:end].strip()
        at = pos
        pos = end + 1
        lineno += 1
        if not raw:
            continue
        try:
            obj = _loads(raw)
        except (ValueError, RecursionError) as exc:
            diags.append(
                diagnostic(
                    codes.JSONL_INVALID_LINE, at, lineno=lineno, error=str(exc), raw_text=raw
                )
            )
            continue
        if not isinstance(obj, dict) or "chunk" not in obj:
            diags.append(diagnostic(codes.JSONL_MISSING_CHUNK, at, lineno=lineno, raw_text=raw))
            continue
        key = _stream_key(obj)
        stream = streams.get(key)
        if stream is None:
            stream = streams[key] = _Stream(key)
        if stream.method is None and isinstance(obj.get("method"), str):
            stream.method = obj["method"]
        if stream.url is None and isinstance(obj.get("url"), str):
            stream.url = redact_url(obj["url"])
        chunk = obj["chunk"]
        piece = (
            chunk.encode("utf-8", "surrogatepass")
            if isinstance(chunk, str)
            else _dumps(chunk) + b"\n"
        )
        t: float | None = None
        time_key = next((k for k in TIME_KEYS if k in obj), None)
        if time_key is not None:
            stamp = _seconds(obj[time_key])
            if stamp is None:
                stream.diagnostics.append(
                    diagnostic(
                        codes.JSONL_INVALID_TIME, at, lineno=lineno, key=time_key, obj=obj[time_key]
                    )
                )
            else:
                if stream.origin is None:
                    stream.origin = stamp
                t = stamp - stream.origin
                stream.timed = True
        stream.chunks.append(Chunk(piece, t))
    return list(streams.values()), diags


def _body(stream: _Stream, diags: list[Diagnostic], entry: EntryInfo | None) -> Body:
    lost = [LOST_FRAMING, LOST_EXACT_BYTES, LOST_HEADERS, LOST_REQUEST]
    if not stream.timed:
        lost.append(LOST_TIMING)
    # the log's own findings, in line order
    found = sorted([*diags, *stream.diagnostics], key=lambda d: d.offset or 0)
    return Body(stream.chunks, "jsonl", lost=lost, diagnostics=found, entry=entry)


def _started(stream: _Stream) -> str | None:
    if stream.origin is None:
        return None
    return datetime.fromtimestamp(stream.origin, tz=timezone.utc).isoformat()


def read_jsonl_all(data: bytes) -> list[Body]:
    """Read every stream of a JSONL log, in the order each first appears.

    A log names the stream of each line with a ``request_id``, ``stream_id`` or
    ``response_id`` field next to ``chunk`` (lines of several streams may interleave);
    ``method`` and ``url`` fields, when present, name its request. A log whose lines name
    no stream (or one) is one stream. Each stream of a log holding several carries its
    :attr:`Body.entry` (its number in order of appearance, the request, the first time).
    Lines that could not be read are reported with the first stream. Never raises.
    """
    streams, diags = _read_lines(data)
    if len(streams) <= 1:
        stream = streams[0] if streams else _Stream(None)
        return [_body(stream, diags, None)]
    return [
        _body(
            stream,
            diags if i == 0 else [],
            EntryInfo(i, stream.method, stream.url, _started(stream)),
        )
        for i, stream in enumerate(streams)
    ]


def read_jsonl(data: bytes) -> Body:
    """Read an SDK JSONL dump into a :class:`Body` of NDJSON lines.

    For a log holding several streams (see :func:`read_jsonl_all`), the first, with the
    info ``jsonl.multiple-streams`` naming how many there are. Never raises: a bad line
    becomes a diagnostic and the rest is read.
    """
    bodies = read_jsonl_all(data)
    first = bodies[0]
    if len(bodies) > 1:
        first.diagnostics.append(
            diagnostic(codes.JSONL_MULTIPLE_STREAMS, n=len(bodies), keys="/".join(STREAM_KEYS))
        )
    return first
