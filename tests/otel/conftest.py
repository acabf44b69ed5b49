"""The OpenTelemetry SDK's in-memory exporters, wired to an :class:`OtelReporter`."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from opentelemetry.sdk.metrics import MeterProvider
from opentelemetry.sdk.metrics.export import InMemoryMetricReader
from opentelemetry.sdk.trace import ReadableSpan, TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter


@dataclass
class Sink:
    """Where the spans and metrics of one test land."""

    tracer_provider: TracerProvider
    meter_provider: MeterProvider
    spans: InMemorySpanExporter
    reader: InMemoryMetricReader

    def finished(self) -> list[ReadableSpan]:
        return list(self.spans.get_finished_spans())

    def metrics(self) -> dict[str, list[Any]]:
        """Every metric's data points, by name."""
        found: dict[str, list[Any]] = {}
        data = self.reader.get_metrics_data()
        if data is None:
            return found
        for rm in data.resource_metrics:
            for sm in rm.scope_metrics:
                for metric in sm.metrics:
                    found.setdefault(metric.name, []).extend(metric.data.data_points)
        return found


@pytest.fixture
def sink() -> Iterator[Sink]:
    spans = InMemorySpanExporter()
    tracer_provider = TracerProvider()
    tracer_provider.add_span_processor(SimpleSpanProcessor(spans))
    reader = InMemoryMetricReader()
    meter_provider = MeterProvider(metric_readers=[reader])
    yield Sink(tracer_provider, meter_provider, spans, reader)
    tracer_provider.shutdown()
    meter_provider.shutdown()
