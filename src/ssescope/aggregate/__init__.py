"""The aggregation layer: unified events → Report."""

from __future__ import annotations

from . import report
from .aggregator import Aggregator, ToolCallState
from .partial_json import parse_partial
from .report import *  # noqa: F403 (the Report and its parts: report.__all__)
from .timing import TimingOptions

__all__ = ["Aggregator", "TimingOptions", "ToolCallState", "parse_partial"]
__all__ += report.__all__
