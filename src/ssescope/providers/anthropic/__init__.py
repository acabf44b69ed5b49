"""Anthropic Messages streaming (``POST /v1/messages`` with ``stream: true``).

Wire shape (PROVIDER_FORMATS §3): SSE whose ``event:`` names repeat the JSON ``type``;
no ``[DONE]``. A message is ``message_start``, then content blocks keyed by ``index``
(``content_block_start`` / ``content_block_delta``… / ``content_block_stop``), then
``message_delta`` (stop reason, cumulative usage) and ``message_stop``. ``ping`` is a
keep-alive; ``error`` reports a failure mid-stream (the connection then closes).

Mapping to unified events:

* ``message_start`` → :class:`ResponseStart` + :class:`Usage`. The output is always 0.
* Content blocks: ``part`` = block index, and the tool-call ``index`` = block index.
  ``text`` / ``text_delta`` → text; ``thinking`` / ``thinking_delta`` → reasoning;
  ``signature_delta`` → :class:`ReasoningMeta` (the signature replaces, never appends);
  ``redacted_thinking`` → :class:`ReasoningMeta` ``redacted``; ``tool_use``,
  ``server_tool_use`` and ``mcp_tool_use`` → :class:`ToolCallDelta` (id and name at the
  start, ``input_json_delta`` fragments as arguments) and :class:`ToolCallEnd` at
  ``content_block_stop``; result blocks (``web_search_tool_result``… delivered whole at
  their start) → :class:`ServerToolResult`; ``citations_delta`` → :class:`Citation`.
  A tool block that starts with a non-empty ``input`` object and gets no argument
  fragment has that object (compact JSON) as its arguments, given with its end.
* ``compaction`` blocks and ``compaction_delta`` → :class:`Compaction` (the summary,
  appended; the encrypted content, the latest kept).
* ``message_delta`` → :class:`Finish` (when it names a stop reason) + :class:`Usage`
  (cumulative: the aggregator keeps the latest value per field). ``stop_details`` is
  metadata about a refusal, not refusal text: its explanation is shown in the status
  reason and ``anthropic.refusal-explained``.
* ``message_stop`` → :class:`Terminal`: ``completed`` after a natural stop,
  ``incomplete`` after ``max_tokens`` / ``model_context_window_exceeded`` / ``refusal``
  and after a paused turn (``pause_turn``, ``compaction``: finish ``other``, with
  ``anthropic.turn-paused``).
* ``error`` → :class:`ProviderError` + ``provider.error`` + :class:`Terminal` ``failed``.

The JSON ``type`` decides what a record is; an SSE ``event:`` name that differs from it
is reported (``anthropic.event-name-mismatch``), except that ``event: error`` is always
an error. The same adapter reads JSONL dumps (framing ``ndjson``: one event per line),
and the Bedrock adapter hands it the events it unwraps from ``InvokeModelWithResponseStream``.

Ordering anomalies: a repeated identical ``message_start`` is reported and ignored; a
``message_start`` with a *new* id before ``message_stop`` is a spliced generation
(``anthropic.spliced-message``): its blocks are appended to the same response in
arrival order, under part / tool indexes shifted past those already used, so that its
block 0 never lands in the first message's block 0 or tool call.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .._lazy import lazy_exports

if TYPE_CHECKING:
    from .adapter import AnthropicAdapter
    from .maps import FINISH_REASONS, map_finish_reason

__all__ = ["FINISH_REASONS", "AnthropicAdapter", "map_finish_reason"]

__getattr__ = lazy_exports(__name__, __all__)
