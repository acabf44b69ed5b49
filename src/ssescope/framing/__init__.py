"""The framing layer: body bytes → records (SSE events, comments, JSON values)."""

from __future__ import annotations

from ._text import BOM
from .eventstream import EventStreamParser
from .framer import FRAMINGS, Framer, FramingName, FramingParser, detect_framing, make_parser
from .jsonarray import JSONArrayParser
from .ndjson import NDJSONParser
from .records import (
    DataRecord,
    FramingOutput,
    JSONRecord,
    Record,
    SSEComment,
    SSEEvent,
    Tail,
)
from .sse import SSEParser

__all__ = [
    "BOM",
    "FRAMINGS",
    "DataRecord",
    "EventStreamParser",
    "Framer",
    "FramingName",
    "FramingOutput",
    "FramingParser",
    "JSONArrayParser",
    "JSONRecord",
    "NDJSONParser",
    "Record",
    "SSEComment",
    "SSEEvent",
    "SSEParser",
    "Tail",
    "detect_framing",
    "make_parser",
]
