"""A2A (0.x and 1.0): the real recordings give their README's verdicts and artifacts,
every cut before the deciding state is truncated, and chunking changes nothing."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

import ssescope
from ssescope import Pipeline
from ssescope.events import Terminal

ROOT = Path(__file__).resolve().parents[2]
STREAMS = Path(os.environ.get("SSESCOPE_REAL_STREAMS", ROOT.parent / "shared" / "real_streams"))
A2A = STREAMS / "agent" / "a2a"

# file -> (status, artifact text) as agent/README.md states them
REAL = {
    "langgraph-currency-message-stream-v03.sse": ("completed", "10 USD is 856.2 INR."),
    "local-v03-completed-artifact-chunks.sse": ("completed", "Hello world."),
    "local-v03-failed.sse": ("failed", ""),
    "local-v03-input-required.sse": ("incomplete", ""),
    "local-v03-cancel-never-closes.sse": ("truncated", ""),
    "local-v10-completed-artifact-chunks.sse": ("completed", "Hello world."),
    "local-v10-canceled.sse": ("cancelled", ""),
    "local-v10-subscribe-to-task.sse": ("completed", "Hello world."),
}

needs_real = pytest.mark.skipif(
    not A2A.is_dir(), reason=f"the real A2A recordings are not at {A2A} (set SSESCOPE_REAL_STREAMS)"
)


@needs_real
@pytest.mark.parametrize("name", sorted(REAL))
def test_a_real_recording_gives_its_verdict_and_artifact(name: str) -> None:
    status, text = REAL[name]
    report = ssescope.inspect(A2A / name).to_dict()
    assert report["provider"] == "a2a"
    assert report["status"] == status
    assert (report["outputs"][0]["text"] if report["outputs"] else "") == text


@needs_real
@pytest.mark.parametrize("name", sorted(REAL))
def test_every_cut_before_the_deciding_state_is_truncated(name: str) -> None:
    data = (A2A / name).read_bytes()
    pipeline = Pipeline(provider="a2a", keep_records=True)
    events = pipeline.feed(data) + pipeline.close()
    deciding = {e.record for e in events if isinstance(e, Terminal)}
    ends = [r.end for r in pipeline.records if r.index in deciding]
    for cut in range(min(ends, default=len(data))):
        status = ssescope.inspect(data[:cut], provider="a2a").status
        assert status == "truncated", (cut, status)


@needs_real
@pytest.mark.parametrize("name", sorted(REAL))
def test_a_recording_fed_in_small_chunks_gives_the_same_report(name: str) -> None:
    data = (A2A / name).read_bytes()
    whole = ssescope.inspect(iter([data])).to_dict()
    pieces = ssescope.inspect(iter([data[i : i + 5] for i in range(0, len(data), 5)])).to_dict()
    assert pieces["provider"] == "a2a"
    assert pieces == whole


def test_a_working_task_without_a_final_state_is_truncated() -> None:
    body = (
        b'data: {"jsonrpc":"2.0","id":1,"result":{"kind":"status-update","taskId":"t",'
        b'"status":{"state":"working"},"final":false}}\n\n'
    )
    report = ssescope.inspect(body).to_dict()
    assert report["status"] == "truncated"
    assert "a2a.missing-final" in [d["code"] for d in report["diagnostics"]]


def test_bad_input_is_reported_and_the_rest_is_read() -> None:
    body = (
        b"data: {oops\n\n"
        b'data: {"jsonrpc":"2.0","id":1,"result":{"kind":"mystery"}}\n\n'
        b'data: {"jsonrpc":"2.0","id":1,"result":{"kind":"artifact-update","taskId":"t",'
        b'"artifact":{"artifactId":"a","parts":[{"kind":"text","text":"hi"}]}}}\n\n'
        b'data: {"jsonrpc":"2.0","id":1,"result":{"kind":"status-update","taskId":"t",'
        b'"status":{"state":"rejected"},"final":true}}\n\n'
    )
    report = ssescope.inspect(body, provider="a2a").to_dict()
    codes = [d["code"] for d in report["diagnostics"]]
    assert "json.invalid" in codes and "a2a.unknown-result" in codes
    assert report["status"] == "failed"
    assert report["outputs"][0]["text"] == "hi"
