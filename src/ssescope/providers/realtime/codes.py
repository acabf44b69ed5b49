"""The diagnostic codes documented on ``docs/diagnostics/realtime.md``."""

from __future__ import annotations

from ... import codes as shared
from ...codes.per_provider import provider_error, unexpected_json
from ...codes.spec import Code, Form, Page

PAGE = Page(
    "realtime",
    (
        "# OpenAI Realtime diagnostics\n"
        "\n"
        "Codes raised by the OpenAI Realtime adapter (`ssescope.providers.realtime`). The adapter\n"
        "also raises `json.invalid` and `provider.error` (shared codes). `response.done` is sent\n"
        "for every response, whatever happened, and its `response.status` decides the verdict;\n"
        "a translation session ends with `session.closed`.\n"
    ),
)

MISSING_RESPONSE_DONE = Code(
    "realtime.missing-response-done",
    "warning",
    "provider",
    PAGE,
    {
        "response": "The stream ended after response.created without response.done; the response is cut off.",
        "session": "The translation session's stream ended without session.closed; it is cut off.",
    },
    (
        "- **Means:** a response was created (`response.created`) but its `response.done`, which\n"
        "  the server sends for every response whatever happened, never came. The status stays\n"
        "  `truncated`. A translation session (`session.input_transcript.delta`,\n"
        "  `session.output_transcript.delta`) ends with `session.closed` instead, and is reported\n"
        "  the same way without it.\n"
        '- **Example:** `{"type":"response.created","event_id":"e1","response":{"id":"r1"}}` as\n'
        "  the last server message.\n"
        "- **What to do:** check how the connection ended (the close code) and retry; a client\n"
        "  that reports success here reports a cut reply.\n"
    ),
)

STATUS_WITHOUT_DETAILS = Code(
    "realtime.status-without-details",
    "warning",
    "provider",
    PAGE,
    "response.done has status {status!q} but no status_details: the reason is not known.",
    (
        "- **Means:** `response.done` says the response did not complete (`incomplete`,\n"
        "  `cancelled` or `failed`) but carries no `status_details`, so neither the reason\n"
        "  (`max_output_tokens`, `content_filter`, `turn_detected`, `client_cancelled`) nor the\n"
        "  error is known. The verdict follows the status.\n"
        '- **Example:** `{"type":"response.done","response":{"status":"incomplete","status_details":null}}`\n'
        "- **What to do:** look at the output items' own status and the session's settings\n"
        "  (`max_output_tokens`); the server did not say.\n"
    ),
)

UNKNOWN_STATUS = Code(
    "realtime.unknown-status",
    "warning",
    "provider",
    PAGE,
    "response.done has status {status!q}, not one of completed, cancelled, incomplete, failed; the response is taken as incomplete.",
    (
        "- **Means:** the status of `response.done` is missing or not one the protocol defines.\n"
        "  The response ended, so it is not truncated; it is reported as `incomplete`.\n"
        '- **Example:** `{"type":"response.done","response":{"status":"in_progress"}}`\n'
        "- **What to do:** check the server or gateway that wrote the event.\n"
    ),
    content=("status",),
)

SESSION_ERROR = Code(
    "realtime.session-error",
    "warning",
    "provider",
    PAGE,
    "An error event outside a response ({error_type}: {text!q:200}); the session went on.",
    (
        "- **Means:** the server sent an `error` event while no response was in progress (a\n"
        "  client event it refused, such as `response.cancel` with no active response). Realtime\n"
        "  errors are not terminal by themselves: the responses around it keep their verdicts.\n"
        "  A stream whose only outcome is such an error is `failed`.\n"
        '- **Example:** `{"type":"error","event_id":"e9","error":{"type":"invalid_request_error","code":"response_cancel_not_active","message":"…"}}`\n'
        "- **What to do:** the error's `event_id` names the client event that caused it; fix that\n"
        "  event. Do not tear the session down for it.\n"
    ),
    content=("text",),
)

TRANSCRIPTION_FAILED = Code(
    "realtime.transcription-failed",
    "warning",
    "provider",
    PAGE,
    "The transcription of input audio item {item!q} failed: {text!q:200}.",
    (
        "- **Means:** `conversation.item.input_audio_transcription.failed`: the user's speech was\n"
        "  not transcribed. The model's response is not affected.\n"
        '- **Example:** `{"type":"conversation.item.input_audio_transcription.failed","item_id":"i1","error":{"message":"…"}}`\n'
        "- **What to do:** check the input audio format and the transcription model setting.\n"
    ),
    content=("text",),
)

RATE_LIMIT_REACHED = Code(
    "realtime.rate-limit-reached",
    "warning",
    "provider",
    PAGE,
    "rate_limits.updated: no {name} left (limit {limit}, resets in {reset_s} s).",
    (
        "- **Means:** a `rate_limits.updated` event says a limit has nothing left (`remaining`\n"
        "  0): the next response will be refused until it resets.\n"
        '- **Example:** `{"type":"rate_limits.updated","rate_limits":[{"name":"tokens","limit":1000,"remaining":0,"reset_seconds":3.2}]}`\n'
        "- **What to do:** wait `reset_seconds` before the next `response.create`.\n"
    ),
)

INVALID_FIELD = Code(
    "realtime.invalid-field",
    "warning",
    "provider",
    PAGE,
    "{etype} has a {field} that is not {expected}: {value!q}; it is skipped.",
    (
        "- **Means:** a field of an event has an impossible type (a delta that is not a string,\n"
        "  a response that is not an object); that part of the event is skipped.\n"
        '- **Example:** `{"type":"response.output_text.delta","delta":42}`\n'
        "- **What to do:** check the server or gateway that wrote the event.\n"
    ),
    content=("value",),
)

UNEXPECTED_JSON = unexpected_json(
    PAGE,
    "an event object",
    "[1]",
    "a Realtime session",
    unit="server message",
    body="capture",
)

ERROR = provider_error(
    PAGE, "OpenAI Realtime reported an error during the response ({error_type}): {text!q:200}."
)
"""This provider's form of ``provider.error``."""

FAILED = Form(
    shared.PROVIDER_ERROR,
    "realtime-failed",
    "response.done has status failed ({error_type}, code {error_code}).",
)
"""The form of ``provider.error`` for the error in a failed ``response.done``."""
