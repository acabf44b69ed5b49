"""The aggregation layer: unified events → Report."""

from __future__ import annotations

from .aggregator import Aggregator, ToolCallState
from .partial_json import parse_partial
from .report import (
    SCHEMA_VERSION,
    AudioReport,
    OutputReport,
    RecordCounts,
    Report,
    ResponseReport,
    Timing,
    ToolCallReport,
    UsageReport,
)
from .timeline import Change, Timeline, state_at
from .timing import TimingOptions

__all__ = [
    "SCHEMA_VERSION",
    "Aggregator",
    "AudioReport",
    "Change",
    "OutputReport",
    "RecordCounts",
    "Report",
    "ResponseReport",
    "Timeline",
    "Timing",
    "TimingOptions",
    "ToolCallReport",
    "ToolCallState",
    "UsageReport",
    "parse_partial",
    "state_at",
]
