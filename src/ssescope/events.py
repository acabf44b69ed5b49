"""Unified events: what provider adapters produce from records, whatever the wire protocol.

The aggregator (``ssescope.aggregate``) folds these into a :class:`~ssescope.Report`.
Every event carries ``record``, the index of the record it came from, so that every
token of the reply can be traced back to its bytes.

Keys used across events:

``output``
    The output a piece belongs to: the choice index (OpenAI Chat), the candidate index
    (Gemini), ``0`` for protocols with one reply per response (Anthropic, Responses,
    Cohere, Bedrock, Ollama, Vercel UI).
``part``
    Which content part of the output a text/reasoning/refusal piece belongs to (an
    Anthropic block index, a Responses ``(item_id, content_index)``, a Cohere content
    index…), or ``None`` for protocols whose output has a single part. An output's text
    is the concatenation of its parts' texts in the order the parts first appeared;
    snapshots are compared part by part.

Tool calls are matched by the aggregator, not the adapters (ARCHITECTURE §4): a
non-empty ``id`` that the output has not seen starts a new call (or names the call at
``index`` if that call has no id yet); otherwise ``index`` selects the call; otherwise
the output's open (last unfinished) call; otherwise a new call. ``id``, ``name`` and
``type`` are never concatenated: the first non-empty value is kept and a different
later value is reported. ``arguments`` fragments are concatenated as a string.

Events are slotted dataclasses, not frozen ones, because adapters build one or more per
record and frozen construction costs about 5x more; treat them as immutable. The events
some protocol builds once per record or delta on its common path write their ``__init__``
by hand (``init=False``), which the compiled core compiles natively: the ``__init__`` that
``dataclass`` generates stays interpreted even in a compiled class. They are the text,
reasoning and refusal pieces, :class:`ToolCallDelta`, :class:`Usage` (Gemini, vLLM and
Perplexity restate it in every chunk), :class:`Citation` (Perplexity's every chunk,
grounded Gemini Interactions deltas), :class:`Audio`, :class:`StateChange` (AG-UI patches),
:class:`ArtifactChunk` (A2A's streamed artifacts), :class:`Notification` (MCP progress) and
:class:`Unknown` (every record of an unknown protocol). A field added to one of them is
added to its ``__init__`` too (``tests/test_hand_written_init.py`` compares each with the
generated one). The events a stream carries once or a few times (a response's start and
end, finish reasons, whole tool calls and call ends, snapshots, errors, task states…) keep
the generated ``__init__``. Events of the same fields share them through a base class
(:class:`TextDelta`, :class:`ReasoningDelta` and :class:`RefusalDelta`); each class stays
its own type, matched by ``isinstance`` and never by a base.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, TypeAlias

__all__ = [
    "JSON",
    "AgentMessage",
    "ArtifactChunk",
    "Audio",
    "Citation",
    "Compaction",
    "Finish",
    "FinishReason",
    "Notification",
    "ProviderError",
    "ReasoningDelta",
    "ReasoningMeta",
    "RefusalDelta",
    "ResponseStart",
    "ServerToolResult",
    "Snapshot",
    "StateChange",
    "Status",
    "TaskUpdate",
    "Terminal",
    "TextDelta",
    "ToolCall",
    "ToolCallDelta",
    "ToolCallEnd",
    "ToolCallsEnd",
    "UnifiedEvent",
    "Unknown",
    "Usage",
]

JSON: TypeAlias = "dict[str, JSON] | list[JSON] | str | int | float | bool | None"

FinishReason = Literal[
    "stop", "length", "tool_calls", "content_filter", "refusal", "error", "other"
]
"""The unified finish reason of one output; the provider's raw value is always kept beside it."""

PartKey: TypeAlias = object
"""What tells the parts of one output apart (a block index, a content index, an item id…):
any hashable value, ``None`` for the only part. (An alias rather than ``object`` spelled in
the fields, so that the compiled core can name it at run time.)"""

Status = Literal["completed", "incomplete", "failed", "truncated", "cancelled"]
"""How a response ended (ARCHITECTURE §4). ``truncated`` is the default: no marker came."""


@dataclass(slots=True, init=False)
class _Event:
    """What every unified event has beside its fields: its ``type``."""

    @property
    def type(self) -> str:
        """The event type, e.g. "text-delta" (looked up by class: the compiled core cannot
        give a dataclass a class constant)."""
        return _TYPES[type(self)]


@dataclass(slots=True)
class ResponseStart(_Event):
    """A response began (``message_start``, ``response.created``, a first chunk of a new id).

    A ``ResponseStart`` after a :class:`Terminal` begins a new response in the Report.
    """

    record: int
    id: str | None = None
    model: str | None = None


@dataclass(slots=True, init=False)
class _TextPiece(_Event):
    """The fields of a piece of text appended to ``part`` of ``output`` (a reply's text, its
    reasoning, its refusal)."""

    record: int
    output: int
    text: str
    part: PartKey = None

    def __init__(self, record: int, output: int, text: str, part: PartKey = None) -> None:
        self.record = record
        self.output = output
        self.text = text
        self.part = part


@dataclass(slots=True, init=False)
class TextDelta(_TextPiece):
    """A piece of reply text, appended to ``part`` of ``output``."""


@dataclass(slots=True, init=False)
class ReasoningDelta(_TextPiece):
    """A piece of reasoning, kept apart from the text.

    ``kind`` says which spelling it came from: ``"text"`` (raw reasoning / thinking),
    ``"summary"`` (a reasoning summary), ``"plan"`` (Cohere's tool plan).
    """

    kind: str = "text"

    def __init__(
        self, record: int, output: int, text: str, part: PartKey = None, kind: str = "text"
    ) -> None:
        self.record = record
        self.output = output
        self.text = text
        self.part = part
        self.kind = kind


@dataclass(slots=True)
class ReasoningMeta(_Event):
    """Opaque reasoning data: a signature (which *replaces* any earlier one), redacted or
    encrypted reasoning (kept as it came, counted, never shown as text)."""

    record: int
    output: int
    part: PartKey = None
    signature: str | None = None
    redacted: str | None = None
    encrypted: str | None = None


@dataclass(slots=True, init=False)
class RefusalDelta(_TextPiece):
    """A piece of refusal text (OpenAI ``delta.refusal``, a Responses refusal part)."""


@dataclass(slots=True, init=False)
class ToolCallDelta(_Event):
    """A fragment of a tool call: any of its identity fields and/or an arguments piece.

    ``kind`` is ``"function"`` (a client tool), ``"custom"`` (freeform input),
    ``"mcp"`` or ``"server"`` (provider-executed). ``format`` is ``"json"`` when the
    arguments must parse as JSON, ``"text"`` for freeform input.
    """

    record: int
    output: int
    index: int | None = None
    id: str | None = None
    name: str | None = None
    arguments: str | None = None
    call_type: str | None = None
    kind: str = "function"
    format: str = "json"

    def __init__(
        self,
        record: int,
        output: int,
        index: int | None = None,
        id: str | None = None,
        name: str | None = None,
        arguments: str | None = None,
        call_type: str | None = None,
        kind: str = "function",
        format: str = "json",
    ) -> None:
        self.record = record
        self.output = output
        self.index = index
        self.id = id
        self.name = name
        self.arguments = arguments
        self.call_type = call_type
        self.kind = kind
        self.format = format


@dataclass(slots=True)
class ToolCall(_Event):
    """A whole tool call in one piece (Groq, Mistral, Ollama, Gemini ``functionCall``).

    ``arguments`` is the raw argument string (compact JSON when the wire sent an object).
    ``complete`` is ``False`` when the protocol says the call was left unfinished.
    """

    record: int
    output: int
    index: int | None = None
    id: str | None = None
    name: str | None = None
    arguments: str = ""
    kind: str = "function"
    format: str = "json"
    complete: bool = True


@dataclass(slots=True)
class ToolCallEnd(_Event):
    """The protocol says one call is finished (``content_block_stop``,
    ``function_call_arguments.done``, ``tool-call-end``…).

    ``arguments``, when given, is the protocol's snapshot of the full arguments: compared
    with what the fragments built, and taken if no fragment came.
    """

    record: int
    output: int
    index: int | None = None
    id: str | None = None
    arguments: str | None = None
    name: str | None = None


@dataclass(slots=True)
class ToolCallsEnd(_Event):
    """Every open call of ``output`` is finished (protocols without a per-call end marker:
    OpenAI Chat emits this when the choice's ``finish_reason`` arrives)."""

    record: int
    output: int


@dataclass(slots=True)
class ServerToolResult(_Event):
    """A result of a provider-executed tool, delivered whole (Anthropic
    ``web_search_tool_result``, Vercel ``tool-output-available``)."""

    record: int
    output: int
    tool_use_id: str | None
    result_type: str
    content: JSON = None


@dataclass(slots=True, init=False)
class Citation(_Event):
    """A citation or annotation attached to the output's text, kept as the provider sent it."""

    record: int
    output: int
    citation: JSON
    part: PartKey = None

    def __init__(self, record: int, output: int, citation: JSON, part: PartKey = None) -> None:
        self.record = record
        self.output = output
        self.citation = citation
        self.part = part


@dataclass(slots=True)
class Compaction(_Event):
    """A piece of a context-compaction block (Anthropic's ``compaction``): its ``summary``
    text is appended to the block's; its opaque ``encrypted`` content, when given,
    replaces the block's (the latest is the one to send back), kept as it came."""

    record: int
    output: int
    part: PartKey = None
    summary: str | None = None
    encrypted: str | None = None


@dataclass(slots=True)
class Snapshot(_Event):
    """A complete value the protocol restates (``*.done`` events, ``output_item.done``).

    Never appended. Compared with what the deltas built for ``field`` of ``part``; on a
    mismatch ``snapshot.mismatch`` is reported and the snapshot wins only if it is not
    shorter; a part that had no delta takes the snapshot.
    """

    record: int
    output: int
    field: Literal["text", "reasoning", "refusal"]
    value: str
    part: PartKey = None


@dataclass(slots=True, init=False)
class Usage(_Event):
    """Token usage as the provider reported it.

    ``values`` maps the normalised names ``input_tokens``, ``output_tokens``,
    ``total_tokens``, ``reasoning_tokens``, ``cached_input_tokens`` to the provider's own
    numbers (no arithmetic); a missing or ``None`` value means "not in this report". The
    aggregator keeps the latest non-null value per field. ``source`` names where it came
    from (``"usage chunk"``, ``"message_delta"``, ``"usageMetadata"``…).
    """

    record: int
    values: dict[str, int | None]
    raw: JSON
    source: str

    def __init__(self, record: int, values: dict[str, int | None], raw: JSON, source: str) -> None:
        self.record = record
        self.values = values
        self.raw = raw
        self.source = source


@dataclass(slots=True)
class Finish(_Event):
    """The finish reason of one output; a later non-null value replaces an earlier one."""

    record: int
    output: int
    reason: FinishReason | None
    raw: str | None


@dataclass(slots=True)
class Terminal(_Event):
    """The protocol's explicit end marker arrived (``[DONE]``, ``message_stop``,
    ``response.completed``…), with the status it implies and a short reason."""

    record: int
    status: Status
    reason: str


@dataclass(slots=True)
class ProviderError(_Event):
    """The provider reported an error inside the stream. The response's status is
    ``failed`` unless a later terminal marker says otherwise."""

    record: int
    error_type: str | None
    message: str
    code: str | None = None
    raw: JSON = None


@dataclass(slots=True, init=False)
class Audio(_Event):
    """Audio output: base64 ``data`` and/or a ``transcript`` piece. Never text."""

    record: int
    output: int
    data: str | None = None
    transcript: str | None = None
    format: str | None = None
    id: str | None = None

    def __init__(
        self,
        record: int,
        output: int,
        data: str | None = None,
        transcript: str | None = None,
        format: str | None = None,
        id: str | None = None,
    ) -> None:
        self.record = record
        self.output = output
        self.data = data
        self.transcript = transcript
        self.format = format
        self.id = id


@dataclass(slots=True, init=False)
class Unknown(_Event):
    """A record of a type the adapter does not know; counted per type, passed through."""

    record: int
    event_type: str
    raw: JSON = None

    def __init__(self, record: int, event_type: str, raw: JSON = None) -> None:
        self.record = record
        self.event_type = event_type
        self.raw = raw


@dataclass(slots=True, init=False)
class StateChange(_Event):
    """A change of the shared state an agent stream keeps with its client (AG-UI's
    ``STATE_SNAPSHOT`` / ``STATE_DELTA``, and the like).

    Attributes:
        kind: ``"snapshot"`` (the whole state restated) or ``"delta"`` (a patch).
        value: the state as it is after this event: the snapshot, or the state with the
            patch applied; for a patch that did not apply, the state as it was.
        applied: ``False`` for a patch that did not apply (the adapter reports why).
    """

    record: int
    kind: Literal["snapshot", "delta"]
    value: JSON = None
    applied: bool = True

    def __init__(
        self,
        record: int,
        kind: Literal["snapshot", "delta"],
        value: JSON = None,
        applied: bool = True,
    ) -> None:
        self.record = record
        self.kind = kind
        self.value = value
        self.applied = applied


@dataclass(slots=True)
class TaskUpdate(_Event):
    """The task an agent stream reports on took a state (A2A's task snapshot and
    status-update events, and the like).

    Attributes:
        state: the task's state in one spelling for every version of the protocol:
            lowercase words joined by hyphens (A2A 1.0's ``TASK_STATE_INPUT_REQUIRED`` is
            ``input-required``).
        task_id: the task's id, when the event names it.
        context_id: the id of the context (conversation) the task belongs to, if named.
        message: the text of the message the agent sent with the state, if any.
        role: who sent that message (``agent``, ``user``), when there is one.
        interrupted: whether the state waits for the client (A2A's ``input-required``,
            ``auth-required``): ``message`` is then what the agent asks for.
    """

    record: int
    state: str
    task_id: str | None = None
    context_id: str | None = None
    message: str | None = None
    role: str | None = None
    interrupted: bool = False


@dataclass(slots=True)
class AgentMessage(_Event):
    """A message the agent sent in a task stream that is not a state change (an A2A
    ``message`` event after the task began): kept with the task, not as the reply."""

    record: int
    text: str
    role: str | None = None


@dataclass(slots=True, init=False)
class ArtifactChunk(_Event):
    """A chunk of an artifact, an output an agent builds apart from its messages (A2A's
    artifact-update events).

    Attributes:
        artifact_id: the artifact it belongs to.
        parts: its parts, each in the general form: ``{"kind": "text", "text": ...}``,
            ``{"kind": "data", "data": <JSON>}`` or ``{"kind": "file", "name", "mime_type",
            "uri", "bytes"}`` (``bytes``: how many bytes an inline file holds, never the
            bytes themselves).
        append: ``True`` adds the parts to the artifact (a text part that follows a text
            part continues it); ``False`` starts the artifact, or restarts one already
            started.
        last_chunk: whether the protocol says the artifact is complete with this chunk.
        name: the artifact's name, if given.
        description: its description, if given.
    """

    record: int
    artifact_id: str
    parts: list[JSON]
    append: bool = False
    last_chunk: bool = False
    name: str | None = None
    description: str | None = None

    def __init__(
        self,
        record: int,
        artifact_id: str,
        parts: list[JSON],
        append: bool = False,
        last_chunk: bool = False,
        name: str | None = None,
        description: str | None = None,
    ) -> None:
        self.record = record
        self.artifact_id = artifact_id
        self.parts = parts
        self.append = append
        self.last_chunk = last_chunk
        self.name = name
        self.description = description


@dataclass(slots=True, init=False)
class Notification(_Event):
    """A record the client received beside the reply: not part of it, not its end (MCP's
    ``notifications/progress`` and ``notifications/message``, a server-to-client request).

    Attributes:
        method: the record's method (``notifications/progress``).
        summary: what it said, in a short line (``2/3 · counting``, ``info: started``).
        request_id: the id of a server-to-client request (the client owes it an answer);
            ``None`` for a notification.
    """

    record: int
    method: str
    summary: str = ""
    request_id: JSON = None

    def __init__(
        self, record: int, method: str, summary: str = "", request_id: JSON = None
    ) -> None:
        self.record = record
        self.method = method
        self.summary = summary
        self.request_id = request_id


UnifiedEvent: TypeAlias = (
    "ResponseStart | TextDelta | ReasoningDelta | ReasoningMeta | RefusalDelta | ToolCallDelta"
    " | ToolCall | ToolCallEnd | ToolCallsEnd | ServerToolResult | Citation | Compaction"
    " | Snapshot | Usage"
    " | Finish | Terminal | ProviderError | Audio | StateChange | TaskUpdate | AgentMessage"
    " | ArtifactChunk | Notification | Unknown"
)

_TYPES: dict[type, str] = {
    ResponseStart: "response-start",
    TextDelta: "text-delta",
    ReasoningDelta: "reasoning-delta",
    ReasoningMeta: "reasoning-meta",
    RefusalDelta: "refusal-delta",
    ToolCallDelta: "tool-call-delta",
    ToolCall: "tool-call",
    ToolCallEnd: "tool-call-end",
    ToolCallsEnd: "tool-calls-end",
    ServerToolResult: "server-tool-result",
    Citation: "citation",
    Compaction: "compaction",
    Snapshot: "snapshot",
    Usage: "usage",
    Finish: "finish",
    Terminal: "terminal",
    ProviderError: "provider-error",
    Audio: "audio",
    Unknown: "unknown",
    StateChange: "state",
    TaskUpdate: "task-update",
    AgentMessage: "agent-message",
    ArtifactChunk: "artifact-chunk",
    Notification: "notification",
}
"""Each event class's ``type``."""
