"""The wire-level quirks: the same for every provider (heartbeats, buffering, headers, a
gateway timeout, a connection held open, data spread over several lines).

:func:`apply` changes the records and the :class:`~ssescope.serve.plan.QuirkPlan`;
nothing here does I/O or sleeps.
"""

from __future__ import annotations

import json
from dataclasses import replace

from ..providers._quirks import QuirkRefused, WireRecord, data_indices, load
from .plan import QuirkPlan

__all__ = ["CLOUDFLARE_524", "apply"]

CLOUDFLARE_524 = (
    b"<!DOCTYPE html>\n<html><head><title>524: A timeout occurred</title></head>\n"
    b"<body><h1>A timeout occurred</h1><p>Error code 524</p>\n"
    b"<p>The origin web server timed out responding to this request.</p></body></html>\n"
)
"""The body of the 524 answer, shaped like Cloudflare's error page."""

_HEARTBEATS = 5


def _heartbeat_stall(
    seconds: float, records: list[WireRecord], plan: QuirkPlan
) -> list[WireRecord]:
    data = [i for i in data_indices(records) if (records[i].data or "").strip() != "[DONE]"]
    if not data:
        raise QuirkRefused("quirk 'heartbeat-only-stall' needs a stream with data records")
    cut = data[max(0, (len(data) - 1) // 2)] + 1
    newline = "\r\n" if any(b"\r\n" in r.raw for r in records) else "\n"
    beat = f": keep-alive{newline}{newline}".encode()
    plan.tail = [(beat, seconds / _HEARTBEATS) for _ in range(_HEARTBEATS)]
    return records[:cut]


def _multi_line(records: list[WireRecord]) -> list[WireRecord]:
    out = []
    for record in records:
        value = load(record)
        if isinstance(value, dict | list) and value:
            text = json.dumps(value, indent=1, ensure_ascii=False)
            out.append(replace(record, data=text, raw=b""))
        else:
            out.append(record)
    return out


def apply(
    name: str, seconds: float | None, records: list[WireRecord], rest: bytes, plan: QuirkPlan
) -> tuple[list[WireRecord], bytes]:
    """Apply the wire-level quirk ``name`` to the records (or the plan); return the records
    and the bytes after the last one."""
    if name == "heartbeat-only-stall":
        return _heartbeat_stall(seconds or 0.0, records, plan), b""
    if name == "multi-line-data":
        return _multi_line(records), rest
    if name == "keep-open-after-done":
        plan.hold_after = seconds or 0.0
    elif name == "proxy-buffered":
        plan.burst = True
        plan.dropped.add("x-accel-buffering")  # a buffering proxy consumes the header
    elif name == "gzip-header-on-plain-body":
        plan.headers["content-encoding"] = "gzip"
    elif name == "gateway-timeout-524":
        plan.status = 524
        plan.wait_before = seconds or 0.0
        plan.body = CLOUDFLARE_524
        plan.headers["content-type"] = "text/html; charset=UTF-8"
    return records, rest
