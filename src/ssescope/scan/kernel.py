"""The scan kernel: one Arrow record batch of bodies in, one row per stream out.

Every engine (the local process pool, Ray Data, a user's Spark ``mapInArrow``) calls
:func:`scan_batch`; nothing else judges a stream.
"""

from __future__ import annotations

from datetime import datetime, timezone
from typing import Any

import pyarrow as pa

from ..aggregate.report import Report
from ..aggregate.timing import TimingOptions
from ..toolschema.check import mismatched_calls
from .broke import where_broke
from .streams import Entry, inspect_streams

__all__ = [
    "BODY",
    "ERROR",
    "RESULT_SCHEMA",
    "SOURCE",
    "STARTED",
    "TABLE_ROW",
    "UNREAD",
    "carried_names",
    "input_error_batch",
    "rename_own",
    "scan_batch",
]

BODY = "body"
"""The default name of the input column holding the stream bytes."""
SOURCE = "source"
"""The input (and output) column naming where a stream came from (a path)."""
ERROR = "error"
"""The input (and output) column saying why an input could not be read."""
UNREAD = "unread_bytes"
"""The input (and output) column counting the bytes of an input left unread past the
limit of what one input is read to (null: it was read whole)."""
TABLE_ROW = "table_row"
"""The input (and output) column numbering a table's rows from 0 (``inspect --row``)."""
STARTED = "started"
"""The input (and output) column of when a stream's request started (a proxy index
line's ``time``; a HAR entry's ``startedDateTime`` wins), UTC."""

RESULT_SCHEMA = pa.schema(
    [
        pa.field(SOURCE, pa.string()),
        pa.field("entry", pa.int32()),
        pa.field("response", pa.int32()),
        pa.field(TABLE_ROW, pa.int64()),
        pa.field("method", pa.string()),
        pa.field("url", pa.string()),
        pa.field(STARTED, pa.timestamp("us", tz="UTC")),
        pa.field("container", pa.string()),
        pa.field("transport", pa.string()),
        pa.field("provider", pa.string()),
        pa.field("framing", pa.string()),
        pa.field("status", pa.string()),
        pa.field("status_reason", pa.string()),
        pa.field("where_broke", pa.string()),
        pa.field("finish_reason", pa.string()),
        pa.field("raw_finish_reason", pa.string()),
        pa.field("model", pa.string()),
        pa.field("http_status", pa.int32()),
        pa.field("records", pa.int64()),
        pa.field("invalid_records", pa.int64()),
        pa.field("bytes", pa.int64()),
        pa.field(UNREAD, pa.int64()),
        pa.field("outputs", pa.int32()),
        pa.field("tool_calls", pa.int32()),
        pa.field("invalid_tool_calls", pa.int32()),
        pa.field("schema_mismatches", pa.int32()),
        pa.field("diagnostics", pa.list_(pa.string())),
        pa.field("errors", pa.int32()),
        pa.field("warnings", pa.int32()),
        pa.field("infos", pa.int32()),
        pa.field("input_tokens", pa.int64()),
        pa.field("output_tokens", pa.int64()),
        pa.field("total_tokens", pa.int64()),
        pa.field("reasoning_tokens", pa.int64()),
        pa.field("cached_input_tokens", pa.int64()),
        pa.field("first_byte_s", pa.float64()),
        pa.field("first_content_s", pa.float64()),
        pa.field("max_gap_s", pa.float64()),
        pa.field("total_s", pa.float64()),
        pa.field("max_content_idle_s", pa.float64()),
        pa.field("max_content_idle_after", pa.string()),
        pa.field(ERROR, pa.string()),
    ]
)
"""The columns :func:`scan_batch` produces for each stream, after the carried key columns."""

_NAMES = RESULT_SCHEMA.names


def _transport(report: Report) -> str:
    """The ``transport`` column: ``websocket`` for a stream a WebSocket carried, else the
    body's framing (``sse``, ``ndjson``, ``json-array``, ``json``, ``aws-eventstream``)."""
    return "websocket" if report.websocket is not None else report.framing


def _started(value: object) -> datetime | None:
    # an ISO 8601 time (a HAR's startedDateTime), a datetime or epoch seconds, as UTC
    if isinstance(value, datetime):
        return value if value.tzinfo is not None else value.replace(tzinfo=timezone.utc)
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        try:
            return datetime.fromtimestamp(value / 1000 if value > 1e11 else value, timezone.utc)
        except (OverflowError, OSError, ValueError):
            return None
    if not isinstance(value, str) or not value:
        return None
    try:
        found = datetime.fromisoformat(value.strip().replace("Z", "+00:00"))
    except ValueError:
        return None
    return found if found.tzinfo is not None else found.replace(tzinfo=timezone.utc)


def _values(
    report: Report,
    entry: Entry,
    source: str | None,
    unread: int | None = None,
    row: int | None = None,
    started: object = None,
) -> tuple[Any, ...]:
    # the row in RESULT_SCHEMA's order (a tuple: the kernel's inner loop)
    response = report.response
    outputs = response.outputs
    first = outputs[0] if outputs else None
    calls = [call for output in outputs for call in output.tool_calls]
    usage = response.usage
    timing = report.timing
    diagnostics = report.diagnostics
    severities = [d.severity for d in diagnostics]
    return (
        source,
        entry.index,
        entry.response,
        row,
        entry.method,
        entry.url,
        _started(entry.started) or _started(started),
        report.container,
        _transport(report),
        report.provider,
        report.framing,
        response.status,
        response.status_reason,
        where_broke(report),
        first.finish_reason if first else None,
        first.raw_finish_reason if first else None,
        response.model,
        report.http_status,
        report.records.total,
        report.records.invalid,
        report.bytes,
        unread,
        len(outputs),
        len(calls),
        sum(1 for call in calls if call.error is not None),
        None if entry.tools is None else mismatched_calls(diagnostics),
        tuple([d.code for d in diagnostics]),
        severities.count("error"),
        severities.count("warning"),
        severities.count("info"),
        *(
            (None,) * 5
            if usage is None
            else (
                usage.input_tokens,
                usage.output_tokens,
                usage.total_tokens,
                usage.reasoning_tokens,
                usage.cached_input_tokens,
            )
        ),
        timing.first_byte_s,
        timing.first_content_s,
        timing.max_gap_s,
        timing.total_s,
        timing.max_content_idle_s,
        timing.max_content_idle_after,
        None,
    )


def report_row(report: Report, entry: Entry | None = None) -> dict[str, Any]:
    """The output row of one stream: the fields of its Report, flattened (without
    ``source``, which names the input, ``table_row``, ``unread_bytes`` and ``error``)."""
    row = dict(zip(_NAMES, _values(report, entry or Entry(), None), strict=True))
    del row[SOURCE], row[ERROR], row[UNREAD], row[TABLE_ROW]
    row["diagnostics"] = list(row["diagnostics"])
    return row


def _as_bytes(
    column: pa.ChunkedArray | pa.Array, body: str
) -> tuple[list[bytes | None], str | None]:
    t = column.type
    if pa.types.is_string(t) or pa.types.is_large_string(t) or pa.types.is_string_view(t):
        return [None if v is None else v.encode("utf-8") for v in column.to_pylist()], None
    if pa.types.is_binary(t) or pa.types.is_large_binary(t) or pa.types.is_binary_view(t):
        return column.to_pylist(), None
    return [None] * len(column), f"the {body!r} column holds {t}, not bytes or text"


_EMPTY = (None,) * (len(_NAMES) - 5)
_OWN = (ERROR, SOURCE, UNREAD, TABLE_ROW, STARTED)  # the input columns the kernel reads


def carried_names(names: list[str], body: str = BODY) -> dict[str, str]:
    """The output name of each carried input column (every column but ``body`` and the
    kernel's own): its own name, or ``input_`` before it when a result column has it,
    again until no other column has it (``model`` next to ``input_model`` becomes
    ``input_input_model``)."""
    kept = [n for n in names if n != body and n not in _OWN]
    taken = set(_NAMES) | {n for n in kept if n not in _NAMES}
    out: dict[str, str] = {}
    for name in kept:
        if name not in _NAMES:
            out[name] = name
            continue
        target = f"input_{name}"
        while target in taken:
            target = f"input_{target}"
        taken.add(target)
        out[name] = target
    return out


def rename_own(names: list[str]) -> list[str]:
    """A table's column names with its own ``source``, ``error`` and ``unread_bytes``
    (which the kernel would read as its own) renamed ``input_source`` and so on, with
    more ``input_`` before them while another column has the name."""
    taken = set(names)
    out = []
    for name in names:
        target = name
        if name in _OWN:
            target = f"input_{name}"
            while target in taken:
                target = f"input_{target}"
            taken.add(target)
        out.append(target)
    return out


def input_error_batch(batch: pa.RecordBatch, error: str) -> pa.RecordBatch:
    """An input batch of error rows for each row of ``batch`` (its ``source`` kept)."""
    sources = (
        batch.column(SOURCE).cast(pa.string())
        if SOURCE in batch.schema.names
        else pa.nulls(batch.num_rows, pa.string())
    )
    return pa.RecordBatch.from_arrays(
        [sources, pa.nulls(batch.num_rows, pa.binary()), pa.repeat(error, batch.num_rows)],
        names=[SOURCE, BODY, ERROR],
    )


def _error_row(source: str | None, message: str, row: int | None = None) -> tuple[Any, ...]:
    return (source, None, None, row, *_EMPTY, message)


def scan_batch(
    batch: pa.RecordBatch,
    *,
    body: str = BODY,
    timing: TimingOptions | None = None,
) -> pa.RecordBatch:
    """Judge every stream in ``batch`` and return one row per stream.

    Args:
        batch: an Arrow record batch with a ``body`` column (binary or UTF-8 string). An
            ``error`` column, when present, marks inputs the reader could not read (their
            body is ignored), ``unread_bytes`` counts what the reader left unread of
            each, ``table_row`` numbers a table's rows and ``started`` says when each
            request started (ISO 8601 text, a timestamp or epoch seconds). Every other column (``source``, the user's keys) is carried through to
            each stream of its row (named by :func:`carried_names`).
        body: the name of the body column.
        timing: the stall thresholds (``--idle-threshold``); ``None`` for the defaults.

    Returns:
        A record batch: the carried columns, then :data:`RESULT_SCHEMA` (``source`` and
        ``error`` are merged with the input's). A body holding several streams (a HAR, a
        multi-response capture) gives several rows; a null body or an input error gives
        one row with ``error`` set. Never raises on bad bodies.

    Raises:
        ValueError: the batch has no ``body`` column, or a column name twice.
    """
    if body not in batch.schema.names:
        raise ValueError(f"the batch has no {body!r} column (columns: {batch.schema.names})")
    if len(set(batch.schema.names)) < len(batch.schema.names):
        raise ValueError(f"the batch has a column twice (columns: {batch.schema.names})")
    bodies, wrong_type = _as_bytes(batch.column(body), body)
    errors: list[str | None] = (
        batch.column(ERROR).to_pylist() if ERROR in batch.schema.names else [None] * len(bodies)
    )
    sources: list[str | None] = (
        [None if v is None else str(v) for v in batch.column(SOURCE).to_pylist()]
        if SOURCE in batch.schema.names
        else [None] * len(bodies)
    )
    names = batch.schema.names
    nulls: list[Any] = [None] * len(bodies)
    unread: list[int | None] = batch.column(UNREAD).to_pylist() if UNREAD in names else nulls
    table_rows: list[int | None] = (
        batch.column(TABLE_ROW).to_pylist() if TABLE_ROW in names else nulls
    )
    starts: list[Any] = batch.column(STARTED).to_pylist() if STARTED in names else nulls
    take: list[int] = []
    rows: list[tuple[Any, ...]] = []
    for i, (data, error) in enumerate(zip(bodies, errors, strict=True)):
        source, row = sources[i], table_rows[i]
        if error is not None:
            found = [_error_row(source, error, row)]
        elif wrong_type is not None:
            found = [_error_row(source, wrong_type, row)]
        elif data is None:
            found = [_error_row(source, f"the {body!r} column is null", row)]
        else:
            try:
                found = [
                    _values(r, e, source, unread[i], row, starts[i])
                    for e, r in inspect_streams(data, timing)
                ]
            except Exception as exc:  # the engine never raises; a bug must not stop a scan
                message = f"internal error: {type(exc).__name__}: {exc}"
                found = [_error_row(source, message, row)]
        take.extend([i] * len(found))
        rows.extend(found)
    carried = carried_names(batch.schema.names, body)
    indices = pa.array(take, pa.int64())
    columns = [batch.column(n).take(indices) for n in carried]
    fields = [batch.schema.field(n).with_name(name) for n, name in carried.items()]
    values = list(zip(*rows, strict=True)) if rows else [()] * len(_NAMES)
    for field, column in zip(RESULT_SCHEMA, values, strict=True):
        columns.append(pa.array(column, field.type))
        fields.append(field)
    return pa.RecordBatch.from_arrays(columns, schema=pa.schema(fields))
