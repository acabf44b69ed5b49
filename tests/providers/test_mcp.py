"""MCP Streamable HTTP: the real recordings give their README's verdicts, every cut of
them is never completed, and bad JSON-RPC input is reported with the rest still read."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

import ssescope
from ssescope import Pipeline

ROOT = Path(__file__).resolve().parents[2]
STREAMS = Path(os.environ.get("SSESCOPE_REAL_STREAMS", ROOT.parent / "shared" / "real_streams"))
MCP = STREAMS / "agent" / "mcp-streamable-http"

# file -> (status, text prefix) as agent/README.md states them
REAL = {
    "deepwiki-initialize.sse": ("completed", '{"protocolVersion":"2025-11-25"'),
    "deepwiki-tools-list.sse": ("completed", '{"tools":[{"name":"read_wiki_structure"'),
    "deepwiki-tools-call-ping-log-result.sse": ("completed", "Pydantic AI is a Python agent"),
    "local-tools-call-progress-log-result.sse": ("completed", "counted to 3"),
    "local-tools-call-is-error.sse": (
        "failed",
        "Error executing tool always_fails: tool failed: disk full",
    ),
    "local-tools-call-cut-after-progress.sse": ("truncated", ""),
}

needs_real = pytest.mark.skipif(
    not MCP.is_dir(), reason=f"the real MCP recordings are not at {MCP} (set SSESCOPE_REAL_STREAMS)"
)


def _read(data: bytes) -> ssescope.Report:
    return ssescope.inspect(data, provider="mcp")


@needs_real
@pytest.mark.parametrize("name", sorted(REAL))
def test_a_real_recording_gives_its_verdict_and_reply(name: str) -> None:
    status, text = REAL[name]
    report = ssescope.inspect(MCP / name).to_dict()
    assert report["provider"] == "mcp"
    assert report["status"] == status
    got = report["outputs"][0]["text"] if report["outputs"] else ""
    assert got.startswith(text) and (text or not got)


@needs_real
def test_a_tool_result_with_is_error_says_it_is_the_tools_failure() -> None:
    report = ssescope.inspect(MCP / "local-tools-call-is-error.sse").to_dict()
    assert "mcp.tool-error" in [d["code"] for d in report["diagnostics"]]


@needs_real
@pytest.mark.parametrize("name", sorted(REAL))
def test_every_cut_before_the_response_is_complete_is_truncated(name: str) -> None:
    data = (MCP / name).read_bytes()
    pipeline = Pipeline(provider="mcp", keep_records=True)
    pipeline.feed(data)
    pipeline.close()
    # the response is the last record; its data line's end is where the stream can end
    response_end = max(r.end for r in pipeline.records)
    for cut in range(response_end):
        status = _read(data[:cut]).status
        assert status == "truncated", (cut, status)


@needs_real
@pytest.mark.parametrize("name", sorted(REAL))
def test_a_recording_fed_in_small_chunks_gives_the_same_report(name: str) -> None:
    data = (MCP / name).read_bytes()
    whole = ssescope.inspect(iter([data])).to_dict()
    chunks = [data[i : i + 7] for i in range(0, len(data), 7)]
    pieces = ssescope.inspect(iter(chunks)).to_dict()
    assert pieces["provider"] == "mcp"
    assert pieces == whole


def test_a_json_rpc_error_is_failed_with_its_message() -> None:
    body = (
        b'event: message\ndata: {"jsonrpc":"2.0","method":"notifications/progress",'
        b'"params":{"progressToken":1,"progress":1}}\n\n'
        b'event: message\ndata: {"jsonrpc":"2.0","id":1,"error":{"code":-32602,'
        b'"message":"Unknown tool"}}\n\n'
    )
    report = _read(body).to_dict()
    assert report["status"] == "failed"
    assert report["error"]["message"] == "Unknown tool"
    assert report["error"]["code"] == "-32602"


def test_bad_input_is_reported_and_the_rest_is_read() -> None:
    body = (
        b"data: {not json\n\n"
        b"data: [1]\n\n"
        b'data: {"jsonrpc":"1.0","method":"notifications/message","params":{}}\n\n'
        b'data: {"jsonrpc":"2.0","result":{"content":[{"type":"text","text":"ok"}]}}\n\n'
    )
    report = _read(body).to_dict()
    codes = [d["code"] for d in report["diagnostics"]]
    assert "json.invalid" in codes
    assert "jsonrpc.unexpected-json" in codes
    assert codes.count("jsonrpc.invalid-envelope") == 2  # the version, the missing id
    assert report["status"] == "completed"
    assert report["outputs"][0]["text"] == "ok"


def test_a_second_response_is_reported_and_ignored() -> None:
    one = b'data: {"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"a"}]}}\n\n'
    report = _read(one + one.replace(b'"a"', b'"b"')).to_dict()
    assert report["outputs"][0]["text"] == "a"
    assert "mcp.after-response" in [d["code"] for d in report["diagnostics"]]
