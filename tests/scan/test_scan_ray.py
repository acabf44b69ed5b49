"""``--engine ray``: Ray Data reads the same inputs and maps the same kernel over them."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from tests.scan.scan_helpers import DONE, OPENAI, compared, expected_rows

from ssescope.cli import main
from ssescope.scan import scan

pytestmark = pytest.mark.usefixtures("ray_local")


def _key(row: dict[str, Any]) -> tuple[str, int, int]:
    return row["source"], row["entry"] or 0, row["response"] or 0


def test_ray_rows_equal_inspect_and_the_local_engine(corpus: Path, tmp_path: Path) -> None:
    ray_out, local_out = tmp_path / "ray.parquet", tmp_path / "local.parquet"
    result = scan([str(corpus)], out=ray_out, engine="ray")
    local = scan([str(corpus)], out=local_out, engine="local", jobs=2)
    ray_rows = sorted(pq.read_table(ray_out).to_pylist(), key=_key)
    local_rows = sorted(pq.read_table(local_out).to_pylist(), key=_key)
    assert ray_rows == local_rows
    assert result.summary == local.summary
    websocket = [corpus / "devtools-websocket.har", corpus / "voice-barge-in.ssecap"]
    for path in [
        *sorted((corpus / "cuts").rglob("*"))[:20],
        corpus / "chrome-base64.har",
        *websocket,
    ]:
        if path.is_file():
            got = sorted((r for r in ray_rows if r["source"] == str(path)), key=_key)
            assert [compared(r) for r in got] == [compared(r) for r in expected_rows(path)]
    ws_rows = [r for r in ray_rows if r["source"] in {str(p) for p in websocket}]
    # the HAR's WebSocket entry holds two responses, beside an SSE entry
    assert [r["transport"] for r in ws_rows].count("websocket") == 4
    assert [(r["entry"], r["response"]) for r in ws_rows if r["source"].endswith(".har")] == [
        (0, 0),
        (0, 1),
        (2, None),
    ]
    gone = [r for r in ray_rows if r["source"] == str(corpus / "gone.sse")]
    assert gone[0]["error"] == "No such file or directory"


def test_ray_reads_a_parquet_table_with_keys_and_a_corrupt_one_is_a_row(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    table = pa.table(
        {
            "id": pa.array([10, 11, 12], pa.int64()),
            "body": pa.array([OPENAI + DONE, OPENAI, None], pa.binary()),
        }
    )
    pq.write_table(table, tmp_path / "logs.parquet")
    (tmp_path / "broken.parquet").write_bytes(b"PAR1 not really")
    out = tmp_path / "rows.jsonl"
    code = main(["scan", str(tmp_path), "--engine", "ray", "--out", str(out), "--json"])
    summary = json.loads(capsys.readouterr().out)
    assert code == 0
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    by_id = {r["id"]: r for r in rows if r["id"] is not None}
    assert by_id[10]["status"] == "completed" and by_id[11]["status"] == "truncated"
    assert [by_id[i]["table_row"] for i in (10, 11, 12)] == [0, 1, 2]
    assert by_id[11]["where_broke"] == "mid-text" and by_id[10]["where_broke"] is None
    assert by_id[12]["error"] == "the 'body' column is null"
    broken = [r for r in rows if r["source"] == str(tmp_path / "broken.parquet")]
    assert len(broken) == 1 and broken[0]["error"]
    assert summary["streams"] == 2 and summary["input_errors"] == 2


def test_ray_reads_a_mixed_tree_as_the_local_engine_does(tmp_path: Path) -> None:
    from tests.scan.incident import write_incident

    root = write_incident(tmp_path / "tree")
    (root / "stream.jsonl").write_bytes(
        b'{"model":"m","created_at":"2026-01-01T00:00:00Z","message":{"role":"assistant",'
        b'"content":"Hi"},"done":true,"done_reason":"stop"}\n'
    )
    # a table judged in several calls of the kernel (Ray's batches of 1,024 rows)
    bodies = [OPENAI + (DONE if i % 4 else b"") for i in range(2500)]
    pq.write_table(pa.table({"body": bodies}), root / "big.parquet", row_group_size=300)
    ray_out, local_out = tmp_path / "ray.parquet", tmp_path / "local.parquet"
    ray = scan([str(root)], out=ray_out, engine="ray", group_by=["route"])
    local = scan([str(root)], out=local_out, engine="local", jobs=1, group_by=["route"])

    def key(row: dict[str, Any]) -> tuple[str, int]:
        return row["source"], row["table_row"] or 0

    ray_rows = sorted(pq.read_table(ray_out).to_pylist(), key=key)
    local_rows = sorted(pq.read_table(local_out).to_pylist(), key=key)

    # (each engine's JSON reader types the log's own ts: with a time zone or without)
    def naive(value: Any) -> Any:
        return None if value is None else value.replace(tzinfo=None)

    assert [naive(r.pop("ts")) for r in ray_rows] == [naive(r.pop("ts")) for r in local_rows]
    assert ray_rows == local_rows
    assert ray.summary == local.summary
    routes = [g["route"] for g in ray.summary["by"]["route"]]
    assert routes == ["(none)", "/agent", "/chat", "/search"] and ray.summary["inputs"] == 3103
    for name, count in (("requests.jsonl", 600), ("big.parquet", 2500)):
        table = [r for r in ray_rows if r["source"].endswith(name)]
        assert [r["table_row"] for r in table] == list(range(count))
    big = [r for r in ray_rows if r["source"].endswith("big.parquet")]
    assert [r["status"] == "truncated" for r in big] == [i % 4 == 0 for i in range(2500)]


def test_one_local_ray_with_one_cpu_serves_the_ray_tests(ray_local: Any) -> None:
    from tests.local_ray import RAY, RAY_OBJECT_STORE

    assert RAY.opened == 1 and ray_local.is_initialized()
    resources = ray_local.cluster_resources()
    assert resources["CPU"] == 1
    assert resources["object_store_memory"] <= RAY_OBJECT_STORE


def test_what_ray_writes_to_stdout_goes_to_stderr_and_stdout_is_the_json_alone(
    tmp_path: Path, capfd: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from ssescope.scan.engines import ray as engine

    tables = engine._tables

    def noisy(ds: Any) -> Any:
        # what the raylet and Ray's C++ code write: straight to file descriptor 1
        os.write(1, b"(raylet) WARNING stray line\n")
        yield from tables(ds)

    monkeypatch.setattr(engine, "_tables", noisy)
    (tmp_path / "chat.sse").write_bytes(OPENAI + DONE)
    code = main(["scan", str(tmp_path / "chat.sse"), "--engine", "ray", "--json"])
    out, err = capfd.readouterr()
    assert code == 0 and json.loads(out)["streams"] == 1
    assert "(raylet) WARNING stray line\n" in err
    os.write(1, b"after\n")  # the process's stdout is back
    assert capfd.readouterr().out == "after\n"


def test_a_ray_the_scan_starts_keeps_the_workers_output_out_of_the_driver(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import ray

    from ssescope.scan.engines.ray import _connect

    started: list[dict[str, Any]] = []
    monkeypatch.setattr(ray, "is_initialized", lambda: False)
    monkeypatch.setattr(ray, "init", lambda **options: started.append(options))
    _connect()
    assert started == [{"log_to_driver": False}]
