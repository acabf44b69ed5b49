"""The diagnostic codes documented on ``docs/diagnostics/ollama.md``."""

from __future__ import annotations

from ... import codes as shared
from ...codes.per_provider import provider_error, unexpected_json
from ...codes.spec import Code, Form, Page

PAGE = Page(
    "ollama",
    (
        "# Ollama diagnostics\n"
        "\n"
        "Codes raised by the Ollama native `/api/chat` / `/api/generate` adapter\n"
        "(`ssescope.providers.ollama`). The adapter also raises `json.invalid` and\n"
        '`provider.error` (shared codes). The line with `"done": true` is Ollama\'s only end marker.\n'
    ),
)

MISSING_DONE = Code(
    "ollama.missing-done",
    "warning",
    "provider",
    PAGE,
    'The stream ended without a "done": true line, Ollama\'s only end marker; the reply may be cut off.',
    (
        '- **Means:** the body ended without a `"done": true` line (and without an error line). The\n'
        "  reply was probably cut off; the response status stays `truncated`.\n"
        '- **Example:** `{"response":"Once","done":false}` as the last line.\n'
        "- **What to do:** check for a dropped connection, a proxy timeout, or a client that stopped\n"
        "  reading; retry.\n"
    ),
)

CONNECTION_CLOSED = Code(
    "ollama.connection-closed",
    "warning",
    "provider",
    PAGE,
    "The final line has an empty done_reason: Ollama's runner connection closed before the model finished, so the reply may be cut off.",
    (
        "- **Means:** the final line has an empty `done_reason`: the server's connection to its\n"
        '  model runner closed before the model finished. The finish reason is `other` (raw `""`)\n'
        "  and the response ends as `incomplete`.\n"
        '- **Example:** `{"response":"","done":true,"done_reason":""}`\n'
        "- **What to do:** look at the Ollama server log (runner crash, out of memory, model\n"
        "  unloaded); retry.\n"
    ),
)

MODEL_MANAGEMENT = Code(
    "ollama.model-management",
    "info",
    "provider",
    PAGE,
    "done_reason {raw_text!q}: this reply only reports a model {raw_text}; nothing was generated.",
    (
        "- **Means:** `done_reason` is `load` or `unload`: the reply only reports that a model was\n"
        "  loaded or unloaded (a request with an empty prompt or `keep_alive: 0`); nothing was\n"
        "  generated. Finish reason `other`, status `completed`.\n"
        '- **Example:** `{"model":"qwen3:8b","response":"","done":true,"done_reason":"load"}`\n'
        "- **What to do:** nothing, unless text was expected: then the request had no prompt or\n"
        "  messages.\n"
    ),
    content=("raw_text",),
)

MISSING_DONE_REASON = Code(
    "ollama.missing-done-reason",
    "info",
    "provider",
    PAGE,
    "The final line has no done_reason (older servers did not send one); the response is taken as completed.",
    (
        '- **Means:** the final `"done": true` line has no `done_reason` (older servers did not send\n'
        "  one). The response is taken as completed, without a finish reason.\n"
        '- **Example:** `{"response":"ok","done":true}`\n'
        "- **What to do:** nothing; upgrade the server to see why generation stopped.\n"
    ),
)

INVALID_TOOL_CALL = Code(
    "ollama.invalid-tool-call",
    "warning",
    "provider",
    PAGE,
    "A tool call is not an object: {call!q}; it is skipped.",
    (
        "- **Means:** an entry of `message.tool_calls` is not an object; it is skipped.\n"
        '- **Example:** `{"message":{"tool_calls":["get_time"]},"done":false}`\n'
        "- **What to do:** the stream did not come from Ollama itself; check the proxy.\n"
    ),
    content=("call",),
)

UNEXPECTED_JSON = unexpected_json(PAGE, "a response line", "[1]", "an Ollama stream", unit="line")

ERROR = provider_error(PAGE, "Ollama reported an error inside the stream: {text!q:200}.")
"""This provider's form of ``provider.error``."""

TOOL_CALLS_UNDER_STOP = Form(
    shared.TOOL_CALLS_UNDER_STOP,
    "ollama",
    "The done line (record {record}) itself carries tool calls, with done_reason 'stop': clients that take tool calls only from the lines before done: true, or that stop reading at done: true with done_reason 'stop', drop them.",
)
"""This provider's form of ``tool.calls-under-stop``."""
