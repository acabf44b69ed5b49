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
from datetime import datetime
from typing import Any

from ..diagnostics import Diagnostic, quote
from ._body import (
    LOST_EXACT_BYTES,
    LOST_FRAMING,
    LOST_HEADERS,
    LOST_REQUEST,
    LOST_TIMING,
    Body,
    Chunk,
)

__all__ = ["TIME_KEYS", "is_jsonl_wrapper", "read_jsonl"]

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


def read_jsonl(data: bytes) -> Body:
    """Read an SDK JSONL dump into a :class:`Body` of NDJSON lines.

    Never raises: a bad line becomes a diagnostic and the rest is read.
    """
    diags: list[Diagnostic] = []
    chunks: list[Chunk] = []
    origin: float | None = None
    timed = False
    pos = 3 if data.startswith(b"\xef\xbb\xbf") else 0
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
                Diagnostic(
                    "jsonl.invalid-line",
                    "warning",
                    f"Line {lineno} is not JSON ({exc}): {quote(raw)}; it is skipped.",
                    at,
                )
            )
            continue
        if not isinstance(obj, dict) or "chunk" not in obj:
            diags.append(
                Diagnostic(
                    "jsonl.missing-chunk",
                    "warning",
                    f"Line {lineno} has no 'chunk' field: {quote(raw)}; it is skipped.",
                    at,
                )
            )
            continue
        chunk = obj["chunk"]
        piece = (
            chunk.encode("utf-8", "surrogatepass")
            if isinstance(chunk, str)
            else _dumps(chunk) + b"\n"
        )
        t: float | None = None
        key = next((k for k in TIME_KEYS if k in obj), None)
        if key is not None:
            stamp = _seconds(obj[key])
            if stamp is None:
                diags.append(
                    Diagnostic(
                        "jsonl.invalid-time",
                        "warning",
                        f"Line {lineno}'s {key!r} is not a time ({quote(obj[key])}); its chunk "
                        "is kept without one.",
                        at,
                    )
                )
            else:
                if origin is None:
                    origin = stamp
                t = stamp - origin
                timed = True
        chunks.append(Chunk(piece, t))
    lost = [LOST_FRAMING, LOST_EXACT_BYTES, LOST_HEADERS, LOST_REQUEST]
    if not timed:
        lost.append(LOST_TIMING)
    return Body(chunks, "jsonl", lost=lost, diagnostics=diags)
