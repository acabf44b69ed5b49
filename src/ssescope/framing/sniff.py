"""What a body that holds no stream at all is: empty, an HTML page, or plain text.

When not a single record could be framed, the Report says in one line what the body is
instead of a bare ``truncated``: nothing arrived, a web page answered (a proxy, a login
wall, a gateway's error page), or a line of text did (``upstream connect error``,
``Internal Server Error``). A body that starts like a stream (an SSE field, JSON, binary
event-stream bytes) is never described here: its own diagnostics explain it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .. import codes
from ..diagnostics import Diagnostic, diagnostic, quote
from ._text import BOM

__all__ = ["NotAStream", "describe_non_stream"]

_HTML = re.compile(rb"<(?:!doctype\s+html|html|head|body|title)\b", re.IGNORECASE)
_TITLE = re.compile(rb"<title[^>]*>(.*?)</title\s*>", re.IGNORECASE | re.DOTALL)
_TAG = re.compile(r"<[^>]*>")
_STREAM_STARTS = (b"data:", b"event:", b"id:", b"retry:", b":", b"{", b"[")
_LOOK = 4096  # bytes looked at


@dataclass(frozen=True, slots=True)
class NotAStream:
    """What the body is, in the Report's words.

    Attributes:
        status: the response status it gets (``truncated`` for nothing, ``failed`` for a
            page or text that answered instead of the stream).
        reason: the one-line status reason.
        error: the error message to report (the page title, the text), or ``None``.
        diagnostic: the ``stream.empty`` / ``stream.html-page`` / ``stream.plain-text``
            diagnostic.
    """

    status: str
    reason: str
    error: str | None
    diagnostic: Diagnostic


def _one_line(text: str) -> str:
    return " ".join(text.split())


def describe_non_stream(head: bytes, size: int) -> NotAStream | None:
    """Describe a body from which no record at all was framed.

    Args:
        head: the first bytes of the body (at least 4 KiB of it when it is longer).
        size: the body's length in bytes.

    Returns:
        What the body is, or ``None`` when it starts like a stream or is binary.
    """
    if size == 0:
        return NotAStream(
            "truncated",
            "the body is empty: no byte of a stream arrived",
            None,
            diagnostic(codes.STREAM_EMPTY),
        )
    body = head[:_LOOK]
    if body.startswith(BOM):
        body = body[3:]
    stripped = body.lstrip()
    if not stripped or stripped.startswith(_STREAM_STARTS) or b"\x00" in body:
        return None
    if any(start.startswith(stripped) for start in _STREAM_STARTS):
        return None  # a stream cut inside its first field name ("eve", "dat")
    if stripped[:1] == b"<" and _HTML.search(body):
        match = _TITLE.search(body)
        title = _one_line(match.group(1).decode("utf-8", "replace")) if match else ""
        if not title:
            title = _one_line(_TAG.sub(" ", body.decode("utf-8", "replace")))[:200]
        named = f" ({quote(title, 80)})" if title else ""
        return NotAStream(
            "failed",
            f"the body is an HTML page{named}, not a stream",
            title or None,
            diagnostic(
                codes.STREAM_HTML_PAGE, 0, form="titled" if title else "untitled", title=title
            ),
        )
    text = body.decode("utf-8", "replace")
    if sum(not (c.isprintable() or c in "\r\n\t") for c in text) > len(text) // 20:
        return None  # mostly not text: binary the framers already reported
    first = _one_line(next((line for line in text.splitlines() if line.strip()), ""))
    return NotAStream(
        "failed",
        f"the body is plain text, not a stream: {quote(first, 80)}",
        _one_line(text)[:500],
        diagnostic(codes.STREAM_PLAIN_TEXT, 0, first=first),
    )
