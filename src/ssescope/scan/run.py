"""One scan from PATH arguments to rows on disk and a summary."""

from __future__ import annotations

import os
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .engines.base import Batches
from .kernel import BODY
from .output import ResultWriter, export, output_format
from .summary import summarize

__all__ = ["ScanResult", "scan"]


@dataclass
class ScanResult:
    """What a scan produced.

    Attributes:
        rows: how many rows were written (one per stream, one per unreadable input).
        out: the file the rows were written to, or ``None`` when none was asked for.
        summary: the corpus summary (:func:`ssescope.scan.summary.summarize`).
    """

    rows: int
    out: Path | None
    summary: dict[str, Any]


def _engine(
    engine: str, paths: Sequence[str], body: str | None, keys: list[str] | None, jobs: int | None
) -> Batches:
    column = body or BODY
    if engine == "ray":
        from .engines.ray import ray_inputs, run_ray

        return run_ray(ray_inputs(paths, json_tables=body is not None), body=column, keys=keys)
    from .engines.local import local_inputs, run_local

    inputs = local_inputs(paths, json_tables=body is not None)
    return run_local(inputs, body=column, keys=keys, jobs=jobs)


def scan(
    paths: Sequence[str],
    *,
    out: str | os.PathLike[str] | None = None,
    engine: str = "local",
    jobs: int | None = None,
    body: str | None = None,
    keys: list[str] | None = None,
    on_progress: Callable[[int, int | None], None] | None = None,
) -> ScanResult:
    """Judge every stream under ``paths`` and summarize them.

    Args:
        paths: files, directories (recursively), globs, record directories, tables.
        out: where the rows go (``.parquet``, ``.jsonl`` or ``.csv``), or ``None``.
        engine: ``"local"`` (DuckDB and a process pool) or ``"ray"`` (Ray Data).
        jobs: worker processes of the local engine (default: the number of cores).
        body: the body column of tables (``body`` when ``None``); given, JSONL files are
            read as tables too.
        keys: the table columns carried into the rows (``None``: all of them).
        on_progress: called with (inputs done so far, total inputs when known).
    """
    batches = _engine(engine, paths, body, keys, jobs)
    fmt = None if out is None else output_format(out)
    with tempfile.TemporaryDirectory(prefix="ssescope-scan-") as tmp:
        parquet = Path(out) if out is not None and fmt == "parquet" else Path(tmp) / "rows.parquet"
        writer = ResultWriter(parquet, batches.schema)
        done = 0
        try:
            for n, batch in batches.batches:
                writer.write(batch)
                done += n
                if on_progress is not None:
                    on_progress(done, batches.total)
        finally:
            writer.close()
        summary = summarize(parquet)
        if out is not None and fmt != "parquet":
            export(parquet, out, fmt or "parquet")
    return ScanResult(writer.rows, None if out is None else Path(out), summary)
