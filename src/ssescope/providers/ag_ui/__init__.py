"""AG-UI event streams (an agent's run streamed to its front end).

Theory of operation
===================

The body is SSE with one event per ``data:`` line and no ``event:`` name (the Python and
TypeScript encoders), or the same objects one per line. Every event has a ``type``:

* lifecycle: ``RUN_STARTED`` ... exactly one of ``RUN_FINISHED`` (completed; ``outcome:
  {type: interrupt}`` -> incomplete, paused for input or approval; ``cancelled`` ->
  cancelled) or ``RUN_ERROR`` (failed, with its ``message`` and ``code``).
  ``STEP_STARTED`` / ``STEP_FINISHED`` name the steps of a run.
* text: ``TEXT_MESSAGE_START`` / ``CONTENT`` / ``END`` by ``messageId`` (each message of
  a run is an output of its own), and the ``TEXT_MESSAGE_CHUNK`` shorthand;
* tools: ``TOOL_CALL_START`` / ``ARGS`` / ``END`` by ``toolCallId`` (the arguments are JSON
  text fragments), ``TOOL_CALL_CHUNK``, and ``TOOL_CALL_RESULT`` for a server-side tool;
* reasoning: ``REASONING_*`` (older ``THINKING_*``) events, their text in
  ``REASONING_MESSAGE_CONTENT.delta``;
* state: ``STATE_SNAPSHOT`` (the whole state) and ``STATE_DELTA`` (a JSON Patch, RFC 6902,
  applied to it; a patch that does not apply is reported and leaves the state as it was),
  ``MESSAGES_SNAPSHOT``, ``ACTIVITY_*``; and ``RAW`` / ``CUSTOM``.

The spec's ordering rules are diagnostics (``ag-ui.order``): content for a message or tool
call never started, an end given twice, ``RUN_FINISHED`` after ``RUN_ERROR`` (the run stays
failed), events after the run ended, and messages or tool calls left open. Producers that
write snake_case keys (``message_id``, ``tool_call_id``) and ``RUN_ERROR`` with ``error``
in place of ``message`` are read, with an info diagnostic.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .._lazy import lazy_exports

if TYPE_CHECKING:
    from .adapter import AgUiAdapter

__all__ = ["AgUiAdapter"]

__getattr__ = lazy_exports(__name__, __all__)
