"""``ssescope conform URL``: the request set sent to a server (``ssescope serve``) and judged."""

from __future__ import annotations

import asyncio
import json
import time
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from pathlib import Path

import pytest
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from ssescope.conform import cases_for, exchanges_of, run_checks
from ssescope.conform.live import Target, join_url, url_exchanges
from ssescope.serve.app import ReplayOptions, ServerThread, load_captures, make_app
from tests.cli.cli_helpers import ROOT, run

FIXTURES = ROOT / "tests" / "fixtures"
KEY = "sk-test-conform-0123456789abcdef"


@pytest.fixture(scope="module")
def chat_server() -> Iterator[str]:
    """A replay of a plain chat stream (with usage), answering every request alike."""
    captures = load_captures(FIXTURES / "openai_chat" / "text-usage-done.sse")
    with ServerThread(make_app(captures, ReplayOptions(delay="20"))) as server:
        yield server.url


def _json(*args: str, env: dict[str, str] | None = None) -> tuple[int, dict[str, object]]:
    result = run("conform", *args, "--json", env=env)
    return result.code, json.loads(result.out)


def _verdicts(doc: dict[str, object]) -> dict[str, str]:
    checks = doc["checks"]
    assert isinstance(checks, list)
    return {c["id"]: c["verdict"] for c in checks}


def _evidence(doc: dict[str, object], check_id: str) -> list[dict[str, object]]:
    checks = doc["checks"]
    assert isinstance(checks, list)
    found = [c for c in checks if c["id"] == check_id]
    assert found, check_id
    evidence = found[0]["evidence"]
    assert isinstance(evidence, list)
    return evidence


def test_join_url_appends_the_path_and_merges_the_queries() -> None:
    assert join_url("http://h:1/v1", "/chat/completions") == "http://h:1/v1/chat/completions"
    assert join_url("http://h:1/v1/", "/responses") == "http://h:1/v1/responses"
    assert (
        join_url("http://h:1/v1beta?quirk=x", "/models/m:streamGenerateContent?alt=sse")
        == "http://h:1/v1beta/models/m:streamGenerateContent?quirk=x&alt=sse"
    )


def test_a_replay_that_ignores_the_request_fails_the_request_checks(chat_server: str) -> None:
    code, doc = _json(
        chat_server + "/v1", "--protocol", "openai-chat", "--model", "m", "--timeout", "10"
    )
    verdicts = _verdicts(doc)
    assert code == 5
    assert doc["exchanges"] == len(cases_for("openai-chat", "m"))
    # the replay answers text with usage to every request, whatever it asked
    assert verdicts["request.forced-tool-call"] == "fail"
    assert verdicts["request.n-choices"] == "fail"
    assert verdicts["request.cut-is-incomplete"] == "fail"
    assert verdicts["request.invalid-rejected"] == "fail"
    assert verdicts["request.usage-as-asked"] == "fail"
    assert [e["exchange"] for e in _evidence(doc, "request.forced-tool-call")] == ["tool-forced"]
    assert _evidence(doc, "request.invalid-rejected")[0]["excerpt"] == (
        "an invalid request was answered HTTP 200, not 4xx"
    )
    # ...and the stream itself is a good one
    assert verdicts["request.answered"] == "pass"
    assert verdicts["terminal.done-marker"] == "pass"
    assert verdicts["http.accel-buffering"] == "pass"
    assert verdicts["hangup.server-survives"] == "pass"
    assert verdicts["hangup.upstream-closed"] == "skip"


def test_the_usage_check_knows_which_request_asked(chat_server: str) -> None:
    _, doc = _json(
        chat_server + "/v1", "--protocol", "openai-chat", "--model", "m", "--case", "usage"
    )
    assert _verdicts(doc)["request.usage-as-asked"] == "pass"
    _, doc = _json(
        chat_server + "/v1", "--protocol", "openai-chat", "--model", "m", "--case", "plain"
    )
    assert _verdicts(doc)["request.usage-as-asked"] == "fail"
    assert _evidence(doc, "request.usage-as-asked")[0]["exchange"] == "plain"


_TOOL_CALL = (
    b'data: {"id":"c1","object":"chat.completion.chunk","choices":[{"index":0,"delta":'
    b'{"role":"assistant","tool_calls":[{"index":0,"id":"call_1","type":"function",'
    b'"function":{"name":"get_weather","arguments":""}}]}}]}\n\n'
    b'data: {"id":"c1","object":"chat.completion.chunk","choices":[{"index":0,"delta":'
    b'{"tool_calls":[{"index":0,"function":{"arguments":"{\\"city\\": \\"Paris\\"}"}}]}}]}\n\n'
    b'data: {"id":"c1","object":"chat.completion.chunk","choices":[{"index":0,"delta":{},'
    b'"finish_reason":"tool_calls"}]}\n\n'
    b"data: [DONE]\n\n"
)


def test_a_forced_tool_call_passes_against_a_replay_calling_the_tool(tmp_path: Path) -> None:
    (tmp_path / "call.sse").write_bytes(_TOOL_CALL)
    with ServerThread(make_app(load_captures(tmp_path / "call.sse"))) as server:
        code, doc = _json(
            server.url + "/v1",
            "--protocol",
            "openai-chat",
            "--model",
            "m",
            "--case",
            "tool-forced",
        )
    verdicts = _verdicts(doc)
    assert verdicts["request.forced-tool-call"] == "pass"
    assert verdicts["tools.finish-reason"] == "pass"
    assert verdicts["request.usage-as-asked"] == "pass"
    assert code == 0


def test_a_forced_call_under_finish_reason_stop_fails(tmp_path: Path) -> None:
    (tmp_path / "stop.sse").write_bytes(_TOOL_CALL.replace(b'"tool_calls"}', b'"stop"}'))
    with ServerThread(make_app(load_captures(tmp_path / "stop.sse"))) as server:
        _, doc = _json(
            server.url + "/v1",
            "--protocol",
            "openai-chat",
            "--model",
            "m",
            "--case",
            "tool-forced",
        )
    assert _evidence(doc, "request.forced-tool-call")[0]["excerpt"] == (
        "the forced call ended with finish reason stop"
    )


def test_a_replay_calling_another_tool_fails_the_forced_call() -> None:
    captures = load_captures(FIXTURES / "openai_chat" / "n2-text-and-tool.sse")
    with ServerThread(make_app(captures)) as server:
        _, doc = _json(
            server.url + "/v1",
            "--protocol",
            "openai-chat",
            "--model",
            "m",
            "--case",
            "tool-forced",
            "--case",
            "n2",
        )
    verdicts = _verdicts(doc)
    assert verdicts["request.forced-tool-call"] == "fail"
    assert _evidence(doc, "request.forced-tool-call")[0]["excerpt"] == (
        "the request forced a call to get_weather; the reply holds weather"
    )
    assert verdicts["request.n-choices"] == "pass"
    # the engine was given the request: the call to a tool it did not offer is found
    assert verdicts["tool.arguments-match-schema"] == "fail"


def test_the_hangup_reaches_the_upstream_log(chat_server: str) -> None:
    target = Target(chat_server + "/v1", "openai-chat", timeout=10, upstream=chat_server)
    exchanges = list(url_exchanges(target, cases_for("openai-chat", "m", ("hangup",))))
    hangup = exchanges[0]
    assert hangup.case is not None and hangup.case.id == "hangup"
    assert hangup.report.status == "cancelled"
    assert hangup.upstream is not None and hangup.upstream.seen and hangup.upstream.closed
    result = run_checks(exchanges)
    assert result.result("hangup.upstream-closed").verdict == "pass"
    # the stream the client hung up on is not judged as a stream
    assert result.result("terminal.reached").verdict == "pass"
    assert result.result("terminal.reached").judged == 1


def test_an_unreachable_server_fails_request_answered() -> None:
    target = Target("http://127.0.0.1:9/v1", "openai-chat", timeout=2)
    exchanges = list(url_exchanges(target, cases_for("openai-chat", "m", ("plain",))))
    result = run_checks(exchanges)
    answered = result.result("request.answered")
    assert answered.verdict == "fail"
    assert "no answer" in answered.evidence[0].excerpt


def _silent_app() -> Starlette:
    """A server that accepts each request and never answers it (until the client leaves)."""

    async def silent(request: Request) -> Response:
        for _ in range(100):
            if await request.is_disconnected():
                break
            await asyncio.sleep(0.05)
        return Response(b"", media_type="text/event-stream")

    return Starlette(routes=[Route("/{path:path}", silent, methods=["POST"])])


def test_a_server_that_never_answers_fails_request_answered_within_the_timeout() -> None:
    with ServerThread(_silent_app()) as server:
        started = time.monotonic()
        code, doc = _json(
            server.url + "/v1",
            "--protocol",
            "openai-chat",
            "--model",
            "m",
            "--case",
            "plain",
            "--timeout",
            "1",
        )
        waited = time.monotonic() - started
    assert code == 5
    assert _verdicts(doc)["request.answered"] == "fail"
    excerpt = str(_evidence(doc, "request.answered")[0]["excerpt"])
    assert "no answer" in excerpt and "timed out" in excerpt
    assert waited < 4  # the one-second timeout, not the server's five seconds


def _echo_app() -> Starlette:
    """A server that echoes the request's key back in its error body, and refuses all."""

    async def echo(request: Request) -> Response:
        auth = request.headers.get("authorization", "")
        return JSONResponse(
            {"error": {"message": f"bad key {auth}", "type": "invalid_request_error"}},
            status_code=401,
        )

    return Starlette(routes=[Route("/{path:path}", echo, methods=["POST"])])


def test_the_key_is_redacted_in_every_output(tmp_path: Path) -> None:
    junit = tmp_path / "conform.xml"
    record = tmp_path / "record"
    with ServerThread(_echo_app()) as server:
        result = run(
            "conform",
            server.url + "/v1",
            "--protocol",
            "openai-chat",
            "--model",
            "m",
            "--case",
            "plain",
            "--case",
            "reject",
            "--junit",
            str(junit),
            "--record",
            str(record),
            "--json",
            env={"OPENAI_API_KEY": KEY},
        )
        table = run(
            "conform",
            server.url + "/v1",
            "--protocol",
            "openai-chat",
            "--model",
            "m",
            "--case",
            "plain",
            "--header-env",
            "X-Extra-Key=EXTRA_KEY",
            env={"EXTRA_KEY": KEY + "-extra"},
        )
    assert result.code == 5
    doc = json.loads(result.out)
    assert _verdicts(doc)["request.answered"] == "fail"
    assert _verdicts(doc)["request.invalid-rejected"] == "pass"
    written = [result.out, junit.read_text(), table.out, table.err, result.err]
    written += [p.read_text("utf-8", "replace") for p in sorted(record.iterdir())]
    assert sorted(p.name for p in record.iterdir()) == ["plain.ssecap", "reject.ssecap"]
    for text in written:
        assert KEY not in text
    assert "HTTP 401" in table.out


def test_recorded_exchanges_are_captures_conform_reads_again(
    chat_server: str, tmp_path: Path
) -> None:
    target = Target(chat_server + "/v1", "openai-chat", timeout=10, record=tmp_path)
    live = run_checks(url_exchanges(target, cases_for("openai-chat", "m", ("plain", "n2"))))
    again = run_checks(exchanges_of([tmp_path]))
    assert again.exchanges == 2
    # the captures keep their requests: what each asked is read back from it, and every
    # check but those of what only URL mode knows (a valid request, a hang-up) agrees
    for r in again.checks:
        if r.check.needs_case:
            assert r.verdict == "skip"
        else:
            assert r.verdict == live.result(r.check.id).verdict, r.check.id
    assert again.result("request.n-choices").judged == 1
    assert again.result("request.usage-as-asked").judged == 2


def test_junit_has_one_testcase_per_check(chat_server: str, tmp_path: Path) -> None:
    junit = tmp_path / "out.xml"
    result = run(
        "conform",
        chat_server + "/v1",
        "--protocol",
        "openai-chat",
        "--model",
        "m",
        "--case",
        "plain",
        "--junit",
        str(junit),
    )
    assert result.code == 0
    root = ET.parse(junit).getroot()
    assert root.tag == "testsuites"
    suite = root.find("testsuite")
    assert suite is not None
    cases = suite.findall("testcase")
    doc = json.loads(
        run(
            "conform",
            chat_server + "/v1",
            "--protocol",
            "openai-chat",
            "--model",
            "m",
            "--case",
            "plain",
            "--json",
        ).out
    )
    assert [c.get("name") for c in cases] == [c["id"] for c in doc["checks"]]
    failed = [c for c in cases if c.find("failure") is not None]
    skipped = [c for c in cases if c.find("skipped") is not None]
    assert suite.get("failures") == str(len(failed)) and suite.get("skipped") == str(len(skipped))
    usage = next(c for c in cases if c.get("name") == "request.usage-as-asked")
    failure = usage.find("failure")
    assert failure is not None and failure.get("type") == "SHOULD"
    assert "plain" in (failure.text or "")
    assert skipped and all(s.find("skipped").get("message") for s in skipped)  # type: ignore[union-attr]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("http://127.0.0.1:9/v1",), "--protocol"),
        (("http://127.0.0.1:9/v1", "--protocol", "openai-chat"), "--model"),
        (("x.sse", "--protocol", "openai-chat"), "URL mode"),
        (
            ("http://127.0.0.1:9/v1", "--protocol", "anthropic", "--model", "m", "--case", "n2"),
            "no case 'n2'",
        ),
        (
            (
                "http://127.0.0.1:9/v1",
                "--protocol",
                "openai-chat",
                "--model",
                "m",
                "--header-env",
                "X=NO_SUCH_VARIABLE_HERE",
            ),
            "NO_SUCH_VARIABLE_HERE",
        ),
    ],
)
def test_usage_errors(args: tuple[str, ...], message: str) -> None:
    result = run("conform", *args)
    assert result.code == 2
    assert message in result.err


@pytest.mark.parametrize(
    ("protocol", "fixture"),
    [
        ("anthropic", "anthropic/text-then-tool.sse"),
        ("openai-responses", "openai_responses/function-calls-streamed.sse"),
        ("gemini", "gemini/thought-text-stop.sse"),
    ],
)
def test_each_protocol_sends_its_request_set(protocol: str, fixture: str) -> None:
    seen: list[str] = []

    class Log:
        def write(self, text: str, /) -> object:
            seen.append(text)
            return len(text)

        def flush(self) -> None:
            pass

    app = make_app(load_captures(FIXTURES / fixture), log=Log())
    with ServerThread(app) as server:
        code, doc = _json(server.url + "/v1", "--protocol", protocol, "--model", "m1")
    cases = cases_for(protocol, "m1")
    assert doc["exchanges"] == len(cases)
    assert code == 5  # a replay cannot refuse the invalid request
    paths = {line.split()[1] for line in "".join(seen).splitlines() if line.startswith("POST")}
    assert paths == {"/v1" + c.path.split("?")[0] for c in cases}
    verdicts = _verdicts(doc)
    assert verdicts["request.answered"] == "pass"
    assert verdicts["request.invalid-rejected"] == "fail"
    assert verdicts["terminal.reached"] == "pass"
