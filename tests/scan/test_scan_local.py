"""``ssescope scan`` with the local engine (DuckDB and a process pool), through the CLI."""

from __future__ import annotations

import json
import os
import pty
import subprocess
import sys
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from tests.scan.scan_helpers import DONE, OPENAI, ROOT, compared, expected_rows

from ssescope import inspect
from ssescope.cli import main
from ssescope.scan import report_row


def scan(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(["scan", *args])
    out, err = capsys.readouterr()
    return code, out, err


def read_rows(path: Path) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = pq.read_table(path).to_pylist()
    return rows


@pytest.fixture(scope="module")
def corpus_rows(corpus: Path, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """One scan of the corpus with two workers: its rows and its JSON summary."""
    out = tmp_path_factory.mktemp("out") / "rows.parquet"
    code = main(
        [
            "scan",
            str(corpus),
            "--out",
            str(out),
            "--jobs",
            "2",
            "--json",
            "--html",
            str(out.with_suffix(".html")),
        ]
    )
    assert code == 0
    return {"rows": read_rows(out), "out": out}


def test_every_row_equals_inspect_of_its_stream(corpus: Path, corpus_rows: dict[str, Any]) -> None:
    rows = corpus_rows["rows"]
    by_source: dict[str, list[dict[str, Any]]] = {}
    for row in rows:
        by_source.setdefault(row["source"], []).append(row)
    files = [p for p in corpus.rglob("*") if p.is_file() and not p.name.startswith(".")]
    assert len(files) > 100
    for path in files:
        got = sorted(by_source.pop(str(path)), key=lambda r: (r["entry"] or 0, r["response"] or 0))
        assert [compared(r) for r in got] == [compared(r) for r in expected_rows(path)], path
        assert all(r["error"] is None for r in got)
    # what is left: the dangling link, as a row with an error; the hidden file is skipped
    assert list(by_source) == [str(corpus / "gone.sse")]
    assert by_source[str(corpus / "gone.sse")][0]["error"] == "No such file or directory"


def test_the_summary_counts_the_rows(
    corpus_rows: dict[str, Any], capsys: pytest.CaptureFixture[str]
) -> None:
    rows = corpus_rows["rows"]
    judged = [r for r in rows if r["error"] is None]
    code, out, err = scan(capsys, str(corpus_rows["out"].parent / "none"), "--json")
    assert code == 2 and out == "" and "none: no such file or directory" in err
    from ssescope.scan import summarize

    summary = summarize(corpus_rows["out"])
    assert summary["streams"] == len(judged) and summary["input_errors"] == 1
    for status, v in summary["verdicts"].items():
        count = sum(r["status"] == status for r in judged)
        assert v["count"] == count
        assert v["rate"] == pytest.approx(count / len(judged), abs=1e-6)
    truncated = sum(r["status"] == "truncated" for r in judged)
    assert 0 < truncated < len(judged)
    assert sum(g["streams"] for g in summary["by_provider"]) == len(judged)
    top = summary["diagnostics"][0]
    assert top["streams"] == sum(top["code"] in r["diagnostics"] for r in judged)
    assert summary["worst"][0]["status"] == "failed"
    assert summary["timing"]["first_byte_s"]["streams"] == sum(
        r["first_byte_s"] is not None for r in judged
    )


def test_one_worker_and_two_give_the_same_rows(
    corpus: Path, tmp_path: Path, corpus_rows: dict[str, Any]
) -> None:
    out = tmp_path / "one.parquet"
    assert main(["scan", str(corpus / "cuts"), "--out", str(out), "--jobs", "1", "--json"]) == 0
    one = sorted(read_rows(out), key=lambda r: (r["source"], r["entry"] or 0, r["response"] or 0))
    two = sorted(
        (r for r in corpus_rows["rows"] if r["source"].startswith(str(corpus / "cuts"))),
        key=lambda r: (r["source"], r["entry"] or 0, r["response"] or 0),
    )
    assert one == two


def test_a_parquet_table_carries_its_keys_and_a_corrupt_file_is_a_row(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    table = pa.table(
        {
            "request_id": pa.array([1, 2, 3], pa.int64()),
            "route": ["/a", "/b", "/c"],
            "response_body": pa.array([OPENAI + DONE, OPENAI, None], pa.binary()),
            "unused": ["x", "y", "z"],
        }
    )
    pq.write_table(table, tmp_path / "logs.parquet")
    (tmp_path / "broken.parquet").write_bytes(b"PAR1 this is not a parquet file")
    out = tmp_path / "rows.parquet"
    code, _, _ = scan(
        capsys,
        str(tmp_path / "*.parquet"),
        "--body",
        "response_body",
        "--key",
        "request_id",
        "--key",
        "route",
        "--out",
        str(out),
        "--json",
    )
    assert code == 0
    rows = read_rows(out)
    assert list(rows[0])[:2] == ["request_id", "route"] and "unused" not in rows[0]
    good = {r["request_id"]: r for r in rows if r["request_id"] is not None}
    assert good[1]["status"] == "completed" and good[1]["route"] == "/a"
    assert compared(good[2]) == compared(report_row(inspect(OPENAI)))
    assert good[3]["error"] == "the 'response_body' column is null"
    broken = [r for r in rows if r["source"] == str(tmp_path / "broken.parquet")]
    assert len(broken) == 1 and broken[0]["error"]
    assert all(r["source"] == str(tmp_path / "logs.parquet") for r in good.values())


def test_all_columns_are_carried_by_default_and_jsonl_tables_read_with_body(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    lines = [
        {"id": "r1", "team": "search", "raw": (OPENAI + DONE).decode()},
        {"id": "r2", "team": "chat", "raw": OPENAI.decode()},
    ]
    (tmp_path / "log.jsonl").write_text("".join(json.dumps(x) + "\n" for x in lines))
    out = tmp_path / "rows.jsonl"
    code, _, _ = scan(
        capsys, str(tmp_path / "log.jsonl"), "--body", "raw", "--out", str(out), "--json"
    )
    assert code == 0
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert [(r["id"], r["team"], r["status"]) for r in rows] == [
        ("r1", "search", "completed"),
        ("r2", "chat", "truncated"),
    ]
    assert "raw" not in rows[0]


def test_a_proxy_record_directory_is_read_through_its_index(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    record = tmp_path / "record"
    record.mkdir()
    (record / "0001.ssecap").write_bytes(
        (ROOT / "tests/fixtures/containers/interrupted.ssecap").read_bytes()
    )
    (record / "0002.sse").write_bytes(OPENAI + DONE)
    (record / "stray.sse").write_bytes(OPENAI)  # not in the index: not read
    (record / "index.jsonl").write_text(
        json.dumps({"file": "0001.ssecap", "status": 200})
        + "\n"
        + json.dumps({"capture": "elsewhere/0002.sse", "path": "/v1/chat/completions"})
        + "\n"
        + "{not json\n"
        + json.dumps({"capture": None, "path": "/v1/messages", "error": "cannot reach it"})
        + "\n"
    )
    out = tmp_path / "rows.csv"
    code, _, _ = scan(capsys, str(record), "--out", str(out), "--json")
    assert code == 0
    import csv

    with out.open() as fp:
        rows = list(csv.DictReader(fp))
    sources = [r["source"] for r in rows]
    assert str(record / "stray.sse") not in sources
    assert str(record / "0002.sse") in sources and str(record / "0001.ssecap") in sources
    errors = {r["source"]: r["error"] for r in rows if r["error"]}
    assert errors.keys() == {f"{record / 'index.jsonl'}:3", f"{record / 'index.jsonl'}:4"}
    assert "not JSON" in errors[f"{record / 'index.jsonl'}:3"]
    assert "recorded none: cannot reach it" in errors[f"{record / 'index.jsonl'}:4"]
    done = next(r for r in rows if r["source"] == str(record / "0002.sse"))
    assert done["status"] == "completed" and json.loads(done["diagnostics"]) == ["usage.missing"]


def test_fail_on_makes_the_scan_a_gate(corpus: Path, capsys: pytest.CaptureFixture[str]) -> None:
    target = str(corpus / "anthropic")
    assert scan(capsys, target, "--json", "--jobs", "1")[0] == 0
    assert scan(capsys, target, "--json", "--jobs", "1", "--fail-on", "cancelled")[0] == 0
    # (no real Anthropic capture is truncated: the two whose message_stop lacks only its
    # blank line are read to their end, docs/verdicts.md; incomplete ones remain)
    assert (
        scan(capsys, target, "--json", "--jobs", "1", "--fail-on", "incomplete,truncated")[0] == 6
    )
    assert scan(capsys, target, "--json", "--jobs", "1", "--fail-on", "truncated")[0] == 0
    assert scan(capsys, str(corpus / "gone.sse"), "--json", "--fail-on", "error")[0] == 1
    code, _, err = scan(capsys, target, "--fail-on", "stalled")
    assert code == 2 and "'stalled' is not one of failed, truncated" in err


def test_the_terminal_summary(corpus: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = scan(capsys, str(corpus / "anthropic"), str(corpus / "gone.sse"), "--jobs", "1")
    assert code == 0
    assert "streams" in out and "1 inputs not read" in out
    assert "by provider" in out and "by model" in out and "top diagnostics" in out
    assert "open next" in out and "truncated" in out
    assert f"not read   {corpus / 'gone.sse'}: No such file or directory" in out


def test_a_terminal_gets_a_progress_bar(corpus: Path) -> None:
    master, slave = pty.openpty()
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src"), "COLUMNS": "120"}
    proc = subprocess.Popen(
        [sys.executable, "-m", "ssescope", "scan", str(corpus / "cuts"), "--jobs", "1"],
        stdout=subprocess.DEVNULL,
        stderr=slave,
        stdin=subprocess.DEVNULL,
        env=env,
    )
    os.close(slave)
    shown = b""
    while True:
        try:
            data = os.read(master, 65536)
        except OSError:
            break
        if not data:
            break
        shown += data
    os.close(master)
    assert proc.wait(timeout=60) == 0
    assert b"scanning" in shown and b"inputs" in shown


def test_a_missing_extra_is_named_in_one_line(tmp_path: Path) -> None:
    for module, extra, engine in (
        ("duckdb", "scan", "local"),
        ("pyarrow", "scan", "local"),
        ("ray", "ray", "ray"),
    ):
        code = (
            f"import sys; sys.modules[{module!r}] = None\n"
            "from ssescope.cli import main\n"
            f"sys.exit(main(['scan', {str(tmp_path)!r}, '--engine', {engine!r}]))\n"
        )
        env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
        proc = subprocess.run(
            [sys.executable, "-c", code], capture_output=True, text=True, env=env, check=False
        )
        assert proc.returncode == 1
        assert proc.stderr.strip() == (
            f"ssescope: error: this command needs {module}, which is not installed: "
            f"pip install 'ssescope[{extra}]'"
        )


def test_a_row_gives_the_content_idle_time_beside_the_byte_gap(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from ssescope.containers import CaptureWriter

    folder = tmp_path / "in"
    folder.mkdir()
    writer = CaptureWriter(
        folder / "keep-alives.ssecap",
        request={"method": "POST", "url": "https://api.example.test/v1", "headers": []},
        response_status=200,
        response_headers=[("content-type", "text/event-stream")],
    )
    writer.write_chunk(OPENAI, 0.1)
    for i in range(5):  # only keep-alive comments for 2.5 s, then the end
        writer.write_chunk(b": keep-alive\n\n", 0.6 + 0.5 * i)
    writer.write_chunk(DONE, 2.7)
    writer.close("eof", 2.7)
    out = tmp_path / "rows.jsonl"
    code, _, _ = scan(capsys, str(folder), "--out", str(out), "--jobs", "1")
    assert code == 0
    [row] = [json.loads(line) for line in out.read_text().splitlines()]
    assert row["max_gap_s"] == pytest.approx(0.5)
    assert row["max_content_idle_s"] == pytest.approx(2.6)
    assert (
        row["max_content_idle_s"]
        == inspect(folder / "keep-alives.ssecap").timing.max_content_idle_s
    )
