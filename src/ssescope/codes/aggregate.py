"""The diagnostic codes documented on ``docs/diagnostics/aggregate.md``."""

from __future__ import annotations

from .spec import Code, Page

__all__ = [
    "CONTENT_CUMULATIVE_DELTAS",
    "CONTENT_THINK_TAG_IN_TEXT",
    "JSON_INVALID",
    "JSON_NON_FINITE_NUMBER",
    "JSON_TOO_DEEP",
    "PROVIDER_ERROR",
    "PROVIDER_UNKNOWN_EVENT",
    "SNAPSHOT_MISMATCH",
    "STREAM_CONTRADICTORY_TERMINAL",
    "STREAM_DIAGNOSTICS_CAPPED",
    "STREAM_DONE_WITHOUT_FINISH",
    "STREAM_EMPTY",
    "STREAM_EVENTS_AFTER_TERMINAL",
    "STREAM_HTML_PAGE",
    "STREAM_MEMORY_CAPPED",
    "STREAM_MISSING_DONE",
    "STREAM_MULTIPLE_RESPONSES",
    "STREAM_NOT_STREAMED",
    "STREAM_PLAIN_TEXT",
    "TIMING_BURST",
    "TIMING_STALL",
    "TOOL_ARGUMENTS_TOO_DEEP",
    "TOOL_CALLS_UNDER_STOP",
    "TOOL_CONFLICTING_NAME",
    "TOOL_EMPTY_ARGUMENTS",
    "TOOL_EMPTY_ARGUMENTS_REQUIRED",
    "TOOL_FINE_GRAINED_STREAMING",
    "TOOL_INCOMPLETE",
    "TOOL_INVALID_ARGUMENTS",
    "TOOL_MISSING_INDEX",
    "TOOL_NOT_OFFERED",
    "TOOL_SCHEMA_MISMATCH",
    "TOOL_SCHEMA_UNCHECKED",
    "USAGE_INVALID_VALUE",
    "USAGE_MISSING",
]

PAGE = Page(
    "aggregate",
    (
        "## Assembly, status and timing\n"
        "\n"
        "These codes come from the aggregator (which folds unified events into the Report), the\n"
        "shared JSON decoding of the provider layer, and the timing analysis. They mean the same\n"
        "thing whatever the provider.\n"
    ),
)

JSON_INVALID = Code(
    "json.invalid",
    "error",
    "framing",
    PAGE,
    "Record {record} is not valid JSON ({reason}{where}): {data!q}; it is kept with its raw text{length} and the stream goes on.",
    (
        "- **Meaning:** a record's data is not valid JSON. The record is kept with its raw text\n"
        "  and byte offset, counted under `records.invalid`, and the records after it are still\n"
        "  processed.\n"
        '- **Example:** `data: {"choices": [{"delta": {"content": "Hi"}]\\n\\n` (a bracket missing).\n'
        "- **What to do:** look at the raw text in the diagnostic. A proxy that re-chunks or\n"
        "  rewrites the stream, a server that writes two JSON objects into one `data:` line, or\n"
        "  a capture whose line endings were changed by copy-paste are the usual causes.\n"
    ),
    content=("data",),
    invalidates=True,
)

TOOL_INCOMPLETE = Code(
    "tool.incomplete",
    "error",
    "aggregate",
    PAGE,
    {
        "unparsed": "Tool call {label} ({name!r}) never ended: the stream stopped after {n_arguments} characters of arguments {arguments!q:40}; its input is left unparsed.",
        "parses": "Tool call {label} ({name!r}) never ended: its {n_arguments} characters of arguments {arguments!q:40} parse as a JSON object, but the stream never confirmed the end; its input is left out.",
    },
    (
        "- **Meaning:** a tool call was started but the protocol never said it ended (no\n"
        "  `content_block_stop`, no finish reason for the choice, no `.done` event). Its arguments\n"
        "  are reported exactly as far as they arrived, and `input` is `null`: they are never\n"
        '  "repaired" into valid JSON. The form `parses` says that what arrived already parses\n'
        "  as a whole JSON object (a parallel call cut after its last fragment, before the\n"
        "  stream said the calls were done): it may be whole, or an object whose later keys\n"
        "  never came; only the end marker would tell.\n"
        "- **Where:** the call's last record and the byte where the body ended (not the record\n"
        "  where the call began, which is usually valid).\n"
        "- **Example:** an Anthropic stream that stops with `max_tokens` in the middle of an\n"
        "  `input_json_delta`.\n"
        "- **What to do:** do not execute the call. Raise the output token limit, or retry.\n"
    ),
    content=("arguments",),
)

TOOL_INVALID_ARGUMENTS = Code(
    "tool.invalid-arguments",
    "error",
    "aggregate",
    PAGE,
    "The arguments of tool call {label} ({name!r}) are not valid JSON ({error}): {arguments!q}. They are kept as sent, not repaired.",
    (
        "- **Meaning:** a call ended, but its concatenated arguments do not parse as JSON. The\n"
        "  message names the parse error and its position; `arguments` keeps the raw string and\n"
        "  `error` holds the parse error.\n"
        "- **Where:** the call's last record (its last fragment, or the end event that closed it).\n"
        '- **Example:** fragments `{"city": ` and `"Paris"` followed by the finish reason: the\n'
        "  closing `}` never came.\n"
        "- **What to do:** the model (or a tool-call parser on the server) produced malformed\n"
        "  arguments; do not execute the call. If fragments look duplicated or out of order, check\n"
        "  whether a client library keyed the fragments wrongly.\n"
    ),
    content=("arguments",),
)

TOOL_CONFLICTING_NAME = Code(
    "tool.conflicting-name",
    "warning",
    "aggregate",
    PAGE,
    {
        "not-a-string": "A fragment of tool call {call!r} gives a name that is not a string: {name!q}; it is ignored.",
        "renamed": "Tool call {call!r} was named {name!r}, and a later fragment names it {name2!r}; the first name is kept (names are never concatenated).",
    },
    (
        "- **Meaning:** a later fragment of a tool call gave a different name (or a name that is\n"
        "  not a string) than the first one. The first non-empty name is kept; names are never\n"
        "  concatenated (naive accumulators produce `get_weatherget_weather`).\n"
        '- **Example:** `{"index":0,"function":{"name":"a"}}` then `{"index":0,"function":{"name":"b"}}`.\n'
        "- **What to do:** the server reuses an index for different calls or repeats names\n"
        "  inconsistently; key calls by id.\n"
    ),
    content=("name",),
)

SNAPSHOT_MISMATCH = Code(
    "snapshot.mismatch",
    "warning",
    "aggregate",
    PAGE,
    {
        "text": "The {field} snapshot in record {record} is {snapshot!q:40} ({n_snapshot} chars) but the deltas built {built!q:40} ({n_built} chars); the {keep} {verb} kept.",
        "tool-arguments": "The arguments snapshot of tool call {label} is {snapshot!q:40} but the fragments built {arguments!q:40}; the {kept} are kept.",
    },
    (
        "- **Meaning:** a complete value the protocol restated (a Responses `*.done` event,\n"
        "  `output_item.done`, a `.done` arguments snapshot) differs from what the deltas built.\n"
        "  The snapshot wins only if it is not shorter than the deltas (a proxy that sends an\n"
        "  early or empty snapshot does not erase the reply).\n"
        "- **Example:** deltas build `Hello world`, then `response.output_text.done` says `Hello`.\n"
        "- **What to do:** something between the model and you dropped or duplicated deltas, or\n"
        "  sent the snapshot early. Compare the two values in the message.\n"
    ),
    content=("arguments", "built", "snapshot"),
)

USAGE_MISSING = Code(
    "usage.missing",
    "info",
    "aggregate",
    PAGE,
    {
        "ask": "The response reported no token usage (it is sent when the request sets {field}); none is estimated.",
        "unasked": "The response reported no token usage; none is estimated.",
    },
    (
        "- **Meaning:** the response ended cleanly but reported no token usage. ssescope never\n"
        "  estimates usage. For a protocol that sends usage only when the request asks for it\n"
        "  (OpenAI Chat Completions and the servers compatible with it), the message names the\n"
        "  request field (`field`); for the others, usage was expected unasked.\n"
        "- **Example:** an OpenAI Chat stream requested without `stream_options.include_usage`.\n"
        '- **What to do:** ask for usage in the request (`stream_options: {"include_usage": true}`);\n'
        "  for another provider, the server or a gateway in between dropped it.\n"
    ),
)

STREAM_EVENTS_AFTER_TERMINAL = Code(
    "stream.events-after-terminal",
    "warning",
    "aggregate",
    PAGE,
    "Content arrived in record {record} after the terminal marker ({status}: {status_reason}); it is kept, but a client that stops at the marker never sees it.",
    (
        "- **Meaning:** content arrived after the protocol's terminal marker (`[DONE]`,\n"
        "  `message_stop`, `response.completed`) without a new response starting. It is kept in\n"
        "  the Report, but a client that stops reading at the marker never sees it.\n"
        '- **Example:** `data: [DONE]\\n\\ndata: {"choices":[{"delta":{"content":"late"}}]}\\n\\n`.\n'
        "- **What to do:** the server or a proxy appended data after the end; report it upstream.\n"
    ),
)

STREAM_CONTRADICTORY_TERMINAL = Code(
    "stream.contradictory-terminal",
    "warning",
    "provider",
    PAGE,
    {
        "status": "Record {record} is a {event!r} event but its response.status is {stated!r}; the status it states wins: the response is {status}.",
        "stop-reason": "Record {record}, the message_stop, states the stop_reason {stated!r} but the message_delta said {said!r}; the message_stop's wins: the response is {status}.",
        "open-call": "Record {record} ends the {what} with {reason!r}, a natural stop, while its function call {name!r} was still in progress (it said more would come); the response is {status}, the call unfinished.",
        "error": "Record {record} ends the message with the finish reason {reason!r} but also carries an error; the error wins: the response is {status}.",
    },
    (
        "- **Meaning:** a terminal event says one thing and its own fields another. What the\n"
        "  payload states wins, and this warning names both:\n"
        "  - form `status`: a Responses API `response.completed` whose `response.status` is\n"
        '    `"incomplete"` or `"failed"` (or a `response.incomplete` / `response.failed` whose\n'
        "    status says otherwise); the status decides the verdict, the finish reason and the\n"
        "    error;\n"
        "  - form `stop-reason`: an Anthropic `message_stop` that carries its own `stop_reason`,\n"
        "    different from the one `message_delta` sent; the `message_stop`'s is taken;\n"
        "  - form `open-call`: a Gemini `finishReason: STOP` while a streamed function call is\n"
        "    in progress (its last fragment said `willContinue: true`, and no empty\n"
        "    `functionCall: {}` ended it); the response is `incomplete` and the call unfinished;\n"
        "  - form `error`: a Cohere `message-end` whose `finish_reason` is not `ERROR` (or\n"
        "    `TIMEOUT`) but which carries an `error`; the response is `failed` with it.\n"
        '- **Example:** `data: {"type":"response.completed","response":{"status":"incomplete",\n'
        '  "incomplete_details":{"reason":"max_output_tokens"},…}}`: `incomplete`, finish\n'
        "  `length`, not `completed` / `stop`.\n"
        "- **What to do:** the server (often a third-party implementation of the protocol) sent\n"
        "  the wrong event type or stopped a call it had not finished; report it upstream. A\n"
        "  client that trusts the event type alone takes a cut or failed reply for a whole one.\n"
    ),
)

STREAM_MULTIPLE_RESPONSES = Code(
    "stream.multiple-responses",
    "info",
    "aggregate",
    PAGE,
    "The capture holds {n_reports} responses back to back; each is reported under 'responses' and the top-level fields describe the last one.",
    (
        "- **Meaning:** the capture holds several responses back to back (a new\n"
        "  `response.created`, `message_start` or chunk id after a terminal marker). Each is\n"
        "  reported under `responses`; the top-level fields describe the last one.\n"
        "- **Example:** a multi-step agent run saved into one file.\n"
        "- **What to do:** nothing, if it was intended; otherwise split the capture.\n"
    ),
)

PROVIDER_UNKNOWN_EVENT = Code(
    "provider.unknown-event",
    "info",
    "aggregate",
    PAGE,
    "{n_records} record(s) of the unknown type {event_type!q} were passed over (first in record {record}).",
    (
        "- **Meaning:** records of a type the adapter does not know were passed over; one\n"
        "  diagnostic per type, with the count and the first record.\n"
        "- **Example:** `event: thread.run.step.delta` in a Chat Completions stream.\n"
        "- **What to do:** usually nothing (new event types appear over time). If the type\n"
        "  carries content you expected in the reply, the provider may have changed its format.\n"
    ),
    content=("event_type",),
)

CONTENT_THINK_TAG_IN_TEXT = Code(
    "content.think-tag-in-text",
    "warning",
    "aggregate",
    PAGE,
    {
        "tag": "The text of output {index} contains a {tag} tag: reasoning leaked into the answer (the server did not split it into a reasoning field).",
        "closing-only": "The text of output {index} contains a closing {tag} tag with no opening one: the reasoning before it leaked into the answer (the chat template put the opening tag in the prompt, and the server did not split the reasoning out).",
    },
    (
        "- **Meaning:** the reply text contains a tag reasoning models wrap their reasoning in:\n"
        "  `<think>` / `</think>`, `<thinking>`, `<reasoning>`, or Cohere's\n"
        "  `<|START_THINKING|>` / `<|END_THINKING|>`. Reasoning leaked into the answer because\n"
        "  the server did not split it into a reasoning field. The assembled text is searched, so\n"
        "  a tag split across records is found too. A closing tag with no opening one (form\n"
        "  `closing-only`) means the chat template wrote the opening tag into the prompt: the text\n"
        "  before the closing tag is the reasoning.\n"
        "- **Example:** a DeepSeek-R1 model served without a reasoning parser.\n"
        "- **What to do:** enable the server's reasoning parser (e.g. vLLM `--reasoning-parser`),\n"
        "  or strip the block client-side.\n"
    ),
)

CONTENT_CUMULATIVE_DELTAS = Code(
    "content.cumulative-deltas",
    "warning",
    "aggregate",
    PAGE,
    "The {n_pieces} text deltas of output {index} each repeat the text so far: a gateway sent the accumulated text as each delta. Concatenated they read {text!q:60}; without the repeats, {deduplicated!q:60} (the output's deduplicated_text).",
    (
        "- **Meaning:** every non-empty text delta of a part of the output starts with the one\n"
        "  before it and adds to it (three deltas or more): the server, or a gateway in front\n"
        "  of it, sends the text so far as each delta instead of the new piece. Appended, as the\n"
        "  protocol says and as `text` keeps them, they repeat themselves; the output's\n"
        "  `deduplicated_text` gives the reading without repeats (each such part's last delta).\n"
        "- **Example:** deltas `Hello!`, `Hello! How`, `Hello! How can I help?` give the text\n"
        "  `Hello!Hello! HowHello! How can I help?`; `deduplicated_text` is\n"
        "  `Hello! How can I help?`.\n"
        "- **What to do:** fix the gateway (it should send only the new text of each chunk), or\n"
        "  read the last delta instead of appending them.\n"
    ),
    content=("deduplicated", "text"),
)

TIMING_STALL = Code(
    "timing.stall",
    "warning",
    "timing",
    PAGE,
    {
        "gap": "Nothing arrived for {gap:.3f} s before record {record} (threshold {stall_s:g} s).",
        "tail": "Nothing arrived for {tail:.3f} s after record {record} until the end of the body (threshold {stall_s:g} s).",
        "aborted": "Nothing arrived for {wait} after byte {byte_offset} ({time:.3f} s into the response); the client aborted the stream.",
        "content-gap": "No content arrived for {gap:.3f} s before record {record}, while {records} other records (keep-alives, pings, lifecycle events) kept the bytes flowing (threshold {stall_s:g} s).",
        "content-tail": "No content arrived for {gap:.3f} s after the last content until the end of the body, while {records} other records (keep-alives, pings, lifecycle events) kept the bytes flowing; the last was record {record} (threshold {stall_s:g} s).",
        "content-aborted": "No content arrived for {wait} ({time:.3f} s into the response, at byte {byte_offset}) while {records} other records (keep-alives, pings, lifecycle events) kept the bytes flowing; the client aborted the stream.",
    },
    (
        "- **Meaning:** the stream went silent for longer than the stall threshold: 10 s\n"
        "  anywhere, and once content has begun, 20 times the stream's median gap between\n"
        "  content records, at least 2 s (`TimingOptions`; `--stall` in `request`; see\n"
        "  docs/timing.md). `stall_s` is the threshold that applied. Its `kind` argument says\n"
        "  which silence:\n"
        "  `bytes` when no record arrived at all (between two records, or after the last one\n"
        "  until the body ended), `content` when records kept arriving but none carried\n"
        "  content (text, reasoning, refusal, tool-call arguments, the terminal event): a\n"
        "  proxy's `: keep-alive` comments and a provider's `ping` events keep the bytes\n"
        "  flowing while the model is silent, the spinner that never stops. A silence already\n"
        "  reported as `bytes` is not reported again as `content`. The Report's\n"
        "  `timing.max_gap_s` and `timing.max_content_idle_s` give the longest of each.\n"
        "  Only reported when the source has arrival times; a silence after the terminal marker\n"
        "  that the live client closed is `stream.open-after-finish` instead. When the live client\n"
        "  (`ssescope request --stall`, or the adapters' `stall=`) aborted the stream because of\n"
        "  it, the form is `aborted` (or `content-aborted`) and the response is `truncated`.\n"
        "- **Example:** a capture with a 15 s pause before the first token; or `: keep-alive`\n"
        "  comments every second for 30 s after the last text delta.\n"
        "- **What to do:** the model or a proxy stalled; compare with the first-byte time to see\n"
        "  where the wait happened. A `content` stall is upstream of whatever sent the\n"
        "  keep-alives (the model, or the provider's queue), not the network.\n"
    ),
)

TIMING_BURST = Code(
    "timing.burst",
    "warning",
    "timing",
    PAGE,
    "{count} records arrived within {window_ms:g} ms after a {wait:.3f} s wait (from record {record}): something between the server and here buffered the stream and flushed it at once.",
    (
        "- **Meaning:** many records (8 or more) arrived within a millisecond right after a long\n"
        "  wait: something between the server and the client buffered the stream and flushed it\n"
        "  at once. Time to first token measured through it is meaningless.\n"
        "- **Example:** a reverse proxy with response buffering on (`proxy_buffering on` in nginx).\n"
        "- **What to do:** turn off buffering for streaming routes (`X-Accel-Buffering: no`,\n"
        "  `proxy_buffering off`, no gzip on `text/event-stream`).\n"
    ),
)

STREAM_MISSING_DONE = Code(
    "stream.missing-done",
    "warning",
    "aggregate",
    PAGE,
    {
        "next-response": "Response {id!q} finished but no `data: [DONE]` came before the next response {cid!q}; it is reported as truncated.",
        "empty": "The stream ended without any chunk and without `data: [DONE]`.",
        "all-finished": "Every choice got a finish_reason but the stream ended without `data: [DONE]`; the response is reported as truncated.",
        "open-choices": "The stream ended without `data: [DONE]` and before {outputs} got a finish_reason; the response is truncated.",
    },
    (
        "- **Meaning:** an SSE stream ended without `data: [DONE]`. The response is reported as\n"
        "  `truncated` even when every choice already had a finish reason, because only `[DONE]`\n"
        "  says the server finished writing (the usage chunk, for one, comes after the finish\n"
        "  chunk). Also reported when a chunk of a new response (a new `id`) arrives after every\n"
        "  choice finished but before any `[DONE]`.\n"
        '- **Example:** `data: {"choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}` and\n'
        "  then the connection closes.\n"
        "- **What to do:** the connection was cut by the server, a proxy or a client timeout. If\n"
        "  the finish reason is there, the text is probably whole but usage is likely missing;\n"
        "  otherwise retry.\n"
    ),
    content=("cid", "id"),
)

STREAM_DONE_WITHOUT_FINISH = Code(
    "stream.done-without-finish",
    "warning",
    "aggregate",
    PAGE,
    {
        "no-finish": "{marker} arrived before any finish_reason; the stream says it is done but no choice said why it stopped.",
        "some-outputs": "{marker} arrived before {outputs_phrase} got a finish_reason.",
    },
    (
        "- **Meaning:** `data: [DONE]` (or Perplexity's `chat.completion.done` chunk) arrived\n"
        "  before any choice — or before one of the choices — got a `finish_reason`. The server\n"
        "  says the stream is done but not why the reply stopped. The status is still decided by\n"
        "  the marker (`completed` when nothing else went wrong).\n"
        '- **Example:** `data: {"choices":[{"index":0,"delta":{"content":"Hal"}}]}` followed by\n'
        "  `data: [DONE]`.\n"
        "- **What to do:** some servers and proxies drop the finish chunk; treat the reply as\n"
        "  possibly cut short (several clients treat this as a truncation). Check the server or\n"
        "  gateway version.\n"
    ),
)

PROVIDER_ERROR = Code(
    "provider.error",
    "error",
    "aggregate",
    PAGE,
    {},
    (
        "- **Meaning:** the provider reported an error inside the stream, in its own shape: an\n"
        "  OpenAI-compatible chunk with a top-level `error` (OpenRouter adds\n"
        '  `finish_reason: "error"`), a vLLM chunk with `"object": "error"`, Anthropic\'s\n'
        "  `event: error`, a Responses `error` event or `response.failed`, a Gemini error object,\n"
        '  an Ollama `{"error": ...}` line, a Cohere `ERROR` finish, a Bedrock exception message,\n'
        "  a Vercel `error` part. The response's `error` holds its type, message and code, and the\n"
        "  status is `failed`.\n"
        '- **Example:** `data: {"error":{"message":"The server had an error while processing your request.","type":"server_error","param":null,"code":null}}`\n'
        "- **What to do:** read the message. Server errors and overload (`overloaded_error`, 529)\n"
        "  are worth a retry; invalid-request errors (context length, a bad tool schema) need a\n"
        "  changed request.\n"
    ),
    content=("code_text", "error", "message", "text"),
)

TOOL_MISSING_INDEX = Code(
    "tool.missing-index",
    "info",
    "aggregate",
    PAGE,
    {
        "block": "The tool input fragment of record {record} names no block index; it is added to the open tool call.",
        "choice": "Record {record}: a tool call fragment of choice {choice} has no `index`; fragments are matched by id, else to the open call.",
    },
    (
        "- **Meaning:** a `delta.tool_calls` entry has no `index` (Mistral, Gemini's\n"
        "  OpenAI-compatible endpoint). Fragments are then matched to calls by their `id`, else\n"
        "  to the open call. Reported once per choice.\n"
        '- **Example:** `{"tool_calls":[{"id":"gSIMJiOkT","function":{"name":"weather","arguments":"{}"}}]}`\n'
        "- **What to do:** nothing for ssescope; a client that keys calls only by `index`\n"
        "  (openai-python's accumulator, for one) breaks on these streams.\n"
    ),
)

TOOL_EMPTY_ARGUMENTS = Code(
    "tool.empty-arguments",
    "info",
    "aggregate",
    PAGE,
    {
        "no-request": "Tool call {label} ({name!r}) ended with empty arguments {arguments!r}; they are read as {{}}, as most clients do (the request is not known, so whether the tool needs arguments cannot be told).",
        "not-required": "Tool call {label} ({name!r}) ended with empty arguments {arguments!r}; they are read as {{}}, as most clients do (the request's schema of the tool requires no property, or the tool is not among the request's).",
    },
    (
        '- **Meaning:** a call ended with empty arguments (`arguments: ""`, no fragment,\n'
        "  or only white space). Its `input` is `{}`, the reading most clients make, and `arguments`\n"
        "  stays as sent. When the request is known (an `.ssecap`, a HAR or a proxy record that\n"
        "  keeps its body) and the tool's schema requires properties, it is\n"
        "  `tool.empty-arguments-required` instead.\n"
        '- **Example:** `{"tool_calls":[{"index":0,"id":"call_1","function":{"name":"now","arguments":""}}]}`\n'
        '  then `finish_reason: "tool_calls"`.\n'
        "- **What to do:** nothing for a tool that takes no arguments. A strict client that\n"
        "  parses `arguments` as JSON fails on the empty string: read it as `{}`.\n"
    ),
    content=("arguments",),
)

TOOL_EMPTY_ARGUMENTS_REQUIRED = Code(
    "tool.empty-arguments-required",
    "warning",
    "aggregate",
    PAGE,
    "Tool call {label} ({name!r}) ended with empty arguments, but the request's schema of {name!r} requires {required}: read as {{}}, the call cannot be run as it is.",
    (
        "- **Meaning:** a call ended with empty arguments, and the request (kept by the\n"
        "  capture: an `.ssecap` request body, a HAR entry's `postData`, a proxy record)\n"
        "  declares that tool with an input schema whose `required` list is not empty. The\n"
        "  `input` is still `{}`, but it does not satisfy the schema.\n"
        '- **Example:** a request declaring `get_weather` with `required: ["city"]`, and a\n'
        '  streamed call `get_weather` whose `arguments` are `""`.\n'
        "- **What to do:** do not run the call: the model (or a gateway that dropped the\n"
        "  argument fragments) produced no arguments. Retry, or check the gateway.\n"
    ),
)

TOOL_CALLS_UNDER_STOP = Code(
    "tool.calls-under-stop",
    "warning",
    "provider",
    PAGE,
    {},
    (
        "- **Meaning:** a reply made tool calls but ended with a finish reason that says it\n"
        "  simply stopped: an OpenAI-compatible choice with tool calls and `finish_reason:\n"
        '  "stop"` (or another spelling of stop), or an Ollama `done: true` line that itself\n'
        '  carries `message.tool_calls` with `done_reason: "stop"`. The calls are kept (and\n'
        "  ended) as they came; the finish reason stays as sent.\n"
        '- **Example:** `data: {"choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}` after\n'
        "  `delta.tool_calls` fragments.\n"
        "- **What to do:** strict clients branch on the finish reason: with `stop` they show the\n"
        "  (often empty) text and never run the tools. Fix the server (it should send\n"
        '  `finish_reason: "tool_calls"`), or make the client look at the calls whatever the\n'
        "  finish reason.\n"
    ),
)

STREAM_NOT_STREAMED = Code(
    "stream.not-streamed",
    "warning",
    "provider",
    PAGE,
    "The body is one whole {what}, not a stream: the request did not ask for streaming (stream: true), or the server ignored it. Its reply is shown as it is; nothing about streaming (timing, chunking, end markers) can be judged.",
    (
        "- **Meaning:** the body is one whole response, not a stream: an OpenAI `chat.completion`\n"
        "  object, a Responses API `Response` object or an Anthropic Messages `message` object (on\n"
        "  one line or pretty-printed over several). Its reply (text, reasoning, tool calls,\n"
        "  usage, finish reason) is read from it and shown as it is, and the status reason says\n"
        '  "a whole …, not streamed"; nothing about streaming (timing, chunking, end markers) can\n'
        "  be judged.\n"
        '- **Example:** `{"object": "chat.completion", "choices": [{"message": {...}, "finish_reason": "stop"}]}`.\n'
        "- **What to do:** the request did not ask for streaming (`stream: true`), or the server\n"
        "  ignored it; send it with streaming on to capture a stream.\n"
    ),
)

STREAM_EMPTY = Code(
    "stream.empty",
    "error",
    "framing",
    PAGE,
    "The body is empty (0 bytes): nothing of a stream arrived. Check that the capture holds the response body, and whether the request succeeded.",
    (
        "- **Meaning:** the body is empty (0 bytes): nothing of a stream arrived. The status is\n"
        '  `truncated`, with the reason "the body is empty".\n'
        "- **Example:** an empty file, or a capture of a request that got no answer body.\n"
        "- **What to do:** check that the capture holds the response body, and whether the\n"
        "  request succeeded.\n"
    ),
)

STREAM_HTML_PAGE = Code(
    "stream.html-page",
    "error",
    "framing",
    PAGE,
    {
        "titled": "The body is an HTML page ({title!q:80}), not a stream: a proxy, a login wall or an error page answered instead of the model's server.",
        "untitled": "The body is an HTML page, not a stream: a proxy, a login wall or an error page answered instead of the model's server.",
    },
    (
        "- **Meaning:** no record could be framed and the body is an HTML page (its title is\n"
        "  quoted): a proxy, a login wall or a gateway's error page answered instead of the\n"
        "  model's server. The status is `failed`, with the title as the error message. (With an\n"
        "  HTTP status of 400 or more, `http.error-status` says it instead.)\n"
        "- **Example:** `<html><head><title>502 Bad Gateway</title></head>…`.\n"
        "- **What to do:** look at what answered: the URL, the proxy, the credentials.\n"
    ),
    content=("title",),
)

STREAM_PLAIN_TEXT = Code(
    "stream.plain-text",
    "error",
    "framing",
    PAGE,
    "The body is plain text, not a stream (no SSE field, no JSON): {first!q}. It is often the error a proxy or gateway wrote instead of the stream.",
    (
        "- **Meaning:** no record could be framed and the body is plain text (no SSE field, no\n"
        "  JSON); its first line is quoted. It is usually an error a proxy or gateway wrote\n"
        "  instead of the stream. The status is `failed`, with the text as the error message.\n"
        "- **Example:** `upstream connect error or disconnect/reset before headers`.\n"
        "- **What to do:** read the text: it says what went wrong on the way.\n"
    ),
    content=("first",),
)

USAGE_INVALID_VALUE = Code(
    "usage.invalid-value",
    "warning",
    "aggregate",
    PAGE,
    "The usage field {name!r} is {value!q}, not a count of tokens (a whole number, 0 or more); it is reported as not given.",
    (
        "- **Meaning:** a token-count field of the provider's usage object (a field whose name\n"
        '  holds "token") is not a whole number of 0 or more: negative, fractional, a string, a\n'
        "  boolean. The normalised field is reported as not given (`null`); the raw usage object\n"
        "  keeps the value as sent.\n"
        '- **Example:** `"usage": {"prompt_tokens": -3, "completion_tokens": 2.5}`\n'
        "- **What to do:** the server computes or encodes usage wrongly; do not bill on it.\n"
    ),
)

TOOL_ARGUMENTS_TOO_DEEP = Code(
    "tool.arguments-too-deep",
    "error",
    "aggregate",
    PAGE,
    "The arguments of tool call {label} ({name!r}) nest arrays and objects more than {depth} levels deep: {arguments!q}. They are kept as sent, not parsed.",
    (
        "- **Meaning:** a tool call's arguments are JSON nested more than 128 levels deep\n"
        "  (`ssescope.limits.MAX_DEPTH`). They are kept as sent in `arguments`, its `input` is\n"
        "  `null` and its `error` says why: they are not parsed.\n"
        "- **Where:** the call's last record (its last fragment, or the end event that closed it).\n"
        '- **Example:** arguments `{"a":{"a":{"a":…}}}` 1,000 levels deep.\n'
        "- **What to do:** do not execute the call; the model (or whoever wrote the stream) produced\n"
        "  a pathological value.\n"
    ),
    content=("arguments",),
)

STREAM_DIAGNOSTICS_CAPPED = Code(
    "stream.diagnostics-capped",
    "info",
    "aggregate",
    PAGE,
    "{count:,} more {of_code!r} diagnostic(s) were counted but not listed (the first {per_code} of each code are kept; the first one left out is at record {first}; the most severe was {severity}).",
    (
        "- **Meaning:** a Report lists at most 100 diagnostics of each code\n"
        "  (`ssescope.limits.DIAGNOSTICS_PER_CODE`); the others are counted, and one such\n"
        "  diagnostic per code says how many more there were and where the first one left out\n"
        "  is. `records.invalid` still counts every invalid record, and the frame views\n"
        "  (`frames`, the web page) still mark each one. This keeps memory and the\n"
        "  Report proportional to the reply, not to the number of problems (a 100 MB file of bad\n"
        "  records is one reply with millions of `json.invalid`).\n"
        "- **Example:** 10,000 lines of `data: {bad json` give 100 `json.invalid` diagnostics and\n"
        '  one `stream.diagnostics-capped` saying "9,900 more".\n'
        "- **What to do:** fix the first ones listed; the rest are most likely the same problem.\n"
    ),
)

STREAM_MEMORY_CAPPED = Code(
    "stream.memory-capped",
    "info",
    "aggregate",
    PAGE,
    {
        "content": "{chars:,} characters of assembled content were left out of the Report: a bounded reader keeps the first {limit:,} of each text part and of each tool call's arguments.",
        "offsets": "{records:,} records past the first {limit:,} were counted without their byte offsets: diagnostics about them give no offset.",
    },
    (
        "- **Meaning:** the stream was read in bounded memory (`ssescope proxy` reads every\n"
        "  exchange so, `Pipeline(bounded=True)` in the library), and it was long enough to\n"
        "  reach one of its caps (`ssescope.limits.BOUNDED_CONTENT_CHARS`,\n"
        "  `BOUNDED_RECORD_OFFSETS`). The verdict, record counts and timing are still\n"
        "  those of the whole stream; only the assembled text (or tool-call arguments) past\n"
        "  the cap, or the byte offsets of late records, were not kept. A tool call whose\n"
        "  arguments were cut is not parsed.\n"
        "- **Example:** a 300 MB stream through the proxy keeps the first 1,048,576\n"
        "  characters of its text.\n"
        "- **What to do:** nothing was lost on disk: `ssescope inspect` of the capture reads\n"
        "  it whole.\n"
    ),
)

JSON_NON_FINITE_NUMBER = Code(
    "json.non-finite-number",
    "error",
    "framing",
    PAGE,
    "Record {record} holds the number {number!q}, which JSON does not allow (NaN, Infinity, or beyond a double): {data!q}; it is kept with its raw text{length} and the stream goes on.",
    (
        "- **Meaning:** a record's data would be JSON but for a number JSON does not allow: `NaN`,\n"
        "  `Infinity`, `-Infinity`, or a number beyond the range of a double (`1e999`). The\n"
        "  record is treated as invalid JSON (kept with its raw text, counted under\n"
        "  `records.invalid`), so that no such value reaches the Report, which stays strict JSON.\n"
        '- **Example:** `data: {"usage": {"prompt_tokens": 1e999}}`\n'
        "- **What to do:** the server's JSON encoder is not standard (Python's `json.dumps` writes\n"
        "  `NaN` by default); fix it there.\n"
    ),
    content=("data",),
    invalidates=True,
)

JSON_TOO_DEEP = Code(
    "json.too-deep",
    "error",
    "framing",
    PAGE,
    "Record {record} nests arrays and objects more than {depth} levels deep: {data!q}; it is not read, and kept with its raw text{length}.",
    (
        "- **Meaning:** a record's data nests arrays and objects more than 128 levels deep\n"
        "  (`ssescope.limits.MAX_DEPTH`). It is not read (no adapter, serialiser or view ever\n"
        "  walks it), and it is kept with its raw text (an excerpt for a long one) and counted\n"
        "  under `records.invalid`. See `docs/security.md`.\n"
        '- **Example:** `data: {"a":[[[[…]]]]}` with 500 nested lists.\n'
        "- **What to do:** no real provider sends such records: the stream is hostile or broken.\n"
    ),
    content=("data",),
    invalidates=True,
)

TOOL_SCHEMA_MISMATCH = Code(
    "tool.schema-mismatch",
    "warning",
    "aggregate",
    PAGE,
    {
        "ended": "The arguments of tool call {label} ({name!r}) do not match the request's schema of {name!r} ({where}) at {path}: {detail} (rule {rule} at {schema_path}{strict}){more}.",
        "cut": "The arguments of tool call {label} ({name!r}) were cut after {n_arguments} characters, and what arrived before the cut does not match the request's schema of {name!r} ({where}) at {path}: {detail} (rule {rule} at {schema_path}{strict}){more}. Only those partial arguments were checked: properties still to come, and the value the cut fell in, are not counted against them.",
    },
    (
        "- **Meaning:** the request offered this tool with a JSON Schema for its arguments (an\n"
        "  `.ssecap` request body, a HAR entry's `postData`, a proxy record, or the library's\n"
        "  `validate_tool_call(call, request)`), and the call's arguments break one of its rules:\n"
        "  a `required` property missing, a value of the wrong `type`, a value outside an\n"
        "  `enum`, a property that `additionalProperties: false` forbids, and every other rule of\n"
        "  JSON Schema. The message gives the JSON path of the offending value (`$` is the\n"
        "  arguments object), the rule and where it sits in the schema. Schemas are read from\n"
        "  OpenAI Chat `tools[].function.parameters`, Responses `tools[].parameters`, Anthropic\n"
        "  `tools[].input_schema`, Gemini `functionDeclarations[].parameters` (its OpenAPI-style\n"
        "  schema: upper-case types and `nullable` are read as JSON Schema) or\n"
        "  `parametersJsonSchema`, and Bedrock `toolSpec.inputSchema.json`. At most five are\n"
        "  reported per call; the last says how many more there were.\n"
        "- **Strict mode:** when the tool was declared with `strict: true`, the platform\n"
        "  guarantees that the arguments match, and requires every property of every object\n"
        "  to be listed in `required` and every object to set `additionalProperties: false`.\n"
        "  The call is checked with those two rules applied to every object; a mismatch they\n"
        "  alone find is marked `strict mode`. A server or gateway that accepted `strict` and\n"
        "  produced such a call did not enforce it.\n"
        "- **Cut calls** (form `cut`): a call the stream never ended (`tool.incomplete`) is\n"
        "  checked on the arguments that arrived before the cut, read as partial JSON. Its open\n"
        "  objects may still be missing properties and the value the cut fell in may be\n"
        "  unfinished, so those are not counted; everything else that already breaks the schema\n"
        "  (a wrong type, an unknown property, a finished value outside its `enum`) is.\n"
        '- **Example:** a request declaring `get_weather` with `{"properties": {"unit":\n'
        '  {"enum": ["c", "f"]}}}` and a call whose arguments are `{"unit": "kelvin"}`.\n'
        "- **What to do:** do not run the call as it is: return the error to the model as the\n"
        "  tool's result, or retry. Under `strict: true`, report it to the server or gateway that\n"
        "  produced it.\n"
    ),
    content=("detail",),
)

TOOL_NOT_OFFERED = Code(
    "tool.not-offered",
    "warning",
    "aggregate",
    PAGE,
    "Tool call {label} calls {name!r}, a tool the request did not offer (it offered {offered}).",
    (
        "- **Meaning:** the request is known and declares tools, and the reply calls a\n"
        "  function tool by a name that is not among them. Server-side and MCP tool calls\n"
        "  (`kind` `server` or `mcp`) are not checked.\n"
        "- **Example:** a request offering `get_weather`, and a streamed call `get_wether`\n"
        "  (or a tool offered in an earlier turn only).\n"
        "- **What to do:** do not run it. A model that invents tool names needs the tool list\n"
        "  (or `tool_choice`) fixed; a gateway that renames tools needs its mapping checked.\n"
    ),
)

TOOL_SCHEMA_UNCHECKED = Code(
    "tool.schema-unchecked",
    "info",
    "aggregate",
    PAGE,
    {
        "no-jsonschema": "Tool call {label} ({name!r}) was not checked against the request's schema: the jsonschema package is not installed (pip install 'ssescope[schema]').",
        "bad-schema": "Tool call {label} ({name!r}) was not checked: the request's schema of {name!r} ({where}) is not a valid JSON Schema ({reason}).",
    },
    (
        "- **Meaning:** the request declares the tool with an input schema, but the call could\n"
        "  not be checked against it: the optional `jsonschema` package is missing (the\n"
        "  `schema` extra installs it), or the schema itself is not valid JSON Schema (a `type`\n"
        "  that is not a type name, a `$ref` that points nowhere).\n"
        '- **Example:** a tool declared with `{"type": "object", "properties": {"n": {"type":\n'
        '  "int"}}}`.\n'
        "- **What to do:** install `ssescope[schema]`, or fix the tool's schema (the provider\n"
        "  may have read it more loosely than JSON Schema does).\n"
    ),
)

TOOL_FINE_GRAINED_STREAMING = Code(
    "tool.fine-grained-streaming",
    "info",
    "aggregate",
    PAGE,
    "Tool {name!r} was declared with Anthropic's fine-grained tool streaming ({how}), which streams arguments without buffering or JSON validation: as its docs say, the arguments of call {label} may be invalid or partial JSON on purpose, and here they are ({what}).",
    (
        "- **Meaning:** a call's arguments are invalid JSON (`tool.invalid-arguments`) or were\n"
        "  cut (`tool.incomplete`), and the request declared the tool with\n"
        "  `eager_input_streaming: true` or sent the `fine-grained-tool-streaming` beta header.\n"
        "  Anthropic's documentation of fine-grained tool streaming warns that the arguments are\n"
        "  then streamed without JSON validation and may be invalid or partial, notably when\n"
        "  the reply stops at `max_tokens` in the middle of a parameter.\n"
        "- **Example:** a `make_file` tool with `eager_input_streaming: true`, and a reply that\n"
        "  stops with `max_tokens` inside `lines_of_text`.\n"
        "- **What to do:** handle it as the docs advise: do not run the call; raise\n"
        "  `max_tokens`, or send the invalid arguments back to the model wrapped in a JSON\n"
        "  object of a tool error result.\n"
    ),
)

CODES: tuple[Code, ...] = (
    JSON_INVALID,
    TOOL_INCOMPLETE,
    TOOL_INVALID_ARGUMENTS,
    TOOL_CONFLICTING_NAME,
    SNAPSHOT_MISMATCH,
    USAGE_MISSING,
    STREAM_EVENTS_AFTER_TERMINAL,
    STREAM_CONTRADICTORY_TERMINAL,
    STREAM_MULTIPLE_RESPONSES,
    PROVIDER_UNKNOWN_EVENT,
    CONTENT_THINK_TAG_IN_TEXT,
    CONTENT_CUMULATIVE_DELTAS,
    TIMING_STALL,
    TIMING_BURST,
    STREAM_MISSING_DONE,
    STREAM_DONE_WITHOUT_FINISH,
    PROVIDER_ERROR,
    TOOL_MISSING_INDEX,
    TOOL_EMPTY_ARGUMENTS,
    TOOL_EMPTY_ARGUMENTS_REQUIRED,
    TOOL_CALLS_UNDER_STOP,
    STREAM_NOT_STREAMED,
    STREAM_EMPTY,
    STREAM_HTML_PAGE,
    STREAM_PLAIN_TEXT,
    USAGE_INVALID_VALUE,
    TOOL_ARGUMENTS_TOO_DEEP,
    STREAM_DIAGNOSTICS_CAPPED,
    STREAM_MEMORY_CAPPED,
    JSON_NON_FINITE_NUMBER,
    JSON_TOO_DEEP,
    TOOL_SCHEMA_MISMATCH,
    TOOL_NOT_OFFERED,
    TOOL_SCHEMA_UNCHECKED,
    TOOL_FINE_GRAINED_STREAMING,
)
"""This module's codes, in the order their page documents them."""
