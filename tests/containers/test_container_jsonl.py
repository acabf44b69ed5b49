from __future__ import annotations

import json

from ssescope.containers import read_container, read_jsonl
from ssescope.framing import Framer, JSONRecord


def _codes(body):
    return [d.code for d in body.diagnostics]


def test_an_sdk_dump_becomes_ndjson_lines_with_their_times(fixture_bytes):
    body = read_container(fixture_bytes("openai-sdk-dump.jsonl"))
    assert body.container == "jsonl"
    assert [c.time for c in body.chunks] == [0.0, 0.125, 0.375]
    lines = [json.loads(c.data) for c in body.chunks]
    assert lines[1]["choices"][0]["delta"] == {"content": "Hi"}
    assert all(c.data.endswith(b"\n") for c in body.chunks)
    assert "original framing" in body.lost
    assert "timing" not in body.lost
    framer = Framer()
    records = [r for c in body.chunks for r in framer.feed(c.data, c.time)] + framer.close()
    assert framer.framing == "ndjson"
    assert sum(isinstance(r, JSONRecord) for r in records) == 3


def test_string_chunks_are_emitted_as_they_are():
    body = read_jsonl(b'{"chunk": "data: 1\\n\\n"}\n{"chunk": "data: 2\\n\\n"}\n')
    assert body.body == b"data: 1\n\ndata: 2\n\n"
    assert "timing" in body.lost


def test_millisecond_and_iso_times_are_understood():
    body = read_jsonl(
        b'{"ts": 1767261600000, "chunk": {}}\n{"ts": 1767261600500, "chunk": {}}\n'
        b'{"ts": "2026-01-01T10:00:01Z", "chunk": {}}\n'
    )
    assert [c.time for c in body.chunks][:2] == [0.0, 0.5]
    assert body.chunks[2].time is not None


def test_bad_lines_are_skipped_with_diagnostics():
    body = read_jsonl(
        b'{"ts": 1, "chunk": {"a": 1}}\nnot json\n{"ts": 2}\n{"ts": [], "chunk": 5}\n'
        b'{"ts": 3, "chunk": {"big": 123456789012345678901234567890}}\n'
    )
    assert body.body == b'{"a":1}\n5\n{"big":123456789012345678901234567890}\n'
    assert _codes(body) == ["jsonl.invalid-line", "jsonl.missing-chunk", "jsonl.invalid-time"]
