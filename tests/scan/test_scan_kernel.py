"""The kernel alone: an Arrow batch of bodies in, one row per stream out, no engine."""

from __future__ import annotations

from pathlib import Path

import pyarrow as pa
import pytest
from tests.scan.scan_helpers import CONTAINERS, compared, expected_rows, stream_files

from ssescope import inspect
from ssescope.scan import RESULT_SCHEMA, scan_batch

OPENAI = (
    b'data: {"id":"c1","object":"chat.completion.chunk","model":"gpt-x","choices":'
    b'[{"index":0,"delta":{"content":"Hi"},"finish_reason":null}]}\n\n'
)
DONE = (
    b'data: {"id":"c1","object":"chat.completion.chunk","model":"gpt-x","choices":'
    b'[{"index":0,"delta":{},"finish_reason":"stop"}]}\n\ndata: [DONE]\n\n'
)


def test_every_real_stream_and_its_cuts_give_the_rows_inspect_gives() -> None:
    files = stream_files()
    bodies, sources = [], []
    for path in files:
        data = path.read_bytes()
        for end in (len(data), len(data) // 2, len(data) // 3):
            bodies.append(data[:end])
            sources.append(f"{path}:{end}")
    out = scan_batch(pa.RecordBatch.from_pydict({"source": sources, "body": bodies})).to_pylist()
    assert len(out) >= len(bodies)
    for source, body in zip(sources, bodies, strict=True):
        rows = [r for r in out if r["source"] == source]
        report = inspect(body)
        assert rows[-1]["status"] == report.status, source
        if len(report.responses) <= 1:
            assert len(rows) == 1
            assert rows[0]["diagnostics"] == [d.code for d in report.diagnostics]
            assert rows[0]["bytes"] == report.bytes
        else:
            assert [r["status"] for r in rows] == [x.status for x in report.responses]


def test_a_file_s_rows_equal_inspect_field_by_field() -> None:
    for path in [*stream_files()[:12], CONTAINERS / "chrome-eventsource-messages.har"]:
        batch = pa.RecordBatch.from_pydict({"source": [str(path)], "body": [path.read_bytes()]})
        rows = scan_batch(batch).to_pylist()
        assert [compared(r) for r in rows] == [compared(r) for r in expected_rows(path)], path


def test_carried_columns_repeat_for_each_stream_and_keep_their_types() -> None:
    har = (CONTAINERS / "chrome-base64.har").read_bytes()
    batch = pa.RecordBatch.from_pydict(
        {
            "request_id": pa.array([7, 8], pa.int64()),
            "route": ["/v1/chat", "/v1/har"],
            "model": ["asked-model", "other"],
            "body": [OPENAI + DONE, har],
        }
    )
    out = scan_batch(batch)
    assert out.schema.field("request_id").type == pa.int64()
    # a carried column named like a result column keeps its data under input_NAME
    assert out.column("input_model").to_pylist()[0] == "asked-model"
    rows = out.to_pylist()
    assert rows[0]["request_id"] == 7 and rows[0]["status"] == "completed"
    assert rows[0]["model"] == "gpt-x" and rows[0]["entry"] is None
    assert {r["request_id"] for r in rows[1:]} == {8}
    assert out.schema.names[-len(RESULT_SCHEMA) :] == RESULT_SCHEMA.names


def test_text_bodies_null_bodies_and_reader_errors_become_rows() -> None:
    batch = pa.RecordBatch.from_pydict(
        {
            "source": ["a", "b", "c"],
            "payload": [OPENAI.decode(), None, OPENAI.decode()],
            "error": [None, None, "permission denied"],
        }
    )
    rows = scan_batch(batch, body="payload").to_pylist()
    assert [r["source"] for r in rows] == ["a", "b", "c"]
    assert rows[0]["status"] == "truncated" and rows[0]["error"] is None
    assert rows[0]["diagnostics"] == [d.code for d in inspect(OPENAI).diagnostics]
    assert rows[1]["error"] == "the 'payload' column is null" and rows[1]["status"] is None
    assert rows[2]["error"] == "permission denied" and rows[2]["records"] is None


def test_a_body_column_of_another_type_is_an_error_row_per_row() -> None:
    batch = pa.RecordBatch.from_pydict({"body": pa.array([1, 2], pa.int64())})
    rows = scan_batch(batch).to_pylist()
    assert [r["error"] for r in rows] == ["the 'body' column holds int64, not bytes or text"] * 2


def test_a_batch_without_its_body_column_is_a_usage_error() -> None:
    with pytest.raises(ValueError, match="no 'body' column"):
        scan_batch(pa.RecordBatch.from_pydict({"text": ["x"]}))


def test_an_empty_batch_gives_an_empty_batch_with_the_schema() -> None:
    out = scan_batch(pa.RecordBatch.from_pydict({"body": pa.array([], pa.binary())}))
    assert out.num_rows == 0
    assert out.schema == RESULT_SCHEMA


def test_a_multi_response_capture_gives_one_row_per_response(tmp_path: Path) -> None:
    path = next(p for p in stream_files() if "4-turns" in p.name)
    rows = scan_batch(pa.RecordBatch.from_pydict({"body": [path.read_bytes()]})).to_pylist()
    report = inspect(path)
    assert len(rows) == len(report.responses) > 1
    assert [r["response"] for r in rows] == list(range(len(rows)))
    assert [r["entry"] for r in rows] == [None] * len(rows)  # one stream: no --entry
    assert [r["model"] for r in rows] == [x.model for x in report.responses]
