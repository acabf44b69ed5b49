"""The diagnostic codes documented on ``docs/diagnostics/openai-chat.md``."""

from __future__ import annotations

from ... import codes as shared
from ...codes.per_provider import provider_error
from ...codes.spec import Code, Form, Page

PAGE = Page(
    "openai-chat",
    (
        "## OpenAI Chat Completions and compatible servers\n"
        "\n"
        "These codes come from the `openai-chat` adapter, which reads `chat.completion.chunk`\n"
        "streams from OpenAI and every OpenAI-compatible server (Azure OpenAI, DeepSeek, Groq,\n"
        "OpenRouter, Mistral, xAI, Moonshot, DashScope, Perplexity, vLLM, llama.cpp, Ollama's\n"
        "`/v1`, …). The first four are shared codes whose meaning is the same for every protocol\n"
        "that has the marker; the `openai-chat.*` codes are specific to this adapter.\n"
        "\n"
        "How the adapter decides the status: `data: [DONE]` ends the response — `failed` if an\n"
        "error was reported or a choice finished with `error`, `incomplete` if a choice finished\n"
        "with `length`, `content_filter` or `refusal`, `completed` otherwise. Perplexity's last\n"
        'chunk (`"object": "chat.completion.done"`) is an end marker too. On the SSE wire a stream\n'
        "without `[DONE]` is `truncated`. JSONL dumps and JSON arrays cannot carry `[DONE]`, so\n"
        "there the response ends when every choice that appeared has a finish reason.\n"
    ),
)

INVALID_SHAPE = Code(
    "openai-chat.invalid-shape",
    "warning",
    "provider",
    PAGE,
    {
        "record": "Record {record}: the record is a JSON {kind}, not a chunk object: {value!q}.",
        "choice": "Record {record}: choices[{pos}] is not an object: {value!q}; it is skipped.",
        "choices": "Record {record}: `choices` is not a list: {value!q}; it is ignored.",
        "usage": "Record {record}: `usage` is not an object: {value!q}; it is ignored.",
        "choice-index": "Record {record}: choices[{pos}].index is not an integer: {value!q}; position {pos} is used.",
        "delta": "Record {record}: choices[{pos}].delta is not an object: {value!q}; it is ignored.",
        "finish-reason": "Record {record}: choices[{pos}].finish_reason is not a string: {value!q}; it is ignored.",
        "function-call": "Record {record}: delta.function_call of choice {choice} is not an object: {value!q}; it is ignored.",
        "content": "Record {record}: delta.content of choice {choice} is neither a string nor a list: {value!q}; it is ignored.",
        "reasoning-details": "Record {record}: delta.reasoning_details of choice {choice} is not a list: {value!q}; it is ignored.",
        "tool-calls": "Record {record}: delta.tool_calls of choice {choice} is not a list: {value!q}; it is ignored.",
        "tool-calls-object": "Record {record}: delta.tool_calls of choice {choice} is not a list: {value!q}; it is read as a one-entry list.",
        "tool-call": "Record {record}: a delta.tool_calls entry of choice {choice} is not an object: {value!q}; it is skipped.",
        "tool-call-index": "Record {record}: a tool call index of choice {choice} is not an integer: {value!q}; it is treated as absent.",
        "tool-function": "Record {record}: a tool call `function` of choice {choice} is not an object: {value!q}; it is ignored.",
    },
    (
        "- **Meaning:** a field has a JSON type the protocol does not allow: `choices` not a list,\n"
        "  a choice or delta not an object, `usage` not an object, `delta.content` neither a string\n"
        "  nor a list, a non-integer `index` or `finish_reason` that is not a string, a tool call\n"
        "  entry that is not an object, or a record that is not a JSON object at all. The field is\n"
        "  ignored (a tool-calls object instead of a list is read as a one-entry list; a\n"
        "  non-integer choice index is replaced by the choice's position) and the rest of the\n"
        "  record is still read.\n"
        '- **Example:** `data: {"choices":[{"index":0,"delta":"Hello"}]}`\n'
        "- **What to do:** the server or a proxy rewrites chunks incorrectly; check it against\n"
        "  the Chat Completions chunk schema.\n"
    ),
    content=("value",),
)

EMPTY_DATA = Code(
    "openai-chat.empty-data",
    "info",
    "provider",
    PAGE,
    "Record {record} has no data ({data!q}); it is ignored.",
    (
        "- **Meaning:** an SSE event had an empty `data:` field (a keep-alive written as data\n"
        "  instead of as a comment). It is ignored.\n"
        "- **Example:** `data:\\n\\n`\n"
        "- **What to do:** nothing; a strict client that JSON-decodes every event fails on it, so\n"
        "  prefer comment keep-alives (`: ping`) on servers you control.\n"
    ),
    content=("data",),
)

MALFORMED_DONE = Code(
    "openai-chat.malformed-done",
    "info",
    "provider",
    PAGE,
    "Record {record} starts with [DONE] but carries more: {data!q}; it is read as [DONE].",
    (
        "- **Meaning:** a record starts with `[DONE]` but carries more text. It is read as\n"
        "  `[DONE]`, as openai-python does.\n"
        "- **Example:** `data: [DONE] \\n\\n` with trailing text such as `data: [DONE]x`.\n"
        "- **What to do:** nothing for the result; fix the server if you own it.\n"
    ),
    content=("data",),
)

DUPLICATE_DONE = Code(
    "openai-chat.duplicate-done",
    "warning",
    "provider",
    PAGE,
    "Record {record} is a second `data: [DONE]` for the same response; it is ignored.",
    (
        "- **Meaning:** a second `data: [DONE]` arrived for the same response. It is ignored.\n"
        "- **Example:** `data: [DONE]\\n\\ndata: [DONE]\\n\\n`\n"
        "- **What to do:** a proxy replayed or appended the end marker; anything between the two\n"
        "  markers is also reported as `stream.events-after-terminal`.\n"
    ),
)

MISSING_FINISH = Code(
    "openai-chat.missing-finish",
    "warning",
    "provider",
    PAGE,
    "The stream ended before {outputs_phrase} got a finish_reason; the response is truncated.",
    (
        "- **Meaning:** a JSONL dump or JSON array of chunks (a framing with no `[DONE]`) ended\n"
        "  before every choice got a `finish_reason`. There the finish reasons are the only end\n"
        "  marker, so the response is reported as `truncated`. The message names the choices.\n"
        "- **Example:** a `.jsonl` capture whose last line is\n"
        '  `{"choices":[{"index":0,"delta":{"content":"Cut"}}]}`.\n'
        "- **What to do:** the capture was cut; if it came from a live stream, capture it again.\n"
    ),
)

ID_CHANGED = Code(
    "openai-chat.id-changed",
    "warning",
    "provider",
    PAGE,
    {
        "finished": "Record {record} has id {cid!q} while response {id!q} has finished but the chunk carries no choices; it is kept in that response.",
        "open": "Record {record} has id {cid!q} while response {id!q} still has open choices; it is kept in that response.",
    },
    (
        "- **Meaning:** a chunk carries an `id` different from the response's while some choices\n"
        "  have not finished, or after they all finished but without any choice (a usage-only\n"
        "  chunk). The chunk is kept in the current response (some servers and proxies vary the\n"
        "  id). Reported once per response. A new id after the end marker, or a chunk with choices\n"
        "  after every choice finished, starts a new response instead.\n"
        '- **Example:** `{"id":"chatcmpl-1",…"delta":{"content":"a"}}` then\n'
        '  `{"id":"chatcmpl-2",…"delta":{"content":"b"}}`.\n'
        "- **What to do:** if the capture holds two interleaved generations (a proxy multiplexing\n"
        "  requests on one connection), split them before inspecting.\n"
    ),
    content=("cid", "id"),
)

UNEXPECTED_OBJECT = Code(
    "openai-chat.unexpected-object",
    "info",
    "provider",
    PAGE,
    "Record {record} has object {obj_type!q}, not 'chat.completion.chunk'; it is read as a chunk.",
    (
        "- **Meaning:** a chunk's `object` is not one of `chat.completion.chunk`,\n"
        '  `chat.completion.done` (Perplexity), `chat.completion`, `text_completion` or `""`\n'
        "  (Azure filter chunks). The chunk is still read as a chat chunk. Reported once per value.\n"
        '- **Example:** `{"object":"chat.completion.delta","choices":[…]}`\n'
        "- **What to do:** check that the stream really is a Chat Completions stream; openai-python\n"
        "  skips chunks whose `object` is not `chat.completion.chunk`.\n"
    ),
    content=("obj_type",),
)

MISSING_CHOICE_INDEX = Code(
    "openai-chat.missing-choice-index",
    "info",
    "provider",
    PAGE,
    "Record {record}: choices[{pos}] has no `index`; its position {pos} is used.",
    (
        "- **Meaning:** a choice has no `index`; its position in `choices` is used as the output\n"
        "  index. Reported once per response.\n"
        '- **Example:** `{"choices":[{"delta":{"content":"Hi"}}]}`\n'
        "- **What to do:** nothing for single-choice streams; with `n > 1` the outputs may be\n"
        "  mixed up if the server also reorders choices.\n"
    ),
)

UNKNOWN_FINISH_REASON = Code(
    "openai-chat.unknown-finish-reason",
    "info",
    "provider",
    PAGE,
    "Record {record}: finish_reason {fr!q} of choice {choice} is not a known value; it is reported as 'other' with the raw value kept.",
    (
        "- **Meaning:** a `finish_reason` outside the known values. It is reported as `other`\n"
        "  with the raw value kept. Known values: `stop`, `length`, `tool_calls`,\n"
        "  `content_filter`, `function_call` (→ `tool_calls`), `eos`, `end_turn`, `stop_sequence`\n"
        "  (→ `stop`), `max_tokens` (→ `length`), `tool_use` (→ `tool_calls`), `refusal`, `error`.\n"
        '- **Example:** `{"finish_reason":"abort"}`\n'
        "- **What to do:** read the provider's documentation for the value; a response whose\n"
        "  choices finish with `other` is still `completed` when `[DONE]` arrives.\n"
    ),
    content=("fr",),
)

REASONING_FIELDS_DIFFER = Code(
    "openai-chat.reasoning-fields-differ",
    "info",
    "provider",
    PAGE,
    {
        "details": "Record {record}: delta.reasoning {plain!q} and the text of reasoning_details {joined!q} of choice {choice} differ; delta.reasoning is kept.",
        "content": "Record {record}: delta.reasoning_content {plain!q} and delta.reasoning {rs!q} of choice {choice} differ; both are kept, in that order.",
    },
    (
        "- **Meaning:** one delta carries reasoning in two spellings with different text:\n"
        "  `reasoning_content` and `reasoning` (both are kept, in that order), or `reasoning` and\n"
        "  the text of OpenRouter's `reasoning_details` (`reasoning` is kept). When the spellings\n"
        "  carry the same text it is counted once and nothing is reported. Reported once per\n"
        "  choice.\n"
        '- **Example:** `{"delta":{"reasoning_content":"ab","reasoning":"cd"}}`\n'
        "- **What to do:** a gateway is merging reasoning from two sources; compare the raw\n"
        "  chunks before relying on the reasoning text.\n"
    ),
    content=("joined", "plain", "rs"),
)

UNKNOWN_REASONING_DETAIL = Code(
    "openai-chat.unknown-reasoning-detail",
    "info",
    "provider",
    PAGE,
    "Record {record}: reasoning_details item of type {detail_type!q} is not known; it is ignored.",
    (
        "- **Meaning:** a `reasoning_details` item has a type other than `reasoning.text`,\n"
        "  `reasoning.summary` or `reasoning.encrypted`; it is ignored. Reported once per type.\n"
        '- **Example:** `{"reasoning_details":[{"type":"reasoning.image","data":"…"}]}`\n'
        "- **What to do:** nothing; the item is kept in the raw record.\n"
    ),
    content=("detail_type",),
)

UNKNOWN_CONTENT_PART = Code(
    "openai-chat.unknown-content-part",
    "info",
    "provider",
    PAGE,
    "Record {record}: a content part of type {part_type!q} in choice {choice} is not known; it is ignored.",
    (
        "- **Meaning:** a content array (Mistral) holds a part whose type is not `text`,\n"
        "  `thinking` or `reference`; it is ignored. Reported once per type.\n"
        '- **Example:** `{"delta":{"content":[{"type":"image_url","image_url":"…"}]}}`\n'
        "- **What to do:** nothing; the part is kept in the raw record.\n"
    ),
    content=("part_type",),
)

CONTENT_FILTERED = Code(
    "openai-chat.content-filtered",
    "info",
    "provider",
    PAGE,
    "Record {record}: the content filter flagged {what} for {category!q} ({res!q}).",
    (
        "- **Meaning:** an Azure content filter result says `filtered: true` for a category, on\n"
        "  the prompt (`prompt_filter_results`) or on a choice (`content_filter_results`,\n"
        "  including asynchronous-filter annotation chunks). Reported once per category and\n"
        "  target. The finish reason `content_filter`, if it comes, makes the status `incomplete`.\n"
        '- **Example:** `{"choices":[{"index":0,"content_filter_results":{"violence":{"filtered":true,"severity":"medium"}}}]}`\n'
        "- **What to do:** the text was (partly) withheld by the filter; rephrase the request or\n"
        "  adjust the deployment's filter configuration.\n"
    ),
    content=("category", "res"),
)

TOOL_INDEX_REUSED = Code(
    "openai-chat.tool-index-reused",
    "warning",
    "provider",
    PAGE,
    "Record {record}: tool call index {idx} of choice {choice} is reused with a new id {cid!q} (was {prev!q}); it starts a new call.",
    (
        "- **Meaning:** a tool-call fragment reuses an `index` that already belongs to a call,\n"
        "  with a different `id` (Ollama, some gateways). It starts a new call instead of being\n"
        "  merged into the old one.\n"
        '- **Example:** `{"index":0,"id":"call_1","function":{"name":"add_task",…}}` then\n'
        '  `{"index":0,"id":"call_2","function":{"name":"add_idea",…}}`.\n'
        "- **What to do:** clients that key calls only by `index` merge these into one call with\n"
        "  the names concatenated (`add_taskadd_idea`); key by `id` when it changes.\n"
    ),
    content=("cid", "prev"),
)

DUPLICATE_TOOL_INDEX = Code(
    "openai-chat.duplicate-tool-index",
    "info",
    "provider",
    PAGE,
    "Record {record}: two tool call entries of choice {choice} in one chunk have index {idx}; both are applied to that call in order.",
    (
        "- **Meaning:** one chunk holds two tool-call entries with the same `index` (vLLM tool\n"
        "  parsers, speculative decoding). Both are applied to that call, in order.\n"
        '- **Example:** `{"tool_calls":[{"index":0,"id":"c","function":{"name":"f"}},{"index":0,"function":{"arguments":"{\\"a\\""}}]}`\n'
        "- **What to do:** nothing for ssescope; openai-python's accumulator loses the second\n"
        "  entry's arguments on such chunks.\n"
    ),
)

TOOL_INDEX_GAP = Code(
    "openai-chat.tool-index-gap",
    "info",
    "provider",
    PAGE,
    "Record {record}: a new tool call of choice {choice} has index {idx} after {n_known} call(s); indexes are not contiguous from 0.",
    (
        "- **Meaning:** a new tool call's `index` is not the next one counting from 0 (the first\n"
        "  call has index 1, or an index is skipped). The call is kept with its index. Reported\n"
        "  once per choice.\n"
        '- **Example:** the first fragment is `{"index":3,"id":"c","function":{"name":"f"}}`.\n'
        "- **What to do:** clients that treat the index as a list position may misplace the call.\n"
    ),
)

TOOL_CALLS_INTERLEAVED = Code(
    "openai-chat.tool-calls-interleaved",
    "info",
    "provider",
    PAGE,
    "Record {record}: a fragment for tool call index {idx} of choice {choice} came after fragments of index {last_index}; parallel calls are interleaved.",
    (
        "- **Meaning:** fragments of parallel tool calls alternate (a fragment for index 0 arrives\n"
        "  after fragments for index 1). They are matched by index, so each call is whole.\n"
        "  Reported once per choice.\n"
        "- **Example:** fragments for index 0, 1, 0, 1.\n"
        "- **What to do:** nothing for ssescope; a client that assumes one call streams to\n"
        "  completion before the next starts mixes the arguments.\n"
    ),
)

TOOL_ID_NOT_STRING = Code(
    "openai-chat.tool-id-not-string",
    "warning",
    "provider",
    PAGE,
    "Record {record}: a tool call id of choice {choice} is not a string: {cid!q}; it is treated as absent.",
    (
        "- **Meaning:** a tool call `id` is not a string (a number, an object). It is treated as\n"
        "  absent and the fragment is matched by index or to the open call.\n"
        '- **Example:** `{"index":0,"id":7,"function":{"name":"f"}}`\n'
        "- **What to do:** the server's tool-call serialisation is broken; report it upstream.\n"
    ),
    content=("cid",),
)

TOOL_NAME_NOT_STRING = Code(
    "openai-chat.tool-name-not-string",
    "warning",
    "provider",
    PAGE,
    "Record {record}: a tool call name of choice {choice} is not a string: {name!q}; it is treated as absent.",
    (
        "- **Meaning:** a tool call `function.name` is neither a string nor null (an object was\n"
        "  seen in the wild). It is treated as absent; the first non-empty string name is kept.\n"
        '- **Example:** `{"index":0,"function":{"name":{"value":"search"}}}`\n'
        "- **What to do:** the server's tool-call serialisation is broken; report it upstream.\n"
        "  Strict clients reject the whole stream on it.\n"
    ),
    content=("name",),
)

TOOL_ARGUMENTS_NOT_STRING = Code(
    "openai-chat.tool-arguments-not-string",
    "warning",
    "provider",
    PAGE,
    "Record {record}: tool call arguments of choice {choice} are a JSON {name}, not a string: {args!q}; its compact JSON text is used.",
    (
        "- **Meaning:** tool call arguments came as a JSON object (or another non-string value)\n"
        "  instead of a JSON-encoded string. Its compact JSON text is used as the arguments.\n"
        '- **Example:** `{"index":0,"id":"c","function":{"name":"f","arguments":{"city":"Oslo"}}}`\n'
        "- **What to do:** the server does not follow the Chat Completions schema; clients that\n"
        "  concatenate argument strings fail on it.\n"
    ),
    content=("args",),
)

PARALLEL_WRAPPER = Code(
    "openai-chat.parallel-wrapper",
    "warning",
    "provider",
    PAGE,
    "Record {record}: choice {choice} called the pseudo-tool {parallel_wrapper!r}, whose arguments wrap several tool calls; the call is kept as sent.",
    (
        "- **Meaning:** the model called the pseudo-tool `multi_tool_use.parallel`, whose\n"
        '  arguments wrap several real tool calls (`{"tool_uses":[{"recipient_name":\n'
        '  "functions.x","parameters":{…}}]}`). The call is kept exactly as sent; it is not\n'
        "  expanded.\n"
        '- **Example:** `{"index":0,"id":"call_1","function":{"name":"multi_tool_use.parallel","arguments":"{\\"tool_uses\\":[…]}"}}`\n'
        "- **What to do:** expand the wrapper into its calls in your client, or disable parallel\n"
        "  tool calls for that model; executing it as a normal tool fails.\n"
    ),
)

ERROR = provider_error(
    PAGE, "The provider reported an error inside the stream: {message!q:160}{detail}."
)
"""This provider's form of ``provider.error``."""

TOOL_CALLS_UNDER_STOP = Form(
    shared.TOOL_CALLS_UNDER_STOP,
    "openai-chat",
    "Choice {choice} made tool calls but finished with finish_reason {fr!r}, not 'tool_calls': strict clients, which run tools only on finish_reason 'tool_calls' (the agent loops of LangChain, CrewAI and the like), end the turn there and drop the calls.",
)
"""This provider's form of ``tool.calls-under-stop``."""
