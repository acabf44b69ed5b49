"""What counts as generated content: the one rule behind "first content" everywhere.

The Report's ``timing.first_content_s``, the live milestones of ``request``, the proxy's
line and index, the web page's Live view and the OpenTelemetry
``gen_ai.response.time_to_first_chunk`` all mean the arrival of the first record that
carried something the model generated:

* text, reasoning or refusal that is not empty;
* a tool call's name or a piece of its arguments (the model has chosen the tool);
* a compaction's summary, or audio (data or transcript).

Not content: a role-only chunk, an empty delta, a ``ping``, a lifecycle event such as
``response.created``, a keep-alive comment, usage, a finish reason, the terminal marker.
"""

from __future__ import annotations

from ..events import (
    Audio,
    Compaction,
    ReasoningDelta,
    RefusalDelta,
    Terminal,
    TextDelta,
    ToolCall,
    ToolCallDelta,
)

__all__ = ["CONTENT_KINDS", "GENERATED_TYPES", "content_kind_code", "is_generated_content"]

GENERATED_TYPES = (
    TextDelta,
    ReasoningDelta,
    RefusalDelta,
    ToolCallDelta,
    ToolCall,
    Compaction,
    Audio,
)
"""The event types that may carry generated content (:func:`is_generated_content` tells)."""


def is_generated_content(ev: object) -> bool:
    """Whether the unified event ``ev`` carries generated content (see the module)."""
    if isinstance(ev, TextDelta | ReasoningDelta | RefusalDelta):
        return bool(ev.text)
    if isinstance(ev, ToolCallDelta | ToolCall):
        return bool(ev.name or ev.arguments)
    if isinstance(ev, Compaction):
        return bool(ev.summary)
    if isinstance(ev, Audio):
        return bool(ev.data or ev.transcript)
    return False


CONTENT_KINDS: tuple[str, ...] = (
    "text",
    "reasoning",
    "refusal",
    "tool call",
    "compaction",
    "audio",
    "end",
)
"""What a content record carried, by code: the Report's ``timing.max_content_idle_after``
names the content a silence followed this way ("idle 8.0 s mid tool call"); ``end`` is the
terminal event (a silence after it is a server that kept the connection open)."""

_KIND_CODES: dict[type, int] = {
    TextDelta: 0,
    ReasoningDelta: 1,
    RefusalDelta: 2,
    ToolCallDelta: 3,
    ToolCall: 3,
    Compaction: 4,
    Audio: 5,
    Terminal: 6,
}


def content_kind_code(ev: object) -> int:
    """The index in :data:`CONTENT_KINDS` of what the content event ``ev`` carried (text
    for an event of no kind listed)."""
    return _KIND_CODES.get(type(ev), 0)
