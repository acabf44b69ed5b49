"""The JSON-RPC agent protocols' quirk presets: ``final-status-missing`` (A2A) and
``response-never-comes`` (MCP), on the real recordings and through ``serve``."""

from __future__ import annotations

import io
import os
from pathlib import Path

import httpx
import pytest

import ssescope
from ssescope.errors import UsageError
from ssescope.serve.app import ReplayOptions, ServerThread, load_captures, make_app
from ssescope.serve.quirks import apply_quirks, parse_quirk

ROOT = Path(__file__).resolve().parents[2]
STREAMS = Path(os.environ.get("SSESCOPE_REAL_STREAMS", ROOT.parent / "shared" / "real_streams"))
AGENT = STREAMS / "agent"

needs_streams = pytest.mark.skipif(
    not AGENT.is_dir(),
    reason=f"the real agent streams are not at {AGENT} (set SSESCOPE_REAL_STREAMS)",
)

A2A_FINALS = [
    "a2a/langgraph-currency-message-stream-v03.sse",
    "a2a/local-v03-completed-artifact-chunks.sse",
    "a2a/local-v03-failed.sse",
    "a2a/local-v03-input-required.sse",
    "a2a/local-v10-canceled.sse",
    "a2a/local-v10-completed-artifact-chunks.sse",
    "a2a/local-v10-subscribe-to-task.sse",
]
MCP_ANSWERED = [
    "mcp-streamable-http/deepwiki-tools-call-ping-log-result.sse",
    "mcp-streamable-http/local-tools-call-is-error.sse",
    "mcp-streamable-http/local-tools-call-progress-log-result.sse",
]


def _quirked(name: str, quirk: str) -> bytes:
    return apply_quirks((AGENT / name).read_bytes(), [parse_quirk(quirk)]).body


@needs_streams
@pytest.mark.parametrize("name", A2A_FINALS)
def test_final_status_missing_leaves_the_task_working_and_truncated(name: str) -> None:
    body = _quirked(name, "final-status-missing")
    report = ssescope.inspect(body)
    assert report.provider == "a2a"
    assert report.status == "truncated"
    assert "a2a.missing-final" in [d.code for d in report.diagnostics]
    assert len(body) < (AGENT / name).stat().st_size


@needs_streams
@pytest.mark.parametrize("name", MCP_ANSWERED)
def test_response_never_comes_keeps_the_notifications_and_withholds_the_response(
    name: str,
) -> None:
    body = _quirked(name, "response-never-comes")
    report = ssescope.inspect(body)
    assert report.provider == "mcp"
    assert report.status == "truncated"
    assert "mcp.missing-response" in [d.code for d in report.diagnostics]
    assert b"notifications/" in body
    assert b'"result"' not in body


@needs_streams
@pytest.mark.parametrize(
    ("name", "quirk", "why"),
    [
        ("a2a/local-v03-cancel-never-closes.sse", "final-status-missing", "no final status"),
        (
            "mcp-streamable-http/local-tools-call-cut-after-progress.sse",
            "response-never-comes",
            "no JSON-RPC response",
        ),
    ],
)
def test_a_stream_without_what_the_quirk_removes_is_refused(
    name: str, quirk: str, why: str
) -> None:
    with pytest.raises(UsageError, match=why):
        _quirked(name, quirk)


def test_a_batch_response_is_withheld_too() -> None:
    body = (
        b'data: {"jsonrpc":"2.0","method":"notifications/progress","params":{}}\n\n'
        b'data: [{"jsonrpc":"2.0","id":1,"result":{}},{"jsonrpc":"2.0","id":2,"result":{}}]\n\n'
    )
    plan = apply_quirks(body, [parse_quirk("response-never-comes")])
    assert ssescope.inspect(plan.body).status == "truncated"
    assert b"result" not in plan.body


@needs_streams
@pytest.mark.network
def test_serve_applies_both_presets_by_the_query(tmp_path: Path) -> None:
    mcp = "mcp-streamable-http/local-tools-call-progress-log-result.sse"
    a2a = "a2a/local-v10-completed-artifact-chunks.sse"
    for name in (mcp, a2a):
        (tmp_path / Path(name).name).write_bytes((AGENT / name).read_bytes())
    app = make_app(load_captures(tmp_path), ReplayOptions(), log=io.StringIO())
    with ServerThread(app) as server:
        cut = httpx.post(f"{server.url}/{Path(mcp).stem}/mcp?quirk=response-never-comes")
        dropped = httpx.post(f"{server.url}/{Path(a2a).stem}/a2a?quirk=final-status-missing")
        refused = httpx.post(f"{server.url}/{Path(a2a).stem}/a2a?quirk=response-never-comes")
    assert ssescope.inspect(cut.content).status == "truncated"
    assert ssescope.inspect(dropped.content).status == "truncated"
    assert refused.status_code == 400
    assert refused.text == (
        "quirk 'response-never-comes' does not apply to a2a streams (it applies to: mcp)\n"
    )
