"""What the export needs to know about an exchange besides its Report.

A Report describes the response bytes. A span also needs when the request started (a wall
clock time), the request's method, URL and model, and how the transfer ended when the
surface that ran it knows better than the bytes (the proxy saw a stall, a capture says
the client cancelled). :class:`ExchangeFacts` carries those, and :func:`facts_from_report`
takes what the Report itself holds (a HAR entry's method, URL and start time).

No I/O and no OpenTelemetry import.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime, timezone

from ..aggregate.report import Report
from ..containers.redact import redact_url
from ..sourceinfo import EndReason

__all__ = ["ExchangeFacts", "facts_from_report", "parse_time_ns"]

_STAMP = re.compile(r"^(\d{8}T\d{6}(?:\.\d{1,6})?)Z")


@dataclass(frozen=True, slots=True, kw_only=True)
class ExchangeFacts:
    """What is known about an exchange besides its Report.

    Attributes:
        start_ns: when the request started, in nanoseconds since the Unix epoch; ``None``
            means "the stream just ended" (the span is placed to end now).
        method: the HTTP method, if known.
        url: the request URL; redacted again here, so a key in a query never reaches a span.
        request_model: the model the request asked for, if known.
        stream: whether the request asked for a stream (``True`` for what ssescope judges
            unless the surface knows otherwise).
        end: how the surface that ran the exchange says it ended (``"stalled"``,
            ``"cancelled"`` …), or ``None``.
    """

    start_ns: int | None = None
    method: str | None = None
    url: str | None = None
    request_model: str | None = None
    stream: bool = True
    end: EndReason | None = None

    def __post_init__(self) -> None:
        if self.url is not None:
            object.__setattr__(self, "url", redact_url(self.url))


def parse_time_ns(text: str | None) -> int | None:
    """Nanoseconds since the Unix epoch of an ISO 8601 time (a HAR's ``startedDateTime``,
    a record folder's ``time``) or of a capture name's ``20261201T041512.123456Z`` stamp.

    Returns:
        ``None`` for anything else (never raises).
    """
    if not text:
        return None
    stamp = _STAMP.match(text)
    try:
        if stamp is not None:
            fmt = "%Y%m%dT%H%M%S.%f" if "." in stamp.group(1) else "%Y%m%dT%H%M%S"
            when = datetime.strptime(stamp.group(1), fmt).replace(tzinfo=timezone.utc)
        else:
            when = datetime.fromisoformat(text.replace("Z", "+00:00"))
            if when.tzinfo is None:
                when = when.replace(tzinfo=timezone.utc)
    except ValueError:
        return None
    delta = when - datetime(1970, 1, 1, tzinfo=timezone.utc)
    return (delta.days * 86_400 + delta.seconds) * 1_000_000_000 + delta.microseconds * 1_000


def facts_from_report(report: Report, **given: object) -> ExchangeFacts:
    """The facts a Report holds itself (a capture entry's method, URL and start time; the
    request a live response answered: method, URL, model, start), with ``given`` (any
    :class:`ExchangeFacts` field) taking precedence.

    Returns:
        The facts.
    """
    entry = report.entry
    found: dict[str, object] = {}
    if entry is not None:
        found = {
            "method": entry.method,
            "url": entry.url,
            "start_ns": parse_time_ns(entry.started),
        }
    request = report.request  # the request a live response answered (the transport)
    if request is not None:
        started = request.started
        found = {
            "method": request.method,
            "url": request.url,
            "request_model": request.model,
            "start_ns": None if started is None else round(started * 1e9),
        }
    found.update({k: v for k, v in given.items() if v is not None})
    return ExchangeFacts(**found)  # type: ignore[arg-type]
