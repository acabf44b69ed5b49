"""The corpus summary, computed by DuckDB in SQL over the rows' Parquet file."""

from __future__ import annotations

import os
from typing import Any

__all__ = ["STATUSES", "TIMINGS", "sql_string", "summarize"]

STATUSES = ("completed", "incomplete", "failed", "truncated", "cancelled")
"""The verdicts, in the order the summary shows them."""
TIMINGS = ("first_byte_s", "first_content_s", "max_gap_s", "total_s", "max_content_idle_s")
"""The timing columns the summary gives percentiles of."""

_WORST_ORDER = (
    "CASE status WHEN 'failed' THEN 0 WHEN 'truncated' THEN 1 WHEN 'cancelled' THEN 2 "
    "WHEN 'incomplete' THEN 3 ELSE 4 END"
)
_BINS = 20


def sql_string(value: str | os.PathLike[str]) -> str:
    """``value`` as a SQL string literal (for statements that take no parameters)."""
    return "'" + str(value).replace("'", "''") + "'"


def _rate(count: int, total: int) -> float:
    return round(count / total, 6) if total else 0.0


def _groups(con: Any, column: str, judged: int) -> list[dict[str, Any]]:
    counts = ", ".join(f"count(*) FILTER (WHERE status = '{s}')" for s in STATUSES)
    rows = con.execute(
        f"SELECT coalesce({column}, '(none)') AS k, count(*) AS n, {counts} FROM rows "
        "WHERE error IS NULL GROUP BY k ORDER BY n DESC, k"
    ).fetchall()
    out = []
    for row in rows:
        n = int(row[1])
        group: dict[str, Any] = {column: row[0], "streams": n, "share": _rate(n, judged)}
        for status, count in zip(STATUSES, row[2:], strict=True):
            group[status] = int(count)
            group[f"{status}_rate"] = _rate(int(count), n)
        out.append(group)
    return out


def _histogram(con: Any, column: str) -> dict[str, Any] | None:
    low, high = con.execute(
        f"SELECT min({column}), quantile_cont({column}, 0.99) FROM rows"
    ).fetchone()
    if low is None:
        return None
    # one value (or all equal): bins over [low, 2 × low] so the bar sits at its value
    width = (high - low) / _BINS if high > low else max(low, 0.01) / _BINS
    counts = [0] * _BINS
    for index, count in con.execute(
        f"SELECT least(CAST(floor(({column} - $low) / $w) AS INTEGER), {_BINS - 1}) AS b, count(*) "
        f"FROM rows WHERE {column} IS NOT NULL GROUP BY b",
        {"low": low, "w": width},
    ).fetchall():
        counts[index] += int(count)
    return {"column": column, "start": low, "width": width, "counts": counts}


def summarize(parquet: str | os.PathLike[str], *, top: int = 10) -> dict[str, Any]:
    """Summarize the rows in ``parquet`` (what ``scan --json`` prints).

    Returns:
        ``streams`` (judged), ``input_errors``, ``bytes`` (judged), ``inputs_cut`` (inputs
        judged by their first 64 MiB only: their rows' ``unread_bytes``), ``verdicts`` (count and rate of each),
        ``by_provider`` and ``by_model`` (counts and rates per verdict), ``diagnostics``
        (the ``top`` codes: streams they occur in, and occurrences), ``timing`` (p50, p90,
        p99 of each timing column, over the streams that have it), ``ttft_histogram``,
        ``worst`` (the ``top`` streams to open next: failed, then truncated, cancelled,
        incomplete, by error count) and ``errors`` (inputs that could not be read).
    """
    from .engines.shards import connect

    con: Any = connect(threads=1)  # one thread: its working set does not grow with the rows
    try:
        con.execute(f"CREATE VIEW rows AS SELECT * FROM read_parquet({sql_string(parquet)})")
        judged, errors, nbytes, cut = con.execute(
            "SELECT count(*) FILTER (WHERE error IS NULL), count(*) FILTER (WHERE error IS NOT NULL), "
            "coalesce(sum(bytes), 0), count(DISTINCT source) FILTER (WHERE unread_bytes IS NOT NULL) "
            "FROM rows"
        ).fetchone()
        judged, errors = int(judged), int(errors)
        found = dict(
            con.execute(
                "SELECT status, count(*) FROM rows WHERE error IS NULL GROUP BY status"
            ).fetchall()
        )
        verdicts = {
            s: {"count": int(found.get(s, 0)), "rate": _rate(int(found.get(s, 0)), judged)}
            for s in STATUSES
        }
        diagnostics = [
            {"code": code, "streams": int(streams), "count": int(count)}
            for code, streams, count in con.execute(
                "WITH occ AS (SELECT unnest(diagnostics) AS code FROM rows), "
                "per AS (SELECT unnest(list_distinct(diagnostics)) AS code FROM rows), "
                "streams AS (SELECT code, count(*) AS s FROM per GROUP BY code) "
                "SELECT occ.code, any_value(streams.s) AS s, count(*) AS n FROM occ "
                "JOIN streams USING (code) GROUP BY occ.code ORDER BY s DESC, n DESC, occ.code "
                "LIMIT $top",
                {"top": top},
            ).fetchall()
        ]
        timing: dict[str, Any] = {}
        for column in TIMINGS:
            n, p50, p90, p99 = con.execute(
                f"SELECT count({column}), quantile_cont({column}, 0.5), "
                f"quantile_cont({column}, 0.9), quantile_cont({column}, 0.99) FROM rows"
            ).fetchone()
            timing[column] = {"streams": int(n), "p50": p50, "p90": p90, "p99": p99}
        columns = [
            "source",
            "entry",
            "response",
            "provider",
            "model",
            "status",
            "status_reason",
            "errors",
            "diagnostics",
        ]
        worst = [
            dict(zip(columns, row, strict=True))
            for row in con.execute(
                f"SELECT {', '.join(columns)} FROM rows WHERE error IS NULL AND "
                f"(status <> 'completed' OR errors > 0) ORDER BY {_WORST_ORDER}, errors DESC, "
                "warnings DESC, source, entry LIMIT $top",
                {"top": top},
            ).fetchall()
        ]
        unread = [
            {"source": source, "error": error}
            for source, error in con.execute(
                "SELECT source, error FROM rows WHERE error IS NOT NULL ORDER BY source LIMIT $top",
                {"top": top},
            ).fetchall()
        ]
        ttft = "first_content_s" if timing["first_content_s"]["streams"] else "first_byte_s"
        return {
            "streams": judged,
            "input_errors": errors,
            "bytes": int(nbytes),
            "inputs_cut": int(cut),
            "verdicts": verdicts,
            "by_provider": _groups(con, "provider", judged),
            "by_model": _groups(con, "model", judged),
            "diagnostics": diagnostics,
            "timing": timing,
            "ttft_histogram": _histogram(con, ttft),
            "worst": worst,
            "errors": unread,
        }
    finally:
        con.close()
