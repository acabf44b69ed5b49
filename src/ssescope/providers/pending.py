"""Whether an unterminated last SSE event is the provider's terminal event, whole.

The WHATWG algorithm discards an event block that the body ended in before its blank
line. When that block is the detected provider's terminal event (``message_stop``,
``response.completed``, ``data: [DONE]``…) and its data parses, every byte of the
terminal marker arrived: only the blank line is missing. The pipeline then reads it, with
``sse.terminal-event-unterminated`` (``docs/verdicts.md``); anything else stays discarded
and the response stays ``truncated``. Nothing here does I/O.
"""

from __future__ import annotations

from ..framing.records import SSEEvent
from ..json_objects import loads_object
from .registry import knowledge

__all__ = ["terminal_name"]

_DONE = "[DONE]"
_DONE_PROVIDERS = frozenset(("openai-chat", "vercel-ui"))
"""Providers whose stream ends with the literal ``data: [DONE]``."""


def terminal_name(provider: str, event: SSEEvent) -> str | None:
    """The name of the terminal event ``event`` is for ``provider``, if it is one whole.

    Returns:
        ``"[DONE]"``, or the terminal event's name (its SSE event name or its JSON
        ``type``), when its data is ``[DONE]`` or a JSON object that parses; else ``None``.
    """
    data = event.data.strip()
    if provider in _DONE_PROVIDERS:  # (their last chunk before it ends nothing)
        return _DONE if data == _DONE else None
    terminals = knowledge(provider).terminal_events
    if not terminals:
        return None
    obj = loads_object(data)
    if obj is None:
        return None
    kind = obj.get("type")
    if isinstance(kind, str) and kind in terminals:
        return kind
    if event.event in terminals:
        return event.event
    return None
