"""Shards of a corpus: what one worker of the local engine reads and judges by itself.

A shard names its inputs (a few file paths, or a range of rows of a Parquet table), so the
scanning process sends a few hundred bytes to a worker and gets back the judged rows, and
never reads or copies a body. The worker reads its shard itself: files one at a time, each
to at most 64 MiB (:mod:`ssescope.scan.reading`), tables with its own DuckDB connection
(``read_parquet`` with projection and a ``file_row_number`` range, which DuckDB prunes to
the row groups and pages that hold it), and runs :func:`~ssescope.scan.kernel.scan_batch`
over it, a bounded batch at a time.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pyarrow as pa

from ...aggregate.timing import TimingOptions
from ..kernel import BODY, ERROR, SOURCE, TABLE_ROW, input_error_batch, rename_own, scan_batch
from ..reading import INPUT_BYTES, Read, read_batches
from .base import error_batch

__all__ = [
    "BATCH_ROWS",
    "ROW_NUMBER",
    "BatchShard",
    "FileShard",
    "RowShard",
    "Shard",
    "connect",
    "judge_shard",
    "table_sql",
]

BATCH_ROWS = 256
"""Table rows per kernel batch (what a worker holds in memory at once)."""
ROW_NUMBER = "file_row_number"
"""DuckDB's virtual column of a Parquet row's position in its file."""


@dataclass(frozen=True)
class FileShard:
    """Stream files, each read to at most ``limit`` bytes (``times``: when each one's
    request started, beside ``files``, when known)."""

    files: tuple[str, ...]
    limit: int = INPUT_BYTES
    times: tuple[str | None, ...] | None = None

    @property
    def inputs(self) -> int:
        """How many inputs the shard covers (for the progress bar)."""
        return len(self.files)


@dataclass(frozen=True)
class RowShard:
    """Rows ``[start, stop)`` of a table of bodies (``stop`` ``None``: all of them)."""

    path: str
    body: str
    keys: tuple[str, ...] | None
    start: int = 0
    stop: int | None = None

    @property
    def inputs(self) -> int:
        """How many inputs the shard covers (for the progress bar; 0 when unknown)."""
        return 0 if self.stop is None else self.stop - self.start


@dataclass(frozen=True)
class BatchShard:
    """Inputs the scanning process already holds: unreadable inputs, JSON-lines rows."""

    batch: pa.RecordBatch
    body: str = BODY

    @property
    def inputs(self) -> int:
        """How many inputs the shard covers."""
        rows: int = self.batch.num_rows
        return rows


Shard = FileShard | RowShard | BatchShard
"""One unit of work of the local engine."""


def connect(threads: int | None = None) -> Any:
    """A DuckDB connection (``threads``: its worker threads, DuckDB's default when
    ``None``), set for a scan: no progress bar of its own (a query streaming rows to the
    kernel lasts as long as the judging), and memory DuckDB frees handed back to the
    system at once rather than kept for reuse, so the scanning process's memory does not
    creep up with the size of what was read."""
    import duckdb

    con = duckdb.connect()
    con.execute("SET enable_progress_bar = false")
    con.execute("SET allocator_flush_threshold = '4MB'")
    con.execute("SET allocator_bulk_deallocation_flush_threshold = '4MB'")
    if threads is not None:
        con.execute(f"SET threads = {int(threads)}")
    return con


def _quote(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


def table_sql(path: str, body: str, keys: list[str] | tuple[str, ...] | None) -> str:
    """The DuckDB query reading the body column and the key columns (``None``: all) of a
    Parquet or JSONL table at ``$path``, with column projection."""
    reader = "read_parquet" if path.lower().endswith((".parquet", ".pq")) else "read_json"
    options = "" if reader == "read_parquet" else ", format = 'newline_delimited'"
    columns = "*" if keys is None else ", ".join(_quote(c) for c in dict.fromkeys([body, *keys]))
    return f"SELECT {columns} FROM {reader}($path{options})"


def _range_sql(body: str, keys: tuple[str, ...] | None) -> str:
    # rows [$start, $stop) of a Parquet file: DuckDB pushes the range into the scan
    columns = (
        f"* EXCLUDE ({ROW_NUMBER}), {ROW_NUMBER}"
        if keys is None
        else ", ".join(_quote(c) for c in dict.fromkeys([body, *keys, ROW_NUMBER]))
    )
    return (
        f"SELECT {columns} FROM read_parquet($path, {ROW_NUMBER} = true) "
        f"WHERE {ROW_NUMBER} >= $start AND {ROW_NUMBER} < $stop"
    )


def message(exc: BaseException) -> str:
    """The first line of an exception's text (its type's name when it has none)."""
    text = str(exc).strip().splitlines()
    return text[0] if text else type(exc).__name__


_BLOB_SQL = f"SELECT filename AS {SOURCE}, content AS {BODY} FROM read_blob($files)"
_SIZE_SQL = "SELECT filename, size FROM read_blob($files)"


def _remote(con: Any, path: str, limit: int) -> Read:
    # a URL: DuckDB reads it (its size first: a body is never cut, only refused)
    try:
        sizes = con.sql(_SIZE_SQL, params={"files": [path]}).fetchall()
        if not sizes:
            return Read(None, error="the file could not be read")
        if sizes[0][1] is not None and int(sizes[0][1]) > limit:
            return Read(
                None,
                error=f"{int(sizes[0][1]):,} bytes, over the {limit:,} bytes an input is "
                "read to (a remote input is not read in part)",
            )
        table = con.sql(_BLOB_SQL, params={"files": [path]}).to_arrow_table()
    except Exception as exc:
        return Read(None, error=message(exc))
    bodies = table.column(BODY).to_pylist()
    return Read(bodies[0]) if bodies else Read(None, error="the file could not be read")


def read_files(
    con: Any,
    files: list[str],
    limit: int = INPUT_BYTES,
    times: tuple[str | None, ...] | None = None,
) -> Iterator[pa.RecordBatch]:
    """The files as ``source``/``body`` batches (with ``unread_bytes``, what was left past
    ``limit``, and ``started`` from ``times``); one that cannot be read is a row with
    ``error``. A batch holds at most ``BATCH_ROWS`` files and, past its first file,
    ``BATCH_BYTES`` of bodies."""
    remote = lambda path: _remote(con, path, limit)  # noqa: E731
    return read_batches(files, limit, remote, BATCH_ROWS, times)


def with_source(batch: pa.RecordBatch, path: str, first: int | None = None) -> pa.RecordBatch:
    """A table's batch with ``source`` (its path) and ``table_row`` added, and its own
    ``source``, ``error`` (…) columns renamed ``input_source``, ``input_error`` (…).

    ``table_row`` is DuckDB's ``file_row_number`` when the batch has it, else the rows
    counted from ``first``.
    """
    names = batch.schema.names
    ranged = ROW_NUMBER in names and first is None
    if ranged:
        rows = batch.column(ROW_NUMBER).cast(pa.int64())
        batch = batch.drop_columns([ROW_NUMBER])
    else:
        start = first or 0
        rows = pa.array(range(start, start + batch.num_rows), pa.int64())
    batch = batch.rename_columns(rename_own(batch.schema.names))
    batch = batch.append_column(TABLE_ROW, rows)
    return batch.append_column(SOURCE, pa.repeat(pa.scalar(path, pa.string()), batch.num_rows))


def read_rows(con: Any, shard: RowShard) -> Iterator[pa.RecordBatch]:
    """The shard's rows of its table, ``BATCH_ROWS`` at a time, with ``source``; a table
    that cannot be read is an error row."""
    params: dict[str, str | int]
    if shard.stop is None:
        sql, params = table_sql(shard.path, shard.body, shard.keys), {"path": shard.path}
    else:
        sql = _range_sql(shard.body, shard.keys)
        params = {"path": shard.path, "start": shard.start, "stop": shard.stop}
    try:
        reader = con.sql(sql, params=params).to_arrow_reader(BATCH_ROWS)
        names = reader.schema.names
        if shard.body not in names:
            shown = ", ".join(repr(n) for n in names[:20] if n != ROW_NUMBER)
            yield error_batch([(shard.path, f"the table has no {shard.body!r} column ({shown})")])
            return
        counted = 0
        for batch in reader:
            yield with_source(batch, shard.path, counted if shard.stop is None else None)
            counted += batch.num_rows
    except Exception as exc:
        yield error_batch([(shard.path, message(exc))])


def _batches(con: Any, shard: Shard) -> Iterator[tuple[pa.RecordBatch, str]]:
    if isinstance(shard, FileShard):
        for batch in read_files(con, list(shard.files), shard.limit, shard.times):
            yield batch, BODY
    elif isinstance(shard, RowShard):
        for batch in read_rows(con, shard):
            yield batch, shard.body if ERROR not in batch.schema.names else BODY
    else:
        yield shard.batch, shard.body


def judge_shard(
    shard: Shard, con: Any, timing: TimingOptions | None = None
) -> Iterator[pa.RecordBatch]:
    """Read ``shard`` with ``con`` and judge it: the kernel's rows, a batch at a time
    (``timing``: the stall thresholds, ``None`` for the defaults).

    A batch the kernel refuses (a column twice) or fails on gives one error row per
    input of it: one bad input never ends the scan.
    """
    for batch, body in _batches(con, shard):
        yield _judged(batch, body, timing)


def _judged(batch: pa.RecordBatch, body: str, timing: TimingOptions | None) -> pa.RecordBatch:
    try:
        return scan_batch(batch, body=body, timing=timing)
    except Exception as exc:  # the kernel never raises on bodies; a table can be wrong
        return scan_batch(input_error_batch(batch, message(exc)))
