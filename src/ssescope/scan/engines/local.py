"""The local engine: DuckDB reads and aggregates, a process pool judges."""

from __future__ import annotations

import multiprocessing
import os
import sys
from collections import deque
from collections.abc import Iterable, Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from typing import Any

import pyarrow as pa

from ..inputs import Inputs, collect
from ..kernel import BODY, ERROR, SOURCE, scan_batch
from ..output import output_schema
from .base import Batches, Job, error_batch

__all__ = ["BATCH_ROWS", "FILE_BATCH", "judge", "local_inputs", "run_local", "table_sql"]

BATCH_ROWS = 256
"""Table rows per kernel batch."""
FILE_BATCH = 64
"""Files per ``read_blob`` query (and per kernel batch)."""


def _quote(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


def table_sql(path: str, body: str, keys: list[str] | None) -> str:
    """The DuckDB query reading the body column and the key columns (``None``: all) of a
    Parquet or JSONL table at ``$path``, with column projection."""
    reader = "read_parquet" if path.lower().endswith((".parquet", ".pq")) else "read_json"
    options = "" if reader == "read_parquet" else ", format = 'newline_delimited'"
    columns = "*" if keys is None else ", ".join(_quote(c) for c in dict.fromkeys([body, *keys]))
    return f"SELECT {columns} FROM {reader}($path{options})"


def _connect() -> Any:
    import duckdb

    return duckdb.connect()


def local_inputs(paths: Iterable[str], *, json_tables: bool) -> Inputs:
    """Expand PATH arguments, with DuckDB's ``glob`` for patterns (local or remote)."""
    con = _connect()

    def expand(pattern: str) -> list[str]:
        try:
            rows = con.sql("SELECT file FROM glob($p) ORDER BY file", params={"p": pattern})
            return [str(r[0]) for r in rows.fetchall()]
        except Exception:
            return []

    try:
        return collect(paths, json_tables=json_tables, expand=expand)
    finally:
        con.close()


def _message(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return text[0] if text else type(exc).__name__


def _read_files(con: Any, files: list[str]) -> Iterator[pa.RecordBatch]:
    for start in range(0, len(files), FILE_BATCH):
        chunk = files[start : start + FILE_BATCH]
        table: pa.Table | None = None
        try:
            table = con.sql(
                f"SELECT filename AS {SOURCE}, content AS {BODY} FROM read_blob($files)",
                params={"files": chunk},
            ).to_arrow_table()
        except Exception:
            table = None
        found = set() if table is None else set(table.column(SOURCE).to_pylist())
        if table is not None and table.num_rows:
            yield from table.combine_chunks().to_batches()
        missing = [f for f in chunk if f not in found]
        errors: list[tuple[str, str]] = []
        for path in missing:
            try:
                one = con.sql(
                    f"SELECT filename AS {SOURCE}, content AS {BODY} FROM read_blob($files)",
                    params={"files": [path]},
                ).to_arrow_table()
            except Exception as exc:
                errors.append((path, _message(exc)))
                continue
            if one.num_rows:
                yield from one.to_batches()
            else:
                errors.append((path, _os_error(path)))
        if errors:
            yield error_batch(errors)


def _os_error(path: str) -> str:
    try:
        with open(path, "rb"):
            pass
    except OSError as exc:
        return exc.strerror or str(exc)
    return "the file could not be read"


def _with_source(batch: pa.RecordBatch, path: str) -> pa.RecordBatch:
    names = [f"input_{n}" if n in (SOURCE, ERROR) else n for n in batch.schema.names]
    batch = batch.rename_columns(names)
    return batch.append_column(SOURCE, pa.array([path] * batch.num_rows, pa.string()))


def _read_table(con: Any, path: str, body: str, keys: list[str] | None) -> Iterator[pa.RecordBatch]:
    try:
        reader = con.sql(table_sql(path, body, keys), params={"path": path}).to_arrow_reader(
            BATCH_ROWS
        )
        for batch in reader:
            yield _with_source(batch, path)
    except Exception as exc:
        yield error_batch([(path, _message(exc))])


def _schema(con: Any, path: str, body: str, keys: list[str] | None) -> pa.Schema | None:
    try:
        sql = table_sql(path, body, keys) + " LIMIT 0"
        schema: pa.Schema = con.sql(sql, params={"path": path}).to_arrow_table().schema
    except Exception:
        return None  # the table is reported unreadable when it is read
    return schema


def _schemas(con: Any, tables: list[str], body: str, keys: list[str] | None) -> list[pa.Schema]:
    found = (_schema(con, path, body, keys) for path in tables)
    return [s for s in found if s is not None]


def _total(con: Any, inputs: Inputs) -> int | None:
    total = len(inputs.files) + len(inputs.errors)
    for path in inputs.tables:
        if not path.lower().endswith((".parquet", ".pq")):
            return None
        try:
            row = con.sql("SELECT count(*) FROM read_parquet($p)", params={"p": path}).fetchone()
        except Exception:
            row = (1,)
        total += int(row[0]) if row else 0
    return total


def _judge(job: Job) -> pa.RecordBatch:
    return scan_batch(job.batch, body=job.body)


def judge(jobs: Iterable[Job], workers: int) -> Iterator[tuple[int, pa.RecordBatch]]:
    """Run the kernel over ``jobs``: in this process for one worker, else in a process
    pool with a bounded number of batches in flight (memory does not grow with the
    corpus). Yields ``(input rows, judged rows)`` in input order."""
    if workers <= 1:
        for job in jobs:
            yield job.batch.num_rows, _judge(job)
        return
    method = "forkserver" if sys.platform.startswith("linux") else "spawn"
    context = multiprocessing.get_context(method)
    with ProcessPoolExecutor(max_workers=workers, mp_context=context) as pool:
        pending: deque[tuple[int, Future[pa.RecordBatch]]] = deque()
        for job in jobs:
            pending.append((job.batch.num_rows, pool.submit(_judge, job)))
            if len(pending) >= 2 * workers:
                n, future = pending.popleft()
                yield n, future.result()
        while pending:
            n, future = pending.popleft()
            yield n, future.result()


def run_local(
    inputs: Inputs, *, body: str = BODY, keys: list[str] | None = None, jobs: int | None = None
) -> Batches:
    """Scan ``inputs`` on this machine: DuckDB reads (``read_blob``, ``read_parquet``,
    ``read_json`` with projection), ``jobs`` processes judge (default: the cores)."""
    con = _connect()
    schema = output_schema(_schemas(con, inputs.tables, body, keys), body)
    total = _total(con, inputs)

    def produce() -> Iterator[Job]:
        if inputs.errors:
            yield Job(error_batch(inputs.errors), BODY)
        for batch in _read_files(con, inputs.files):
            yield Job(batch, BODY)
        for path in inputs.tables:
            for batch in _read_table(con, path, body, keys):
                yield Job(batch, body if ERROR not in batch.schema.names else BODY)

    def run() -> Iterator[tuple[int, pa.RecordBatch]]:
        try:
            yield from judge(produce(), jobs or os.cpu_count() or 1)
        finally:
            con.close()

    return Batches(schema, total, run())
