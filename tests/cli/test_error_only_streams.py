"""A stream whose only record is the provider's in-stream error is that provider's failure.

Every provider's documented error shape, alone and after a few content records, through
the library and the command line: the provider is recognised from the error itself, the
status is ``failed`` with the error's message, type and code, and the exit code is 4.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import pytest
from cli_helpers import EXAMPLES, STREAMS, run

import ssescope
from ssescope.framing.eventstream import encode_message


@dataclass(frozen=True)
class ErrorCase:
    """One provider's error record, the records that may come before it, and the facts."""

    provider: str
    error: bytes
    content: bytes
    text: str
    message: str
    type: str | None
    code: str | None
    after: bytes = b""


def _sse(*records: str, event: str | None = None) -> bytes:
    head = f"event: {event}\n" if event else ""
    return "".join(f"{head}data: {r}\n\n" for r in records).encode()


def _named(*pairs: tuple[str, str]) -> bytes:
    return "".join(f"event: {e}\ndata: {d}\n\n" for e, d in pairs).encode()


def _lines(*records: str) -> bytes:
    return "".join(f"{r}\n" for r in records).encode()


def _frame(kind: str, name: str, payload: str) -> bytes:
    headers = {":message-type": kind, f":{kind}-type": name, ":content-type": "application/json"}
    return encode_message(headers, payload.encode())


_CHAT = '{"id":"c1","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"content":"Hel"},"finish_reason":null}]}'
_GEMINI = '{"candidates":[{"content":{"role":"model","parts":[{"text":"Hel"}]},"index":0}]}'
_GEMINI_ERROR = '{"error":{"code":429,"message":"Resource has been exhausted (e.g. check quota).","status":"RESOURCE_EXHAUSTED"}}'

CASES: dict[str, ErrorCase] = {
    "anthropic": ErrorCase(
        "anthropic",
        _named(
            (
                "error",
                '{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"},"request_id":"req_1"}',
            )
        ),
        _named(
            (
                "message_start",
                '{"type":"message_start","message":{"id":"msg_1","type":"message","role":"assistant","content":[],"model":"claude-x","stop_reason":null,"usage":{"input_tokens":3,"output_tokens":1}}}',
            ),
            (
                "content_block_start",
                '{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}',
            ),
            (
                "content_block_delta",
                '{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"Hel"}}',
            ),
        ),
        "Hel",
        "Overloaded",
        "overloaded_error",
        None,
    ),
    "openai-chat": ErrorCase(
        "openai-chat",
        _sse(
            '{"error":{"message":"Rate limit reached for requests","type":"requests","param":null,"code":"rate_limit_exceeded"}}'
        ),
        _sse(
            '{"id":"c1","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"role":"assistant","content":""},"finish_reason":null}]}',
            _CHAT,
        ),
        "Hel",
        "Rate limit reached for requests",
        "requests",
        "rate_limit_exceeded",
    ),
    "openai-chat-then-done": ErrorCase(
        "openai-chat",
        _sse(
            '{"error":{"message":"The server had an error while processing your request.","type":"server_error","param":null,"code":null}}'
        ),
        _sse(_CHAT),
        "Hel",
        "The server had an error while processing your request.",
        "server_error",
        None,
        after=_sse("[DONE]"),
    ),
    "gemini-sse": ErrorCase(
        "gemini",
        _sse(_GEMINI_ERROR),
        _sse(_GEMINI),
        "Hel",
        "Resource has been exhausted (e.g. check quota).",
        "RESOURCE_EXHAUSTED",
        "429",
    ),
    "ollama": ErrorCase(
        "ollama",
        _lines('{"error":"an error was encountered while running the model"}'),
        _lines(
            '{"model":"llama3","created_at":"2026-01-01T00:00:00Z","message":{"role":"assistant","content":"Hel"},"done":false}'
        ),
        "Hel",
        "an error was encountered while running the model",
        None,
        None,
    ),
    "cohere": ErrorCase(
        "cohere",
        _named(
            (
                "message-end",
                '{"type":"message-end","delta":{"finish_reason":"ERROR","error":"internal server error"}}',
            )
        ),
        _named(
            (
                "message-start",
                '{"id":"m1","type":"message-start","delta":{"message":{"role":"assistant","content":[],"tool_plan":"","tool_calls":[],"citations":[]}}}',
            ),
            (
                "content-start",
                '{"type":"content-start","index":0,"delta":{"message":{"content":{"type":"text","text":""}}}}',
            ),
            (
                "content-delta",
                '{"type":"content-delta","index":0,"delta":{"message":{"content":{"text":"Hel"}}}}',
            ),
        ),
        "Hel",
        "internal server error",
        "ERROR",
        None,
    ),
    "bedrock-json": ErrorCase(
        "bedrock",
        _lines('{"throttlingException":{"message":"Too many requests, please wait."}}'),
        _lines(
            '{"messageStart":{"role":"assistant"}}',
            '{"contentBlockDelta":{"contentBlockIndex":0,"delta":{"text":"Hel"}}}',
        ),
        "Hel",
        "Too many requests, please wait.",
        "throttlingException",
        None,
    ),
    "bedrock-eventstream": ErrorCase(
        "bedrock",
        _frame("exception", "throttlingException", '{"message":"Too many requests, please wait."}'),
        _frame("event", "messageStart", '{"role":"assistant"}')
        + _frame("event", "contentBlockDelta", '{"contentBlockIndex":0,"delta":{"text":"Hel"}}'),
        "Hel",
        "Too many requests, please wait.",
        "throttlingException",
        None,
    ),
    "openai-responses-nested": ErrorCase(
        "openai-responses",
        _named(
            (
                "error",
                '{"type":"error","sequence_number":2,"error":{"type":"insufficient_quota","code":"insufficient_quota","message":"You exceeded your current quota.","param":null}}',
            )
        ),
        _named(
            (
                "response.created",
                '{"type":"response.created","sequence_number":0,"response":{"id":"resp_1","object":"response","status":"in_progress","output":[]}}',
            ),
            (
                "response.output_text.delta",
                '{"type":"response.output_text.delta","sequence_number":1,"item_id":"msg_1","output_index":0,"content_index":0,"delta":"Hel"}',
            ),
        ),
        "Hel",
        "You exceeded your current quota.",
        "insufficient_quota",
        "insufficient_quota",
    ),
    "openai-responses-flat": ErrorCase(
        "openai-responses",
        _named(
            (
                "error",
                '{"type":"error","code":"server_error","message":"The server had an error.","param":null}',
            )
        ),
        _named(
            (
                "response.created",
                '{"type":"response.created","response":{"id":"resp_1","object":"response","status":"in_progress","output":[]}}',
            ),
            (
                "response.output_text.delta",
                '{"type":"response.output_text.delta","item_id":"msg_1","output_index":0,"content_index":0,"delta":"Hel"}',
            ),
        ),
        "Hel",
        "The server had an error.",
        None,
        "server_error",
    ),
    "openai-responses-failed": ErrorCase(
        "openai-responses",
        _named(
            (
                "response.failed",
                '{"type":"response.failed","sequence_number":3,"response":{"id":"resp_1","object":"response","status":"failed","output":[],"error":{"code":"server_error","message":"The model failed."}}}',
            )
        ),
        _named(
            (
                "response.created",
                '{"type":"response.created","sequence_number":0,"response":{"id":"resp_1","object":"response","status":"in_progress","output":[]}}',
            ),
            (
                "response.output_text.delta",
                '{"type":"response.output_text.delta","sequence_number":1,"item_id":"msg_1","output_index":0,"content_index":0,"delta":"Hel"}',
            ),
        ),
        "Hel",
        "The model failed.",
        None,
        "server_error",
    ),
    "vercel-ui": ErrorCase(
        "vercel-ui",
        _sse('{"type":"error","errorText":"The model is overloaded."}'),
        _sse(
            '{"type":"start","messageId":"m1"}',
            '{"type":"text-start","id":"t1"}',
            '{"type":"text-delta","id":"t1","delta":"Hel"}',
        ),
        "Hel",
        "The model is overloaded.",
        None,
        None,
        after=_sse("[DONE]"),
    ),
}


def _gemini_array(*elements: str) -> bytes:
    return ("[" + ",\r\n".join(elements) + "]").encode()


ARRAYS = {
    "alone": _gemini_array(json.dumps(json.loads(_GEMINI_ERROR), indent=2)),
    "after-content": _gemini_array(_GEMINI, json.dumps(json.loads(_GEMINI_ERROR), indent=2)),
}


def _body(case: ErrorCase, with_content: bool) -> bytes:
    return (case.content if with_content else b"") + case.error + case.after


def _check(report: ssescope.Report, case: ErrorCase, with_content: bool) -> None:
    assert report.provider == case.provider, report.provider_rule
    assert report.status == "failed", report.status_reason
    error = report.response.error
    assert error is not None
    assert (error["message"], error["type"], error["code"]) == (
        case.message,
        case.type,
        case.code,
    )
    assert "provider.error" in [d.code for d in report.diagnostics]
    assert report.records.unknown == 0
    text = "".join(o.text for o in report.outputs)
    assert text == (case.text if with_content else "")


@pytest.mark.parametrize("with_content", [False, True], ids=["alone", "after-content"])
@pytest.mark.parametrize("name", sorted(CASES))
def test_the_library_reads_the_error_as_the_providers_failure(
    name: str, with_content: bool
) -> None:
    case = CASES[name]
    body = _body(case, with_content)
    _check(ssescope.inspect(body), case, with_content)
    # the same in any chunking: a byte at a time
    _check(ssescope.inspect(iter([body[i : i + 1] for i in range(len(body))])), case, with_content)


@pytest.mark.parametrize("name", sorted(CASES))
def test_the_command_line_says_failed_with_the_error_and_exits_4(name: str, tmp_path: Path) -> None:
    case = CASES[name]
    path = tmp_path / "stream.bin"
    path.write_bytes(_body(case, False))
    result = run("inspect", str(path), "--json")
    assert result.code == 4, result.out
    report = json.loads(result.out)
    assert report["provider"] == case.provider
    assert report["status"] == "failed"
    assert report["error"]["message"] == case.message
    assert report["error"]["type"] == case.type
    assert report["error"]["code"] == case.code


@pytest.mark.parametrize("where", sorted(ARRAYS))
def test_a_gemini_error_in_a_json_array_is_a_gemini_failure(where: str, tmp_path: Path) -> None:
    body = ARRAYS[where]
    report = ssescope.inspect(body)
    assert (report.framing, report.provider, report.status) == ("json-array", "gemini", "failed")
    assert report.response.error is not None
    assert report.response.error["type"] == "RESOURCE_EXHAUSTED"
    assert report.response.error["code"] == "429"
    assert "".join(o.text for o in report.outputs) == ("Hel" if where == "after-content" else "")
    path = tmp_path / "stream.json"
    path.write_bytes(body)
    result = run("inspect", str(path), "--json")
    assert result.code == 4
    assert json.loads(result.out)["error"]["message"].startswith("Resource has been exhausted")


def test_the_terminal_view_names_the_provider_and_the_error(tmp_path: Path) -> None:
    path = tmp_path / "overloaded.sse"
    path.write_bytes(CASES["anthropic"].error)
    result = run("inspect", str(path), "--pretty", "--no-color")
    assert result.code == 4
    flat = " ".join(result.out.split())
    assert "anthropic" in flat
    assert "failed" in flat
    assert "Overloaded" in flat


@pytest.mark.parametrize(
    ("body", "provider"),
    [
        # an OpenAI-compatible error chunk whose error is a bare string, in SSE
        (_sse('{"error":"upstream connect error"}'), "openai-chat"),
        # an error object of the shared shape with a google.rpc status is Gemini's
        (_sse('{"error":{"code":503,"message":"overloaded","status":"UNAVAILABLE"}}'), "gemini"),
        # without one, it is an OpenAI-compatible error chunk
        (_sse('{"error":{"code":503,"message":"overloaded"}}'), "openai-chat"),
        # the same string error on an NDJSON line is Ollama's
        (_lines('{"error":"model not found"}'), "ollama"),
        # a nested error under "type": "error" with a sequence_number is the Responses API's
        (
            _sse('{"type":"error","sequence_number":0,"error":{"message":"x","code":"c"}}'),
            "openai-responses",
        ),
        # and without one, Anthropic's
        (_sse('{"type":"error","error":{"type":"api_error","message":"x"}}'), "anthropic"),
    ],
)
def test_shared_error_shapes_are_told_apart_by_their_most_specific_member(
    body: bytes, provider: str
) -> None:
    report = ssescope.inspect(body)
    assert (report.provider, report.status) == (provider, "failed"), report.provider_rule


def _error_records_of(body: bytes, framing: str) -> bytes:
    """The records of a recording from its first error record on (as SSE for SSE, lines for
    JSONL): what a server that failed at once would have sent."""
    if framing == "sse":
        blocks = body.decode().split("\n\n")
        first = next(i for i, b in enumerate(blocks) if '"error"' in b)
        return "\n\n".join(blocks[first:]).encode()
    lines = body.decode().splitlines(keepends=True)
    first = next(i for i, line in enumerate(lines) if '"type":"error"' in line)
    return "".join(lines[first:]).encode()


RECORDINGS = [
    # (file, where it lives, framing, provider, message)
    (
        "openai-responses/error-then-failed.jsonl",
        "real",
        "ndjson",
        "openai-responses",
        "You exceeded your current quota",
    ),
    ("broken-anthropic-overloaded.sse", "examples", "sse", "anthropic", "Overloaded"),
]


@pytest.mark.parametrize(
    ("name", "where", "framing", "provider", "message"),
    RECORDINGS,
    ids=[r[0] for r in RECORDINGS],
)
def test_a_recordings_error_records_alone_read_as_its_providers_failure(
    name: str, where: str, framing: str, provider: str, message: str, tmp_path: Path
) -> None:
    path = (STREAMS if where == "real" else EXAMPLES) / name
    if not path.is_file():
        pytest.skip(f"{path} is not here (set SSESCOPE_REAL_STREAMS)")
    body = _error_records_of(path.read_bytes(), framing)
    report = ssescope.inspect(body)
    assert (report.framing, report.provider, report.status) == (framing, provider, "failed")
    assert report.response.error is not None
    assert report.response.error["message"].startswith(message)
    alone = tmp_path / path.name
    alone.write_bytes(body)
    result = run("inspect", str(alone), "--json")
    assert result.code == 4
    assert json.loads(result.out)["provider"] == provider
