"""A terminal event that lacks only its final blank line is read (docs/verdicts.md)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ssescope.framing.sse import SSEParser
from tests.providers.oracle import REAL, feed
from tests.verdicts.helpers import anthropic_sse, chat_sse, cli_report, codes, library_report

_START = {
    "type": "message_start",
    "message": {"id": "msg_1", "model": "claude-test", "usage": {"input_tokens": 3}},
}
_TEXT = [
    {"type": "content_block_start", "index": 0, "content_block": {"type": "text", "text": ""}},
    {"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": "Hi"}},
    {"type": "content_block_stop", "index": 0},
]
_DELTA = {
    "type": "message_delta",
    "delta": {"stop_reason": "end_turn"},
    "usage": {"output_tokens": 2},
}
_ANTHROPIC = anthropic_sse(_START, *_TEXT, _DELTA)
_STOP = b'event: message_stop\ndata: {"type":"message_stop"}'


def test_the_sse_parser_keeps_the_unterminated_event_as_pending_not_dispatched() -> None:
    parser = SSEParser()
    out = parser.feed(b"data: a\n\n" + _STOP)
    out += parser.close()
    assert [getattr(o, "code", None) for o in out][-1] == "sse.unterminated-event"
    assert [o.data for o in out if getattr(o, "kind", None) == "event"] == ["a"]
    assert parser.pending is not None
    assert (parser.pending.event, parser.pending.data) == (
        "message_stop",
        '{"type":"message_stop"}',
    )
    assert (parser.pending.index, parser.pending.start) == (1, 9)


def test_the_sse_parser_has_no_pending_event_after_a_terminated_body() -> None:
    parser = SSEParser()
    parser.feed(b"data: a\n\n")
    parser.close()
    assert parser.pending is None


def test_a_block_without_data_is_no_pending_event() -> None:
    parser = SSEParser()
    parser.feed(b"event: message_stop\n")
    parser.close()
    assert parser.pending is None


@pytest.mark.parametrize("ending", [b"", b"\n"])
def test_an_anthropic_message_stop_without_its_blank_line_is_completed(ending: bytes) -> None:
    fed = feed(_ANTHROPIC + _STOP + ending, split=False)
    report = fed.report
    assert report["status"] == "completed"
    assert report["status_reason"] == "message_stop (end_turn)"
    assert codes(report) == ["sse.unterminated-event", "sse.terminal-event-unterminated"]
    warning = report["diagnostics"][1]
    assert warning["severity"] == "warning"
    assert "blank line" in warning["message"]
    assert "EventSource" in warning["message"]
    assert "eventsource-parser" in warning["message"]


def test_the_reading_is_the_same_in_every_chunking() -> None:
    fed = feed(_ANTHROPIC + _STOP)  # (feed checks every chunking agrees)
    assert fed.report["status"] == "completed"


def test_a_non_terminal_unterminated_event_stays_truncated() -> None:
    cut = b'event: message_delta\ndata: {"type":"message_delta","delta":{"stop_reason":"end_turn"}}'
    report = library_report(anthropic_sse(_START, *_TEXT) + cut)
    assert report["status"] == "truncated"
    assert "sse.terminal-event-unterminated" not in codes(report)
    assert report["outputs"][0]["finish_reason"] is None


def test_a_terminal_event_whose_data_does_not_parse_stays_truncated() -> None:
    report = library_report(_ANTHROPIC + b'event: message_stop\ndata: {"type":"message_st')
    assert report["status"] == "truncated"
    assert "sse.terminal-event-unterminated" not in codes(report)


def test_a_done_without_its_blank_line_ends_an_openai_chat_stream() -> None:
    body = chat_sse(
        {"id": "c1", "choices": [{"index": 0, "delta": {"content": "Hi"}, "finish_reason": None}]},
        {"id": "c1", "choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]},
    )
    done = library_report(body + b"data: [DONE]")
    assert done["status"] == "completed"
    assert "sse.terminal-event-unterminated" in codes(done)
    cut = library_report(body + b"data: [DO")
    assert cut["status"] == "truncated"
    assert "sse.terminal-event-unterminated" not in codes(cut)


def test_a_responses_completed_event_without_its_blank_line_is_completed() -> None:
    created = (
        b'event: response.created\ndata: {"type":"response.created","response":'
        b'{"id":"resp_1","status":"in_progress","output":[]}}\n\n'
    )
    completed = (
        b'event: response.completed\ndata: {"type":"response.completed","response":'
        b'{"id":"resp_1","status":"completed","output":[]}}'
    )
    report = library_report(created + completed)
    assert report["status"] == "completed"
    assert "sse.terminal-event-unterminated" in codes(report)


def test_the_cli_reads_it_too_and_fail_on_incomplete_passes() -> None:
    code, report = cli_report(_ANTHROPIC + _STOP, "--fail-on", "incomplete")
    assert report["status"] == "completed"
    assert code == 0


@pytest.mark.parametrize(
    ("name", "status"),
    [
        ("anthropic/text-then-tool-use.sse", "completed"),
        ("anthropic/max-tokens-mid-tool-input.sse", "incomplete"),
    ],
)
def test_the_real_anthropic_recordings_read_as_the_sdk_reads_them(name: str, status: str) -> None:
    path = REAL / name
    if not path.is_file():
        pytest.skip(f"real captures not found at {REAL} (set SSESCOPE_REAL_STREAMS)")
    report = library_report(path.read_bytes())
    assert report["status"] == status
    assert "sse.terminal-event-unterminated" in codes(report)


def test_a_corpus_scan_counts_it_as_completed(tmp_path: Path) -> None:
    from tests.cli.cli_helpers import run

    (tmp_path / "a.sse").write_bytes(_ANTHROPIC + _STOP)
    (tmp_path / "b.sse").write_bytes(_ANTHROPIC + b'event: message_stop\ndata: {"type":"mess')
    result = run("scan", str(tmp_path), "--json")
    verdicts = json.loads(result.out)["verdicts"]
    assert (verdicts["completed"]["count"], verdicts["truncated"]["count"]) == (1, 1)
