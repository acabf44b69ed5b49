"""The corpus summary, computed by DuckDB in SQL over the rows' Parquet file."""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import Any

from ..silence import SILENCE_NOTE_S
from .kernel import BODY
from .triage import GroupBy, breakdown, open_next, time_axis, time_expression
from .triage import group_by as group_by_sql

__all__ = ["STATUSES", "TIMINGS", "rate", "sql_string", "summarize"]

STATUSES = ("completed", "incomplete", "failed", "truncated", "cancelled")
"""The verdicts, in the order the summary shows them."""
TIMINGS = ("first_byte_s", "first_content_s", "max_gap_s", "total_s", "max_content_idle_s")
"""The timing columns the summary gives percentiles of."""

_BINS = 20
_INPUT = "(coalesce(source, '') || chr(0) || coalesce(CAST(table_row AS VARCHAR), ''))"
# one input: a file, or a row of a table (a HAR or a capture of several responses is one)


def sql_string(value: str | os.PathLike[str]) -> str:
    """``value`` as a SQL string literal (for statements that take no parameters)."""
    return "'" + str(value).replace("'", "''") + "'"


def rate(count: int, total: int) -> float:
    """``count / total`` rounded to six places (0 when ``total`` is 0)."""
    return round(count / total, 6) if total else 0.0


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


def summarize(
    parquet: str | os.PathLike[str],
    *,
    top: int = 10,
    group_by: Sequence[str] = (),
    time: str | None = None,
    body: str = BODY,
) -> dict[str, Any]:
    """Summarize the rows in ``parquet`` (what ``scan --json`` prints).

    Args:
        parquet: the rows.
        top: how many diagnostics and unread inputs to list.
        group_by: ``--group-by`` specs (:class:`~ssescope.scan.triage.GroupBy`): a row
            column or ``path[N]``.
        time: ``--time``, the carried column holding each stream's start (default: the
            first of :data:`~ssescope.scan.triage.TIME_COLUMNS` that has one).
        body: the tables' body column (for the commands that open a table's row).

    Returns:
        ``inputs`` (files and table rows, read or not), ``streams`` (the responses
        judged: a HAR entry or a response of a capture holding several is one),
        ``input_errors``, ``bytes`` (judged), ``inputs_cut`` (inputs judged by their
        first 64 MiB only: their rows' ``unread_bytes``), ``verdicts`` (count and rate of
        each), ``by_provider`` and ``by_model`` (counts and rates per verdict), ``by``
        (the same for each ``group_by``, by its spec), ``timeline`` (verdict rates per
        hour or per day; ``None`` without times), ``where_broke`` (where the broken
        streams broke), ``diagnostics`` (the ``top`` codes: streams they occur in, and
        occurrences), ``timing`` (p50, p90, p99 of each timing column, over the streams
        that have it), ``idle`` (how many streams went :data:`~ssescope.silence.SILENCE_NOTE_S`
        or more without content, and how many of those broke), ``ttft_histogram``, ``worst`` (the streams to open next,
        :func:`~ssescope.scan.triage.open_next`, each with its ``command``) and
        ``errors`` (inputs that could not be read).

    Raises:
        UsageError: a ``group_by`` or ``time`` names no column of the rows.
    """
    from .engines.shards import connect

    con: Any = connect(threads=1)  # one thread: its working set does not grow with the rows
    try:
        con.execute(f"CREATE VIEW rows AS SELECT * FROM read_parquet({sql_string(parquet)})")
        schema = {str(r[0]): str(r[1]) for r in con.execute("DESCRIBE rows").fetchall()}
        names = list(schema)
        cuts = {spec: GroupBy(spec).expression(names) for spec in dict.fromkeys(group_by)}
        when, taken = time_expression(schema, time)
        judged, errors, nbytes, cut, inputs = con.execute(
            "SELECT count(*) FILTER (WHERE error IS NULL), count(*) FILTER (WHERE error IS NOT NULL), "
            "coalesce(sum(bytes), 0), count(DISTINCT source) FILTER (WHERE unread_bytes IS NOT NULL), "
            f"count(DISTINCT {_INPUT}) FROM rows"
        ).fetchone()
        judged, errors = int(judged), int(errors)
        found = dict(
            con.execute(
                "SELECT status, count(*) FROM rows WHERE error IS NULL GROUP BY status"
            ).fetchall()
        )
        verdicts = {
            s: {"count": int(found.get(s, 0)), "rate": rate(int(found.get(s, 0)), judged)}
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
        unread = [
            {"source": source, "error": error}
            for source, error in con.execute(
                "SELECT source, error FROM rows WHERE error IS NOT NULL ORDER BY source LIMIT $top",
                {"top": top},
            ).fetchall()
        ]
        idle, idle_broken = con.execute(
            "SELECT count(*), count(*) FILTER (WHERE where_broke IS NOT NULL) FROM rows "
            "WHERE error IS NULL AND max_content_idle_s >= $s",
            {"s": SILENCE_NOTE_S},
        ).fetchone()
        ttft = "first_content_s" if timing["first_content_s"]["streams"] else "first_byte_s"
        return {
            "inputs": int(inputs),
            "streams": judged,
            "input_errors": errors,
            "bytes": int(nbytes),
            "inputs_cut": int(cut),
            "verdicts": verdicts,
            "by_provider": group_by_sql(con, "provider", "provider", judged),
            "by_model": group_by_sql(con, "model", "model", judged),
            "by": {spec: group_by_sql(con, sql, spec, judged) for spec, sql in cuts.items()},
            "timeline": time_axis(con, when, taken),
            "where_broke": breakdown(con),
            "diagnostics": diagnostics,
            "timing": timing,
            "idle": {
                "at_least_s": SILENCE_NOTE_S,
                "streams": int(idle),
                "broken": int(idle_broken),
            },
            "ttft_histogram": _histogram(con, ttft),
            "worst": open_next(con, names, body=body),
            "errors": unread,
        }
    finally:
        con.close()
