"""One row's body of a table of bodies, read as the scan reads it (``inspect --row N``).

The scan numbers a table's rows from 0 in file order (``table_row``: DuckDB's
``file_row_number`` for a Parquet file, the line's position among a JSON-lines table's
rows); this reads that row back with the same queries, so that the command the scan
prints opens exactly the stream it judged.
"""

from __future__ import annotations

from typing import Any

from ..errors import UsageError
from .engines.shards import ROW_NUMBER, connect, message, table_sql
from .kernel import BODY

__all__ = ["read_table_body"]


def _is_parquet(path: str) -> bool:
    return path.lower().endswith((".parquet", ".pq"))


def _value(con: Any, path: str, row: int, body: str) -> tuple[bool, Any, int]:
    # (found, the body, the table's row count)
    if _is_parquet(path):
        sql = table_sql(path, body, [])
        ranged = sql.replace(
            "FROM read_parquet($path)", f"FROM read_parquet($path, {ROW_NUMBER} = true)"
        )
        found = con.sql(
            f"{ranged} WHERE {ROW_NUMBER} = $row", params={"path": path, "row": row}
        ).fetchall()
        if found:
            return True, found[0][0], row + 1
        count = con.sql("SELECT count(*) FROM read_parquet($path)", params={"path": path})
        return False, None, int(count.fetchall()[0][0])
    reader = con.sql(table_sql(path, body, []), params={"path": path}).to_arrow_reader(256)
    seen = 0
    for batch in reader:
        if row < seen + batch.num_rows:
            return True, batch.column(0)[row - seen].as_py(), row + 1
        seen += batch.num_rows
    return False, None, seen


def read_table_body(path: str, row: int, body: str = BODY) -> bytes:
    """The body in column ``body`` of row ``row`` (from 0) of the Parquet or JSON-lines
    table at ``path``.

    Raises:
        UsageError: the table cannot be read, has no such column or row, or the row's
            body is null or not bytes or text.
    """
    con = connect(threads=1)  # one thread: the rows come in file order
    try:
        found, value, rows = _value(con, path, row, body)
    except Exception as exc:
        raise UsageError(
            f"cannot read {path!r} as a table with a {body!r} column: {message(exc)}"
        ) from exc
    finally:
        con.close()
    if not found:
        raise UsageError(f"there is no row {row}; the table {path!r} has {rows:,} rows (from 0)")
    if value is None:
        raise UsageError(f"row {row} of {path!r} has a null {body!r}")
    if isinstance(value, str):
        return value.encode("utf-8")
    if isinstance(value, bytes | bytearray | memoryview):
        return bytes(value)
    raise UsageError(
        f"row {row} of {path!r} holds {type(value).__name__} in {body!r}, not bytes or text"
    )
