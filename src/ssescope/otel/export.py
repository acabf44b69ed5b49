"""``ssescope export-otel``: send the spans and metrics of captured streams over OTLP/HTTP.

The OpenTelemetry SDK and its OTLP/HTTP exporters do the sending, so the standard
``OTEL_EXPORTER_OTLP_*`` variables (endpoint, headers, timeout, compression) and
``OTEL_SERVICE_NAME`` / ``OTEL_RESOURCE_ATTRIBUTES`` work as they do everywhere;
``endpoint=`` overrides the endpoint (the base URL, ``/v1/traces`` and ``/v1/metrics``
added). Each span keeps the times the capture recorded.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from .names import Semconv
from .reporter import OtelReporter
from .sources import Captured, iter_captured

if TYPE_CHECKING:
    from opentelemetry.sdk.metrics import MeterProvider
    from opentelemetry.sdk.trace import ReadableSpan, TracerProvider
    from opentelemetry.sdk.trace.export import SpanExporter, SpanExportResult

__all__ = ["ExportResult", "export_captures", "otlp_providers"]


@dataclass
class ExportResult:
    """What an export sent.

    Attributes:
        streams: every stream read, in order.
        spans_sent: spans the receiver accepted.
        spans_failed: spans the exporter could not deliver.
    """

    streams: list[Captured] = field(default_factory=list)
    spans_sent: int = 0
    spans_failed: int = 0


class _Counting:
    """A span exporter that counts what its inner exporter delivered."""

    def __init__(self, inner: SpanExporter, result: ExportResult) -> None:
        self.inner = inner
        self.result = result

    def export(self, spans: Sequence[ReadableSpan]) -> SpanExportResult:
        from opentelemetry.sdk.trace.export import SpanExportResult

        outcome = self.inner.export(spans)
        if outcome is SpanExportResult.SUCCESS:
            self.result.spans_sent += len(spans)
        else:
            self.result.spans_failed += len(spans)
        return outcome

    def shutdown(self) -> None:
        self.inner.shutdown()

    def force_flush(self, timeout_millis: int = 30000) -> bool:
        return self.inner.force_flush(timeout_millis)


def _signal(endpoint: str | None, signal: str) -> str | None:
    return None if endpoint is None else endpoint.rstrip("/") + f"/v1/{signal}"


def otlp_providers(
    endpoint: str | None = None,
    headers: Mapping[str, str] | None = None,
    *,
    result: ExportResult | None = None,
    metrics: bool = True,
) -> tuple[TracerProvider, MeterProvider | None]:
    """A tracer provider (and a meter provider) exporting over OTLP/HTTP.

    Args:
        endpoint: the receiver's base URL (``http://127.0.0.1:4318``); ``None`` leaves it
            to ``OTEL_EXPORTER_OTLP_*`` (the SDK's default is ``http://localhost:4318``).
        headers: extra request headers (an API key for a hosted backend); never logged.
        result: where delivered and failed spans are counted.
        metrics: also make the meter provider.

    Returns:
        The providers; shut them down to send what they hold.
    """
    from opentelemetry.exporter.otlp.proto.http.metric_exporter import OTLPMetricExporter
    from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter
    from opentelemetry.sdk.metrics import MeterProvider
    from opentelemetry.sdk.metrics.export import PeriodicExportingMetricReader
    from opentelemetry.sdk.resources import Resource
    from opentelemetry.sdk.trace import TracerProvider
    from opentelemetry.sdk.trace.export import BatchSpanProcessor

    resource = Resource.create(
        {} if os.environ.get("OTEL_SERVICE_NAME") else {"service.name": "ssescope"}
    )
    given = dict(headers) if headers else None
    spans: SpanExporter = OTLPSpanExporter(endpoint=_signal(endpoint, "traces"), headers=given)
    if result is not None:
        spans = _Counting(spans, result)  # type: ignore[assignment]
    tracer_provider = TracerProvider(resource=resource)
    tracer_provider.add_span_processor(BatchSpanProcessor(spans))
    meter_provider = None
    if metrics:
        reader = PeriodicExportingMetricReader(
            OTLPMetricExporter(endpoint=_signal(endpoint, "metrics"), headers=given),
            export_interval_millis=60_000,
        )
        meter_provider = MeterProvider(resource=resource, metric_readers=[reader])
    return tracer_provider, meter_provider


def export_captures(
    paths: Sequence[Path],
    *,
    endpoint: str | None = None,
    headers: Mapping[str, str] | None = None,
    capture_content: bool | None = None,
    semconv: Semconv | None = None,
    metrics: bool = True,
    on_stream: Callable[[Captured], None] | None = None,
) -> ExportResult:
    """Export every stream of the given captures and record folders, then flush.

    Args:
        paths: ``.ssecap`` captures, HARs, other captures, or record folders.
        endpoint: see :func:`otlp_providers`.
        headers: see :func:`otlp_providers`.
        capture_content: see :class:`OtelReporter`.
        semconv: see :class:`OtelReporter`.
        metrics: also send the GenAI client metrics.
        on_stream: called with each stream after its span is recorded.

    Returns:
        What was read and what the receiver accepted.

    Raises:
        UsageError: for a path that does not exist.
    """
    result = ExportResult()
    tracer_provider, meter_provider = otlp_providers(
        endpoint, headers, result=result, metrics=metrics
    )
    reporter = OtelReporter(
        tracer_provider,
        meter_provider,
        capture_content=capture_content,
        semconv=semconv,
        metrics=metrics,
    )
    try:
        for captured in iter_captured(list(paths)):
            reporter(captured.report, captured.facts)
            result.streams.append(captured)
            if on_stream is not None:
                on_stream(captured)
    finally:
        tracer_provider.force_flush()
        tracer_provider.shutdown()
        if meter_provider is not None:
            meter_provider.shutdown()
    return result
