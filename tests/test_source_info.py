"""Every way in reports the same source metadata, given to the Pipeline when it is built."""

from __future__ import annotations

from pathlib import Path

import pytest

import ssescope
from ssescope import Pipeline, SourceInfo, UsageError
from ssescope.api import feed_chunks, feed_raw, open_streams
from ssescope.containers import Chunk, read_container
from ssescope.diagnostics import Diagnostic

FIXTURES = Path(__file__).parent / "fixtures"
BODY = b'data: {"choices":[{"index":0,"delta":{"content":"hi"},"finish_reason":"stop"}]}\n\n'
BODY += b"data: [DONE]\n\n"
RAW_LOST = ["timing", "chunk boundaries", "headers", "request"]


def test_bytes_a_path_and_stdin_like_chunks_lose_the_same_except_the_chunk_boundaries(
    tmp_path: Path,
) -> None:
    f = tmp_path / "s.sse"
    f.write_bytes(BODY)
    from_bytes = ssescope.inspect(BODY).to_dict()
    from_path = ssescope.inspect(f).to_dict()
    from_chunks = ssescope.inspect(iter([BODY[:7], BODY[7:]])).to_dict()
    assert from_bytes["source"]["lost"] == from_path["source"]["lost"] == RAW_LOST
    assert from_chunks["source"] == {
        "container": "raw",
        "bytes": len(BODY),
        "lost": ["timing", "headers", "request"],
    }
    for report in (from_bytes, from_path, from_chunks):
        del report["source"]
    assert from_bytes == from_path == from_chunks


def test_the_pipeline_takes_the_source_when_it_is_built() -> None:
    note = Diagnostic("http.note", "info", "A note from the container.")
    info = SourceInfo(container="http", status=503, lost=("timing",), diagnostics=(note,))
    pipeline = Pipeline(source=info)
    pipeline.feed(b'{"error": {"message": "busy"}}')
    pipeline.close()
    report = pipeline.report()
    assert (report.container, report.http_status, report.lost) == ("http", 503, ["timing"])
    assert report.status == "failed"
    assert note in report.diagnostics
    assert pipeline.source is info
    with pytest.raises(AttributeError):
        pipeline.http_status = 200  # type: ignore[misc]


def test_a_capture_that_says_cancelled_marks_the_response_cancelled() -> None:
    info = SourceInfo(container="ssecap", end="cancelled")
    pipeline = feed_chunks(Pipeline(source=info), [Chunk(BODY[:40], 0.25)])
    report = pipeline.report()
    assert report.status == "cancelled"
    assert report.timing.total_s == 0.25


def test_the_source_duration_ends_the_body_unless_a_chunk_came_later() -> None:
    info = SourceInfo(container="har", total_s=2.0)
    early = feed_chunks(Pipeline(source=info), [Chunk(BODY, 0.5)]).report()
    late = feed_chunks(Pipeline(source=info), [Chunk(BODY, 3.0)]).report()
    assert (early.timing.total_s, late.timing.total_s) == (2.0, 3.0)


def test_open_streams_gives_the_container_metadata_and_the_chunks() -> None:
    (stream,) = open_streams(FIXTURES / "containers" / "interrupted.ssecap")
    body = read_container((FIXTURES / "containers" / "interrupted.ssecap").read_bytes())
    assert stream.info == body.info()
    chunks = list(stream.chunks)
    data = [c.data for c in chunks if isinstance(c, Chunk)]
    assert len(data) == len(chunks)
    assert data == [c.data for c in body.chunks]


def test_chunks_that_are_not_bytes_are_a_usage_error() -> None:
    with pytest.raises(UsageError, match="chunks must be bytes"):
        ssescope.inspect(iter(["text"]))  # type: ignore[arg-type]


def test_feed_body_and_feed_raw_still_work_but_are_deprecated() -> None:
    data = (FIXTURES / "containers" / "curl-i-100-continue.http").read_bytes()
    body = read_container(data)
    with pytest.deprecated_call():
        legacy = ssescope.feed_body(Pipeline(), body).report()
    assert legacy.to_dict() == ssescope.inspect(data).to_dict()
    with pytest.deprecated_call():
        raw = feed_raw(Pipeline(), [BODY]).report()
    assert raw.to_dict() == ssescope.inspect(BODY).to_dict()


def test_feed_body_refuses_a_pipeline_that_already_has_its_source() -> None:
    body = read_container(BODY)
    with pytest.deprecated_call(), pytest.raises(UsageError, match="already has a source"):
        ssescope.feed_body(Pipeline(source=SourceInfo(container="http")), body)
