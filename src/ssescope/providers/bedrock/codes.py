"""The diagnostic codes documented on ``docs/diagnostics/bedrock.md``."""

from __future__ import annotations

from ...codes.per_provider import invalid_usage, provider_error
from ...codes.spec import Code, Page

PAGE = Page(
    "bedrock",
    (
        "# Bedrock diagnostics\n"
        "\n"
        "Codes raised by the AWS Bedrock adapter (`ssescope.providers.bedrock`): `ConverseStream`\n"
        "in the binary event-stream form (framing `aws-eventstream`) or its decoded form (one\n"
        '`{"<eventType>": payload}` object per line), and Anthropic models through\n'
        "`InvokeModelWithResponseStream`, whose events are read by the Anthropic adapter (its\n"
        "`anthropic.*` codes apply to them). The adapter also raises the shared codes\n"
        "`json.invalid` and `provider.error` (with every exception message). Framing problems of\n"
        "the binary form (`eventstream.crc-mismatch`, `eventstream.truncated-message`,\n"
        "`eventstream.bad-prelude`, `eventstream.bad-headers`) are raised by the framer.\n"
        "\n"
        "A ConverseStream reply ends with `messageStop`; the `metadata` event with the token usage\n"
        "normally follows it, and that is not an event after the end.\n"
    ),
)

MISSING_MESSAGE_STOP = Code(
    "bedrock.missing-message-stop",
    "warning",
    "provider",
    PAGE,
    "The stream ended before messageStop; the response is truncated.",
    (
        "- **Means:** the body ended after a `messageStart` but before its `messageStop` (and no\n"
        "  exception came). The response is `truncated`.\n"
        "- **Example:** `messageStart`, some `contentBlockDelta` messages, then the end of the body\n"
        "  (often with `eventstream.truncated-message` when the cut fell inside a message).\n"
        "- **What to do:** the connection was cut (network, timeout, client abort). Retry; do not\n"
        "  run tool calls that never got their `contentBlockStop`.\n"
    ),
)

STOP_WITHOUT_REASON = Code(
    "bedrock.stop-without-reason",
    "warning",
    "provider",
    PAGE,
    "The messageStop of record {record} has no string stopReason ({raw_text!q}); the response is taken as completed.",
    (
        "- **Means:** a `messageStop` has no string `stopReason`. The response is taken as\n"
        "  `completed` with no finish reason.\n"
        '- **Example:** `{"messageStop":{}}`\n'
        "- **What to do:** check the tool that produced or re-encoded the stream; Bedrock always\n"
        "  sends a stop reason.\n"
    ),
    content=("raw_text",),
)

DUPLICATE_MESSAGE_START = Code(
    "bedrock.duplicate-message-start",
    "warning",
    "provider",
    PAGE,
    "Record {record} is a messageStart while the message already started has not stopped; it is ignored.",
    (
        "- **Means:** a second `messageStart` arrived while the message already started had not\n"
        "  stopped. It is ignored; what follows is added to the same response.\n"
        '- **Example:** `{"messageStart":{"role":"assistant"}}` twice in a row.\n'
        "- **What to do:** a proxy replayed or spliced streams; check the text for repeats.\n"
    ),
)

UNEXPECTED_JSON = Code(
    "bedrock.unexpected-json",
    "error",
    "provider",
    PAGE,
    "Record {record} is not an object keyed by an event type: {obj!q}; it is skipped.",
    (
        "- **Means:** a line of the decoded form is not an object keyed by an event type (an\n"
        "  empty object, an array, a bare value). It is skipped.\n"
        "- **Example:** `[1, 2]` or `{}` as a line.\n"
        "- **What to do:** the capture is not a decoded Bedrock stream at that point; check how it\n"
        "  was written.\n"
    ),
    content=("obj",),
)

MALFORMED_EVENT = Code(
    "bedrock.malformed-event",
    "error",
    "provider",
    PAGE,
    {
        "not-an-object": "The {etype} payload of record {record} is not an object: {payload!q}; it is skipped.",
        "invalid": "Record {record} ({etype}) is malformed: {error}; it is skipped.",
    },
    (
        "- **Means:** a known event's payload has a field of an impossible type (a payload that is\n"
        "  not an object, a `delta` that is not an object, a `text` delta that is not a string, a\n"
        "  `toolUse` delta without a string `input`, a `chunk` without base64 `bytes`…). The event\n"
        "  is skipped; the stream goes on.\n"
        '- **Example:** `{"contentBlockDelta":{"contentBlockIndex":0,"delta":{"text":3}}}`\n'
        "- **What to do:** look at the quoted record; the producer is not following the\n"
        "  ConverseStream schema.\n"
    ),
    content=("payload",),
)

INVALID_USAGE = invalid_usage(
    PAGE,
    (
        "- **Means:** the `usage` of a `metadata` event (or the `amazon-bedrock-invocationMetrics`\n"
        "  of an InvokeModel chunk) is not an object, or one of its token counts is not an\n"
        "  integer. That value is ignored; the others are kept.\n"
        '- **Example:** `{"metadata":{"usage":{"inputTokens":"5"}}}`\n'
        "- **What to do:** token accounting from this stream is incomplete; check the tool that\n"
        "  rewrote it.\n"
    ),
)

INVALID_CHUNK = Code(
    "bedrock.invalid-chunk",
    "error",
    "provider",
    PAGE,
    "The chunk of record {record} does not hold base64 JSON ({error}): {blob!q}; it is skipped.",
    (
        "- **Means:** an `InvokeModelWithResponseStream` `chunk` does not hold base64-encoded JSON\n"
        "  in its `bytes` field. The chunk is skipped.\n"
        '- **Example:** `{"chunk":{"bytes":"not base64!"}}`\n'
        "- **What to do:** the chunk was corrupted or re-encoded on the way; compare with the raw\n"
        "  event-stream bytes if you have them.\n"
    ),
    content=("blob",),
)

ERROR = provider_error(
    PAGE, "The provider reported an error in record {record}: {error_type}: {message!q:120}."
)
"""This provider's form of ``provider.error``."""
