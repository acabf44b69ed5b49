"""``inspect TABLE --row N --body COLUMN``: one row of a table of bodies, as scan reads it."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from ssescope import inspect
from ssescope.cli import main

TEXT = (
    b'data: {"id":"c1","object":"chat.completion.chunk","model":"gpt-x","choices":'
    b'[{"index":0,"delta":{"content":"Hi"},"finish_reason":null}]}\n\n'
)
DONE = (
    b'data: {"id":"c1","object":"chat.completion.chunk","model":"gpt-x","choices":'
    b'[{"index":0,"delta":{},"finish_reason":"stop"}]}\n\ndata: [DONE]\n\n'
)


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, Any, str]:
    code = main(["inspect", *args, "--json"])
    out, err = capsys.readouterr()
    return code, json.loads(out) if out.strip() else None, err


@pytest.fixture
def table(tmp_path: Path) -> Path:
    bodies = [TEXT + DONE, TEXT, None, TEXT + b"data: [DONE]\n\n"]
    path = tmp_path / "logs.parquet"
    pq.write_table(
        pa.table({"id": [1, 2, 3, 4], "response": pa.array(bodies, pa.binary())}),
        path,
        row_group_size=2,  # rows 2 and 3 in a second row group
    )
    return path


def test_each_row_is_the_report_of_its_body(
    table: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    for row, body, code in ((0, TEXT + DONE, 0), (1, TEXT, 3), (3, TEXT + b"data: [DONE]\n\n", 0)):
        got, report, _ = run(capsys, str(table), "--row", str(row), "--body", "response")
        assert got == code
        assert report == inspect(body).to_dict()


def test_a_jsonl_table_row(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "log.jsonl"
    lines = [
        {"request_id": "a", "body": (TEXT + DONE).decode()},
        {"request_id": "b", "body": TEXT.decode()},
    ]
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    code, report, _ = run(capsys, str(path), "--row", "1")
    assert code == 3 and report["status"] == "truncated"


def test_rows_and_columns_that_are_not_there_are_usage_errors(
    table: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, err = run(capsys, str(table), "--row", "9", "--body", "response")
    assert code == 2 and "there is no row 9; the table" in err and "has 4 rows" in err
    code, _, err = run(capsys, str(table), "--row", "2", "--body", "response")
    assert code == 2 and "row 2 of" in err and "null 'response'" in err
    code, _, err = run(capsys, str(table), "--row", "0")
    assert code == 2 and "a 'body' column" in err
    code, _, err = run(capsys, str(table), "--body", "response")
    assert code == 2 and "give --row N too" in err
    code, _, err = run(capsys, str(table.with_name("none.parquet")), "--row", "0")
    assert code == 2 and "no such file" in err
