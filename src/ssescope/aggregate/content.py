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
    TextDelta,
    ToolCall,
    ToolCallDelta,
)

__all__ = ["GENERATED_TYPES", "is_generated_content"]

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
