"""``ssescope conform CAPTURES...``: recorded exchanges judged by the checks."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ssescope.conform import CHECKS, exchanges_of, run_checks
from tests.cli.cli_helpers import ROOT, STREAMS, run

FIXTURES = ROOT / "tests" / "fixtures"

_CHAT_OK = (
    b'data: {"id":"c1","object":"chat.completion.chunk","choices":[{"index":0,'
    b'"delta":{"role":"assistant","content":"Hi"}}]}\n\n'
    b'data: {"id":"c1","object":"chat.completion.chunk","choices":[{"index":0,'
    b'"delta":{},"finish_reason":"stop"}],"usage":{"prompt_tokens":3,'
    b'"completion_tokens":1,"total_tokens":4}}\n\n'
    b"data: [DONE]\n\n"
)
_GOOD_HEADERS = (
    b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream; charset=utf-8\r\n"
    b"Cache-Control: no-cache\r\nX-Accel-Buffering: no\r\n\r\n"
)


def _write(tmp_path: Path, name: str, data: bytes) -> Path:
    path = tmp_path / name
    path.write_bytes(data)
    return path


def _verdicts(*paths: Path) -> dict[str, str]:
    result = run_checks(exchanges_of(paths))
    return {r.check.id: r.verdict for r in result.checks}


def test_a_clean_capture_with_good_headers_passes_every_check(tmp_path: Path) -> None:
    path = _write(tmp_path, "ok.http", _GOOD_HEADERS + _CHAT_OK)
    verdicts = _verdicts(path)
    assert "fail" not in verdicts.values()
    assert verdicts["http.content-type"] == "pass"
    assert verdicts["terminal.done-marker"] == "pass"
    assert verdicts["responses.sequence"] == "skip"


def test_header_checks_fail_on_a_buffered_looking_response(tmp_path: Path) -> None:
    head = (
        b"HTTP/1.1 200 OK\r\nContent-Type: application/json; charset=latin-1\r\n"
        + b"Content-Length: %d\r\n\r\n" % len(_CHAT_OK)
    )
    path = _write(tmp_path, "bad.http", head + _CHAT_OK)
    result = run_checks(exchanges_of([path]))
    failed = {r.check.id for r in result.failed()}
    assert {
        "http.content-type",
        "http.charset",
        "http.no-content-length",
        "http.cache-control",
        "http.accel-buffering",
    } <= failed
    evidence = result.result("http.no-content-length").evidence
    assert evidence[0].excerpt == f"Content-Length: {len(_CHAT_OK)}"
    assert evidence[0].exchange == str(path)
    assert not result.ok


def test_header_checks_skip_a_capture_without_headers(tmp_path: Path) -> None:
    verdicts = _verdicts(_write(tmp_path, "ok.sse", _CHAT_OK))
    assert verdicts["http.content-type"] == "skip"
    assert verdicts["http.accel-buffering"] == "skip"
    assert verdicts["terminal.reached"] == "pass"


@pytest.mark.parametrize(
    ("fixture", "check"),
    [
        ("openai_chat/events-after-done.sse", "terminal.nothing-after"),
        ("openai_chat/finish-without-done.sse", "terminal.done-marker"),
        ("openai_chat/done-without-finish.sse", "terminal.finish-reason"),
        ("openai_chat/truncated-mid-tool-call.sse", "terminal.reached"),
        ("openai_chat/truncated-mid-tool-call.sse", "tools.complete"),
        ("openai_chat/invalid-json-mid-stream.sse", "json.valid"),
        ("openai_chat/parallel-wrapper.sse", "tools.no-parallel-wrapper"),
        ("openai_chat/tool-call-irregularities.sse", "tools.field-types"),
        ("anthropic/spliced-message-start.jsonl", "lifecycle.single-response"),
    ],
)
def test_a_broken_fixture_fails_its_named_check(fixture: str, check: str) -> None:
    result = run_checks(exchanges_of([FIXTURES / fixture]))
    found = result.result(check)
    assert found.verdict == "fail"
    assert found.evidence and found.evidence[0].exchange.endswith(fixture)


def test_the_length_cut_of_a_tool_call_is_not_an_unended_call() -> None:
    result = run_checks(exchanges_of([FIXTURES / "openai_chat/length-mid-tool-call.sse"]))
    assert result.result("tools.complete").verdict == "skip"


def test_stream_diagnostics_map_to_checks(tmp_path: Path) -> None:
    cumulative = (
        b'data: {"id":"c1","choices":[{"index":0,"delta":{"content":"Hello"}}]}\n\n'
        b'data: {"id":"c1","choices":[{"index":0,"delta":{"content":"Hello wor"}}]}\n\n'
        b'data: {"id":"c1","choices":[{"index":0,"delta":{"content":"Hello world, '
        b'and more"}}]}\n\n'
        b'data: {"id":"c2","choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}\n\n'
        b"data: [DONE]\n\n"
    )
    verdicts = _verdicts(_write(tmp_path, "cumulative.sse", cumulative))
    assert verdicts["ids.stable"] == "fail"
    assert verdicts["content.no-cumulative-deltas"] == "fail"


def test_a_folder_is_read_recursively_and_every_har_entry_judged(tmp_path: Path) -> None:
    (tmp_path / "sub").mkdir()
    _write(tmp_path / "sub", "ok.sse", _CHAT_OK)
    _write(tmp_path, "notes.md", b"# not a capture\n")
    har = FIXTURES / "containers" / "devtools-several-streams.har"
    exchanges = list(exchanges_of([tmp_path, har]))
    names = [e.name for e in exchanges]
    assert names[0] == str(tmp_path / "sub" / "ok.sse")
    assert len([n for n in names if n.startswith(f"{har}#")]) >= 2


def test_agent_protocol_streams_get_the_general_checks_and_skip_the_llm_wire_ones() -> None:
    if not STREAMS.is_dir():
        pytest.skip(f"the real captured streams are not at {STREAMS} (set SSESCOPE_REAL_STREAMS)")
    agent = sorted((STREAMS / "agent" / "a2a").glob("*.sse"))[:1]
    if not agent:
        pytest.fail(f"no real A2A stream under {STREAMS}")
    result = run_checks(exchanges_of(agent))
    # the engine reads A2A, so how the task stream ended is judged like any other stream
    assert result.result("terminal.reached").verdict == "pass"
    assert result.result("stream.not-empty").verdict == "pass"
    # the wire rules of one LLM protocol do not apply to it
    for check in ("terminal.done-marker", "chat.shape", "responses.sequence"):
        assert result.result(check).verdict == "skip", check


def test_cli_table_and_exit_codes(tmp_path: Path) -> None:
    good = _write(tmp_path, "ok.http", _GOOD_HEADERS + _CHAT_OK)
    ok = run("conform", "--no-color", str(good))
    assert ok.code == 0, ok.err
    assert "terminal.agrees-with-status" in ok.out
    assert "0 MUST and 0 SHOULD failed" in ok.out
    bad = run("conform", "--no-color", str(FIXTURES / "openai_chat/events-after-done.sse"))
    assert bad.code == 5
    assert "MUST terminal.nothing-after" in bad.out
    assert "record" in bad.out and "offset" in bad.out


def test_cli_exit_0_when_only_a_should_fails(tmp_path: Path) -> None:
    path = _write(
        tmp_path,
        "no-accel.http",
        _GOOD_HEADERS.replace(b"X-Accel-Buffering: no\r\n", b"") + _CHAT_OK,
    )
    result = run("conform", "--json", str(path))
    assert result.code == 0
    data = json.loads(result.out)
    assert data["failed"] == {"MUST": 0, "SHOULD": 1}


def test_cli_json_lists_every_check_run_or_skipped(tmp_path: Path) -> None:
    result = run("conform", "--json", str(FIXTURES / "openai_chat/events-after-done.sse"))
    data = json.loads(result.out)
    assert [c["id"] for c in data["checks"]] == [c.id for c in CHECKS]
    assert data["ok"] is False and data["exchanges"] == 1
    entry = next(c for c in data["checks"] if c["id"] == "terminal.nothing-after")
    assert entry["verdict"] == "fail" and entry["severity"] == "MUST"
    evidence = entry["evidence"][0]
    assert evidence["record"] == 3
    # the offset is the byte where the record that broke the rule starts in the body
    body = (FIXTURES / "openai_chat/events-after-done.sse").read_bytes()
    assert body[evidence["offset"] :].startswith(b'data: {"id":"chatcmpl-after"')
    assert evidence["excerpt"].startswith("stream.events-after-terminal:")
    skipped = next(c for c in data["checks"] if c["id"] == "responses.sequence")
    assert skipped["verdict"] == "skip" and skipped["reason"]


def test_cli_missing_capture_is_a_usage_error(tmp_path: Path) -> None:
    result = run("conform", str(tmp_path / "absent.ssecap"))
    assert result.code == 2
    assert "no such file" in result.err


def test_cli_needs_a_capture() -> None:
    assert run("conform").code == 2
