"""Judge a whole corpus of logged streams: one row per stream, and a summary.

Needs the ``scan`` extra (DuckDB and PyArrow); ``--engine ray`` also the ``ray`` extra.
The kernel, :func:`scan_batch`, turns an Arrow record batch of bodies into one row per
stream with the same engine as :func:`ssescope.inspect`; every engine (the local process
pool, Ray Data, Spark's ``mapInArrow``) calls it::

    from ssescope.scan import scan, scan_batch
    result = scan(["logs/"], out="rows.parquet")
    result.summary["verdicts"]["truncated"]["rate"]
"""

from __future__ import annotations

from .kernel import BODY, ERROR, RESULT_SCHEMA, SOURCE, UNREAD, report_row, scan_batch
from .run import ScanInterrupted, ScanResult, partial_path, scan
from .streams import Entry, inspect_streams
from .summary import STATUSES, summarize

__all__ = [
    "BODY",
    "ERROR",
    "RESULT_SCHEMA",
    "SOURCE",
    "STATUSES",
    "UNREAD",
    "Entry",
    "ScanInterrupted",
    "ScanResult",
    "inspect_streams",
    "partial_path",
    "report_row",
    "scan",
    "scan_batch",
    "summarize",
]
