"""Header rules of the proxy: hop-by-hop stripping, stream detection, secret redaction.

Everything here is pure: lists of ``(name, value)`` pairs in, lists out. Names keep the
case they arrived with; comparisons are case-insensitive.
"""

from __future__ import annotations

from collections.abc import Iterable

from ..containers.redact import redact_pairs, secret_marker

__all__ = [
    "HOP_BY_HOP",
    "STREAM_TYPES",
    "forward_headers",
    "header",
    "is_stream",
    "redact_pairs",
    "request_ids",
    "secret_marker",
]

HOP_BY_HOP = frozenset(
    {
        "connection",
        "keep-alive",
        "proxy-connection",
        "proxy-authenticate",
        "proxy-authorization",
        "te",
        "trailer",
        "trailers",
        "transfer-encoding",
        "upgrade",
    }
)
"""Headers that describe one connection, never forwarded (RFC 9110 §7.6.1)."""

STREAM_TYPES = (
    "text/event-stream",
    "application/x-ndjson",
    "application/vnd.amazon.eventstream",
)
"""Content types that always mean a streamed body."""

_REQUEST_IDS = ("x-request-id", "request-id", "x-amzn-requestid", "cf-ray")


def header(headers: Iterable[tuple[str, str]], name: str) -> str | None:
    """The first value of ``name`` (case-insensitive), or ``None``."""
    wanted = name.lower()
    for key, value in headers:
        if key.lower() == wanted:
            return value
    return None


def forward_headers(
    headers: Iterable[tuple[str, str]], *, drop: Iterable[str] = ()
) -> list[tuple[str, str]]:
    """The headers minus the hop-by-hop ones, those ``Connection`` names, and ``drop``.

    Order, case, repeated names and every other value are kept byte for byte.
    """
    pairs = list(headers)
    named = set(HOP_BY_HOP)
    named.update(d.lower() for d in drop)
    for key, value in pairs:
        if key.lower() == "connection":
            named.update(t.strip().lower() for t in value.split(",") if t.strip())
    return [
        (k, v) for k, v in pairs if k.lower() not in named and not k.lower().startswith("proxy-")
    ]


def is_stream(headers: Iterable[tuple[str, str]]) -> bool:
    """Whether a response is a stream, judged from its headers only.

    A streaming content type, or a chunked body with no ``Content-Length``, is a stream;
    ``stream: true`` in the request is not looked at.
    """
    pairs = list(headers)
    ctype = (header(pairs, "content-type") or "").split(";", 1)[0].strip().lower()
    if ctype in STREAM_TYPES:
        return True
    chunked = "chunked" in (header(pairs, "transfer-encoding") or "").lower()
    return chunked and header(pairs, "content-length") is None


def request_ids(headers: Iterable[tuple[str, str]]) -> dict[str, str]:
    """The request ids a response carries (``x-request-id``, ``request-id``, …)."""
    out: dict[str, str] = {}
    for key, value in headers:
        low = key.lower()
        if low in _REQUEST_IDS and low not in out:
            out[low] = value
    return out
