"""The diagnostic codes documented on ``docs/diagnostics/anthropic.md``."""

from __future__ import annotations

from ...codes.per_provider import invalid_usage, provider_error
from ...codes.spec import Code, Page

PAGE = Page(
    "anthropic",
    (
        "# Anthropic diagnostics\n"
        "\n"
        "Codes raised by the Anthropic Messages adapter (`ssescope.providers.anthropic`), which\n"
        "also reads the Anthropic events the Bedrock adapter unwraps from\n"
        "`InvokeModelWithResponseStream` chunks. The adapter also raises the shared codes\n"
        "`json.invalid`, `provider.error` (with every `event: error`) and `tool.missing-index`.\n"
        "\n"
        "Anthropic ends a response with `message_stop`; the stop reason comes just before it, in\n"
        "`message_delta`. Block events (`content_block_*`) carry the block `index`, which is the\n"
        "part key of the text and the index of tool calls.\n"
    ),
)

SPLICED_MESSAGE = Code(
    "anthropic.spliced-message",
    "warning",
    "provider",
    PAGE,
    "Record {record} starts message {mid!q} while message {message_id!q} has not ended (no message_stop): two generations are spliced into one stream; both are kept, in arrival order.",
    (
        "- **Means:** a `message_start` with a *new* message id arrived before the current message\n"
        "  got its `message_stop`: two generations are spliced into one stream, typically by a\n"
        "  retrying proxy that resent the request and forwarded both answers. Both messages are\n"
        "  kept in one response, in arrival order; the second message's blocks get part / tool\n"
        "  indexes after those already used, so its block 0 never lands in the first message's\n"
        "  block 0 or tool call. The first message's unfinished tool calls stay unfinished\n"
        "  (`tool.incomplete`).\n"
        "- **Example:**\n"
        "  ```\n"
        '  {"type":"message_start","message":{"id":"msg_first",…}}\n'
        '  {"type":"content_block_start","index":1,"content_block":{"type":"tool_use","id":"toolu_first",…}}\n'
        '  {"type":"message_start","message":{"id":"msg_second",…}}\n'
        "  ```\n"
        "- **What to do:** look for a proxy or gateway retrying mid-stream; do not execute the\n"
        "  first message's half-built tool calls. Retrying the request end to end is the safe fix.\n"
    ),
    content=("message_id", "mid"),
)

DUPLICATE_MESSAGE_START = Code(
    "anthropic.duplicate-message-start",
    "warning",
    "provider",
    PAGE,
    "Record {record} is {same} message_start for message {mid!q}; it is ignored.",
    (
        "- **Means:** a `message_start` with the same message id as the open message arrived\n"
        "  again (usually byte-identical). It is ignored: no new response, no second usage.\n"
        '- **Example:** two `event: message_start` blocks with `"id":"msg_01Dup"` in a row.\n'
        "- **What to do:** usually harmless; a proxy replayed the first event. Check for replayed\n"
        "  content if text looks doubled.\n"
    ),
    content=("mid",),
)

MISSING_MESSAGE_STOP = Code(
    "anthropic.missing-message-stop",
    "warning",
    "provider",
    PAGE,
    "The stream ended before message_stop ({reason}); the response is truncated.",
    (
        "- **Means:** the body ended after a `message_start` but before its `message_stop` (and\n"
        "  no `error` came). The response is `truncated`; the message says which stop reason, if\n"
        "  any, had already arrived in a `message_delta`.\n"
        "- **Example:** `message_start`, a few `content_block_delta` events, then the end of the\n"
        "  body.\n"
        "- **What to do:** the connection was cut (network, proxy timeout, client abort). Retry;\n"
        "  do not trust tool calls that never got their `content_block_stop`.\n"
    ),
)

STOP_WITHOUT_REASON = Code(
    "anthropic.stop-without-reason",
    "warning",
    "provider",
    PAGE,
    "message_stop (record {record}) came without any stop_reason in a message_delta; the response is taken as completed.",
    (
        "- **Means:** `message_stop` arrived but no `message_delta` had given a `stop_reason`. The\n"
        "  response is taken as `completed` (the end marker is explicit) with no finish reason.\n"
        "- **Example:** `message_start` then `message_stop`, nothing in between.\n"
        "- **What to do:** check whether a gateway dropped the `message_delta` event (its usage is\n"
        "  missing too).\n"
    ),
)

TURN_PAUSED = Code(
    "anthropic.turn-paused",
    "warning",
    "provider",
    PAGE,
    {
        "pause_turn": "The turn is paused (stop_reason 'pause_turn' in record {record}), not finished: a server tool loop reached its limit. Send the conversation back with this response as the assistant turn, unchanged, for the model to go on.",
        "compaction": "The turn is paused after compacting the context (stop_reason 'compaction' in record {record}), not finished. Send the conversation back with this response, its compaction block included, for the model to go on.",
    },
    (
        "- **Means:** the message ended with `stop_reason: pause_turn` (a long-running turn\n"
        "  with server tools, such as web search, paused at the server's iteration limit) or\n"
        "  `compaction` (the API compacted the context and paused, `pause_after_compaction`).\n"
        "  The turn is not finished: the status is `incomplete`, the finish reason `other`,\n"
        "  and the raw finish reason the stop reason as sent.\n"
        '- **Example:** `data: {"type":"message_delta","delta":{"stop_reason":"pause_turn"}}`\n'
        "- **What to do:** the client must send the request again with this response appended\n"
        "  as the assistant turn, as it came (its server tool blocks, or its `compaction`\n"
        "  block, included); the model then continues where it paused. A client that treats the\n"
        "  response as a finished answer shows a half-done reply.\n"
    ),
)

REFUSAL_EXPLAINED = Code(
    "anthropic.refusal-explained",
    "info",
    "provider",
    PAGE,
    "The model refused (stop_details category {category!r}): {explanation!q:300}",
    (
        "- **Means:** a `message_delta` carried `stop_details` with an `explanation` (Anthropic\n"
        "  sends it with `stop_reason: refusal`). The explanation is metadata about the refusal,\n"
        "  not text the model wrote: it is shown here and in the status reason, and `refusal`\n"
        "  stays as the model wrote it.\n"
        '- **Example:** `"stop_details": {"type": "refusal", "category": "cyber", "explanation": "…"}`\n'
        "- **What to do:** read the explanation; the request needs to change.\n"
    ),
    content=("explanation",),
)

EVENT_NAME_MISMATCH = Code(
    "anthropic.event-name-mismatch",
    "warning",
    "provider",
    PAGE,
    {
        "error": "The SSE event name {name!q} of record {record} differs from its JSON type {etype!q}; an error event is read as an error whatever its type.",
        "type-used": "The SSE event name {name!q} of record {record} differs from its JSON type {etype!q}; the JSON type is used.",
    },
    (
        "- **Means:** the SSE `event:` name differs from the JSON `type` of the same event.\n"
        "  Anthropic always sends them equal. The JSON type decides what the event is, except that\n"
        "  `event: error` is always read as an error.\n"
        "- **Example:** `event: content_block_start` with\n"
        '  `data: {"type":"content_block_delta",…}`.\n'
        "- **What to do:** a proxy is rewriting events; clients that dispatch on the event name\n"
        "  (the Anthropic SDK does) will misread this stream.\n"
    ),
    content=("etype", "name"),
)

MISSING_TYPE = Code(
    "anthropic.missing-type",
    "warning",
    "provider",
    PAGE,
    'Record {record} has no string "type" field ({etype!q}) and no SSE event name, so its kind is unknown.',
    (
        "- **Means:** a record has no string `type` field and no SSE event name, so what it is\n"
        "  cannot be told. It is counted as an unknown event.\n"
        '- **Example:** `{"index":0,"delta":{"type":"text_delta","text":"x"}}` as a JSONL line.\n'
        "- **What to do:** check how the capture was produced; a tool that strips the SSE framing\n"
        "  must keep the `type` field.\n"
    ),
    content=("etype",),
)

UNEXPECTED_JSON = Code(
    "anthropic.unexpected-json",
    "error",
    "provider",
    PAGE,
    "Record {record} is JSON but not an object: {obj!q}; it is skipped.",
    (
        "- **Means:** a record is valid JSON but not an object (an array, a string, a number). It\n"
        "  is skipped (an `event: error` record of that shape still fails the response).\n"
        "- **Example:** `data: [1, 2]`\n"
        "- **What to do:** the body is not an Anthropic stream at that point, or a proxy injected\n"
        "  its own records.\n"
    ),
    content=("obj",),
)

MALFORMED_EVENT = Code(
    "anthropic.malformed-event",
    "error",
    "provider",
    PAGE,
    "Record {record} ({etype}) is malformed: {error}; it is skipped.",
    (
        "- **Means:** a known event has a field of an impossible type (a `delta` that is not an\n"
        "  object, a `text_delta` without a string `text`, a `content_block` without a type…). The\n"
        "  event is skipped; the stream goes on.\n"
        '- **Example:** `{"type":"content_block_delta","index":0,"delta":{"type":"text_delta"}}`\n'
        "- **What to do:** look at the quoted record; the producer of the stream is not following\n"
        "  the Messages event schema.\n"
    ),
)

MISSING_INDEX = Code(
    "anthropic.missing-index",
    "warning",
    "provider",
    PAGE,
    'Record {record} ({type}) has no integer "index" ({idx!q}); it is applied to no particular block.',
    (
        "- **Means:** a block event (`content_block_start`, `_delta` or `_stop`) has no integer\n"
        "  `index`. Its content goes to no particular block (part `None`); a tool input fragment\n"
        "  goes to the open tool call (and `tool.missing-index` is raised too).\n"
        '- **Example:** `{"type":"content_block_delta","delta":{"type":"text_delta","text":"x"}}`\n'
        "- **What to do:** the producer dropped the block index; output with several blocks cannot\n"
        "  be put back together reliably.\n"
    ),
    content=("idx",),
)

MISSING_MESSAGE_START = Code(
    "anthropic.missing-message-start",
    "warning",
    "provider",
    PAGE,
    "Record {record} arrived before any message_start.",
    (
        "- **Means:** block or message events arrived before any `message_start` (reported once per\n"
        "  stream). They are still applied.\n"
        "- **Example:** a capture that starts with `content_block_start`.\n"
        "- **What to do:** the capture probably missed the start of the body; usage, id and model\n"
        "  are then unknown.\n"
    ),
)

BLOCK_RESTARTED = Code(
    "anthropic.block-restarted",
    "warning",
    "provider",
    PAGE,
    "Record {record} starts block {index} again (it was a {block_type!q} block); the new block continues the same part.",
    (
        "- **Means:** a `content_block_start` reused the index of a block already started in the\n"
        "  same message. The new block continues the same part.\n"
        '- **Example:** two `content_block_start` events with `"index":0` in one message.\n'
        "- **What to do:** the producer is not numbering blocks as Anthropic does; text of the two\n"
        "  blocks is joined.\n"
    ),
    content=("block_type",),
)

DELTA_WITHOUT_START = Code(
    "anthropic.delta-without-start",
    "warning",
    "provider",
    PAGE,
    "Record {record} is a delta for block {index}, which no content_block_start opened.",
    (
        "- **Means:** a `content_block_delta` names a block index that no `content_block_start`\n"
        "  opened. The delta is still applied as its type says.\n"
        '- **Example:** `message_start`, then `{"type":"content_block_delta","index":4,…}`.\n'
        "- **What to do:** an event was lost or the capture is partial; tool calls of that block\n"
        "  have no id or name.\n"
    ),
)

DELTA_TYPE_MISMATCH = Code(
    "anthropic.delta-type-mismatch",
    "warning",
    "provider",
    PAGE,
    "Record {record} is a {dtype!q} for block {index}, which is a {block_type!q} block; the delta is applied as its type says.",
    (
        "- **Means:** a delta's type does not belong to its block's type (a `thinking_delta` in a\n"
        "  `text` block, an `input_json_delta` in a `thinking` block…). It is applied as the delta\n"
        "  type says; reported once per block.\n"
        "- **Example:** `content_block_start` of type `text` at index 0, then a `thinking_delta`\n"
        "  for index 0.\n"
        "- **What to do:** the producer mixes blocks up; check where the text and the reasoning\n"
        "  ended up.\n"
    ),
    content=("block_type", "dtype"),
)

STOP_WITHOUT_START = Code(
    "anthropic.stop-without-start",
    "warning",
    "provider",
    PAGE,
    "Record {record} stops block {index}, which no content_block_start opened.",
    (
        "- **Means:** a `content_block_stop` names a block index that no `content_block_start`\n"
        "  opened. It is ignored.\n"
        '- **Example:** `{"type":"content_block_stop","index":7}` in a message with blocks 0 and 1.\n'
        "- **What to do:** usually harmless; an event was lost or the producer miscounts blocks.\n"
    ),
)

BLOCK_STOPPED_TWICE = Code(
    "anthropic.block-stopped-twice",
    "warning",
    "provider",
    PAGE,
    "Record {record} stops block {index} a second time; it is ignored.",
    (
        "- **Means:** a block got a second `content_block_stop`. The second one is ignored.\n"
        '- **Example:** two `{"type":"content_block_stop","index":0}` in one message.\n'
        "- **What to do:** usually harmless; a proxy replayed an event.\n"
    ),
)

INVALID_STOP_REASON = Code(
    "anthropic.invalid-stop-reason",
    "warning",
    "provider",
    PAGE,
    "The stop_reason of record {record} is not a string: {reason!q}; it is ignored.",
    (
        "- **Means:** `message_delta.delta.stop_reason` is neither a string nor null. It is ignored.\n"
        '- **Example:** `{"type":"message_delta","delta":{"stop_reason":3}}`\n'
        "- **What to do:** the producer is not following the Messages schema; the finish reason\n"
        "  of the response is unknown.\n"
    ),
    content=("reason",),
)

INVALID_USAGE = invalid_usage(
    PAGE,
    (
        "- **Means:** a `usage` object is not an object, or one of its token counts\n"
        "  (`input_tokens`, `output_tokens`, `cache_read_input_tokens`) is not an integer. That\n"
        "  value is ignored; the others are kept.\n"
        '- **Example:** `{"type":"message_delta","usage":{"output_tokens":"9"}}`\n'
        "- **What to do:** check the gateway that rewrote the usage; token accounting from this\n"
        "  stream is incomplete.\n"
    ),
)

ERROR = provider_error(
    PAGE, "The provider reported an error in record {record}: {what}{message!q:120}."
)
"""This provider's form of ``provider.error``."""
