""":class:`OtelReporter`: a Report callback that exports each stream as a span and metrics.

::

    from ssescope.otel import OtelReporter
    report_to_otel = OtelReporter()          # the global tracer and meter providers
    report_to_otel(ssescope.inspect("reply.ssecap"))

It is what ``on_report=`` of the in-process transport takes, what ``ssescope proxy
--otel`` calls for each exchange and what ``ssescope export-otel`` calls for each capture.
It never raises: a failure to record is logged once (``logging``, logger
``ssescope.otel``) and the next stream is recorded as usual.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from .. import __version__
from ..aggregate.report import Report
from .facts import ExchangeFacts, facts_from_report
from .metrics import Instruments
from .names import Semconv, capture_content_from_env, semconv_from_env
from .span import report_to_span

if TYPE_CHECKING:
    from opentelemetry.metrics import MeterProvider
    from opentelemetry.trace import TracerProvider

__all__ = ["SCOPE", "OtelReporter"]

SCOPE = "ssescope"
"""The instrumentation scope's name (its version is ssescope's)."""

log = logging.getLogger("ssescope.otel")


class OtelReporter:
    """Export each Report it is called with: one span, and the GenAI client metrics.

    Args:
        tracer_provider: where spans go (default: the global one,
            ``opentelemetry.trace.get_tracer_provider()``).
        meter_provider: where metrics go (default: the global one).
        capture_content: record the reply (``gen_ai.output.messages``) and the diagnostics'
            messages on the span. ``None`` (the default) reads
            ``OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT``; content is off unless
            it says ``true``, ``SPAN_ONLY`` or ``SPAN_AND_EVENT``.
        semconv: ``"latest"``, ``"v1.41"`` or ``"both"`` (``None``: ``SSESCOPE_OTEL_SEMCONV``,
            else ``"latest"``).
        max_events: the most diagnostics recorded as span events.
        metrics: also record the metrics (on by default).

    Raises:
        ImportError: without the ``otel`` extra (``pip install 'ssescope[otel]'``).
    """

    def __init__(
        self,
        tracer_provider: TracerProvider | None = None,
        meter_provider: MeterProvider | None = None,
        *,
        capture_content: bool | None = None,
        semconv: Semconv | None = None,
        max_events: int = 32,
        metrics: bool = True,
    ) -> None:
        from opentelemetry import metrics as otel_metrics
        from opentelemetry import trace

        tracers = tracer_provider if tracer_provider is not None else trace.get_tracer_provider()
        self.tracer = tracers.get_tracer(SCOPE, __version__)
        self.capture_content = (
            capture_content_from_env() if capture_content is None else capture_content
        )
        self.semconv: Semconv = semconv_from_env() if semconv is None else semconv
        self.max_events = max_events
        self.instruments: Instruments | None = None
        if metrics:
            meters = (
                meter_provider if meter_provider is not None else otel_metrics.get_meter_provider()
            )
            self.instruments = Instruments(meters.get_meter(SCOPE, __version__), self.semconv)
        self._warned = False

    def __call__(self, report: Report, facts: ExchangeFacts | None = None) -> None:
        """Export one stream. Never raises.

        Args:
            report: the stream's Report.
            facts: what is known besides the Report (start time, method, URL, request
                model); by default what the Report holds itself.
        """
        try:
            facts = facts if facts is not None else facts_from_report(report)
            report_to_span(
                report,
                self.tracer,
                facts,
                capture_content=self.capture_content,
                max_events=self.max_events,
            )
            if self.instruments is not None:
                self.instruments.record(report, facts)
        except Exception:
            if not self._warned:
                self._warned = True
                log.warning("ssescope could not export a stream to OpenTelemetry", exc_info=True)
