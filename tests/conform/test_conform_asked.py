"""Capture mode judges what the recorded request asked for: usage, a forced tool call,
``n``, the token limit, parallel calls, no call, a stream (``.ssecap`` and HAR)."""

from __future__ import annotations

import base64
import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ssescope.conform import PROTOCOLS, ConformResult, exchanges_of, run_checks
from ssescope.conform.asked import READERS, expectation_of
from ssescope.conform.checks_request import NO_REQUEST
from ssescope.containers import CaptureWriter
from tests.cli.cli_helpers import ROOT, run

FIXTURES = ROOT / "tests" / "fixtures"
_SSE = [("content-type", "text/event-stream; charset=utf-8")]
_TOOLS = [
    {
        "type": "function",
        "function": {
            "name": "get_weather",
            "parameters": {"type": "object", "properties": {"city": {"type": "string"}}},
        },
    }
]
_USAGE = {"prompt_tokens": 9, "completion_tokens": 5, "total_tokens": 14}


def _chunk(choices: list[dict[str, Any]], **extra: Any) -> bytes:
    doc = {"id": "c1", "object": "chat.completion.chunk", "choices": choices, **extra}
    return b"data: " + json.dumps(doc).encode() + b"\n\n"


def _text(finish: str = "stop", index: int = 0, **extra: Any) -> bytes:
    return _chunk([{"index": index, "delta": {"role": "assistant", "content": "Hi"}}]) + _chunk(
        [{"index": index, "delta": {}, "finish_reason": finish}], **extra
    )


def _calls(*ids: str, finish: str = "tool_calls", broken: int | None = None) -> bytes:
    out = _chunk([{"index": 0, "delta": {"role": "assistant", "content": None}}])
    for i, call_id in enumerate(ids):
        arguments = '{"city": ' if i == broken else '{"city": "Paris"}'
        head = {
            "index": i,
            "id": call_id,
            "type": "function",
            "function": {"name": "get_weather", "arguments": arguments},
        }
        out += _chunk([{"index": 0, "delta": {"tool_calls": [head]}}])
    return out + _chunk([{"index": 0, "delta": {}, "finish_reason": finish}])


_DONE = b"data: [DONE]\n\n"


def _chat(**extra: Any) -> dict[str, Any]:
    return {"model": "m", "messages": [{"role": "user", "content": "hi"}], "stream": True, **extra}


def _ssecap(
    tmp_path: Path,
    name: str,
    body: bytes,
    request: object,
    *,
    url: str = "https://api.example/v1/chat/completions",
) -> Path:
    path = tmp_path / f"{name}.ssecap"
    req: dict[str, Any] = {"method": "POST", "url": url, "headers": []}
    if request is not None:
        req["body"] = request
    with CaptureWriter(path, request=req, response_status=200, response_headers=_SSE) as cap:
        cap.write_chunk(body, 0.01)
    return path


def _judge(*paths: Path) -> ConformResult:
    return run_checks(exchanges_of(paths))


def _verdict(path: Path, check: str) -> str:
    return _judge(path).result(check).verdict


# -- what a request body says, per protocol ----------------------------------------------


def test_a_chat_request_says_usage_tool_n_limit_and_stream() -> None:
    asked = expectation_of(
        _chat(
            stream_options={"include_usage": True},
            tools=_TOOLS,
            tool_choice="required",
            n=2,
            max_tokens=7,
        ),
        "openai-chat",
    )
    assert asked is not None
    assert (asked.usage, asked.tool, asked.choices, asked.limit, asked.stream) == (
        True,
        "get_weather",
        2,
        7,
        True,
    )
    assert asked.parallel and not asked.no_calls and not asked.stop_allowed
    plain = expectation_of(json.dumps(_chat()), "openai-chat")  # JSON text, as HAR keeps it
    assert plain is not None
    assert (plain.usage, plain.no_calls, plain.parallel) == (False, True, False)
    by_name = expectation_of(
        _chat(tools=_TOOLS, tool_choice={"type": "function", "function": {"name": "x"}}),
        "openai-chat",
    )
    assert by_name is not None and (by_name.tool, by_name.stop_allowed) == ("x", True)
    off = expectation_of(_chat(tools=_TOOLS, parallel_tool_calls=False), "openai-chat")
    assert off is not None and (off.one_call, off.parallel, off.tool) == (True, False, None)
    none = expectation_of(_chat(tools=_TOOLS, tool_choice="none"), "openai-chat")
    assert none is not None and none.no_calls
    unstreamed = expectation_of({**_chat(), "stream": False}, "openai-chat")
    assert unstreamed is not None and (unstreamed.stream, unstreamed.usage) == (False, None)


def test_required_with_several_tools_forces_any_of_them() -> None:
    two = [*_TOOLS, {"type": "function", "function": {"name": "get_time"}}]
    asked = expectation_of(_chat(tools=two, tool_choice="required"), "openai-chat")
    assert asked is not None and (asked.tool, asked.any_tool) == (None, True)


def test_responses_anthropic_and_gemini_requests() -> None:
    responses = expectation_of(
        {
            "input": "hi",
            "stream": True,
            "tools": [{"type": "function", "name": "f"}],
            "tool_choice": {"type": "function", "name": "f"},
            "max_output_tokens": 16,
        },
        "openai-responses",
    )
    assert responses is not None
    assert (responses.tool, responses.limit, responses.usage, responses.choices) == (
        "f",
        16,
        None,
        1,
    )
    anthropic = expectation_of(
        {
            "max_tokens": 1024,
            "stream": True,
            "tools": [{"name": "a", "input_schema": {}}, {"name": "b", "input_schema": {}}],
            "tool_choice": {"type": "any", "disable_parallel_tool_use": True},
        },
        "anthropic",
    )
    assert anthropic is not None
    assert (anthropic.tool, anthropic.any_tool, anthropic.one_call, anthropic.limit) == (
        None,
        True,
        True,
        1024,
    )
    refused = expectation_of(
        {"tools": [{"name": "a", "input_schema": {}}], "tool_choice": {"type": "none"}},
        "anthropic",
    )
    assert refused is not None and refused.no_calls
    gemini = expectation_of(
        {
            "tools": [{"function_declarations": [{"name": "g"}]}],
            "tool_config": {"function_calling_config": {"mode": "any"}},
            "generation_config": {"candidate_count": 2, "max_output_tokens": 5},
        },
        "gemini",
    )
    assert gemini is not None
    assert (gemini.tool, gemini.choices, gemini.limit, gemini.stream) == ("g", 2, 5, None)


@pytest.mark.parametrize("body", ["not json", "[1, 2]", 42, b"\xff"])
def test_a_body_that_is_not_a_json_object_says_nothing(body: object) -> None:
    assert expectation_of(body, "openai-chat") is None


def test_an_unread_protocol_says_nothing() -> None:
    assert expectation_of(_chat(), "vercel-ui") is None


def test_ollama_cohere_and_bedrock_requests() -> None:
    ollama = expectation_of(
        {"model": "m", "messages": [], "tools": _TOOLS, "options": {"num_predict": 8}}, "ollama"
    )
    assert ollama is not None
    assert (ollama.limit, ollama.no_calls, ollama.parallel, ollama.tool) == (8, False, True, None)
    endless = expectation_of({"model": "m", "options": {"num_predict": -1}}, "ollama")
    assert endless is not None and (endless.limit, endless.no_calls) == (None, True)
    cohere = expectation_of(
        {"stream": True, "tools": _TOOLS, "tool_choice": "REQUIRED", "max_tokens": 50}, "cohere"
    )
    assert cohere is not None
    assert (cohere.tool, cohere.limit, cohere.stream) == ("get_weather", 50, True)
    converse: dict[str, Any] = {
        "messages": [],
        "inferenceConfig": {"maxTokens": 64},
        "toolConfig": {
            "tools": [{"toolSpec": {"name": "a"}}, {"toolSpec": {"name": "b"}}],
            "toolChoice": {"tool": {"name": "b"}},
        },
    }
    bedrock = expectation_of(converse, "bedrock")
    assert bedrock is not None
    assert (bedrock.tool, bedrock.any_tool, bedrock.limit) == ("b", False, 64)
    anyone = {**converse, "toolConfig": {**converse["toolConfig"], "toolChoice": {"any": {}}}}
    forced = expectation_of(anyone, "bedrock")
    assert forced is not None and (forced.tool, forced.any_tool) == (None, True)
    invoke = {"anthropic_version": "bedrock-2023-05-31", "max_tokens": 9, "messages": []}
    whole = expectation_of(invoke, "bedrock")  # an Anthropic body sent to InvokeModel
    assert whole is not None and (whole.limit, whole.stream, whole.no_calls) == (9, None, True)


@pytest.mark.parametrize("protocol", list(PROTOCOLS))
def test_each_url_case_reads_back_as_what_it_states(protocol: str) -> None:
    for case in PROTOCOLS[protocol]("m"):
        if case.expect.reject or case.expect.hangup:
            continue  # what only URL mode knows: not in the body
        asked = expectation_of(case.body, protocol)
        assert asked is not None, case.id
        stated = case.expect
        got = (asked.usage, asked.tool, asked.choices, asked.no_calls)
        assert got == (stated.usage, stated.tool, stated.choices, stated.no_calls), case.id
        # a request offering tools allows parallel calls unless it turns them off
        assert asked.parallel == (not stated.no_calls), case.id


# -- each request check, passing and failing on captures ---------------------------------


def test_usage_as_asked_on_captures(tmp_path: Path) -> None:
    asked = _chat(stream_options={"include_usage": True})
    with_usage = _text() + _chunk([], usage=_USAGE) + _DONE
    cases = {
        "asked-sent": (asked, with_usage, "pass"),
        "asked-missing": (asked, _text() + _DONE, "fail"),
        "unasked-sent": (_chat(), with_usage, "fail"),
        "unasked-none": (_chat(), _text() + _DONE, "pass"),
    }
    for name, (request, body, verdict) in cases.items():
        path = _ssecap(tmp_path, name, body, request)
        assert _verdict(path, "request.usage-as-asked") == verdict, name
    result = _judge(tmp_path / "unasked-sent.ssecap")
    evidence = result.result("request.usage-as-asked").evidence[0]
    assert "include_usage was off" in evidence.excerpt
    assert evidence.exchange.endswith("unasked-sent.ssecap") and evidence.record is not None
    # usage.reported leaves a request that did not ask for usage to usage-as-asked
    assert result.result("usage.reported").verdict == "skip"


def test_forced_tool_call_on_captures(tmp_path: Path) -> None:
    forced = _chat(tools=_TOOLS, tool_choice="required")
    by_name = _chat(
        tools=_TOOLS, tool_choice={"type": "function", "function": {"name": "get_weather"}}
    )
    cases = {
        "called": (forced, _calls("call_1") + _DONE, "pass"),
        "text-instead": (forced, _text() + _DONE, "fail"),
        "call-under-stop": (forced, _calls("call_1", finish="stop") + _DONE, "fail"),
        # OpenAI itself ends a Chat call forced by name with finish_reason stop
        "by-name-stop": (by_name, _calls("call_1", finish="stop") + _DONE, "pass"),
    }
    for name, (request, body, verdict) in cases.items():
        path = _ssecap(tmp_path, name, body, request)
        assert _verdict(path, "request.forced-tool-call") == verdict, name
    # nor is that stop held against the call by tools.finish-reason
    assert _verdict(tmp_path / "by-name-stop.ssecap", "tools.finish-reason") == "skip"
    assert _verdict(tmp_path / "call-under-stop.ssecap", "tools.finish-reason") == "fail"
    evidence = _judge(tmp_path / "text-instead.ssecap").result("request.forced-tool-call")
    assert "forced a call to get_weather; the reply holds no tool call" in (
        evidence.evidence[0].excerpt
    )


def test_n_choices_on_captures(tmp_path: Path) -> None:
    n2 = _chat(n=2)
    both = _ssecap(tmp_path, "both", _text() + _text(index=1) + _DONE, n2)
    one = _ssecap(tmp_path, "one", _text() + _DONE, n2)
    assert _verdict(both, "request.n-choices") == "pass"
    failed = _judge(one).result("request.n-choices")
    assert failed.verdict == "fail"
    assert "asked for 2 choices; got indexes [0]" in failed.evidence[0].excerpt
    assert _verdict(_ssecap(tmp_path, "n1", _text() + _DONE, _chat()), "request.n-choices") == (
        "skip"
    )


def test_the_token_limit_on_captures(tmp_path: Path) -> None:
    limit = _chat(max_tokens=5)
    cases = {
        "cut-says-length": (_text("length", usage=_USAGE), "pass"),
        "cut-says-stop": (_text("stop", usage=_USAGE), "fail"),
        "under-the-limit": (_text("stop", usage={**_USAGE, "completion_tokens": 2}), "skip"),
        "no-count": (_text("stop"), "skip"),
    }
    for name, (body, verdict) in cases.items():
        path = _ssecap(tmp_path, name, body + _DONE, limit)
        assert _verdict(path, "request.cut-is-incomplete") == verdict, name
    result = _judge(tmp_path / "cut-says-stop.ssecap").result("request.cut-is-incomplete")
    assert "used 5 output tokens of the request's limit of 5" in result.evidence[0].excerpt
    skipped = _judge(tmp_path / "under-the-limit.ssecap").result("request.cut-is-incomplete")
    assert skipped.reason == "the reply stayed under the token limit (2 of 5 tokens)"


def test_parallel_calls_on_captures(tmp_path: Path) -> None:
    allowed = _chat(tools=_TOOLS)
    off = _chat(tools=_TOOLS, parallel_tool_calls=False)
    distinct = _ssecap(tmp_path, "distinct", _calls("a", "b") + _DONE, allowed)
    broken = _ssecap(tmp_path, "broken", _calls("a", "b", broken=1) + _DONE, allowed)
    assert _verdict(distinct, "request.parallel-calls") == "pass"
    failed = _judge(broken).result("request.parallel-calls")
    assert failed.verdict == "fail"
    assert "arguments that do not parse: get_weather" in failed.evidence[0].excerpt
    two_when_off = _ssecap(tmp_path, "two-off", _calls("a", "b") + _DONE, off)
    one_when_off = _ssecap(tmp_path, "one-off", _calls("a") + _DONE, off)
    failed = _judge(two_when_off).result("request.one-call")
    assert failed.verdict == "fail"
    assert "parallel tool calls were off, yet the reply made 2 calls" in failed.evidence[0].excerpt
    assert _verdict(one_when_off, "request.one-call") == "pass"
    assert _verdict(distinct, "request.one-call") == "skip"


def test_no_unasked_call_on_captures(tmp_path: Path) -> None:
    unoffered = _ssecap(tmp_path, "unoffered", _calls("a") + _DONE, _chat())
    forbidden = _ssecap(
        tmp_path, "forbidden", _calls("a") + _DONE, _chat(tools=_TOOLS, tool_choice="none")
    )
    text = _ssecap(tmp_path, "text", _text() + _DONE, _chat())
    for path in (unoffered, forbidden):
        failed = _judge(path).result("request.no-unasked-call")
        assert failed.verdict == "fail", path
        assert "yet the reply calls get_weather" in failed.evidence[0].excerpt
    assert _verdict(text, "request.no-unasked-call") == "pass"


def test_a_reply_to_a_request_that_did_not_stream_is_not_judged_as_a_stream(
    tmp_path: Path,
) -> None:
    whole = json.dumps(
        {
            "id": "c1",
            "object": "chat.completion",
            "choices": [
                {
                    "index": 0,
                    "message": {"role": "assistant", "content": "Hi"},
                    "finish_reason": "stop",
                }
            ],
        }
    ).encode()
    asked_stream = _ssecap(tmp_path, "asked", whole, _chat())
    not_asked = _ssecap(tmp_path, "not-asked", whole, {**_chat(), "stream": False})
    assert _verdict(asked_stream, "stream.streamed") == "fail"
    skipped = _judge(not_asked).result("stream.streamed")
    assert skipped.verdict == "skip" and "did not ask for a stream" in skipped.reason


def test_a_capture_without_its_request_skips_them(tmp_path: Path) -> None:
    path = _ssecap(tmp_path, "bare", _calls("a") + _DONE, None)
    (exchange,) = exchanges_of([path])
    assert (exchange.request_body, exchange.expect) == (None, None)
    kept = _ssecap(tmp_path, "kept", _calls("a") + _DONE, _chat())
    assert next(iter(exchanges_of([kept]))).request_body == _chat()
    result = _judge(path)
    for check in ("request.usage-as-asked", "request.forced-tool-call", "request.n-choices"):
        assert result.result(check).verdict == "skip"
        assert result.result(check).reason == NO_REQUEST
    raw = tmp_path / "raw.sse"
    raw.write_bytes(_text() + _DONE)
    assert _judge(raw).result("request.no-unasked-call").reason == NO_REQUEST
    text = _ssecap(tmp_path, "text-body", _text() + _DONE, "model=m&stream=1")
    assert _judge(text).result("request.n-choices").reason == (
        "the recorded request body is not a JSON object"
    )


def test_what_only_url_mode_knows_skips_every_capture(tmp_path: Path) -> None:
    path = _ssecap(tmp_path, "known", _text() + _DONE, _chat())
    result = _judge(path)
    for check in ("request.answered", "request.invalid-rejected", "hangup.upstream-closed"):
        assert result.result(check).verdict == "skip"
        assert "URL mode" in result.result(check).reason


def test_an_anthropic_capture_forced_by_name(tmp_path: Path) -> None:
    stream = (FIXTURES / "anthropic" / "text-then-tool.sse").read_bytes()
    forced = {
        "model": "m",
        "max_tokens": 1024,
        "stream": True,
        "messages": [{"role": "user", "content": "hi"}],
        "tools": [{"name": "get_weather", "input_schema": {"type": "object"}}],
        "tool_choice": {"type": "tool", "name": "get_weather"},
    }
    url = "https://api.example/v1/messages"
    ok = _ssecap(tmp_path, "anthropic-ok", stream, forced, url=url)
    assert _verdict(ok, "request.forced-tool-call") == "pass"
    other = {**forced, "tool_choice": {"type": "tool", "name": "get_time"}}
    wrong = _ssecap(tmp_path, "anthropic-wrong", stream, other, url=url)
    failed = _judge(wrong).result("request.forced-tool-call")
    assert failed.verdict == "fail"
    assert "forced a call to get_time; the reply holds get_weather" in failed.evidence[0].excerpt
    # the request offered tools: usage is always sent, so usage-as-asked is not Anthropic's
    assert _judge(ok).result("request.usage-as-asked").verdict == "skip"


def _har(tmp_path: Path, entries: list[tuple[dict[str, Any], bytes]]) -> Path:
    har = {
        "log": {
            "version": "1.2",
            "entries": [
                {
                    "startedDateTime": "2026-01-01T00:00:00Z",
                    "time": 10,
                    "request": {
                        "method": "POST",
                        "url": "https://api.example/v1/chat/completions",
                        "headers": [{"name": "content-type", "value": "application/json"}],
                        "postData": {"mimeType": "application/json", "text": json.dumps(req)},
                    },
                    "response": {
                        "status": 200,
                        "headers": [{"name": "content-type", "value": "text/event-stream"}],
                        "content": {
                            "mimeType": "text/event-stream",
                            "encoding": "base64",
                            "text": base64.b64encode(body).decode(),
                        },
                    },
                }
                for req, body in entries
            ],
        }
    }
    path = tmp_path / "session.har"
    path.write_text(json.dumps(har), encoding="utf-8")
    return path


def test_a_har_entry_keeps_its_request(tmp_path: Path) -> None:
    path = _har(
        tmp_path,
        [
            (_chat(n=2), _text() + _DONE),  # one choice of two
            (_chat(stream_options={"include_usage": True}), _text(usage=_USAGE) + _DONE),
        ],
    )
    exchanges = list(exchanges_of([path]))
    assert [e.expect is not None for e in exchanges] == [True, True]
    assert exchanges[0].request_body == json.dumps(_chat(n=2))  # postData's text, as recorded
    result = run_checks(exchanges)
    failed = result.result("request.n-choices")
    assert failed.verdict == "fail" and failed.evidence[0].exchange == f"{path}#0"
    assert result.result("request.usage-as-asked").verdict == "pass"
    assert result.result("request.usage-as-asked").judged == 2


def test_cli_json_reports_the_checks_of_the_request(tmp_path: Path) -> None:
    path = _ssecap(tmp_path, "forced", _text() + _DONE, _chat(tools=_TOOLS, tool_choice="required"))
    bare = _ssecap(tmp_path, "bare", _text() + _DONE, None)
    result = run("conform", "--json", str(path))
    assert result.code == 5, result.err
    checks = {c["id"]: c for c in json.loads(result.out)["checks"]}
    assert checks["request.forced-tool-call"]["verdict"] == "fail"
    assert checks["request.forced-tool-call"]["evidence"][0]["exchange"] == str(path)
    skipped = run("conform", "--json", str(bare))
    assert skipped.code == 0, skipped.err
    entry = next(c for c in json.loads(skipped.out)["checks"] if c["id"] == "request.n-choices")
    assert (entry["verdict"], entry["reason"]) == ("skip", NO_REQUEST)


def test_an_ollama_capture_is_judged_against_its_request(tmp_path: Path) -> None:
    stream = (FIXTURES / "ollama" / "chat-tool-calls.ndjson").read_bytes()
    url = "http://127.0.0.1:11434/api/chat"
    offered = {"model": "m", "messages": [], "tools": _TOOLS}
    unoffered = {"model": "m", "messages": []}
    ok = _ssecap(tmp_path, "ollama-offered", stream, offered, url=url)
    bad = _ssecap(tmp_path, "ollama-unoffered", stream, unoffered, url=url)
    assert _judge(ok).exchanges == 1
    assert _verdict(ok, "request.no-unasked-call") == "skip"
    assert _verdict(bad, "request.no-unasked-call") == "fail"


_KEYS = (
    "tools",
    "tool_choice",
    "function_call",
    "functions",
    "n",
    "max_tokens",
    "max_output_tokens",
    "stream",
    "stream_options",
    "parallel_tool_calls",
    "toolConfig",
    "generationConfig",
    "options",
    "inferenceConfig",
    "anthropic_version",
    "name",
    "type",
    "function",
    "functionDeclarations",
    "toolSpec",
    "tool",
    "any",
    "mode",
)
_JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=4),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.sampled_from(_KEYS), inner, max_size=3)
    ),
    max_leaves=12,
)


@given(st.dictionaries(st.sampled_from(_KEYS), _JSON, max_size=6))
@settings(max_examples=200, deadline=None)
def test_any_body_gives_an_expectation_or_none_never_an_exception(body: dict[str, Any]) -> None:
    for protocol in READERS:
        asked = expectation_of(body, protocol)
        assert asked is not None
        assert asked.choices >= 1 and (asked.limit is None or asked.limit > 0)
