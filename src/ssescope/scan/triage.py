"""Where, when and why: the summary's cuts of a corpus, in SQL over the rows (DuckDB).

- ``--group-by``: verdict rates per value of a row column, a carried key or a segment of
  the input's path (``path[N]``);
- the time axis: verdict rates per hour or per day (by the corpus's span), over the
  streams whose request start is known;
- where the broken streams broke (:data:`~ssescope.scan.broke.PLACES`);
- the streams to open next, each with the command that opens it.
"""

from __future__ import annotations

import re
import shlex
from datetime import datetime, timezone
from typing import Any

from ..errors import UsageError
from .broke import BROKEN, PLACES
from .kernel import BODY, RESULT_SCHEMA

__all__ = [
    "TIME_COLUMNS",
    "GroupBy",
    "breakdown",
    "check_time",
    "group_by",
    "open_command",
    "open_next",
    "time_axis",
    "time_expression",
]

TIME_COLUMNS = (
    "started",
    "ts",
    "timestamp",
    "time",
    "created_at",
    "started_at",
    "start_time",
    "date",
    "input_started",
)
"""The columns the time axis takes a stream's start from, the first that has one
(``started``: a HAR entry's ``startedDateTime``, a record index line's ``time``; the others
are a table's own columns, carried into the rows)."""

_PATH = re.compile(r"^path\[(-?\d+)\]$")
_HOUR, _DAY = 3600, 86400
_OPEN_PER_STATUS = {"failed": 10, "truncated": 10, "cancelled": 10, "incomplete": 5, "errors": 5}
_KEYS_SHOWN = 4


def _quote(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


class GroupBy:
    """One ``--group-by``: a row column (``route``, ``where_broke``…) or ``path[N]``, the
    N-th segment of the input's path from 0 (negative: from the end; ``path[-1]`` is the
    file's name, ``path[-2]`` its folder)."""

    def __init__(self, spec: str) -> None:
        """Parse ``spec`` (checked against the rows' columns by :meth:`expression`)."""
        self.spec = spec.strip()
        found = _PATH.match(self.spec)
        self.segment = None if found is None else int(found.group(1))

    def expression(self, columns: list[str]) -> str:
        """The SQL value of the group of a row.

        Raises:
            UsageError: the rows have no such column.
        """
        if self.segment is not None:
            n = self.segment
            index = n + 1 if n >= 0 else n  # DuckDB's lists count from 1, or from the end
            return f"list_filter(string_split(source, '/'), lambda x: x <> '')[{index}]"
        if self.spec not in columns:
            shown = ", ".join(c for c in columns if c not in ("diagnostics",))
            raise UsageError(
                f"--group-by {self.spec!r}: the rows have no such column "
                f"(columns: {shown}; or path[N], a segment of the input's path)"
            )
        return f"CAST({_quote(self.spec)} AS VARCHAR)"


def check_time(columns: list[str], wanted: str | None) -> None:
    """Refuse a ``--time`` that names no column of the rows.

    Raises:
        UsageError: it names none.
    """
    if wanted is not None and wanted not in columns:
        raise UsageError(
            f"--time {wanted!r}: the rows have no such column (a table's column, carried "
            "into the rows: give it to --key too when --key is given)"
        )


def _counts_sql() -> str:
    from .summary import STATUSES

    return ", ".join(f"count(*) FILTER (WHERE status = '{s}')" for s in STATUSES)


def _verdicts(item: dict[str, Any], counts: tuple[Any, ...]) -> dict[str, Any]:
    # each verdict's count and rate among the item's streams
    from .summary import STATUSES, rate

    for status, count in zip(STATUSES, counts, strict=True):
        item[status] = int(count)
        item[f"{status}_rate"] = rate(int(count), item["streams"])
    return item


def group_by(con: Any, expression: str, label: str, judged: int) -> list[dict[str, Any]]:
    """Count and rate of each verdict per group (``label`` names the groups' key), the
    largest groups first."""
    from .summary import rate

    rows = con.execute(
        f"SELECT coalesce({expression}, '(none)') AS k, count(*) AS n, {_counts_sql()} "
        "FROM rows WHERE error IS NULL GROUP BY k ORDER BY n DESC, k"
    ).fetchall()
    return [
        _verdicts(
            {label: row[0], "streams": int(row[1]), "share": rate(int(row[1]), judged)}, row[2:]
        )
        for row in rows
    ]


def time_expression(
    columns: dict[str, str], wanted: str | None = None
) -> tuple[str | None, str | None]:
    """The SQL value of a row's start in epoch seconds, and the columns it comes from.

    ``columns`` maps the rows' column names to their DuckDB types. ``wanted`` (``--time``)
    names the table's column to take; otherwise every one of :data:`TIME_COLUMNS` the rows
    have, the first that holds a time.

    Raises:
        UsageError: ``wanted`` is not a column of the rows.
    """
    check_time(list(columns), wanted)
    names = ["started", wanted] if wanted is not None else list(TIME_COLUMNS)
    parts, used = [], []
    for name in names:
        if name is None or name not in columns:
            continue
        kind, q = columns[name].upper(), _quote(name)
        if kind.startswith("TIMESTAMP") or kind == "DATE":
            parts.append(f"epoch(CAST({q} AS TIMESTAMPTZ))")
        elif kind in ("BIGINT", "INTEGER", "DOUBLE", "FLOAT", "HUGEINT", "UBIGINT", "DECIMAL"):
            parts.append(f"(CASE WHEN {q} > 1e11 THEN {q} / 1000 ELSE {q} END)::DOUBLE")
        elif kind == "VARCHAR":
            parts.append(f"epoch(TRY_CAST({q} AS TIMESTAMPTZ))")
        else:
            continue
        used.append(name)
    if not parts:
        return None, None
    return (parts[0] if len(parts) == 1 else f"coalesce({', '.join(parts)})"), ", ".join(used)


def _iso(seconds: float) -> str:
    return datetime.fromtimestamp(seconds, timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def time_axis(con: Any, expression: str | None, source: str | None) -> dict[str, Any] | None:
    """Verdict counts and rates per hour (a span of two days or less) or per day, over the
    judged streams whose start is known; ``None`` when none is."""

    if expression is None:
        return None
    low, high, timed = con.execute(
        f"SELECT min(t), max(t), count(t) FROM (SELECT {expression} AS t FROM rows "
        "WHERE error IS NULL)"
    ).fetchone()
    if not timed:
        return None
    step = _HOUR if high - low <= 2 * _DAY else _DAY
    found = con.execute(
        f"SELECT floor(t / {step}) * {step} AS b, count(*), {_counts_sql()} FROM "
        f"(SELECT {expression} AS t, status FROM rows WHERE error IS NULL) "
        "WHERE t IS NOT NULL GROUP BY b ORDER BY b"
    ).fetchall()
    buckets = [
        _verdicts({"start": _iso(float(row[0])), "streams": int(row[1])}, row[2:]) for row in found
    ]
    return {
        "step": "hour" if step == _HOUR else "day",
        "source": source,
        "streams": int(timed),
        "buckets": buckets,
    }


def breakdown(con: Any) -> list[dict[str, Any]]:
    """Where the broken streams (failed, truncated, cancelled) broke: each place's count,
    its share of them, and how many of each of those verdicts, in the order of
    :data:`~ssescope.scan.broke.PLACES`."""
    from .summary import rate

    counts = ", ".join(f"count(*) FILTER (WHERE status = '{s}')" for s in BROKEN)
    found = {
        row[0]: row[1:]
        for row in con.execute(
            f"SELECT where_broke, count(*), {counts} FROM rows WHERE error IS NULL AND "
            "where_broke IS NOT NULL GROUP BY where_broke"
        ).fetchall()
    }
    broken = sum(int(v[0]) for v in found.values())
    out = []
    for place in (*PLACES, *sorted(set(found) - set(PLACES))):
        if place not in found:
            continue
        n, *per = found[place]
        item: dict[str, Any] = {"where_broke": place, "streams": int(n), "share": rate(n, broken)}
        item.update({s: int(c) for s, c in zip(BROKEN, per, strict=True)})
        out.append(item)
    return out


def open_command(source: str, entry: int | None, table_row: int | None, body: str = BODY) -> str:
    """The command that opens one stream of the scan: ``ssescope inspect FILE`` with
    ``--row N --body COLUMN`` for a table's row and ``--entry N`` for an entry of a HAR or
    a JSONL log (shell-quoted)."""
    parts = ["ssescope", "inspect", shlex.quote(source)]
    if table_row is not None:
        parts += ["--row", str(table_row), "--body", shlex.quote(body)]
    if entry is not None:
        parts += ["--entry", str(entry)]
    return " ".join(parts)


_OPEN_COLUMNS = (
    "source",
    "entry",
    "response",
    "table_row",
    "provider",
    "model",
    "status",
    "status_reason",
    "where_broke",
    "max_content_idle_s",
    "max_content_idle_after",
    "max_gap_s",
    "errors",
    "diagnostics",
    "finish_reason",
    "http_status",
    "records",
    "bytes",
    "tool_calls",
    "first_content_s",
    "total_s",
    "started",
)


def open_next(con: Any, columns: list[str], *, body: str = BODY) -> list[dict[str, Any]]:
    """The streams to open next: failed, truncated and cancelled ones (ten of each), then
    incomplete ones and completed ones with errors (five of each), by error count; each
    with its keys (the first carried columns that it has a value of) and its
    ``command``."""
    own = set(RESULT_SCHEMA.names)
    keys = [c for c in columns if c not in own][:_KEYS_SHOWN]
    selected = ", ".join([*_OPEN_COLUMNS, *(_quote(k) for k in keys)])
    out: list[dict[str, Any]] = []
    for status, most in _OPEN_PER_STATUS.items():
        where = "status = 'completed' AND errors > 0" if status == "errors" else "status = $s"
        params: dict[str, Any] = {"top": most}
        if status != "errors":
            params["s"] = status
        for row in con.execute(
            f"SELECT {selected} FROM rows WHERE error IS NULL AND {where} "
            "ORDER BY errors DESC, warnings DESC, source, table_row, entry, response LIMIT $top",
            params,
        ).fetchall():
            item = dict(zip(_OPEN_COLUMNS, row[: len(_OPEN_COLUMNS)], strict=True))
            item["started"] = _plain(item["started"])
            values = row[len(_OPEN_COLUMNS) :]
            item["keys"] = {
                k: _plain(v) for k, v in zip(keys, values, strict=True) if v is not None
            }
            item["command"] = open_command(
                str(item["source"]), item["entry"], item["table_row"], body
            )
            out.append(item)
    return out


def _plain(value: object) -> object:
    # a value as JSON can carry it (a time in ISO 8601)
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    if isinstance(value, datetime):
        return value.astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.%fZ")
    return str(value)
