"""The rarest diagnostics, each made through the real reader or adapter that reports it."""

from __future__ import annotations

import gzip
import json

from ssescope.containers import read_container
from ssescope.containers.read import _guarded
from ssescope.pipeline import Pipeline


def test_a_container_reader_that_fails_falls_back_to_the_raw_body() -> None:
    def broken(data: bytes) -> list[object]:
        raise ValueError("reader bug")

    body = _guarded(broken, b"data: hi\n\n", "har")  # type: ignore[arg-type]
    (found,) = [d for d in body[0].diagnostics if d.code == "container.read-failed"]
    assert found.severity == "error"
    assert found.args == {"name": "har", "error_type": "ValueError", "error": "reader bug"}
    assert b"".join(c.data for c in body[0].chunks) == b"data: hi\n\n"


def test_a_gemini_function_call_that_is_not_an_object_is_reported() -> None:
    record = {"candidates": [{"content": {"parts": [{"functionCall": "f()"}]}, "index": 0}]}
    pipeline = Pipeline(provider="gemini")
    pipeline.feed(f"data: {json.dumps(record)}\n\n".encode())
    pipeline.close()
    (found,) = [
        d for d in pipeline.report().diagnostics if d.code == "gemini.invalid-function-call"
    ]
    assert found.args == {"call": "f()"}
    assert found.record == 0


def test_har_event_source_messages_without_data_are_skipped() -> None:
    entry = {
        "response": {"status": 200, "content": {"mimeType": "text/event-stream"}},
        "_eventSourceMessages": [
            {"type": "message", "data": "hi", "time": 1.0},
            {"type": "message", "time": 1.1},
        ],
    }
    har = json.dumps({"log": {"entries": [entry]}}).encode()
    body = read_container(har, container="har")
    (found,) = [d for d in body.diagnostics if d.code == "har.invalid-message"]
    assert found.args == {"bad": 1, "index": 0}
    assert b"data: hi" in b"".join(c.data for c in body.chunks)


def test_a_corrupt_gzip_body_is_passed_on_from_the_chunk_that_failed() -> None:
    good = gzip.compress(b"data: hello\n\n" * 50)
    corrupt = good[:10] + bytes(b ^ 0xFF for b in good[10:40]) + good[40:]
    head = (
        b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n"
        b"Content-Encoding: gzip\r\nContent-Length: " + str(len(corrupt)).encode() + b"\r\n\r\n"
    )
    body = read_container(head + corrupt, container="http")
    (found,) = [d for d in body.diagnostics if d.code == "http.content-decoding-failed"]
    assert found.severity == "warning"
    assert found.args is not None and found.args["encoding"] == "gzip"
