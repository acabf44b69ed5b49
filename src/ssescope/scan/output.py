"""The scan's rows: one schema for every input, written as Parquet, JSONL or CSV."""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq

from .kernel import BODY, RESULT_SCHEMA, carried_names, rename_own

__all__ = ["FORMATS", "ResultWriter", "align", "output_format", "output_schema"]

FORMATS = ("parquet", "jsonl", "csv")
"""The formats of ``--out``, chosen by its suffix (Parquet for any other suffix)."""


def output_format(path: str | os.PathLike[str]) -> str:
    """The format ``--out PATH`` is written in: ``jsonl``, ``csv`` or ``parquet``."""
    suffix = Path(path).suffix.lower()
    if suffix in (".jsonl", ".ndjson", ".json"):
        return "jsonl"
    if suffix == ".csv":
        return "csv"
    return "parquet"


def _plain(t: pa.DataType) -> pa.DataType:
    if pa.types.is_large_string(t) or pa.types.is_string_view(t):
        return pa.string()
    if pa.types.is_large_binary(t) or pa.types.is_binary_view(t):
        return pa.binary()
    return t


def output_schema(key_schemas: Iterable[pa.Schema], body: str = BODY) -> pa.Schema:
    """The rows' schema: the carried columns of every table (first type wins; a name
    whose types differ becomes a string), then :data:`~ssescope.scan.kernel.RESULT_SCHEMA`."""
    keys: dict[str, pa.DataType] = {}
    for schema in key_schemas:
        own = rename_own(schema.names)
        names = carried_names(own, body)
        for f, renamed in zip(schema, own, strict=True):
            if renamed not in names:
                continue
            name = names[renamed]
            t = _plain(f.type)
            if name not in keys:
                keys[name] = t
            elif keys[name] != t:
                keys[name] = pa.string()
    return pa.schema([pa.field(n, t) for n, t in keys.items()] + list(RESULT_SCHEMA))


def align(batch: pa.RecordBatch, schema: pa.Schema) -> pa.RecordBatch:
    """``batch`` with exactly ``schema``'s columns: missing ones null, types cast."""
    columns = []
    names = set(batch.schema.names)
    for f in schema:
        if f.name not in names:
            columns.append(pa.nulls(batch.num_rows, f.type))
            continue
        column = batch.column(f.name)
        if column.type != f.type:
            column = column.cast(f.type)
        columns.append(column)
    return pa.RecordBatch.from_arrays(columns, schema=schema)


_ROW_GROUP = 4096


class ResultWriter:
    """Writes the rows to a Parquet file as they come, a row group at a time (bounded
    memory).

    The Parquet file is the one the summary reads; :meth:`export` turns it into the
    JSONL or CSV the user asked for.
    """

    def __init__(self, path: str | os.PathLike[str], schema: pa.Schema) -> None:
        """Open ``path`` for rows of ``schema``."""
        self.path = Path(path)
        self.schema = schema
        self.rows = 0
        self._pending: list[pa.RecordBatch] = []
        self._pending_rows = 0
        self._writer = pq.ParquetWriter(self.path, schema, compression="zstd")

    def write(self, batch: pa.RecordBatch) -> None:
        """Append the rows of ``batch`` (aligned to the schema)."""
        if batch.num_rows:
            self._pending.append(align(batch, self.schema))
            self._pending_rows += batch.num_rows
            self.rows += batch.num_rows
            if self._pending_rows >= _ROW_GROUP:
                self._flush()

    def _flush(self) -> None:
        if self._pending:
            self._writer.write_table(pa.Table.from_batches(self._pending, self.schema))
        self._pending, self._pending_rows = [], 0

    def metadata(self, *, partial: bool, inputs_read: int, inputs: int | None) -> None:
        """Record in the file's footer that it holds only part of a scan, and how much."""
        values = {
            "ssescope.partial": "true" if partial else "false",
            "ssescope.inputs_read": str(inputs_read),
            "ssescope.inputs": "" if inputs is None else str(inputs),
        }
        self._writer.add_key_value_metadata(values)

    def close(self) -> None:
        """Finish the file."""
        try:
            self._flush()
        finally:
            self._writer.close()


def export(parquet: str | os.PathLike[str], out: str | os.PathLike[str], fmt: str) -> None:
    """Copy the rows of ``parquet`` to ``out`` as JSONL or CSV (lists become JSON text)."""
    import duckdb

    from .summary import sql_string

    src, dst = sql_string(parquet), sql_string(out)
    con = duckdb.connect()
    try:
        if fmt == "jsonl":
            con.execute(f"COPY (SELECT * FROM read_parquet({src})) TO {dst} (FORMAT json)")
        else:
            con.execute(
                "COPY (SELECT * REPLACE (to_json(diagnostics)::VARCHAR AS diagnostics) "
                f"FROM read_parquet({src})) TO {dst} (FORMAT csv, HEADER)"
            )
    finally:
        con.close()
