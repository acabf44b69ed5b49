"""Checks on the HTTP response, usage and timing around a stream."""

from __future__ import annotations

from . import _sources as src
from ._judges import (
    by_codes_when_asked,
    check,
    evidence_at,
    needs_headers,
    passed,
    skipped,
)
from .exchange import Exchange
from .registry import Check, Judge, Outcome

__all__ = ["CHECKS"]

_TYPES = {"sse": "text/event-stream", "ndjson": "application/x-ndjson"}


def _media_type(exchange: Exchange) -> tuple[str, dict[str, str]] | None:
    value = exchange.header("content-type")
    if value is None:
        return None
    kind, *params = (part.strip() for part in value.split(";"))
    found = {}
    for param in params:
        key, _, val = param.partition("=")
        found[key.strip().lower()] = val.strip().strip('"')
    return kind.lower(), found


def _content_type(exchange: Exchange) -> Outcome:
    wanted = _TYPES.get(exchange.report.framing)
    if wanted is None:
        return skipped(f"no media type is checked for {exchange.report.framing} framing")
    media = _media_type(exchange)
    if media is None:
        return Outcome("fail", (evidence_at(exchange, "no Content-Type header"),))
    if media[0] == wanted or (wanted != _TYPES["sse"] and media[0].endswith("json")):
        return passed()
    return Outcome("fail", (evidence_at(exchange, f"Content-Type: {media[0]}"),))


def _charset(exchange: Exchange) -> Outcome:
    media = _media_type(exchange)
    charset = None if media is None else media[1].get("charset")
    if charset is None or charset.lower() in ("utf-8", "utf8"):
        return passed()
    return Outcome("fail", (evidence_at(exchange, f"charset={charset}"),))


def _sse_only(judge: Judge) -> Judge:
    """Skip ``judge`` on a response that is not SSE."""

    def wrapped(exchange: Exchange) -> Outcome:
        if exchange.report.framing != "sse":
            return skipped("not an SSE response")
        return judge(exchange)

    return wrapped


@_sse_only
def _no_content_length(exchange: Exchange) -> Outcome:
    value = exchange.header("content-length")
    if value is None:
        return passed()
    return Outcome("fail", (evidence_at(exchange, f"Content-Length: {value}"),))


@_sse_only
def _no_cache(exchange: Exchange) -> Outcome:
    value = (exchange.header("cache-control") or "").lower()
    if "no-cache" in value or "no-store" in value:
        return passed()
    shown = exchange.header("cache-control") or "(absent)"
    return Outcome("fail", (evidence_at(exchange, f"Cache-Control: {shown}"),))


@_sse_only
def _accel_buffering(exchange: Exchange) -> Outcome:
    value = exchange.header("x-accel-buffering")
    if value is not None and value.strip().lower() == "no":
        return passed()
    return Outcome("fail", (evidence_at(exchange, f"X-Accel-Buffering: {value or '(absent)'}"),))


def _status_ok(exchange: Exchange) -> Outcome:
    status = exchange.report.http_status
    if status is None:
        return skipped("the capture holds no HTTP status")
    if status >= 400 and exchange.report.error is None:
        return Outcome(
            "fail", (evidence_at(exchange, f"HTTP {status} without an error the client reads"),)
        )
    return passed()


_usage_reported = by_codes_when_asked(
    ("usage.missing",),
    "usage",
    "the request did not ask for usage (request.usage-as-asked judges it)",
)


CHECKS: tuple[Check, ...] = (
    check(
        "http.content-type",
        "MUST",
        "the content type names the framing",
        "An SSE response is served as `text/event-stream`; NDJSON as `application/x-ndjson` "
        "(or another JSON type).",
        src.SSE,
        needs_headers(_content_type),
        any_stream=True,
    ),
    check(
        "http.charset",
        "MUST",
        "the charset is UTF-8",
        "A `charset` parameter on the content type, if any, is `utf-8`.",
        src.SSE,
        needs_headers(_charset),
        any_stream=True,
    ),
    check(
        "http.no-content-length",
        "SHOULD",
        "an SSE response has no Content-Length",
        "A stream of unknown length is sent chunked (or until close), without "
        "`Content-Length`, which marks a buffered body.",
        src.HTTP,
        needs_headers(_no_content_length),
        any_stream=True,
    ),
    check(
        "http.cache-control",
        "SHOULD",
        "an SSE response is not cached",
        "An event stream carries `Cache-Control: no-cache`.",
        src.SSE,
        needs_headers(_no_cache),
        any_stream=True,
    ),
    check(
        "http.accel-buffering",
        "SHOULD",
        "proxies are told not to buffer",
        "An event stream carries `X-Accel-Buffering: no`, so that a reverse proxy "
        "does not hold it back.",
        src.NGINX,
        needs_headers(_accel_buffering),
        any_stream=True,
    ),
    check(
        "http.error-readable",
        "MUST",
        "an error status carries a readable error",
        "A response with a status >= 400 carries an error body the client can read.",
        src.HTTP,
        _status_ok,
        any_stream=True,
    ),
    check(
        "http.body-whole",
        "MUST",
        "the body is transferred whole",
        "The chunked coding ends with its last chunk; the body is as long as declared.",
        src.HTTP,
        (
            "http.chunked-invalid",
            "http.chunked-truncated",
            "http.body-short",
            "http.content-truncated",
            "http.content-decoding-failed",
        ),
    ),
    check(
        "usage.valid",
        "MUST",
        "usage numbers are valid",
        "Token counts are non-negative integers.",
        src.OPENAI_CHAT,
        (
            "usage.invalid-value",
            "anthropic.invalid-usage",
            "bedrock.invalid-usage",
            "gemini-interactions.invalid-usage",
        ),
    ),
    check(
        "usage.reported",
        "SHOULD",
        "usage is reported",
        "A completed response reports its token usage (with `include_usage` where the "
        "protocol asks for it).",
        src.OPENAI_CHAT,
        _usage_reported,
    ),
    check(
        "timing.no-burst",
        "SHOULD",
        "content is not buffered into a burst",
        "Content is sent as it is produced, not held back and sent at once.",
        src.NGINX,
        ("timing.burst",),
    ),
    check(
        "timing.no-stall",
        "SHOULD",
        "the stream does not stall",
        "No long silence separates the events of a stream.",
        src.SSE,
        ("timing.stall",),
    ),
)
