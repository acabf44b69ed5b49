"""HAR 1.2 files (browser DevTools "Save all as HAR with content", mitmproxy, Charles).

Which entries: those whose response ``content.mimeType`` (or ``Content-Type`` header)
is a streaming type (:data:`STREAM_TYPES`), or that carry Chrome's
``_eventSourceMessages``, or whose body text starts like SSE, and the streaming requests
answered with an HTTP error (``"stream": true`` in the request body, or ``Accept:
text/event-stream``, and a status of 400 or more): the error body, usually the provider's
JSON error, is the one the user is looking for. Each becomes one :class:`Body`;
:func:`read_har` returns the first, :func:`read_har_all` every one.

The body is ``content.text`` (base64-decoded when ``content.encoding`` is
``"base64"``): already de-chunked and decompressed by the browser, and in one piece.
When ``content.text`` is empty and the entry has ``_eventSourceMessages`` (Chrome, for
``EventSource`` requests; ``{time, eventName, eventId, data}`` items), an SSE body is
rebuilt from them, one chunk per message: comments, ``retry`` fields and the original
line breaks are not recorded there, so the framing is rebuilt, not original.

Timing: HAR gives the request's ``timings`` (milliseconds), from which
``first_byte_s`` (blocked + dns + connect + send + wait) and ``total_s`` (``time``)
come; per-chunk times exist only for ``_eventSourceMessages``. Their ``time`` is a
wall-clock epoch (seconds) in some exporters and a monotonic clock in Chrome's; epoch
times are taken relative to ``startedDateTime``, monotonic ones are anchored so that the
first message arrives at ``first_byte_s``.

Each Body names its entry (:attr:`Body.entry`: its index in ``log.entries``, the request
method and URL, ``startedDateTime``).

Request and response headers and the URL are redacted on reading: HAR exports are often
shared, and not every exporter sanitises them.
"""

from __future__ import annotations

import base64
import binascii
import json
import math
import re
from datetime import datetime
from typing import Any

from .. import codes
from ..diagnostics import Diagnostic, diagnostic, quote
from ..framing import BOM
from ..limits import DECODED_BODY_BYTES
from ..rpcrequest import request_ids
from ..sourceinfo import EntryInfo
from ._body import (
    LOST_CHUNK_TIMING,
    LOST_CHUNKS,
    LOST_EXACT_BYTES,
    LOST_FRAMING,
    Body,
    Chunk,
    RequestInfo,
)
from ._httpbody import decode_limit_diagnostic
from .checks import checked_status
from .redact import redact_headers, redact_url
from .request_tools import request_tools
from .ws_forms import read_ws_har_entry

__all__ = ["STREAM_TYPES", "read_har", "read_har_all"]

STREAM_TYPES = frozenset(
    {
        "text/event-stream",
        "application/x-ndjson",
        "application/ndjson",
        "application/jsonl",
        "application/json-seq",
        "application/vnd.amazon.eventstream",
    }
)
"""Response media types that mark an entry as a stream."""

_SSE_START = ("data:", "event:", "id:", "retry:", ":")


def read_har(data: bytes) -> Body:
    """Read the first streamed response of a HAR file.

    When there are several, the Body carries the info ``har.multiple-entries`` naming
    the others. Never raises.
    """
    bodies = read_har_all(data)
    first = bodies[0]
    if len(bodies) > 1:
        others = ", ".join(
            quote(b.request["url"] if b.request else "?", 80) for b in bodies[1:4]
        ) + (", …" if len(bodies) > 4 else "")
        first.diagnostics.append(
            diagnostic(codes.HAR_MULTIPLE_ENTRIES, n_bodies=len(bodies), others=others)
        )
    return first


def read_har_all(data: bytes) -> list[Body]:
    """Read every streamed response of a HAR file, in file order.

    Always returns at least one Body (an empty one carrying an error diagnostic when the
    file is not a HAR or holds no stream). Never raises.
    """
    if data.startswith(BOM):
        data = data[3:]
    try:
        # the standard library, not orjson: on a HAR holding a long body text orjson peaks
        # at about 13 times the file's size, the standard library at 2
        doc = json.loads(data)
    except (ValueError, RecursionError) as exc:
        return [
            _empty(diagnostic(codes.HAR_INVALID_JSON, getattr(exc, "pos", None), error=str(exc)))
        ]
    log = doc.get("log") if isinstance(doc, dict) else None
    entries = log.get("entries") if isinstance(log, dict) else None
    if not isinstance(entries, list):
        return [_empty(diagnostic(codes.HAR_NO_ENTRIES))]
    bodies: list[Body] = []
    seen: list[str] = []
    for i, entry in enumerate(entries):
        if not isinstance(entry, dict):
            continue
        response = _dict(entry.get("response"))
        content = _dict(response.get("content"))
        declared = _str(content.get("mimeType"))
        header = _header(response.get("headers"), "content-type")
        seen.append(declared or header or "(none)")
        ws = entry.get("_webSocketMessages")
        if isinstance(ws, list) and ws:
            bodies.extend(_ws_entry(i, entry, response, ws))
            continue
        messages = entry.get("_eventSourceMessages", response.get("_eventSourceMessages"))
        text = content.get("text")
        # either type may name the stream: some exporters write application/octet-stream
        # as the content's type of a body they kept in base64
        bases = {m.split(";", 1)[0].strip().lower() for m in (declared, header)}
        if (
            bases & STREAM_TYPES
            or (isinstance(messages, list) and messages)
            or (
                isinstance(text, str)
                and not _is_base64(content)
                and text.lstrip(_BLANK).startswith(_SSE_START)
            )
            or _failed_stream_request(entry, response)
        ):
            bodies.append(_entry(i, entry, response, content, messages))
    if not bodies:
        kinds = ", ".join(sorted(set(seen))[:6]) or "none"
        return [_empty(diagnostic(codes.HAR_NO_STREAM_ENTRY, n_entries=len(entries), kinds=kinds))]
    return bodies


def _ws_entry(
    index: int, entry: dict[str, Any], response: dict[str, Any], messages: list[Any]
) -> list[Body]:
    req = _dict(entry.get("request"))
    request = RequestInfo(
        method=_str(req.get("method")) or "GET",
        url=redact_url(_str(req.get("url"))),
        headers=redact_headers(_pairs(req.get("headers"))),
    )
    raw_status = response.get("status")
    status, _ = checked_status(None if raw_status in (None, 0) else raw_status)
    bodies = read_ws_har_entry(
        messages,
        request=request,
        status=status,
        headers=redact_headers(_pairs(response.get("headers"))),
        diagnostics=[],
    )
    several = len(bodies) > 1
    for n, body in enumerate(bodies):
        body.entry = EntryInfo(
            index,
            request["method"],
            request["url"] or None,
            _started(entry),
            response=n if several else None,
        )
    return bodies


def _failed_stream_request(entry: dict[str, Any], response: dict[str, Any]) -> bool:
    """Whether the entry is a streaming request the server refused with an HTTP error."""
    status = response.get("status")
    if not isinstance(status, int) or isinstance(status, bool) or status < 400:
        return False
    request = _dict(entry.get("request"))
    accept = _header(request.get("headers"), "accept").lower()
    if "text/event-stream" in accept or "ndjson" in accept:
        return True
    if any(mark in _str(request.get("url")) for mark in _STREAM_URLS):
        return True
    posted = _str(_dict(request.get("postData")).get("text"))
    if not posted or len(posted) > _POSTED_CHARS or '"stream"' not in posted:
        return False
    try:
        body = json.loads(posted)
    except (ValueError, RecursionError):
        return False
    return isinstance(body, dict) and body.get("stream") is True


_STREAM_URLS = (":streamGenerateContent", "alt=sse", "/converse-stream", "-with-response-stream")
"""URL marks of the streaming endpoints that take no ``"stream": true`` (Gemini, Bedrock)."""
_POSTED_CHARS = 1 << 22  # a request body longer than this is not parsed to find "stream"


def _empty(found: Diagnostic) -> Body:
    return Body([], "har", diagnostics=[found])


def _dict(value: object) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _str(value: object) -> str:
    return value if isinstance(value, str) else ""


def _pairs(value: object) -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    if isinstance(value, list):
        out.extend(
            (item["name"], str(item.get("value", "")))
            for item in value
            if isinstance(item, dict) and isinstance(item.get("name"), str)
        )
    return out


def _header(value: object, name: str) -> str:
    return next((v for k, v in _pairs(value) if k.lower() == name), "")


def _number(value: object) -> float | None:
    """A finite JSON number as a float; ``None`` for anything else, and for an integer
    too large for a float (a 401-digit ``time`` would raise OverflowError)."""
    if isinstance(value, (int, float)) and not isinstance(value, bool) and abs(value) < 1e300:
        f = float(value)
        return f if math.isfinite(f) else None
    return None


def _ms(value: object) -> float | None:
    f = _number(value)
    return f if f is not None and f >= 0 else None


def _entry(
    index: int,
    entry: dict[str, Any],
    response: dict[str, Any],
    content: dict[str, Any],
    messages: object,
) -> Body:
    diags: list[Diagnostic] = []
    req = _dict(entry.get("request"))
    posted = _dict(req.get("postData")).get("text")
    request = RequestInfo(
        method=_str(req.get("method")),
        url=redact_url(_str(req.get("url"))),
        headers=redact_headers(_pairs(req.get("headers"))),
    )
    # HAR writes 0 for a request that got no response; any other value is checked, and
    # one that is not a status code (text, a fraction) is reported, not dropped
    raw_status = response.get("status")
    status, bad_status = checked_status(None if raw_status in (None, 0) else raw_status)
    if bad_status is not None:
        diags.append(bad_status)
    timing: dict[str, float] = {}
    timings = _dict(entry.get("timings"))
    parts = [_ms(timings.get(k)) for k in ("blocked", "dns", "connect", "send", "wait")]
    if _ms(timings.get("wait")) is not None:
        timing["first_byte_s"] = sum(p for p in parts if p is not None) / 1000
    total = _ms(entry.get("time"))
    if total is not None:
        timing["total_s"] = total / 1000
    lost = [LOST_CHUNK_TIMING, LOST_CHUNKS]
    chunks: list[Chunk] = []
    text = content.get("text")
    if isinstance(text, str) and text:
        if _is_base64(content):
            # exporters may wrap base64 in lines; whitespace is not part of it
            text = "".join(text.split())
            if len(text) > _BASE64_CHARS:
                text = text[:_BASE64_CHARS]
                diags.append(decode_limit_diagnostic("base64", index, None))
            try:
                chunks = [Chunk(base64.b64decode(text, validate=True), None)]
            except (binascii.Error, ValueError) as exc:
                diags.append(
                    diagnostic(codes.HAR_INVALID_BASE64, index=index, error=str(exc), text=text)
                )
        else:
            chunks = [Chunk(text.encode("utf-8", "surrogatepass"), None)]
    elif isinstance(messages, list) and messages:
        chunks = _rebuild(index, messages, entry, timing, diags)
        lost = [LOST_FRAMING, LOST_EXACT_BYTES]
        if any(c.time is None for c in chunks):
            lost.append(LOST_CHUNK_TIMING)
    else:
        diags.append(diagnostic(codes.HAR_EMPTY_BODY, index=index, url=request["url"]))
    return Body(
        chunks,
        "har",
        status=status,
        headers=redact_headers(_pairs(response.get("headers"))),
        request=request,
        lost=lost,
        diagnostics=diags,
        timing=timing,
        entry=EntryInfo(index, request["method"] or None, request["url"] or None, _started(entry)),
        tools=request_tools(posted, request["headers"]),
        request_body=posted,
        request_ids=request_ids(posted),
    )


_BLANK = " \t\r\n\ufeff"  # what may come before a body's first SSE field


def _is_base64(content: dict[str, Any]) -> bool:
    encoding = content.get("encoding")
    return isinstance(encoding, str) and encoding.strip().lower() == "base64"


def _started(entry: dict[str, Any]) -> str | None:
    started = entry.get("startedDateTime")
    return started if isinstance(started, str) and started else None


_LINE_BREAK = re.compile(r"[\r\n]")
_BASE64_CHARS = DECODED_BODY_BYTES // 3 * 4


def _visible(text: str) -> str:
    return text.replace("\r", "\\r").replace("\n", "\\n")


def _epoch(value: object) -> float | None:
    if not isinstance(value, str) or not value:
        return None
    try:
        return datetime.fromisoformat(value.replace("Z", "+00:00")).timestamp()
    except (ValueError, OverflowError, OSError):
        return None


def _rebuild(
    index: int,
    messages: list[Any],
    entry: dict[str, Any],
    timing: dict[str, float],
    diags: list[Diagnostic],
) -> list[Chunk]:
    times = [_number(m.get("time")) if isinstance(m, dict) else None for m in messages]
    known = [t for t in times if t is not None]
    started = _epoch(entry.get("startedDateTime"))
    origin: float | None = None
    if known:
        if known[0] > 1e9 and started is not None:
            origin = started  # epoch seconds
        else:
            origin = known[0] - timing.get("first_byte_s", 0.0)  # a monotonic clock
    chunks: list[Chunk] = []
    bad = 0
    broken = 0
    for msg, t in zip(messages, times, strict=True):
        data = msg.get("data") if isinstance(msg, dict) else None
        if not isinstance(data, str):
            bad += 1
            continue
        name = _str(msg.get("eventName"))
        event_id = msg.get("eventId")
        if _LINE_BREAK.search(name) or (isinstance(event_id, str) and _LINE_BREAK.search(event_id)):
            # a line break would end the field and start a line of its own
            broken += 1
            name = _visible(name)
            event_id = _visible(event_id) if isinstance(event_id, str) else event_id
        if "\r" in data:
            broken += 1
            data = data.replace("\r\n", "\n").replace("\r", "\n")
        parts: list[str] = []
        if name and name != "message":
            parts.append(f"event: {name}\n")
        if isinstance(event_id, str) and event_id:
            parts.append(f"id: {event_id}\n")
        parts.extend(f"data: {line}\n" for line in data.split("\n"))
        parts.append("\n")
        rel = None if t is None or origin is None else round(t - origin, 6)
        chunks.append(Chunk("".join(parts).encode("utf-8", "surrogatepass"), rel))
    diags.append(diagnostic(codes.HAR_REBUILT_FROM_MESSAGES, index=index, n_chunks=len(chunks)))
    if broken:
        diags.append(diagnostic(codes.HAR_LINE_BREAK_IN_FIELD, n=broken, index=index))
    if bad:
        diags.append(diagnostic(codes.HAR_INVALID_MESSAGE, bad=bad, index=index))
    return chunks
