"""``--redact-content``: hash the text of a body and a request, keep everything else.

Captures made for bug reports should show the shape of a stream (event names, ids, finish
reasons, usage, chunk boundaries and timing) without the conversation. Every string under
a content key (``text``, ``content``, ``arguments``, ``partial_json``, …) becomes
``sha256:xxxxxxxx (N chars)``; records stay valid JSON, so the capture still inspects.

:class:`LineRedactor` works line by line on the body: a line is rewritten once it is
complete, and written with the time of the chunk that completed it.
"""

from __future__ import annotations

import hashlib
from typing import Any

import orjson

__all__ = ["CONTENT_KEYS", "OPAQUE_KEYS", "LineRedactor", "redact_json", "redact_value"]

CONTENT_KEYS = frozenset(
    {
        "text",
        "content",
        "thinking",
        "reasoning",
        "reasoning_content",
        "refusal",
        "arguments",
        "partial_json",
        "delta",
        "prompt",
        "system",
        "instructions",
        "transcript",
        "summary",
    }
)
"""Keys whose own string values are hashed (``type``, ``role``, ``id`` beside them are kept)."""

OPAQUE_KEYS = frozenset({"input", "args", "arguments", "parameters_values"})
"""Keys under which every string, at any depth, is hashed (tool inputs)."""


def _hash(text: str) -> str:
    digest = hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:8]
    return f"sha256:{digest} ({len(text)} chars)"


def redact_value(value: Any, key: str | None = None, opaque: bool = False) -> Any:
    """``value`` with its content strings hashed and its structure kept.

    A string is hashed when the key it sits under is in :data:`CONTENT_KEYS` (or it is
    anywhere below an :data:`OPAQUE_KEYS` key); list items count as under their list's key.
    """
    if isinstance(value, str):
        return _hash(value) if value and (opaque or key in CONTENT_KEYS) else value
    if isinstance(value, list):
        return [redact_value(v, key, opaque) for v in value]
    if isinstance(value, dict):
        return {k: redact_value(v, k, opaque or k in OPAQUE_KEYS) for k, v in value.items()}
    return value


def redact_json(text: bytes) -> bytes | None:
    """The JSON document ``text`` redacted, or ``None`` when it is not JSON."""
    try:
        obj = orjson.loads(text)
    except orjson.JSONDecodeError:
        return None
    return orjson.dumps(redact_value(obj))


def _line(line: bytes) -> bytes:
    body = line.rstrip(b"\r\n")
    end = line[len(body) :]
    prefix = b""
    if body.startswith(b"data:"):
        prefix, body = b"data:", body[5:]
        if body.startswith(b" "):
            prefix, body = b"data: ", body[1:]
    stripped = body.strip()
    if not stripped.startswith((b"{", b"[")):
        return line
    redacted = redact_json(stripped)
    return line if redacted is None else prefix + redacted + end


class LineRedactor:
    """Redact a text body line by line (SSE ``data:`` lines and NDJSON lines)."""

    def __init__(self) -> None:
        self._tail = b""

    def feed(self, data: bytes) -> bytes:
        """The redacted complete lines that ``data`` finished (the rest is held)."""
        buf = self._tail + data
        cut = max(buf.rfind(b"\n"), buf.rfind(b"\r"))
        if cut < 0:
            self._tail = buf
            return b""
        done, self._tail = buf[: cut + 1], buf[cut + 1 :]
        return b"".join(_line(piece) for piece in done.splitlines(keepends=True))

    def close(self) -> bytes:
        """The held last line, redacted."""
        tail, self._tail = self._tail, b""
        return _line(tail) if tail else b""
