"""The local engine: DuckDB reads and aggregates, a process pool judges.

The scanning process only plans: it expands the inputs, counts the rows of each Parquet
table (from its footer) and cuts the corpus into shards (up to 256 file paths, or up to
1,024 rows of a table; :mod:`.shards`). Each worker reads its own shards with its own DuckDB
connection and sends back the judged rows, which hold no bodies; the scanning process writes
them. Bodies are never read, pickled or copied by the scanning process, except the rows of
JSON-lines tables, which DuckDB cannot read by row range.
"""

from __future__ import annotations

import gc
import importlib.util
import multiprocessing
import multiprocessing.forkserver
import os
import signal
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from typing import Any

import pyarrow as pa

from ...aggregate.timing import TimingOptions
from ..inputs import Inputs, collect
from ..kernel import BODY, ERROR, input_error_batch, scan_batch
from ..output import output_schema
from .base import Batches, error_batch
from .shards import (
    BATCH_ROWS,
    ROW_NUMBER,
    BatchShard,
    FileShard,
    RowShard,
    Shard,
    connect,
    judge_shard,
    read_rows,
    table_sql,
)

__all__ = [
    "BATCH_ROWS",
    "FILE_SHARD",
    "POOL_MIN",
    "ROW_SHARD",
    "TableInfo",
    "Work",
    "judge",
    "local_inputs",
    "plan",
    "run_local",
    "table_info",
    "table_sql",
]

FILE_SHARD = (16, 256)
"""Fewest and most files per shard (one ``read_blob`` query in a worker)."""
ROW_SHARD = (BATCH_ROWS, 1024)
"""Fewest and most table rows per shard."""
POOL_MIN = 256
"""Fewer inputs than this (when counted ahead) are judged in the scanning process."""
_SHARDS_PER_WORKER = 4  # enough shards that the workers finish together
_IN_FLIGHT = 2  # shards submitted ahead, per worker


def local_inputs(
    paths: Iterable[str],
    *,
    json_tables: bool,
    follow_links: bool = False,
    body: str | None = None,
) -> Inputs:
    """Expand PATH arguments, with DuckDB's ``glob`` for patterns (local or remote)."""
    con = connect()

    def expand(pattern: str) -> list[str]:
        try:
            rows = con.sql("SELECT file FROM glob($p) ORDER BY file", params={"p": pattern})
            return [str(r[0]) for r in rows.fetchall()]
        except Exception:
            return []

    try:
        return collect(
            paths, json_tables=json_tables, expand=expand, follow_links=follow_links, body=body
        )
    finally:
        con.close()


def _is_parquet(path: str) -> bool:
    return path.lower().endswith((".parquet", ".pq"))


@dataclass(frozen=True)
class TableInfo:
    """What the scanning process learns of a table before it is read.

    Attributes:
        path: the table's path or URL.
        schema: its projected columns, or ``None`` when it cannot be read (a row with
            ``error`` says so when it is read).
        rows: its row count (a Parquet file's footer), or ``None`` (JSON lines, or not
            counted).
    """

    path: str
    schema: pa.Schema | None
    rows: int | None


def table_info(con: Any, path: str, body: str, keys: list[str] | None) -> TableInfo:
    """Read the schema and the row count of the table at ``path`` (never raises)."""
    try:
        sql = table_sql(path, body, keys) + " LIMIT 0"
        schema: pa.Schema = con.sql(sql, params={"path": path}).to_arrow_table().schema
    except Exception:
        return TableInfo(path, None, None)
    if not _is_parquet(path):
        return TableInfo(path, schema, None)
    try:
        rows = con.sql("SELECT count(*) FROM read_parquet($p)", params={"p": path}).fetchall()
    except Exception:
        return TableInfo(path, schema, None)
    return TableInfo(path, schema, int(rows[0][0]) if rows else 0)


def _size(count: int, workers: int, bounds: tuple[int, int]) -> int:
    low, high = bounds
    return max(low, min(high, -(-count // (_SHARDS_PER_WORKER * workers))))


def plan(
    con: Any,
    inputs: Inputs,
    tables: list[TableInfo],
    *,
    body: str,
    keys: list[str] | None,
    workers: int,
) -> Iterator[Shard]:
    """The shards of a scan, in input order: unreadable inputs, files, then tables.

    Files go by ``FILE_SHARD`` paths and Parquet tables by ``ROW_SHARD`` rows, sized so
    that each worker gets several shards. JSON-lines tables are read here, by DuckDB, and
    sent as batches.
    """
    if inputs.errors:
        yield BatchShard(error_batch(inputs.errors))
    files = inputs.files
    step = _size(len(files), workers, FILE_SHARD)
    times = inputs.times
    for start in range(0, len(files), step):
        chunk = tuple(files[start : start + step])
        when = tuple(times.get(f) for f in chunk) if times else None
        yield FileShard(chunk, times=when)
    key_tuple = None if keys is None else tuple(keys)
    for table in tables:
        ranged = (
            table.rows is not None
            and table.schema is not None
            and ROW_NUMBER not in table.schema.names
        )
        if ranged and table.rows is not None:
            step = _size(table.rows, workers, ROW_SHARD)
            for start in range(0, table.rows, step):
                stop = min(table.rows, start + step)
                yield RowShard(table.path, body, key_tuple, start, stop)
        elif _is_parquet(table.path) or table.schema is None:
            # not counted: read whole by one worker (or, unreadable, an error row)
            yield RowShard(table.path, body, key_tuple)
        else:
            for batch in read_rows(con, RowShard(table.path, body, key_tuple)):
                yield BatchShard(batch, body if ERROR not in batch.schema.names else BODY)


# -- the workers ------------------------------------------------------------------------

_worker: dict[str, Any] = {}  # a worker process's DuckDB connection


def _start_worker(timing: TimingOptions | None = None) -> None:
    # Ctrl-C reaches the terminal's whole foreground group, the workers too; a worker
    # interrupted while it held the result queue's lock left every worker waiting for it
    # and the pool's shutdown waiting for them. Only the scanning process takes the
    # interrupt: it cancels the shards not yet started and waits for the running ones.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    # each worker reads with its own connection, one DuckDB thread: the pool is the
    # parallelism; the objects of the imported modules are moved out of the collector's
    # generations, so its full collections do not walk them again and again
    _worker["con"] = connect(threads=1)
    _worker["timing"] = timing
    gc.freeze()


def _work(shard: Shard) -> list[pa.RecordBatch]:
    return list(judge_shard(shard, _worker["con"], _worker.get("timing")))


def _context() -> Any:
    """The pool's start method: ``forkserver`` where there is one, else ``spawn``.

    Not ``fork``: the scanning process runs DuckDB's and Arrow's threads, and forking a
    threaded process is unsafe. The fork server is one clean process that imports the
    kernel once (preloaded: ssescope, PyArrow, DuckDB, and pandas when installed, which
    PyArrow imports on first use); each worker is forked from it, ready in milliseconds.
    It is started before the shards are planned, so its imports overlap the planning.
    """
    if "forkserver" not in multiprocessing.get_all_start_methods():
        return multiprocessing.get_context("spawn")
    context = multiprocessing.get_context("forkserver")
    preload = [__name__]
    if importlib.util.find_spec("pandas") is not None:
        preload.append("pandas")
    context.set_forkserver_preload(preload)
    multiprocessing.forkserver.ensure_running()
    return context


Work = Callable[[Shard], list[pa.RecordBatch]]
"""What a worker runs on a shard: read it and judge it (the judged batches)."""


def judge(
    shards: Iterable[Shard],
    workers: int,
    con: Any,
    context: Any = None,
    *,
    work: Work = _work,
    timing: TimingOptions | None = None,
) -> Iterator[tuple[int, pa.RecordBatch]]:
    """Judge ``shards``: in this process with ``con`` for one worker, else in a process
    pool that reads its own shards, with ``_IN_FLIGHT`` shards per worker submitted ahead
    (memory does not grow with the corpus). Yields ``(inputs covered, judged rows)`` in
    input order.

    A worker that dies (killed, out of memory) breaks the pool: a new pool is started,
    and each shard that was in flight is judged again, alone, so that a death names its
    shard; that shard is tried once more, and if its worker dies again its inputs become
    error rows and the scan goes on. ``work`` is what the pool's workers run on each
    shard; ``timing`` the stall thresholds every stream is judged with.
    """
    if workers <= 1:
        for shard in shards:
            yield from _counted(shard.inputs, judge_shard(shard, con, timing))
        return
    pool = _Pool(workers, context or _context(), timing)
    try:
        pending: deque[tuple[Shard, Future[list[pa.RecordBatch]]]] = deque()
        queue = iter(shards)
        while True:
            while len(pending) < _IN_FLIGHT * workers:
                more = next(queue, None)
                if more is None:
                    break
                pending.append((more, pool.submit(work, more)))
            if not pending:
                return
            shard, future = pending.popleft()
            try:
                batches = future.result()
            except BrokenProcessPool:
                suspects = [shard, *(s for s, _ in pending)]
                pending.clear()
                pool.restart()
                for suspect in suspects:  # one at a time: a second death names its shard
                    yield from _counted(suspect.inputs, pool.alone(work, suspect))
                continue
            except Exception as exc:  # a worker's bug must not end the scan either
                batches = [_lost(shard, f"internal error: {type(exc).__name__}: {exc}")]
            yield from _counted(shard.inputs, batches)
    finally:
        pool.close()


class _Pool:
    """The process pool of :func:`judge`, started again when a worker dies."""

    def __init__(self, workers: int, context: Any, timing: TimingOptions | None = None) -> None:
        self.workers, self.context, self.timing = workers, context, timing
        self.pool = self._start()

    def _start(self) -> ProcessPoolExecutor:
        return ProcessPoolExecutor(
            max_workers=self.workers,
            mp_context=self.context,
            initializer=_start_worker,
            initargs=(self.timing,),
        )

    def submit(self, work: Work, shard: Shard) -> Future[list[pa.RecordBatch]]:
        return self.pool.submit(work, shard)

    def restart(self) -> None:
        self.pool.shutdown(wait=True, cancel_futures=True)
        self.pool = self._start()

    def alone(self, work: Work, shard: Shard) -> list[pa.RecordBatch]:
        """Judge ``shard`` with nothing else in flight: a death now is its own, and it is
        tried once more before its inputs are reported."""
        for _ in range(2):
            found = self._try(work, shard)
            if found is not None:
                return found
        return [_lost(shard, _DIED)]

    def _try(self, work: Work, shard: Shard) -> list[pa.RecordBatch] | None:
        # the judged batches, or None when the worker died (the pool is started again)
        try:
            return self.pool.submit(work, shard).result()
        except BrokenProcessPool:
            self.restart()
            return None
        except Exception as exc:
            return [_lost(shard, f"internal error: {type(exc).__name__}: {exc}")]

    def close(self) -> None:
        self.pool.shutdown(wait=True, cancel_futures=True)


_DIED = "a worker process died judging this input, twice (killed, or out of memory)"


def _lost(shard: Shard, error: str) -> pa.RecordBatch:
    """The judged error rows of a shard that could not be judged."""
    if isinstance(shard, FileShard):
        batch = error_batch([(path, error) for path in shard.files])
    elif isinstance(shard, RowShard):
        where = shard.path if shard.stop is None else f"{shard.path}:{shard.start}-{shard.stop}"
        batch = error_batch([(where, error)])
    else:
        batch = input_error_batch(shard.batch, error)
    return scan_batch(batch)


def _counted(
    inputs: int, batches: Iterable[pa.RecordBatch]
) -> Iterator[tuple[int, pa.RecordBatch]]:
    # a shard's inputs are counted with its last batch
    held: pa.RecordBatch | None = None
    for batch in batches:
        if held is not None:
            yield 0, held
        held = batch
    if held is not None:
        yield inputs, held


def run_local(
    inputs: Inputs,
    *,
    body: str = BODY,
    keys: list[str] | None = None,
    jobs: int | None = None,
    timing: TimingOptions | None = None,
) -> Batches:
    """Scan ``inputs`` on this machine: ``jobs`` processes (default: the cores) each read
    shards with DuckDB (``read_blob``, ``read_parquet`` by row range, with projection)
    and judge them (with the stall thresholds ``timing``); ``--jobs 1`` reads and judges
    in this process."""
    con = connect(threads=1)  # one reading thread: the judging is the work
    tables = [table_info(con, path, body, keys) for path in inputs.tables]
    schema = output_schema([t.schema for t in tables if t.schema is not None], body)
    total: int | None = len(inputs.files) + len(inputs.errors)
    for table in tables:
        if table.rows is not None:
            total = None if total is None else total + table.rows
        elif _is_parquet(table.path) or table.schema is None:
            total = None if total is None else total + 1
        else:
            total = None  # JSON lines: not counted ahead
    workers = jobs or os.cpu_count() or 1
    if total is not None and total < POOL_MIN:
        workers = 1  # a pool's start costs more than judging these here
    context = _context() if workers > 1 else None  # the fork server imports meanwhile

    def run() -> Iterator[tuple[int, pa.RecordBatch]]:
        try:
            shards = plan(con, inputs, tables, body=body, keys=keys, workers=workers)
            yield from judge(shards, workers, con, context, timing=timing)
        finally:
            con.close()

    return Batches(schema, total, run())
