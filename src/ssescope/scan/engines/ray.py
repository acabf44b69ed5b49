"""The Ray engine: Ray Data reads the inputs and maps the same kernel over them."""

from __future__ import annotations

import uuid
from collections.abc import Iterable, Iterator
from typing import Any

import pyarrow as pa

from ...aggregate.timing import TimingOptions
from ..inputs import Inputs, is_remote
from ..kernel import BODY, SOURCE, TABLE_ROW, rename_own, scan_batch
from ..output import output_schema
from .base import Batches, error_batch

__all__ = [
    "CALL",
    "kernel_for_files",
    "kernel_for_paths",
    "kernel_for_table",
    "number_rows",
    "run_ray",
]


def _run(table: pa.Table, body: str, timing: TimingOptions | None = None) -> pa.Table:
    batches = table.to_batches() or [
        pa.RecordBatch.from_arrays(
            [pa.array([], f.type) for f in table.schema], schema=table.schema
        )
    ]
    return pa.Table.from_batches([scan_batch(b, body=body, timing=timing) for b in batches])


def kernel_for_files(table: pa.Table, timing: TimingOptions | None = None) -> pa.Table:
    """``map_batches`` function over ``read_binary_files(include_paths=True)`` blocks:
    ``bytes`` is the body, ``path`` the source (``timing``: the stall thresholds)."""
    names = [BODY if n == "bytes" else SOURCE if n == "path" else n for n in table.column_names]
    return _run(table.rename_columns(names), BODY, timing)


def kernel_for_paths(table: pa.Table, timing: TimingOptions | None = None) -> pa.Table:
    """``map_batches`` function over blocks of local file paths (``path``): each file read
    to its first 64 MiB, regular files only (:mod:`ssescope.scan.reading`), a bounded
    batch of bodies at a time, and judged."""
    from ..reading import file_batch, read_batches

    paths = [str(p) for p in table.column("path").to_pylist()]
    times = table.column("started").to_pylist() if "started" in table.column_names else None
    judged = [scan_batch(batch, timing=timing) for batch in read_batches(paths, times=times)]
    return pa.Table.from_batches(judged or [scan_batch(file_batch([]))])


CALL = "__ssescope_call"
"""The column :func:`kernel_for_table` marks each call's rows with (dropped by
:func:`number_rows`): Ray may split or merge the outputs of its calls into blocks."""


def kernel_for_table(
    table: pa.Table, body: str, path: str, timing: TimingOptions | None = None
) -> pa.Table:
    """``map_batches`` function over the blocks of a table of bodies read from ``path``:
    ``table_row`` counts the call's rows from 0, and :data:`CALL` names the call
    (:func:`number_rows` adds the rows of the calls before it)."""
    table = table.rename_columns(rename_own(table.column_names))
    table = table.append_column(TABLE_ROW, pa.array(range(table.num_rows), pa.int64()))
    table = table.append_column(SOURCE, pa.array([path] * table.num_rows, pa.string()))
    judged = _run(table, body, timing)
    return judged.append_column(CALL, pa.array([uuid.uuid4().hex] * judged.num_rows, pa.string()))


def number_rows(batches: Iterable[pa.RecordBatch]) -> Iterator[pa.RecordBatch]:
    """The judged rows of one table, in order, with ``table_row`` counted across the calls
    of :func:`kernel_for_table` (each counted its rows from 0; every row gives at least one
    judged row) and :data:`CALL` dropped."""
    base = total = 0
    current: str | None = None
    for batch in batches:
        if CALL not in batch.schema.names:
            yield batch
            continue
        calls = batch.column(CALL).to_pylist()
        rows = batch.column(TABLE_ROW).to_pylist()
        numbered = []
        for call, row in zip(calls, rows, strict=True):
            if call != current:
                current, base = call, total
            numbered.append(None if row is None else base + row)
            if row is not None:
                total = max(total, base + row + 1)
        position = batch.schema.get_field_index(TABLE_ROW)
        field = batch.schema.field(TABLE_ROW)
        renumbered = batch.set_column(position, field, pa.array(numbered, pa.int64()))
        yield renumbered.drop_columns([CALL])


def _dataset(path: str, body: str, keys: list[str] | None) -> Any:
    import ray.data

    if path.lower().endswith((".parquet", ".pq")):
        columns = None if keys is None else list(dict.fromkeys([body, *keys]))
        return ray.data.read_parquet(path, columns=columns)
    ds = ray.data.read_json(path)
    if keys is not None:
        ds = ds.select_columns(list(dict.fromkeys([body, *keys])))
    return ds


def _schema(ds: Any) -> pa.Schema:
    schema = ds.schema()
    return pa.schema(
        [
            pa.field(n, t if isinstance(t, pa.DataType) else pa.string())
            for n, t in zip(schema.names, schema.types, strict=True)
        ]
    )


def _open_table(path: str, body: str, keys: list[str] | None) -> tuple[Any, pa.Schema] | str:
    try:
        ds = _dataset(path, body, keys)
        return ds, _schema(ds)
    except Exception as exc:
        return _first_line(exc)


def _tables(ds: Any) -> Iterator[pa.RecordBatch]:
    for table in ds.iter_batches(batch_format="pyarrow", batch_size=None):
        yield from table.to_batches()


def _connect() -> None:
    """Connect to Ray (``RAY_ADDRESS``, or a local Ray started here) unless the process
    already is: the workers' stdout and stderr stay in Ray's log files, instead of being
    printed by this process among its own output (``log_to_driver``)."""
    import ray

    if not ray.is_initialized():
        ray.init(log_to_driver=False)


def run_ray(
    inputs: Inputs,
    *,
    body: str = BODY,
    keys: list[str] | None = None,
    timing: TimingOptions | None = None,
) -> Batches:
    """Scan ``inputs`` with Ray Data: ``read_binary_files`` and ``read_parquet`` /
    ``read_json``, then ``map_batches`` with :func:`~ssescope.scan.kernel.scan_batch`
    (with the stall thresholds ``timing``).

    Uses the running Ray (``ray.init`` or ``RAY_ADDRESS``), or starts a local one whose
    workers' output stays in Ray's log files.
    """
    import ray.data

    _connect()
    context = ray.data.DataContext.get_current()
    context.execution_options.preserve_order = True
    context.enable_progress_bars = False
    errors = list(inputs.errors)
    local = [path for path in inputs.files if not is_remote(path)]
    files = [path for path in inputs.files if is_remote(path)]  # Ray reads these
    datasets: list[tuple[str, Any]] = []
    schemas = []
    for path in inputs.tables:
        opened = _open_table(path, body, keys)
        if isinstance(opened, str):
            errors.append((path, opened))
        else:
            datasets.append((path, opened[0]))
            schemas.append(opened[1])
    schema = output_schema(schemas, body)

    def run() -> Iterator[tuple[int, pa.RecordBatch]]:
        if errors:
            yield len(errors), scan_batch(error_batch(errors))
        if local:
            paths = ray.data.from_items(
                [{"path": path, "started": inputs.times.get(path)} for path in local]
            )
            mapped = paths.map_batches(
                kernel_for_paths,
                batch_format="pyarrow",
                batch_size=64,
                fn_kwargs={"timing": timing},
            )
            for batch in _tables(mapped):
                yield batch.num_rows, batch
        if files:
            ds = ray.data.read_binary_files(files, include_paths=True)
            judged = ds.map_batches(
                kernel_for_files, batch_format="pyarrow", fn_kwargs={"timing": timing}
            )
            for batch in _tables(judged):
                yield batch.num_rows, batch
        for path, ds in datasets:
            mapped = ds.map_batches(
                kernel_for_table,
                batch_format="pyarrow",
                fn_kwargs={"body": body, "path": path, "timing": timing},
            )
            try:
                for batch in number_rows(_tables(mapped)):
                    yield batch.num_rows, batch
            except Exception as exc:
                yield 1, scan_batch(error_batch([(path, _first_line(exc))]))

    return Batches(schema, None, run())


def _first_line(exc: BaseException) -> str:
    lines = [line for line in str(exc).splitlines() if line.strip()]
    return lines[-1].strip() if lines else type(exc).__name__
