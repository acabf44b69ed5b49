"""One scan from PATH arguments to rows on disk and a summary."""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pyarrow as pa

from ..aggregate.timing import TimingOptions
from ..errors import UsageError
from .engines.base import Batches
from .engines.shards import message
from .inputs import collect
from .kernel import BODY, input_error_batch, scan_batch
from .output import ResultWriter, export, output_format
from .summary import summarize
from .triage import GroupBy, check_time

__all__ = ["ScanInterrupted", "ScanResult", "partial_path", "scan"]


@dataclass
class ScanResult:
    """What a scan produced.

    Attributes:
        rows: how many rows were written (one per stream, one per unreadable input).
        out: the file the rows were written to, or ``None`` when none was asked for (an
            interrupted scan writes them to :func:`partial_path` of ``--out`` instead).
        summary: the corpus summary (:func:`ssescope.scan.summary.summarize`).
        partial: whether the scan was interrupted before it read every input.
        inputs_read: how many inputs were judged.
        inputs: how many inputs there were, when known ahead.
    """

    rows: int
    out: Path | None
    summary: dict[str, Any]
    partial: bool = False
    inputs_read: int = 0
    inputs: int | None = None


class ScanInterrupted(KeyboardInterrupt):
    """Raised by :func:`scan` when it was interrupted (Ctrl-C): the rows judged so far are
    written to :func:`partial_path` of ``out``, and summarized, in :attr:`result`."""

    def __init__(self, result: ScanResult) -> None:
        """Carry ``result`` (``partial`` set)."""
        super().__init__(f"interrupted after {result.inputs_read:,} inputs")
        self.result = result


def partial_path(out: str | os.PathLike[str]) -> Path:
    """Where an interrupted scan writes the rows meant for ``out``: ``rows.partial.jsonl``
    for ``rows.jsonl``, so that ``out`` itself is only ever a complete scan."""
    path = Path(out)
    return path.with_name(f"{path.stem}.partial{path.suffix}")


def _engine(
    engine: str,
    paths: Sequence[str],
    body: str | None,
    keys: list[str] | None,
    jobs: int | None,
    follow_links: bool,
    timing: TimingOptions | None,
) -> Batches:
    column = body or BODY
    tables = body is not None
    if engine == "ray":
        from .engines.ray import run_ray

        # local globs expanded here; URLs are passed to Ray as they are
        inputs = collect(paths, json_tables=tables, follow_links=follow_links, body=body)
        return run_ray(inputs, body=column, keys=keys, timing=timing)
    from .engines.local import local_inputs, run_local

    inputs = local_inputs(paths, json_tables=tables, follow_links=follow_links, body=body)
    return run_local(inputs, body=column, keys=keys, jobs=jobs, timing=timing)


def _write(writer: ResultWriter, batch: pa.RecordBatch) -> None:
    try:
        writer.write(batch)
    except Exception as exc:  # rows that do not fit the schema: their inputs are errors
        error = input_error_batch(batch, f"its rows could not be written: {message(exc)}")
        writer.write(scan_batch(error))


def _replace(tmp: Path, out: Path) -> None:
    # the finished file takes the place of ``out`` at once: never half written
    os.replace(tmp, out)


def scan(
    paths: Sequence[str],
    *,
    out: str | os.PathLike[str] | None = None,
    engine: str = "local",
    jobs: int | None = None,
    body: str | None = None,
    keys: list[str] | None = None,
    on_progress: Callable[[int, int | None], None] | None = None,
    follow_links: bool = False,
    group_by: Sequence[str] = (),
    time: str | None = None,
    timing: TimingOptions | None = None,
) -> ScanResult:
    """Judge every stream under ``paths`` and summarize them.

    Args:
        paths: files, directories (recursively), globs, record directories, tables.
        out: where the rows go (``.parquet``, ``.jsonl`` or ``.csv``), or ``None``. It is
            written to a temporary file beside it and renamed when complete.
        engine: ``"local"`` (DuckDB and a process pool) or ``"ray"`` (Ray Data).
        jobs: worker processes of the local engine (default: the number of cores).
        body: the body column of tables (``body`` when ``None``); given, JSONL files are
            read as tables too.
        keys: the table columns carried into the rows (``None``: all of them).
        on_progress: called with (inputs done so far, total inputs when known).
        follow_links: follow links that lead out of a directory argument's tree.
        group_by: the summary's ``--group-by`` cuts (a row column, or ``path[N]``).
        time: the carried column the summary's time axis takes each start from.
        timing: the stall thresholds every stream is judged with (``--idle-threshold``);
            ``None`` for the defaults, relative to each stream's pace.

    Raises:
        UsageError: a ``group_by`` or ``time`` names no column of the rows (before any
            input is judged).
        ScanInterrupted: on Ctrl-C (``KeyboardInterrupt``), once the rows judged so far
            are written to :func:`partial_path` of ``out`` (Parquet files there record
            ``ssescope.partial`` and ``ssescope.inputs_read`` in their metadata).
    """
    batches = _engine(engine, paths, body, keys, jobs, follow_links, timing)
    try:
        columns = batches.schema.names
        for spec in group_by:
            GroupBy(spec).expression(columns)
        check_time(columns, time)
    except UsageError:
        close = getattr(batches.batches, "close", None)
        if close is not None:
            close()
        raise
    fmt = None if out is None else output_format(out)
    with tempfile.TemporaryDirectory(prefix="ssescope-scan-") as tmp:
        rows = Path(tmp) / "rows.parquet"
        writer = ResultWriter(rows, batches.schema)
        done = 0
        interrupted = False
        try:
            for n, batch in batches.batches:
                _write(writer, batch)
                done += n
                if on_progress is not None:
                    on_progress(done, batches.total)
        except KeyboardInterrupt:
            interrupted = True
        finally:
            close = getattr(batches.batches, "close", None)
            if close is not None:
                close()  # the workers stop now, not when the generator is collected
            if interrupted:
                writer.metadata(partial=True, inputs_read=done, inputs=batches.total)
            writer.close()
        summary = summarize(rows, group_by=group_by, time=time, body=body or BODY)
        if interrupted:
            summary["partial"] = {"inputs_read": done, "inputs": batches.total}
        target = None if out is None else partial_path(out) if interrupted else Path(out)
        if target is not None:
            staged = target.with_name(f".{target.name}.{os.getpid()}.tmp")
            try:
                if fmt == "parquet":
                    shutil.copyfile(rows, staged)
                else:
                    export(rows, staged, fmt or "parquet")
                _replace(staged, target)
            finally:
                staged.unlink(missing_ok=True)
    result = ScanResult(
        writer.rows,
        None if out is None or interrupted else Path(out),
        summary,
        partial=interrupted,
        inputs_read=done,
        inputs=batches.total,
    )
    if interrupted:
        raise ScanInterrupted(result)
    return result
