"""``ssescope scan`` of real, mixed trees: tables of bodies beside stream files, logs whose
lines carry bodies, paths that name nothing, through the CLI."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from ssescope.cli import main
from ssescope.scan.sniff import jsonl_shape

OPENAI = (
    b'data: {"id":"c1","object":"chat.completion.chunk","model":"gpt-x","choices":'
    b'[{"index":0,"delta":{"content":"Hi"},"finish_reason":null}]}\n\n'
)
DONE = (
    b'data: {"id":"c1","object":"chat.completion.chunk","model":"gpt-x","choices":'
    b'[{"index":0,"delta":{},"finish_reason":"stop"}]}\n\ndata: [DONE]\n\n'
)
OLLAMA = (
    b'{"model":"llama3","created_at":"2026-01-01T00:00:00Z","message":{"role":"assistant",'
    b'"content":"Hi"},"done":false}\n'
    b'{"model":"llama3","created_at":"2026-01-01T00:00:01Z","message":{"role":"assistant",'
    b'"content":""},"done":true,"done_reason":"stop"}\n'
)


def log_line(i: int, body: bytes, field: str = "body") -> str:
    return json.dumps(
        {
            "request_id": f"q{i}",
            "ts": f"2026-03-0{1 + i % 3}T10:00:00Z",
            "route": "/chat",
            field: body.decode(),
        }
    )


@pytest.fixture
def mixed(tmp_path: Path) -> Path:
    """A parquet table of bodies, an NDJSON stream, an SSE file, a log of bodies."""
    root = tmp_path / "tree"
    (root / "streams").mkdir(parents=True)
    (root / "streams" / "chat.sse").write_bytes(OPENAI + DONE)
    (root / "streams" / "ollama.jsonl").write_bytes(OLLAMA)
    table = pa.table({"request_id": ["r0", "r1"], "body": [OPENAI + DONE, OPENAI]})
    pq.write_table(table, root / "bodies.parquet")
    (root / "log.jsonl").write_text(
        "\n".join(log_line(i, OPENAI + (DONE if i else b"")) for i in range(3)) + "\n"
    )
    return root


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, Any, str]:
    code = main(["scan", *args, "--jobs", "1", "--json"])
    out, err = capsys.readouterr()
    return code, json.loads(out) if out.strip() else None, err


def rows_of(capsys: pytest.CaptureFixture[str], tmp_path: Path, *args: str) -> Any:
    out = tmp_path / "rows.jsonl"
    code, summary, err = run(capsys, *args, "--out", str(out))
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    return code, summary, rows, err


def test_body_applies_to_the_tables_it_fits_and_the_rest_are_streams(
    mixed: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, summary, rows, _ = rows_of(capsys, tmp_path, str(mixed), "--body", "body")
    assert code == 0
    assert summary["input_errors"] == 0
    by = {(Path(r["source"]).name, r["table_row"]): r for r in rows}
    # the NDJSON stream and the SSE file are judged as streams, each naming its file
    assert by[("ollama.jsonl", None)]["provider"] == "ollama"
    assert by[("ollama.jsonl", None)]["status"] == "completed"
    assert by[("chat.sse", None)]["status"] == "completed"
    # the table's rows and the log's lines are one stream each, with their keys
    assert by[("bodies.parquet", 0)]["request_id"] == "r0"
    assert by[("bodies.parquet", 1)]["status"] == "truncated"
    assert [by[("log.jsonl", i)]["status"] for i in range(3)] == [
        "truncated",
        "completed",
        "completed",
    ]
    assert by[("log.jsonl", 0)]["route"] == "/chat"
    # inputs and responses are counted apart: 2 files + 2 rows + 3 lines
    assert summary["inputs"] == 7 and summary["streams"] == 7


def test_a_log_of_bodies_is_read_as_a_table_without_body(
    mixed: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _summary, rows, _ = rows_of(capsys, tmp_path, str(mixed / "log.jsonl"))
    assert code == 0
    assert [(r["table_row"], r["status"], r["request_id"]) for r in rows] == [
        (0, "truncated", "q0"),
        (1, "completed", "q1"),
        (2, "completed", "q2"),
    ]
    assert all(r["provider"] == "openai-chat" for r in rows)


def test_a_log_of_bodies_in_another_field_says_which_body_to_give(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    log = tmp_path / "responses.jsonl"
    log.write_text("\n".join(log_line(i, OPENAI + DONE, "response") for i in range(2)) + "\n")
    code, summary, _ = run(capsys, str(log))
    assert code == 0
    assert summary["streams"] == 0 and summary["input_errors"] == 1
    assert summary["errors"] == [
        {
            "source": str(log),
            "error": "this looks like a table of bodies: use `--body response`",
        }
    ]
    _, summary, _ = run(capsys, str(log), "--body", "response")
    assert summary["streams"] == 2 and summary["verdicts"]["completed"]["count"] == 2


def test_a_bad_input_is_never_the_end_of_the_scan(
    mixed: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pq.write_table(pa.table({"text": ["x"]}), mixed / "other.parquet")
    (mixed / "broken.parquet").write_bytes(b"PAR1 not really")
    code, summary, _rows, _ = rows_of(capsys, tmp_path, str(mixed), "--body", "body")
    assert code == 0
    errors = {Path(e["source"]).name: e["error"] for e in summary["errors"]}
    assert set(errors) == {"other.parquet", "broken.parquet"}
    assert "no 'body' column" in errors["other.parquet"]
    assert summary["streams"] == 7  # every other input was judged


def test_a_path_that_names_nothing_exits_2(mixed: Path, capsys: pytest.CaptureFixture[str]) -> None:
    missing = str(mixed / "no-such-dir")
    code = main(["scan", str(mixed), missing, "--json"])
    out, err = capsys.readouterr()
    assert code == 2 and out == ""
    assert f"{missing}: no such file or directory" in err


def test_the_terminal_head_counts_inputs_and_responses(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    har = Path(__file__).resolve().parents[1] / "fixtures" / "containers"
    target = har / "devtools-several-streams.har"
    (tmp_path / "a.sse").write_bytes(OPENAI + DONE)
    code = main(["scan", str(target), str(tmp_path / "a.sse"), "--jobs", "1"])
    out = capsys.readouterr().out
    assert code == 0
    assert out.splitlines()[0].startswith("2 inputs · 4 responses · ")


@pytest.mark.parametrize(
    ("lines", "body", "kind"),
    [
        ([{"request_id": "a", "body": "data: x\n\n"}], None, "table"),
        ([{"ts": 1, "chunk": {"body": "data: x\n\n"}}], None, "stream"),
        ([{"model": "m", "message": {"content": "x"}, "done": False}], None, "stream"),
        ([{"request_id": "a", "response": "data: x\n\n"}], None, "hint"),
        ([{"request_id": "a", "payload": "anything"}], "payload", "table"),
        ([{"request_id": "a", "payload": "anything"}], "body", "stream"),
    ],
)
def test_the_shape_of_a_jsonl_file(
    tmp_path: Path, lines: list[dict[str, Any]], body: str | None, kind: str
) -> None:
    path = tmp_path / "x.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    assert jsonl_shape(path, body).kind == kind


def test_a_fifo_is_never_opened_to_judge_its_shape(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe.jsonl"
    os.mkfifo(fifo)
    assert jsonl_shape(fifo, None).kind == "stream"  # (and read_input refuses it)
