"""The diagnostic codes documented on ``docs/diagnostics/gemini.md``."""

from __future__ import annotations

from ...codes.per_provider import provider_error
from ...codes.spec import Code, Page

PAGE = Page(
    "gemini",
    (
        "# Gemini diagnostics\n"
        "\n"
        "Codes raised by the Gemini / Vertex AI `streamGenerateContent` adapter\n"
        "(`ssescope.providers.gemini`). The adapter also raises `json.invalid` and `provider.error`\n"
        "(shared codes). Gemini has no end event: the chunk that gives every candidate its\n"
        "`finishReason` ends the response.\n"
    ),
)

NO_FINISH_REASON = Code(
    "gemini.no-finish-reason",
    "warning",
    "provider",
    PAGE,
    "The stream ended before candidate {which} got a finishReason; Gemini sends no other end marker, so the reply may be cut off.",
    (
        "- **Means:** the body ended before some candidate got a `finishReason`, and no error\n"
        "  arrived. Gemini sends no other end marker, so the reply was probably cut off (the\n"
        "  response status stays `truncated`).\n"
        '- **Example:** `data: {"candidates":[{"content":{"parts":[{"text":"Part one"}]}}]}` and\n'
        "  then the end of the body.\n"
        "- **What to do:** check for a dropped connection, a proxy timeout or a client that stopped\n"
        "  reading; retry the request.\n"
    ),
)

PROMPT_BLOCKED = Code(
    "gemini.prompt-blocked",
    "warning",
    "provider",
    PAGE,
    "The prompt was blocked before any candidate was generated: blockReason {reason!q}{extra}.",
    (
        "- **Means:** the prompt itself was blocked (`promptFeedback.blockReason`) and no\n"
        "  candidate was generated. The output gets finish reason `content_filter` (raw value: the\n"
        "  block reason) and the response ends as `incomplete`.\n"
        '- **Example:** `data: {"promptFeedback":{"blockReason":"PROHIBITED_CONTENT"}}`\n'
        "- **What to do:** rephrase the prompt or review the request's `safetySettings`.\n"
    ),
    content=("reason",),
)

TOOL_CALL_FAILED = Code(
    "gemini.tool-call-failed",
    "error",
    "provider",
    PAGE,
    "Candidate {output} finished with {raw_text}: the model produced a tool call the API rejected{extra}.",
    (
        "- **Means:** a candidate finished with `MALFORMED_FUNCTION_CALL`, `UNEXPECTED_TOOL_CALL`\n"
        "  or `TOO_MANY_TOOL_CALLS`: the model produced a tool call the API rejected. The finish\n"
        "  reason is `error` and the response ends as `failed`; `finishMessage` is quoted when sent.\n"
        '- **Example:** `{"candidates":[{"finishReason":"MALFORMED_FUNCTION_CALL","finishMessage":"Malformed function call: ..."}]}`\n'
        "- **What to do:** simplify the tool schemas, check `toolConfig` (e.g. a forced call with no\n"
        "  matching tool), or retry.\n"
    ),
)

UNTERMINATED_FUNCTION_CALL = Code(
    "gemini.unterminated-function-call",
    "warning",
    "provider",
    PAGE,
    "The streamed function call {name!q} of candidate {output} never got its empty functionCall {{}} terminator before {why}; it is reported unfinished.",
    (
        "- **Means:** a call whose arguments were streamed (Gemini 3 `partialArgs`) never got its\n"
        "  empty `functionCall: {}` terminator before another call started, its candidate finished,\n"
        "  an error arrived or the body ended. The call is reported with `complete=False`, holding\n"
        "  the arguments built so far.\n"
        '- **Example:** `{"functionCall":{"name":"search","willContinue":true}}`, a fragment with\n'
        '  `willContinue:true`, then `"finishReason":"STOP"`.\n'
        "- **What to do:** treat the call as unusable; re-run the request. If it happens often,\n"
        "  disable streamed function-call arguments.\n"
    ),
    content=("name",),
)

FUNCTION_CALL_END_INFERRED = Code(
    "gemini.function-call-end-inferred",
    "info",
    "provider",
    PAGE,
    "The streamed call {name!q} got a fragment without willContinue and no empty functionCall {{}} terminator; the fragment is read as the end of the call.",
    (
        "- **Means:** a streamed call got a `partialArgs` fragment without `willContinue` and no\n"
        "  empty terminator followed; that fragment is read as the end of the call, which is\n"
        "  reported complete (this is what real Vertex captures do). A strict reader would call the\n"
        "  call unfinished.\n"
        '- **Example:** `{"functionCall":{"partialArgs":[{"jsonPath":"$.price","numberValue":0.3}]}}`\n'
        "  as the last fragment, then `finishReason: STOP`.\n"
        "- **What to do:** nothing, usually; check the arguments if the call looks short.\n"
    ),
    content=("name",),
)

INVALID_PARTIAL_ARGS = Code(
    "gemini.invalid-partial-args",
    "warning",
    "provider",
    PAGE,
    {
        "fragment": "A partialArgs fragment is skipped because {why}: {fragment!q}.",
        "not-a-list": "partialArgs is not a list: {partial!q}; it is skipped.",
    },
    (
        "- **Means:** a `partialArgs` fragment could not be applied and was skipped: it is not an\n"
        "  object, has no `jsonPath`, its path is not a JSONPath (`$.a.b[0]`, `$['key']`), it\n"
        "  carries no value, or its path contradicts what was built (an index into an object, a key\n"
        "  through a string).\n"
        '- **Example:** `{"jsonPath":"items[0]","stringValue":"x"}` (no leading `$`).\n'
        "- **What to do:** the call's arguments are missing that value; compare with the raw record.\n"
    ),
    content=("fragment", "partial"),
)

ORPHAN_PARTIAL_ARGS = Code(
    "gemini.orphan-partial-args",
    "warning",
    "provider",
    PAGE,
    "Function-call argument fragments arrived without a call that names the function; they are kept in a call without a name.",
    (
        "- **Means:** argument fragments arrived while no streamed call was open (no\n"
        "  `{name, willContinue:true}` start). They are collected into a call without a name.\n"
        '- **Example:** `{"functionCall":{"partialArgs":[{"jsonPath":"$.a","stringValue":"1"}],"willContinue":true}}`\n'
        "  as the first function-call part.\n"
        "- **What to do:** the start of the call was lost (a cut or a reordered stream); retry.\n"
    ),
)

STRAY_FUNCTION_CALL_END = Code(
    "gemini.stray-function-call-end",
    "info",
    "provider",
    PAGE,
    "An empty functionCall {{}} arrived with no streamed call open; it is ignored.",
    (
        "- **Means:** an empty `functionCall: {}` terminator arrived with no streamed call open; it\n"
        "  is ignored.\n"
        '- **Example:** `{"candidates":[{"content":{"parts":[{"functionCall":{}}]}}]}` with nothing before.\n'
        "- **What to do:** nothing; it is harmless.\n"
    ),
)

INVALID_FUNCTION_CALL = Code(
    "gemini.invalid-function-call",
    "warning",
    "provider",
    PAGE,
    "A functionCall part is not an object: {call!q}; it is skipped.",
    (
        "- **Means:** a part's `functionCall` is not an object; the part is skipped.\n"
        '- **Example:** `{"functionCall":"get_weather"}`\n'
        "- **What to do:** the producer of the stream is not Gemini-conformant; check the proxy.\n"
    ),
    content=("call",),
)

INLINE_DATA = Code(
    "gemini.inline-data",
    "info",
    "provider",
    PAGE,
    {
        "inline": "Candidate {output} carried inline data of type {mime!q} (about {max} bytes); it is not text and is not shown.",
        "file": "Candidate {output} referred to a file of type {mime!q} at {uri!q}; it is not text and is not shown.",
    },
    (
        "- **Means:** a part carried inline binary data (`inlineData`, e.g. an image) or a file\n"
        "  reference (`fileData`). It is never turned into text; the message gives its type and\n"
        "  approximate size. Inline audio (`audio/*`) is reported as audio instead.\n"
        '- **Example:** `{"inlineData":{"mimeType":"image/png","data":"iVBORw0..."}}`\n'
        "- **What to do:** nothing; read the raw record if the bytes are needed.\n"
    ),
    content=("mime", "uri"),
)

UNEXPECTED_DONE = Code(
    "gemini.unexpected-done",
    "info",
    "provider",
    PAGE,
    "A '[DONE]' marker arrived; Gemini itself sends none (a proxy added it), so it is ignored.",
    (
        "- **Means:** a `[DONE]` record arrived. Gemini sends none; a proxy or gateway added it.\n"
        "  It is ignored.\n"
        "- **Example:** `data: [DONE]`\n"
        "- **What to do:** nothing; note that the stream went through an intermediary.\n"
    ),
)

UNEXPECTED_JSON = Code(
    "gemini.unexpected-json",
    "warning",
    "provider",
    PAGE,
    {
        "record": "Record {record} is JSON but not a response object: {value!q}; it is skipped.",
        "candidates": "'candidates' is not a list: {candidates!q}; it is skipped.",
    },
    (
        "- **Means:** a record is valid JSON but not a response object (a number, a string), or\n"
        "  its `candidates` is not a list; it is skipped.\n"
        "- **Example:** `data: 42`\n"
        "- **What to do:** check that the body really is a Gemini stream (`--provider`).\n"
    ),
    content=("candidates", "value"),
)

ERROR = provider_error(PAGE, "Gemini reported an error{label}: {text!q:200}.")
"""This provider's form of ``provider.error``."""
