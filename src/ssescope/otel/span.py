"""One span per stream, built from its Report (the OpenTelemetry API, imported here only)."""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

from ..aggregate.report import Report
from . import attributes as a
from .facts import ExchangeFacts, facts_from_report

if TYPE_CHECKING:
    from opentelemetry.context import Context
    from opentelemetry.trace import Span, Tracer

__all__ = ["DIAGNOSTIC_EVENT", "report_to_span", "span_times"]

DIAGNOSTIC_EVENT = "ssescope.diagnostic"
"""The name of the span event each diagnostic becomes."""


def span_times(report: Report, facts: ExchangeFacts) -> tuple[int, int]:
    """The span's start and end, in nanoseconds since the Unix epoch.

    From the request's start (``facts.start_ns``) to that plus the Report's total time;
    without a start, the span ends now and starts the total time earlier (the stream has
    just ended, as in the in-process transport).
    """
    total = report.timing.total_s
    length = 0 if total is None or total < 0 else round(total * 1e9)
    if facts.start_ns is None:
        end = time.time_ns()
        return end - length, end
    return facts.start_ns, facts.start_ns + length


def report_to_span(
    report: Report,
    tracer: Tracer,
    facts: ExchangeFacts | None = None,
    *,
    capture_content: bool = False,
    max_events: int = 32,
    context: Context | None = None,
) -> Span:
    """Record one ``gen_ai.client.inference`` span (kind CLIENT) for a stream, and end it.

    Args:
        report: the stream's Report.
        tracer: where the span goes.
        facts: what is known besides the Report (start time, method, URL, request model);
            by default what the Report holds itself (:func:`facts_from_report`).
        capture_content: also record the reply (``gen_ai.output.messages``) and the
            diagnostics' messages; off by default.
        max_events: the most diagnostics recorded as ``ssescope.diagnostic`` events
            (errors first); the number left out is ``ssescope.diagnostics.events_dropped``.
        context: the parent context (by default the current one).

    Returns:
        The ended span. Its status is ERROR, with the verdict's reason, when the stream
        failed, was cut or was abandoned.
    """
    from opentelemetry.trace import SpanKind, Status, StatusCode

    facts = facts if facts is not None else facts_from_report(report)
    start, end = span_times(report, facts)
    attrs = a.span_attributes(report, facts, capture_content=capture_content)
    events, dropped = a.diagnostic_events(report, limit=max_events, capture_content=capture_content)
    if dropped:
        attrs["ssescope.diagnostics.events_dropped"] = dropped
    span = tracer.start_span(
        a.span_name(report, facts),
        context=context,
        kind=SpanKind.CLIENT,
        attributes=attrs,
        start_time=start,
    )
    for event in events:
        span.add_event(DIAGNOSTIC_EVENT, event, timestamp=end)
    if a.is_error(report):
        span.set_status(Status(StatusCode.ERROR, report.response.status_reason))
    span.end(end_time=end)
    return span
