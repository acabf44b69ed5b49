"""OpenAI Responses API streams, and the third-party servers that speak the protocol
(LM Studio, xAI, vLLM, OpenResponses).

Theory of operation
===================

Every record is one JSON event whose ``type`` is authoritative: the SSE ``event:`` line
is optional (captures and proxies often keep only ``data:``); when present and different
from ``type`` it is reported (``openai-responses.event-name-mismatch``) and ``type`` wins.

The protocol has one reply per response, so every piece goes to output ``0``. Content
is keyed per part, never by "the last open item" (out-of-order parts must not swap):

* message text and refusal: ``(item, content_index)``;
* raw reasoning text (``reasoning_text`` parts): ``(item, content_index)``;
* reasoning summary: ``(item, "summary", summary_index)``.

The summary key carries a ``"summary"`` marker so that summary part 0 and reasoning-text
part 0 of one reasoning item can never be merged.

Positions are the protocol's identity and item ids are labels: ``item`` is the item's
``output_index`` (an id met first without a position keeps its own key, for servers
that send none). Some gateways re-issue the item id on every event; the events still
meet at their position, the restatements are compared instead of appended, and the id
change is reported once per item (``openai-responses.item-id-changed``). The terminal
``response.output`` names its items by the ids already met, and by their place in the
list when an id is new.

Tool calls are identified by ``output_index`` (the ``index`` of the unified events) and
named at ``response.output_item.added`` with the item's ``call_id`` (its ``id`` when a
server sends no ``call_id``). Function calls are ``kind="function"``, custom (freeform)
tool calls ``kind="custom"`` with ``format="text"``, MCP calls ``kind="mcp"``. Built-in
tools executed by the provider (web search, file search, code interpreter, image
generation, MCP calls and tool listing) have status events that are known and emit
nothing; their finished items become :class:`ServerToolResult` events, and web search,
file search, code interpreter and image generation items are also whole
:class:`ToolCall` events of ``kind="server"`` (named without ``_call``, their input the
item's request fields), where Anthropic's ``server_tool_use`` sits. Shell,
apply-patch and computer-use items are known too but are not client function calls.

Snapshots are never appended. ``*.done`` events, ``content_part.done``,
``reasoning_summary_part.done``, ``output_item.done`` and the terminal ``response``
object restate complete values; the first snapshot of each part is emitted as a
:class:`Snapshot` (the aggregator compares it with the deltas) and later restatements of
the same part are not repeated. A value that arrives only in a snapshot (LM Studio sends
function arguments only in ``function_call_arguments.done``) is therefore still taken.
A terminal ``response.output`` that is empty while deltas built content (a proxy quirk)
is reported as ``openai-responses.empty-final-output`` and the deltas are kept.

End markers: ``response.completed`` (status ``completed``; ``incomplete`` when the
response carried refusal text; ``cancelled`` when the response's status says so), ``response.incomplete`` (``incomplete``, finish reason from
``incomplete_details.reason``) and ``response.failed`` (``failed``). The protocol has no
``[DONE]``; a ``data: [DONE]`` added by a proxy is noted and ignored. Gateways that
relay background responses may send ``response.cancelled`` (or ``response.canceled``):
it ends the response as ``cancelled``. A top-level ``error`` event (fields at top
level, or nested under ``error``) is a :class:`ProviderError`. ``sequence_number``, when present, must grow by one per event
within a response (it restarts at every ``response.created``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .._lazy import lazy_exports

if TYPE_CHECKING:
    from .adapter import OpenAIResponsesAdapter
    from .maps import FINISH_REASONS, map_finish_reason

__all__ = ["FINISH_REASONS", "OpenAIResponsesAdapter", "map_finish_reason"]

__getattr__ = lazy_exports(__name__, __all__)
