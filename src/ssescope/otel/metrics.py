"""The GenAI client metrics of a stream, built from its Report (the OpenTelemetry API,
imported here only).

:class:`Instruments` makes the instruments once per meter, with the conventions' bucket
boundaries; :meth:`Instruments.record` records one stream. With ``semconv="latest"`` (the
default) the ``gen_ai.client.inference.*`` set; with ``"v1.41"`` the older
``gen_ai.client.operation.*`` set and ``gen_ai.client.token.usage``; ``"both"`` records
both.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..aggregate.report import Report
from . import attributes as a
from . import names as n
from .facts import ExchangeFacts, facts_from_report
from .names import Semconv

if TYPE_CHECKING:
    from opentelemetry.metrics import Counter, Histogram, Meter

__all__ = ["Instruments"]

_SECONDS = "s"
_TOKENS = "{token}"


def _seconds(meter: Meter, name: str, description: str) -> Histogram:
    return meter.create_histogram(
        name, _SECONDS, description, explicit_bucket_boundaries_advisory=n.DURATION_BUCKETS
    )


class _Timing:
    """The three time histograms both sets have, under the names of one set."""

    def __init__(self, meter: Meter, duration: tuple[str, str], ttfc: str, tpoc: str) -> None:
        self.duration = _seconds(meter, *duration)
        self.ttfc = _seconds(meter, ttfc, "Time to receive the first chunk of generated content.")
        self.tpoc = _seconds(
            meter, tpoc, "Time per output chunk, for each content chunk after the first."
        )


class _Latest(_Timing):
    def __init__(self, meter: Meter) -> None:
        super().__init__(
            meter,
            (n.LATEST_DURATION, "GenAI client inference operation duration."),
            n.LATEST_TTFC,
            n.LATEST_TPOC,
        )
        self.usage: dict[str, Counter] = {
            key: meter.create_counter(name, _TOKENS, f"Tokens used: {key}.")
            for key, name in n.LATEST_USAGE.items()
        }
        self.operation: dict[str, Histogram] = {
            key: meter.create_histogram(
                name,
                _TOKENS,
                f"Tokens per inference operation: {key}.",
                explicit_bucket_boundaries_advisory=n.TOKEN_BUCKETS,
            )
            for key, name in n.LATEST_OPERATION_TOKENS.items()
        }


class _V141(_Timing):
    def __init__(self, meter: Meter) -> None:
        super().__init__(
            meter, (n.V141_DURATION, "GenAI operation duration."), n.V141_TTFC, n.V141_TPOC
        )
        self.tokens = meter.create_histogram(
            n.V141_TOKEN_USAGE,
            _TOKENS,
            "Number of input and output tokens used.",
            explicit_bucket_boundaries_advisory=n.TOKEN_BUCKETS,
        )


class Instruments:
    """The GenAI client instruments of one meter.

    Args:
        meter: where the instruments are made.
        semconv: which names (see :mod:`ssescope.otel.names`).
    """

    def __init__(self, meter: Meter, semconv: Semconv = "latest") -> None:
        self.semconv = semconv
        self._latest = _Latest(meter) if semconv in ("latest", "both") else None
        self._v141 = _V141(meter) if semconv in ("v1.41", "both") else None

    def record(self, report: Report, facts: ExchangeFacts | None = None) -> None:
        """Record one stream: its duration (with ``error.type`` when it ended in an error),
        its time to first content, the time between its content records, and its tokens
        as the stream reported them."""
        facts = facts if facts is not None else facts_from_report(report)
        attrs = a.metric_attributes(report, facts)
        kind = a.error_type(report, facts)
        timed = dict(attrs)
        if kind is not None:
            timed[n.ERROR_TYPE] = kind
        total = report.timing.total_s
        ttfc = report.timing.first_content_s
        gaps = a.content_gaps(report)
        usage = report.usage
        for group in (self._latest, self._v141):
            if group is None:
                continue
            if total is not None:
                group.duration.record(total, timed)
            if ttfc is not None:
                group.ttfc.record(ttfc, attrs)
            for gap in gaps:
                group.tpoc.record(gap, attrs)
        if self._latest is not None:
            self._tokens_latest(self._latest, report, attrs)
        if self._v141 is not None and usage is not None:
            for key, token_type in (("input_tokens", "input"), ("output_tokens", "output")):
                value = getattr(usage, key)
                if value is not None:
                    self._v141.tokens.record(value, {**attrs, n.V141_TOKEN_TYPE: token_type})

    @staticmethod
    def _tokens_latest(group: _Latest, report: Report, attrs: a.Attributes) -> None:
        usage = report.usage
        counted = {**attrs, n.TOKEN_MODALITY: "unknown"}
        for key, counter in group.usage.items():
            value = None if usage is None else getattr(usage, key)
            if value is not None:
                counter.add(value, counted)
            elif key in ("input_tokens", "output_tokens"):
                # the conventions: 0, modality unknown, when the response carried no usage
                counter.add(0, counted)
        if usage is None:
            return
        for key, histogram in group.operation.items():
            value = getattr(usage, key)
            if value is not None:
                histogram.record(value, attrs)
