"""The diagnostic codes documented on ``docs/diagnostics/openai-responses.md``."""

from __future__ import annotations

from ...codes.per_provider import provider_error
from ...codes.spec import Code, Page

PAGE = Page(
    "openai-responses",
    (
        "# OpenAI Responses diagnostics\n"
        "\n"
        "Codes raised by the OpenAI Responses API adapter (`ssescope.providers.openai_responses`),\n"
        "which also reads third-party implementations of the protocol (LM Studio, xAI, vLLM). The\n"
        "adapter also raises the shared code `json.invalid`. The protocol's end markers are the\n"
        "events `response.completed`, `response.incomplete` and `response.failed`; it has no\n"
        "`[DONE]`.\n"
    ),
)

EVENT_NAME_MISMATCH = Code(
    "openai-responses.event-name-mismatch",
    "warning",
    "provider",
    PAGE,
    "Record {record} is named {wire_name!q} on its SSE 'event:' line but its JSON type is {etype!q}; the JSON type is authoritative.",
    (
        "- **Means:** an SSE `event:` line names a different type than the event's JSON `type`.\n"
        "  The JSON `type` is authoritative and is used.\n"
        "- **Example:** `event: response.text.delta` then\n"
        '  `data: {"type":"response.output_text.delta",…}`\n'
        "- **What to do:** nothing for the reply; a proxy or a server rewrote the event names. Fix\n"
        "  it there if other clients rely on the `event:` line.\n"
    ),
    content=("etype", "wire_name"),
)

MISSING_TYPE = Code(
    "openai-responses.missing-type",
    "warning",
    "provider",
    PAGE,
    {
        "event-name": "Record {record} has no string 'type' field; its SSE event name {wire_name!q} is used instead.",
        "skipped": "Record {record} has no string 'type' field (got {etype!q}) and no SSE event name; it is skipped.",
    },
    (
        "- **Means:** an event's JSON has no string `type` field. When the SSE `event:` line\n"
        "  supplies the type it is used (form `event-name`); otherwise the record is skipped\n"
        "  (form `skipped`).\n"
        '- **Example:** `data: {"item_id":"msg_1","delta":"Hi"}`\n'
        "- **What to do:** check that the body really is a Responses stream (`--provider`); a\n"
        "  gateway that strips `type` breaks the official SDKs too.\n"
    ),
    content=("etype", "wire_name"),
)

NOT_AN_OBJECT = Code(
    "openai-responses.not-an-object",
    "error",
    "provider",
    PAGE,
    "Record {record} is JSON but not an event object: {data!q}; it is skipped.",
    (
        "- **Means:** a record is valid JSON but not an object, so it cannot be an event; it is\n"
        "  skipped and the stream goes on.\n"
        "- **Example:** `data: [1, 2]`\n"
        "- **What to do:** check that the body really is a Responses stream (`--provider`).\n"
    ),
    content=("data",),
)

INVALID_FIELD = Code(
    "openai-responses.invalid-field",
    "warning",
    "provider",
    PAGE,
    "Record {record} has a {field!r} that is not a string: {value!q}; the piece is skipped.",
    (
        "- **Means:** a field that must be a string (a `delta`, a `.done` snapshot's `text`) has\n"
        "  another type; that piece is skipped.\n"
        '- **Example:** `data: {"type":"response.output_text.delta","item_id":"msg_1","content_index":0,"delta":42}`\n'
        "- **What to do:** the server or a proxy produced a malformed event; report it to them.\n"
    ),
    content=("value",),
)

SEQUENCE_GAP = Code(
    "openai-responses.sequence-gap",
    "warning",
    "provider",
    PAGE,
    {
        "gap": "Record {record} has sequence_number {seq} after {last}: the numbering {what} (events lost, duplicated or reordered on the way).",
        "not-an-integer": "Record {record} has a sequence_number that is not an integer: {seq!q}; it is ignored.",
    },
    (
        "- **Means:** `sequence_number` did not grow by exactly one from the previous event of the\n"
        "  same response: it skipped ahead (events lost on the way), went back (events duplicated\n"
        "  or reordered), or is not an integer. Numbering restarts at every `response.created`;\n"
        "  events without `sequence_number` are fine (some servers never send it).\n"
        '- **Example:** `…"sequence_number":2…` followed by `…"sequence_number":5…`\n'
        "- **What to do:** suspect a proxy that drops or reorders events; when resuming with\n"
        "  `starting_after`, resume from the last number actually received.\n"
    ),
    content=("seq",),
)

EMPTY_FINAL_OUTPUT = Code(
    "openai-responses.empty-final-output",
    "warning",
    "provider",
    PAGE,
    "Record {record} ({etype}) restates the response with an empty 'output' although deltas built content (a proxy quirk); the content built from the deltas is kept.",
    (
        '- **Means:** `response.completed` restates the response with `"output": []` although\n'
        "  deltas built text, reasoning or tool calls. Known proxy behaviour; the content built\n"
        "  from the deltas is kept (a client that trusts the final object would lose it).\n"
        '- **Example:** deltas `"Hello"`, `" world"`, then\n'
        '  `data: {"type":"response.completed","response":{"status":"completed","output":[],…}}`\n'
        "- **What to do:** do not rely on `response.output` of that proxy; rebuild from the\n"
        "  deltas (as ssescope does) or fix the proxy.\n"
    ),
)

DONE_MARKER = Code(
    "openai-responses.done-marker",
    "info",
    "provider",
    PAGE,
    "Record {record} is 'data: [DONE]', which the Responses protocol does not have (a proxy added it); it is ignored and the response's terminal event decides how it ended.",
    (
        "- **Means:** a `data: [DONE]` record arrived. The Responses protocol has none (it ends\n"
        "  with a terminal event); a proxy added it, probably by treating the stream as Chat\n"
        "  Completions. It is ignored.\n"
        '- **Example:** `data: {"type":"response.completed",…}` then `data: [DONE]`\n'
        "- **What to do:** nothing; clients that stop at `[DONE]` are unaffected.\n"
    ),
)

ITEM_ID_CHANGED = Code(
    "openai-responses.item-id-changed",
    "warning",
    "provider",
    PAGE,
    "Record {record} labels output item {index} {item_id!q}, but earlier events labelled it {first!q}: the item id changed between events of one item (a gateway re-issued it). The item is assembled by its position (output_index), so its content is not repeated; further id changes of this item are not reported.",
    (
        "- **Means:** events of one output item (same `output_index`) carry different item ids: a\n"
        "  gateway or proxy re-issued the id on its way through. The position is the item's\n"
        "  identity in the protocol and the id only a label, so ssescope assembles the item by\n"
        "  `output_index`, `content_index` and `summary_index`: the `.done` restatements that\n"
        "  arrive under a new id are compared with the deltas, never appended. Reported once per\n"
        "  item.\n"
        '- **Example:** `…"item_id":"msg_a","output_index":0,"delta":"Hi"…` then\n'
        '  `…"item_id":"msg_b","output_index":0,"text":"Hi"…` (`response.output_text.done`)\n'
        "- **What to do:** nothing for the reply. Clients that key content by `item_id` (as many\n"
        "  hand-written ones do) repeat the text of such a gateway; key it by position, or fix the\n"
        "  gateway so that it keeps the ids.\n"
    ),
)

ERROR = provider_error(
    PAGE,
    "The provider reported an error in {where}: {text!q} (code {code_text!q}); the response is marked failed.",
)
"""This provider's form of ``provider.error``."""
