"""OpenTelemetry export, built from the bytes: one span per stream and the GenAI metrics.

Needs the ``otel`` extra (``pip install 'ssescope[otel]'``: the OpenTelemetry SDK and
its OTLP/HTTP exporter), imported only when a reporter is made; the names and the
attribute mapping import nothing::

    from ssescope.otel import OtelReporter
    reporter = OtelReporter(tracer_provider, meter_provider)
    reporter(report)                        # a span, and the metrics

Every surface hands the Report the engine built: the in-process transport
(``on_report=reporter``), ``ssescope proxy --otel`` and ``ssescope export-otel``. See
``docs/otel.md`` for every attribute, metric and ``error.type`` value.
"""

from __future__ import annotations

from .attributes import (
    ERROR_TYPES,
    error_type,
    finish_reasons,
    metric_attributes,
    span_attributes,
)
from .facts import ExchangeFacts, facts_from_report
from .metrics import Instruments
from .names import SEMCONVS, Semconv
from .reporter import OtelReporter
from .span import report_to_span

__all__ = [
    "ERROR_TYPES",
    "SEMCONVS",
    "ExchangeFacts",
    "Instruments",
    "OtelReporter",
    "Semconv",
    "error_type",
    "facts_from_report",
    "finish_reasons",
    "metric_attributes",
    "report_to_span",
    "span_attributes",
]
