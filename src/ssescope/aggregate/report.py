"""The Report: what a stream amounted to, and its stable JSON contract (ARCHITECTURE §6)."""

from __future__ import annotations

from array import array
from dataclasses import dataclass, field
from typing import Any

from ..diagnostics import Diagnostic
from ..events import JSON, FinishReason, Status
from ..fieldform import field_dict, field_names
from ..sourceinfo import EntryInfo, RequestSummary, WebSocketEnd
from .sections import ArtifactReport, NotificationReport, TaskReport

__all__ = [
    "SCHEMA_VERSION",
    "ArtifactReport",
    "AudioReport",
    "NotificationReport",
    "OutputReport",
    "RecordCounts",
    "Report",
    "ResponseReport",
    "StateReport",
    "TaskReport",
    "Timing",
    "ToolCallReport",
    "UsageReport",
]

SCHEMA_VERSION = 1
"""Bumped only when a key of the JSON contract changes meaning."""

USAGE_KEYS = (
    "input_tokens",
    "output_tokens",
    "total_tokens",
    "reasoning_tokens",
    "cached_input_tokens",
)


@dataclass(slots=True)
class _FieldForm:
    """A section whose JSON form is its fields, each by its name, in order."""

    def to_dict(self) -> dict[str, Any]:
        """Return the JSON form."""
        return field_dict(self)


@dataclass(slots=True)
class ToolCallReport(_FieldForm):
    """One assembled tool call.

    Attributes:
        id: the call id as sent (``None`` when the wire gave none).
        name: the tool name (first non-empty value).
        arguments: the raw argument string, exactly as concatenated.
        input: the parsed arguments, or ``None`` if unfinished, invalid or freeform.
        complete: whether the protocol said the call ended.
        error: the JSON parse error of an ended call, else ``None``.
        kind: ``function``, ``custom``, ``mcp`` or ``server``.
        index: the provider's index for the call, if it had one.
        record: index of the record that started the call.
    """

    id: str | None
    name: str | None
    arguments: str
    input: JSON
    complete: bool
    error: str | None = None
    kind: str = "function"
    index: int | None = None
    record: int | None = None


_AUDIO_KEYS = ("chunks", "bytes", "format", "transcript", "id")
"""The keys of :class:`AudioReport`'s JSON form, in its order (the count first)."""


@dataclass(slots=True)
class AudioReport:
    """Audio output: how many pieces of audio data arrived and their decoded byte count,
    format, transcript. The audio itself is never kept, and never mixed into text."""

    bytes: int = 0
    format: str | None = None
    transcript: str = ""
    id: str | None = None
    chunks: int = 0

    def to_dict(self) -> dict[str, Any]:
        """Return the JSON form."""
        return field_dict(self, _AUDIO_KEYS)


@dataclass(slots=True)
class OutputReport:
    """One output (choice / candidate) of a response."""

    index: int
    text: str = ""
    reasoning: str = ""
    refusal: str = ""
    tool_calls: list[ToolCallReport] = field(default_factory=list)
    citations: list[JSON] = field(default_factory=list)
    finish_reason: FinishReason | None = None
    raw_finish_reason: str | None = None
    reasoning_signature: str | None = None
    redacted_reasoning: int = 0
    encrypted_reasoning: int = 0
    server_tool_results: list[JSON] = field(default_factory=list)
    audio: AudioReport | None = None
    compactions: list[dict[str, str | None]] = field(default_factory=list)
    """Context-compaction blocks (Anthropic): each one's ``summary`` and its opaque
    ``encrypted_content`` as it came; in the JSON form only when there is one."""
    deduplicated_text: str | None = None
    """The text read without repeats, when a gateway sent cumulative text as deltas
    (``content.cumulative-deltas``); in the JSON form only then."""

    def to_dict(self) -> dict[str, Any]:
        """Return the JSON form (``compactions`` and ``deduplicated_text`` only when set)."""
        out = {
            "index": self.index,
            "text": self.text,
            "reasoning": self.reasoning,
            "refusal": self.refusal,
            "tool_calls": [t.to_dict() for t in self.tool_calls],
            "citations": self.citations,
            "finish_reason": self.finish_reason,
            "raw_finish_reason": self.raw_finish_reason,
            "reasoning_signature": self.reasoning_signature,
            "redacted_reasoning": self.redacted_reasoning,
            "encrypted_reasoning": self.encrypted_reasoning,
            "server_tool_results": self.server_tool_results,
            "audio": None if self.audio is None else self.audio.to_dict(),
        }
        if self.compactions:
            out["compactions"] = self.compactions
        if self.deduplicated_text is not None:
            out["deduplicated_text"] = self.deduplicated_text
        return out


@dataclass(slots=True)
class UsageReport(_FieldForm):
    """Usage as reported: the latest non-null value per field, never summed or estimated."""

    input_tokens: int | None = None
    output_tokens: int | None = None
    total_tokens: int | None = None
    reasoning_tokens: int | None = None
    cached_input_tokens: int | None = None
    source: str | None = None
    raw: JSON = None


@dataclass(slots=True)
class ResponseReport:
    """One response of a stream (a capture may hold several back to back)."""

    status: Status = "truncated"
    status_reason: str = "the bytes ended without any terminal marker"
    id: str | None = None
    model: str | None = None
    outputs: list[OutputReport] = field(default_factory=list)
    usage: UsageReport | None = None
    error: dict[str, Any] | None = None
    first_record: int | None = None
    last_record: int | None = None

    def to_dict(self) -> dict[str, Any]:
        """Return the JSON form."""
        return field_dict(
            self,
            _RESPONSE_KEYS,
            outputs=[o.to_dict() for o in self.outputs],
            usage=None if self.usage is None else self.usage.to_dict(),
        )


_RESPONSE_KEYS = ("id", "model", "status", "status_reason", "outputs", "usage", "error")
"""The keys of :class:`ResponseReport`'s JSON form, in its order (the records left out)."""


@dataclass(slots=True)
class RecordCounts(_FieldForm):
    """How many records of each kind the stream had."""

    total: int = 0
    data: int = 0
    comments: int = 0
    invalid: int = 0
    unknown: int = 0


@dataclass(slots=True)
class Timing:
    """When things arrived, in seconds since the request started; ``None`` = not measured.

    ``content_times`` (not part of the JSON contract) holds the arrival time of each
    timed content record, in order: the records the content-idle time counts (text,
    reasoning or refusal that is not empty, tool-call arguments, a whole tool call, the
    terminal event), so that the time between them can be measured (the OpenTelemetry
    export's ``time_per_output_chunk``). Empty when the source has no arrival times.
    """

    first_byte_s: float | None = None
    first_event_s: float | None = None
    first_content_s: float | None = None
    total_s: float | None = None
    max_gap_s: float | None = None
    max_content_idle_s: float | None = None
    """The longest time without a content record (text, reasoning, refusal, tool-call
    arguments, the terminal event), from the first byte to the end, whatever else (SSE
    comments, pings, lifecycle events) arrived meanwhile; ``max_gap_s`` is the longest
    time without any record."""
    max_content_idle_after: str | None = None
    """What content that longest silence followed: ``text``, ``reasoning``, ``refusal``,
    ``tool call``, ``compaction``, ``audio``, or ``end`` (the terminal event); ``None``
    when it came before any content, or was not measured ("idle 8.0 s mid tool call")."""
    gap_histogram: dict[str, int] | None = None
    content_times: array[float] = field(default_factory=lambda: array("d"))

    def to_dict(self) -> dict[str, Any]:
        """Return the JSON form."""
        return field_dict(self, _TIMING_KEYS)


_TIMING_KEYS = tuple(name for name in field_names(Timing) if name != "content_times")
"""The keys of :class:`Timing`'s JSON form: every field but ``content_times``."""


@dataclass(slots=True)
class StateReport(_FieldForm):
    """The shared state an agent stream keeps with its client (AG-UI's state): the
    document as the stream left it, and how it got there."""

    value: Any = None
    """The final JSON document: the last snapshot with every patch since applied."""
    snapshots: int = 0
    """How many times the stream restated the whole state."""
    deltas: int = 0
    """How many patches it sent, those that did not apply included."""
    failed_patches: int = 0
    """How many of those patches did not apply (each left the state as it was)."""


@dataclass(slots=True)
class Report:
    """What a stream amounted to. ``to_dict()`` is the stable JSON contract (schema 1).

    The top-level response fields (status, outputs, usage, error) describe the *last*
    response; ``responses`` lists every response when the capture held more than one.
    """

    container: str = "raw"
    bytes: int = 0
    framing: str = "sse"
    framing_rule: str = ""
    provider: str = "unknown"
    provider_rule: str = ""
    response: ResponseReport = field(default_factory=ResponseReport)
    responses: list[ResponseReport] = field(default_factory=list)
    records: RecordCounts = field(default_factory=RecordCounts)
    diagnostics: list[Diagnostic] = field(default_factory=list)
    timing: Timing = field(default_factory=Timing)
    http_status: int | None = None
    lost: list[str] = field(default_factory=list)
    entry: EntryInfo | None = None
    """Which entry of a capture holding several streams this Report is about, if any."""
    request: RequestSummary | None = None
    """The request a live response answered (method, redacted URL, model, start), when
    the source knows it: the in-process transport (:class:`ssescope.Transport`)."""
    websocket: WebSocketEnd | None = None
    """How the WebSocket that carried the stream ended, and the client's messages, for a
    stream read from a WebSocket capture."""
    state: StateReport | None = None
    """The shared state the stream kept with its client, or ``None`` when it kept none."""
    task: TaskReport | None = None
    """The task the stream reported on (A2A), or ``None``; in the JSON form only when set."""
    artifacts: list[ArtifactReport] = field(default_factory=list)
    """The artifacts the agent built, assembled; in the JSON form only when there is one."""
    notifications: list[NotificationReport] = field(default_factory=list)
    """The records received beside the reply (MCP's progress and log notifications,
    server-to-client requests); in the JSON form only when there is one."""

    @property
    def status(self) -> Status:
        """The terminal status of the (last) response."""
        return self.response.status

    @property
    def outputs(self) -> list[OutputReport]:
        """The outputs of the (last) response."""
        return self.response.outputs

    @property
    def usage(self) -> UsageReport | None:
        """The usage of the (last) response, or ``None`` if none was reported."""
        return self.response.usage

    @property
    def error(self) -> dict[str, Any] | None:
        """The provider error of the (last) response, or ``None``."""
        return self.response.error

    @property
    def text(self) -> str:
        """The text of output 0 of the (last) response (``""`` if there is none)."""
        return self.outputs[0].text if self.outputs else ""

    def to_dict(self) -> dict[str, Any]:
        """Return the Report's JSON contract (ARCHITECTURE §6)."""
        out: dict[str, Any] = {
            "schema": SCHEMA_VERSION,
            "source": {"container": self.container, "bytes": self.bytes, "lost": self.lost},
            "framing": self.framing,
            "framing_rule": self.framing_rule,
            "provider": self.provider,
            "provider_rule": self.provider_rule,
            "status": self.response.status,
            "status_reason": self.response.status_reason,
            "http_status": self.http_status,
            "id": self.response.id,
            "model": self.response.model,
            "outputs": [o.to_dict() for o in self.response.outputs],
            "usage": None if self.response.usage is None else self.response.usage.to_dict(),
            "error": self.response.error,
            "state": None if self.state is None else self.state.to_dict(),
        }
        if self.task is not None:
            out["task"] = self.task.to_dict()
        if self.artifacts:
            out["artifacts"] = [a.to_dict() for a in self.artifacts]
        if self.notifications:
            out["notifications"] = [n.to_dict() for n in self.notifications]
        out["records"] = self.records.to_dict()
        out["diagnostics"] = [d.to_dict() for d in self.diagnostics]
        out["timing"] = self.timing.to_dict()
        if self.websocket is not None:
            out["source"]["websocket"] = self.websocket.to_dict()
        if len(self.responses) > 1:
            out["responses"] = [r.to_dict() for r in self.responses]
        if self.entry is not None:
            out["entry"] = self.entry.to_dict()
        if self.request is not None:
            out["request"] = self.request.to_dict()
        return out
