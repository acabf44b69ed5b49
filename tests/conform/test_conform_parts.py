"""The parts of conform and serve that URL mode stands on: JUnit XML read by a JUnit
library, the wire facts, serve's request matching, stream headers and log of served streams."""

from __future__ import annotations

import json
from pathlib import Path

import httpx
from junitparser import Failure, JUnitXml, Skipped

from ssescope.conform import exchanges_of, run_checks
from ssescope.conform.junit import SUITE_NAME, junit_xml
from ssescope.conform.wire import Tally, wire_of
from ssescope.serve.app import SERVED_PATH, ReplayOptions, ServerThread, load_captures, make_app
from ssescope.serve.match import features, pick
from tests.cli.cli_helpers import ROOT

FIXTURES = ROOT / "tests" / "fixtures"
_CHAT = (
    b'data: {"id":"c1","object":"chat.completion.chunk","choices":[{"index":0,'
    b'"delta":{"role":"assistant","content":"h\xc3\xa9"}}]}\n\n'
    b'data: {"id":"c1","object":"chat.completion.chunk","choices":[{"index":0,'
    b'"delta":{},"finish_reason":"stop"}]}\n\n'
    b"data: [DONE]\n\n"
)


def test_junit_xml_reads_back_in_a_junit_library(tmp_path: Path) -> None:
    result = run_checks(exchanges_of([FIXTURES / "openai_chat" / "finish-without-done.sse"]))
    path = tmp_path / "conform.xml"
    path.write_text(junit_xml(result), encoding="utf-8")
    suites = JUnitXml.fromfile(str(path))
    suite = next(iter(suites))
    assert suite.name == SUITE_NAME
    cases = list(suite)
    assert [c.name for c in cases] == [r.check.id for r in result.checks]
    assert suite.tests == len(result.checks)
    by_id = {c.name: c for c in cases}
    for r in result.checks:
        case = by_id[r.check.id]
        kinds = {type(x) for x in case.result}
        if r.verdict == "fail":
            assert kinds == {Failure}
            failure = case.result[0]
            assert failure.type == r.check.severity
            assert r.check.source in (failure.text or "")
        elif r.verdict == "skip":
            assert kinds == {Skipped}
            assert case.result[0].message == r.reason
        else:
            assert case.is_passed
    done = by_id["terminal.done-marker"].result[0]
    assert "finish-without-done.sse" in (done.text or "")
    assert suite.failures == len(result.failed())


def test_wire_facts_of_line_ends_data_lines_and_split_characters() -> None:
    clean = wire_of([_CHAT], chat=True)
    assert (clean.cr_lines, clean.multi_line_data, clean.split_chars) == (Tally(),) * 3
    assert clean.chat is not None and clean.chat.roleless == Tally()
    crlf = wire_of([_CHAT.replace(b"\n", b"\r\n")])
    assert crlf.cr_lines == Tally(3, 0)
    split_at = _CHAT.index(b"\xc3") + 1
    split = wire_of([_CHAT[:split_at], _CHAT[split_at:]])
    assert split.split_chars == Tally(1, split_at)
    assert wire_of([_CHAT[:split_at], _CHAT[split_at:]], chunked=False).split_chars.count == 0
    lines = b'data: {"a":\ndata: 1}\n\n'
    assert wire_of([lines]).multi_line_data.count == 1
    repeated = _CHAT.replace(
        b'"delta":{"role":"assistant","content":"h\xc3\xa9"}}',
        (b'"delta":{"content":"h"},"finish_reason":"stop"}'),
    )
    shape = wire_of([repeated], chat=True).chat
    assert shape is not None
    assert (shape.finish_repeated.count, shape.roleless) == (1, Tally(1, 0))


def test_serve_matches_a_request_by_what_it_says_and_asks() -> None:
    class Rec:
        def __init__(self, request: object) -> None:
            self.request = request

    ask = {"model": "m", "messages": [{"role": "user", "content": "Tell me a joke now"}]}
    captures = {
        "a-joke": Rec(ask),
        "b-joke-usage": Rec({**ask, "stream_options": {"include_usage": True}}),
        "c-other": Rec({"model": "m", "messages": [{"role": "user", "content": "Say hi there"}]}),
        "d-none": Rec(None),
    }
    assert pick(captures, ask) == "a-joke"
    assert pick(captures, {**ask, "stream_options": {"include_usage": True}}) == "b-joke-usage"
    translated = {"messages": [{"role": "user", "content": [{"text": "Say hi there"}]}]}
    assert pick(captures, translated) == "c-other"
    assert pick({"d-none": Rec(None)}, ask) is None
    assert "said=Tell me a joke now" in features(json.dumps(ask))
    assert "messages[].role=user" not in features(ask)  # messages are read for texts only
    assert features(b"not json") == frozenset()


def test_serve_sends_the_stream_headers_and_logs_each_stream(tmp_path: Path) -> None:
    (tmp_path / "chat.sse").write_bytes(_CHAT)
    app = make_app(load_captures(tmp_path / "chat.sse"), ReplayOptions(), log=_Null())
    with ServerThread(app) as server:
        plain = httpx.post(server.url + "/v1/chat/completions")
        buffered = httpx.post(server.url + "/v1/chat/completions?quirk=proxy-buffered")
        log = httpx.get(server.url + SERVED_PATH).json()["served"]
    assert plain.headers["x-accel-buffering"] == "no"
    assert plain.headers["cache-control"] == "no-cache"
    assert "x-accel-buffering" not in buffered.headers
    assert [(e["n"], e["capture"], e["state"]) for e in log] == [
        (1, "chat", "complete"),
        (2, "chat", "complete"),
    ]
    assert log[0]["bytes"] == len(_CHAT)


def test_serve_answers_a_recorded_error_status_as_one(tmp_path: Path) -> None:
    from ssescope.containers import CaptureWriter

    with CaptureWriter(
        tmp_path / "bad.ssecap",
        request={"method": "POST", "url": "/v1/x", "headers": [], "body": {"model": "m"}},
        response_status=400,
        response_headers=[("content-type", "application/json")],
    ) as capture:
        capture.write_chunk(b'{"error":{"message":"no"}}', 0.0)
    app = make_app(load_captures(tmp_path / "bad.ssecap"), ReplayOptions(), log=_Null())
    with ServerThread(app) as server:
        answer = httpx.post(server.url + "/v1/x", json={"model": "m"})
    assert answer.status_code == 400
    assert answer.json() == {"error": {"message": "no"}}


class _Null:
    def write(self, text: str, /) -> object:
        return len(text)

    def flush(self) -> None:
        pass


def test_an_unreachable_upstream_saw_nothing() -> None:
    from ssescope.conform.upstream import Upstream

    upstream = Upstream("http://127.0.0.1:9", 0.3)
    assert upstream.mark() == 0
    view = upstream.after_hangup(0)
    assert (view.seen, view.closed) == (False, False)
    assert view.waited >= 0.3
