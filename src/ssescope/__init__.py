"""ssescope: what actually happened in an LLM streaming response.

Bytes in; frames, the assembled reply, a verdict on how the stream ended and a diagnosis
out. The core (framing, provider adapters, aggregator) is sans-I/O: it is fed bytes and
never reads a socket, a file or a clock itself.
"""

from __future__ import annotations

from .aggregate import (
    SCHEMA_VERSION,
    ArtifactReport,
    AudioReport,
    NotificationReport,
    OutputReport,
    RecordCounts,
    Report,
    ResponseReport,
    StateReport,
    TaskReport,
    Timing,
    TimingOptions,
    ToolCallReport,
    UsageReport,
    parse_partial,
)
from .api import feed_chunks, inspect, inspect_all
from .containers import Body, CaptureWriter, read_container, read_path
from .core_build import CORE, core_label
from .diagnostics import Diagnostic
from .errors import SSEScopeError, UsageError
from .framing import (
    Framer,
    JSONArrayParser,
    JSONRecord,
    NDJSONParser,
    SSEComment,
    SSEEvent,
    SSEParser,
    detect_framing,
)
from .incremental import Incremental
from .pipeline import Pipeline
from .providers import PROVIDERS
from .sourceinfo import EntryInfo, RequestSummary, SourceInfo
from .toolschema.calls import validate_tool_call
from .transport import AsyncTransport, Transport, async_http_client, http_client

__version__ = "0.1.0"

__all__ = [
    "CORE",
    "PROVIDERS",
    "SCHEMA_VERSION",
    "ArtifactReport",
    "AsyncTransport",
    "AudioReport",
    "Body",
    "CaptureWriter",
    "Diagnostic",
    "EntryInfo",
    "Framer",
    "Incremental",
    "JSONArrayParser",
    "JSONRecord",
    "NDJSONParser",
    "NotificationReport",
    "OutputReport",
    "Pipeline",
    "RecordCounts",
    "Report",
    "RequestSummary",
    "ResponseReport",
    "SSEComment",
    "SSEEvent",
    "SSEParser",
    "SSEScopeError",
    "SourceInfo",
    "StateReport",
    "TaskReport",
    "Timing",
    "TimingOptions",
    "ToolCallReport",
    "Transport",
    "UsageError",
    "UsageReport",
    "__version__",
    "async_http_client",
    "core_label",
    "detect_framing",
    "feed_chunks",
    "http_client",
    "inspect",
    "inspect_all",
    "parse_partial",
    "read_container",
    "read_path",
    "validate_tool_call",
]
