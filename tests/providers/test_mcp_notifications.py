"""MCP notifications and server-to-client requests go into the Report's general
``notifications`` section: the real recordings give the count their README states, and each
kind of record has its summary."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

import ssescope
from ssescope.providers.mcp.notices import SUMMARY_CHARS, summary

ROOT = Path(__file__).resolve().parents[2]
STREAMS = Path(os.environ.get("SSESCOPE_REAL_STREAMS", ROOT.parent / "shared" / "real_streams"))
MCP = STREAMS / "agent" / "mcp-streamable-http"

# file -> the notifications before the response, as agent/README.md counts them
COUNTS = {
    "deepwiki-initialize.sse": 0,
    "deepwiki-tools-list.sse": 0,
    "deepwiki-tools-call-ping-log-result.sse": 1,
    "local-tools-call-progress-log-result.sse": 6,
    "local-tools-call-is-error.sse": 1,
    "local-tools-call-cut-after-progress.sse": 1,
}

needs_real = pytest.mark.skipif(
    not MCP.is_dir(), reason=f"the real MCP recordings are not at {MCP} (set SSESCOPE_REAL_STREAMS)"
)


@needs_real
@pytest.mark.parametrize("name", sorted(COUNTS))
def test_a_real_recording_lists_the_notifications_before_its_response(name: str) -> None:
    report = ssescope.inspect(MCP / name).to_dict()
    notes = report.get("notifications", [])
    assert len(notes) == COUNTS[name]
    assert all(n["request_id"] is None for n in notes)
    records = [n["record"] for n in notes]
    assert records == sorted(set(records))


@needs_real
def test_progress_and_log_records_are_summarised() -> None:
    report = ssescope.inspect(MCP / "local-tools-call-progress-log-result.sse").to_dict()
    assert [(n["method"], n["summary"]) for n in report["notifications"][:2]] == [
        ("notifications/progress", "1/3 · step 1"),
        ("notifications/message", "info: counted 1"),
    ]
    deepwiki = ssescope.inspect(MCP / "deepwiki-tools-call-ping-log-result.sse").to_dict()
    (note,) = deepwiki["notifications"]
    assert note["summary"].startswith("info [deepwiki.ask_question]: Processing query ")


def _sse(*messages: object) -> bytes:
    return "".join(f"data: {json.dumps(m)}\n\n" for m in messages).encode()


def test_a_server_request_keeps_its_id_and_the_response_stays_the_terminal() -> None:
    body = _sse(
        {
            "jsonrpc": "2.0",
            "id": "s1",
            "method": "elicitation/create",
            "params": {"message": "Which repository?", "requestedSchema": {}},
        },
        {"jsonrpc": "2.0", "method": "notifications/progress", "params": {"progress": 0.5}},
        {"jsonrpc": "2.0", "id": 3, "result": {"content": [{"type": "text", "text": "ok"}]}},
    )
    report = ssescope.inspect(body, provider="mcp").to_dict()
    assert report["status"] == "completed"
    assert report["outputs"][0]["text"] == "ok"
    assert report["notifications"] == [
        {
            "record": 0,
            "method": "elicitation/create",
            "summary": "Which repository?",
            "request_id": "s1",
        },
        {"record": 1, "method": "notifications/progress", "summary": "0.5", "request_id": None},
    ]


@pytest.mark.parametrize(
    ("method", "params", "expected"),
    [
        ("notifications/progress", {"progress": 2, "total": 5, "message": "x"}, "2/5 · x"),
        ("notifications/progress", {"message": "only words"}, "only words"),
        ("notifications/progress", {"progress": True}, ""),
        ("notifications/message", {"level": "error", "data": {"code": 7}}, 'error: {"code":7}'),
        ("notifications/message", {"level": "debug", "data": {"message": "m"}}, "debug: m"),
        ("notifications/message", {"logger": "db"}, "log [db]"),
        ("notifications/cancelled", {"requestId": 3}, ""),
        ("roots/list", None, ""),
    ],
)
def test_each_kind_of_record_has_its_summary(method: str, params: object, expected: str) -> None:
    assert summary(method, params) == expected  # type: ignore[arg-type]


def test_a_long_summary_is_cut() -> None:
    line = summary("notifications/message", {"level": "info", "data": "x" * 500})
    assert len(line) == SUMMARY_CHARS + 1 and line.endswith("…")
