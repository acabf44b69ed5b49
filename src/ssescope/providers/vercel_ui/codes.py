"""The diagnostic codes documented on ``docs/diagnostics/vercel-ui.md``."""

from __future__ import annotations

from ... import codes as shared
from ...codes.per_provider import provider_error
from ...codes.spec import Code, Form, Page

PAGE = Page(
    "vercel-ui",
    (
        "# Vercel AI SDK UI-message stream diagnostics\n"
        "\n"
        "Codes raised by the AI SDK (5 and later) UI-message stream adapter\n"
        "(`ssescope.providers.vercel_ui`). The adapter also raises the shared code `json.invalid`.\n"
        "On the SSE wire the stream ends with `data: [DONE]` after a `finish` chunk; in a dump\n"
        "without SSE framing the `finish` chunk is the end marker.\n"
    ),
)

NOT_AN_OBJECT = Code(
    "vercel-ui.not-an-object",
    "error",
    "provider",
    PAGE,
    "Record {record} is JSON but not a chunk object: {data!q}; it is skipped.",
    (
        "- **Means:** a record is valid JSON but not a chunk object; it is skipped.\n"
        '- **Example:** `data: "just a string"`\n'
        "- **What to do:** check that the body really is a UI-message stream (`--provider`).\n"
    ),
    content=("data",),
)

MISSING_TYPE = Code(
    "vercel-ui.missing-type",
    "error",
    "provider",
    PAGE,
    "Record {record} has no string 'type' field (got {ctype!q}); it is skipped.",
    (
        "- **Means:** a chunk has no string `type` field; it is skipped.\n"
        '- **Example:** `data: {"delta":"no type"}`\n'
        "- **What to do:** check what writes chunks to the stream (a custom `writer.write` call).\n"
    ),
    content=("ctype",),
)

LEGACY_DATA_STREAM = Code(
    "vercel-ui.legacy-data-stream",
    "error",
    "provider",
    PAGE,
    "Record {record} looks like the AI SDK 4 data stream protocol ('CODE:JSON' lines), not a UI-message stream: {data!q}; it is skipped.",
    (
        '- **Means:** the record looks like the AI SDK 4 "data stream protocol" (`CODE:JSON` lines\n'
        '  such as `0:"text"` or `d:{…}`), which is a different protocol; it is skipped.\n'
        '- **Example:** `data: 0:"Hello"`\n'
        "- **What to do:** the server uses AI SDK 4 (`toDataStreamResponse`); upgrade it, or read\n"
        "  the body as that protocol.\n"
    ),
    content=("data",),
)

INVALID_FIELD = Code(
    "vercel-ui.invalid-field",
    "warning",
    "provider",
    PAGE,
    "Record {record} has a {field!r} that is not a string: {value!q}; the piece is skipped.",
    (
        "- **Means:** a field that must be a string (`delta`, `inputTextDelta`, `toolCallId`,\n"
        "  `finishReason`) has another type; that chunk's content is skipped.\n"
        '- **Example:** `data: {"type":"text-delta","id":"t","delta":7}`\n'
        "- **What to do:** fix the code that writes that chunk.\n"
    ),
    content=("value",),
)

PART_NOT_STARTED = Code(
    "vercel-ui.part-not-started",
    "warning",
    "provider",
    PAGE,
    "Record {record} continues {what} {key!q} that no start chunk opened (the AI SDK client rejects this); its content is kept.",
    (
        "- **Means:** a `text-delta`, `reasoning-delta` or `tool-input-delta` refers to an id that\n"
        "  no `text-start`, `reasoning-start` or `tool-input-start` opened. The AI SDK client\n"
        "  rejects such a stream; ssescope keeps the content.\n"
        '- **Example:** `data: {"type":"text-delta","id":"never-started","delta":"orphan"}`\n'
        "- **What to do:** send the start chunk first (custom `writer.write` code often forgets it).\n"
    ),
    content=("key",),
)

TOOL_INPUT_ERROR = Code(
    "vercel-ui.tool-input-error",
    "warning",
    "provider",
    PAGE,
    "Record {record}: the input of tool call {toolcallid!q} was rejected: {errortext!q:120}.",
    (
        "- **Means:** a `tool-input-error` chunk: the model's input for a tool call could not be\n"
        "  parsed or did not match the tool's schema. The call ends with the input as sent.\n"
        '- **Example:** `data: {"type":"tool-input-error","toolCallId":"call-3","toolName":"math","input":"{\\"x\\":","errorText":"JSON parsing failed"}`\n'
        "- **What to do:** tighten the tool's schema or description; the model may retry in the\n"
        "  next step.\n"
    ),
    content=("errortext", "toolcallid"),
)

TOOL_OUTPUT_ERROR = Code(
    "vercel-ui.tool-output-error",
    "warning",
    "provider",
    PAGE,
    "Record {record}: tool call {call_id!q} failed: {content!q:120}.",
    (
        "- **Means:** a `tool-output-error` chunk: executing the tool failed; its error text is\n"
        "  kept as the call's result.\n"
        '- **Example:** `data: {"type":"tool-output-error","toolCallId":"call-4","errorText":"Timed out"}`\n'
        "- **What to do:** look at the tool's `execute` function and the error text.\n"
    ),
    content=("call_id", "content"),
)

UNKNOWN_FINISH_REASON = Code(
    "vercel-ui.unknown-finish-reason",
    "warning",
    "provider",
    PAGE,
    "Record {record} has the finish reason {raw_text!q}, which the protocol does not define; it is reported as 'other'.",
    (
        "- **Means:** the `finish` chunk's `finishReason` is not one the protocol defines (`stop`,\n"
        "  `length`, `content-filter`, `tool-calls`, `error`, `other`, `unknown`); it is reported\n"
        "  as `other`, with the raw value kept.\n"
        '- **Example:** `data: {"type":"finish","finishReason":"sleepy"}`\n'
        "- **What to do:** nothing for the reply; check the server's AI SDK version.\n"
    ),
    content=("raw_text",),
)

RESET_STEP = Code(
    "vercel-ui.reset-step",
    "info",
    "provider",
    PAGE,
    "Record {record} is 'reset-step': an AI SDK client discards the current step's parts here; ssescope keeps everything that was streamed.",
    (
        "- **Means:** a `reset-step` chunk: an AI SDK client discards the parts of the current step\n"
        "  at this point (the step is being retried). ssescope keeps everything that was streamed,\n"
        "  so the assembled text may contain the discarded attempt.\n"
        '- **Example:** `data: {"type":"reset-step"}`\n'
        "- **What to do:** nothing; read the parts after this record as the retried step.\n"
    ),
)

STREAM_MISSING_DONE = Form(
    shared.STREAM_MISSING_DONE,
    "vercel-ui",
    "The stream sent its 'finish' chunk (record {record}) but ended without 'data: [DONE]'; the connection may have been cut before the end marker.",
)
"""This provider's form of ``stream.missing-done``."""

STREAM_DONE_WITHOUT_FINISH = Form(
    shared.STREAM_DONE_WITHOUT_FINISH,
    "vercel-ui",
    "Record {record} is 'data: [DONE]' but no 'finish' chunk came before it; the message did not finish normally.",
)
"""This provider's form of ``stream.done-without-finish``."""

ERROR = provider_error(
    PAGE, "The stream reported an error: {message!q:120}; the response is marked failed."
)
"""This provider's form of ``provider.error``."""
