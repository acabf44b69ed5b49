"""The aggregation layer: unified events → Report."""

from __future__ import annotations

from . import report
from .aggregator import Aggregator, ToolCallState
from .partial_json import parse_partial
from .report import *  # noqa: F403 (the Report and its parts: report.__all__)
from .timeline import Change, Timeline, state_at
from .timing import TimingOptions

__all__ = [
    "Aggregator",
    "Change",
    "Timeline",
    "TimingOptions",
    "ToolCallState",
    "parse_partial",
    "state_at",
]
__all__ += report.__all__
