"""The local engine's shards: workers read their own rows and files, and the rows come
back complete, once each, in input order."""

from __future__ import annotations

import itertools
import random
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from tests.scan.scan_helpers import stream_files

from ssescope.scan import scan, scan_batch
from ssescope.scan.engines.local import FILE_SHARD, ROW_SHARD, local_inputs, plan, table_info
from ssescope.scan.engines.shards import (
    BatchShard,
    FileShard,
    RowShard,
    connect,
    judge_shard,
)


def bodies(count: int) -> list[bytes]:
    """Real streams and random cuts of them, ``count`` in all."""
    rng = random.Random(5)
    found = [p.read_bytes() for p in stream_files()]
    out = []
    for i in range(count):
        data = found[i % len(found)]
        out.append(data if i % 3 else data[: rng.randrange(1, max(2, len(data)))])
    return out


@pytest.fixture(scope="module")
def table(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, pa.Table]:
    """A Parquet table of 700 bodies in row groups of 300 rows, keyed by ``request_id``."""
    data = bodies(700)
    t = pa.table(
        {
            "request_id": pa.array(range(len(data)), pa.int64()),
            "body": pa.array(data, pa.binary()),
        }
    )
    path = tmp_path_factory.mktemp("table") / "logs.parquet"
    pq.write_table(t, path, row_group_size=300)
    return path, t


def test_a_table_is_cut_into_row_ranges_that_cover_it_once_in_order(
    table: tuple[Path, pa.Table],
) -> None:
    path, t = table
    con = connect()
    try:
        inputs = local_inputs([str(path)], json_tables=False)

        shards = list(
            plan(
                con,
                inputs,
                [table_info(con, str(path), "body", None)],
                body="body",
                keys=None,
                workers=2,
            )
        )
    finally:
        con.close()
    assert all(isinstance(s, RowShard) for s in shards) and len(shards) > 1
    ranges = [(s.start, s.stop) for s in shards if isinstance(s, RowShard)]
    assert ranges[0][0] == 0 and ranges[-1][1] == t.num_rows
    assert all(a[1] == b[0] for a, b in itertools.pairwise(ranges))
    assert all(ROW_SHARD[0] <= (stop or 0) - start <= ROW_SHARD[1] for start, stop in ranges[:-1])


def test_two_workers_reading_their_own_rows_give_the_kernel_s_rows_in_order(
    table: tuple[Path, pa.Table], tmp_path: Path
) -> None:
    path, t = table
    expected = scan_batch(
        t.append_column("table_row", pa.array(range(t.num_rows), pa.int64()))
        .append_column("source", pa.array([str(path)] * t.num_rows))
        .combine_chunks()
        .to_batches()[0]
    ).to_pylist()
    for jobs in (1, 2):
        out = tmp_path / f"rows{jobs}.parquet"
        result = scan([str(path)], out=out, jobs=jobs)
        rows = pq.read_table(out).to_pylist()
        assert result.rows == len(expected)
        assert rows == expected, jobs


def test_a_shard_of_rows_reads_only_its_range(table: tuple[Path, pa.Table]) -> None:
    path = table[0]
    con = connect(threads=1)
    try:
        rows = [
            r
            for batch in judge_shard(RowShard(str(path), "body", ("request_id",), 290, 310), con)
            for r in batch.to_pylist()
        ]
    finally:
        con.close()
    assert sorted({r["request_id"] for r in rows}) == list(range(290, 310))
    assert [r["request_id"] for r in rows] == sorted(r["request_id"] for r in rows)


def test_a_table_with_its_own_file_row_number_column_is_read_whole(tmp_path: Path) -> None:
    data = bodies(20)
    path = tmp_path / "numbered.parquet"
    pq.write_table(
        pa.table({"file_row_number": list(range(100, 120)), "body": pa.array(data, pa.binary())}),
        path,
    )
    result = scan([str(path)], out=tmp_path / "rows.parquet", jobs=2)
    rows = pq.read_table(tmp_path / "rows.parquet").to_pylist()
    assert result.rows >= 20 and all(r["error"] is None for r in rows)
    assert [r["file_row_number"] for r in rows][:1] == [100]


def test_files_are_cut_into_bounded_shards_and_an_unreadable_one_is_a_row(tmp_path: Path) -> None:
    data = bodies(40)
    for i, body in enumerate(data):
        (tmp_path / f"{i:03d}.sse").write_bytes(body)
    (tmp_path / "zz-gone.sse").symlink_to(tmp_path / "nowhere.sse")
    con = connect(threads=1)
    try:
        inputs = local_inputs([str(tmp_path)], json_tables=False)
        shards = list(plan(con, inputs, [], body="body", keys=None, workers=2))
        assert all(isinstance(s, FileShard) for s in shards)
        sizes = [len(s.files) for s in shards if isinstance(s, FileShard)]
        assert sum(sizes) == 41 and max(sizes) <= FILE_SHARD[1]
        rows = [r for s in shards for b in judge_shard(s, con) for r in b.to_pylist()]
    finally:
        con.close()
    assert [r["source"] for r in rows if r["error"] is None] == [
        str(tmp_path / f"{i:03d}.sse") for i in range(40)
    ]
    gone = [r for r in rows if r["error"] is not None]
    assert [r["source"] for r in gone] == [str(tmp_path / "zz-gone.sse")]


def test_a_batch_shard_is_judged_as_it_is() -> None:
    batch = pa.RecordBatch.from_pydict({"source": ["a"], "body": [bodies(1)[0]]})
    con = connect(threads=1)
    try:
        (out,) = list(judge_shard(BatchShard(batch), con))
    finally:
        con.close()
    assert out.to_pylist() == scan_batch(batch).to_pylist()


def test_ray_calls_of_one_table_are_numbered_across_calls() -> None:
    from ssescope.scan.engines.ray import CALL, number_rows

    def batch(rows: list[tuple[str, int]]) -> pa.RecordBatch:
        return pa.RecordBatch.from_pydict(
            {
                "table_row": pa.array([r for _, r in rows], pa.int64()),
                CALL: pa.array([c for c, _ in rows], pa.string()),
            }
        )

    # call a: rows 0-2 (row 1 holds two streams), split over two batches; then call b,
    # whose first row also holds two streams, and call c in the same batch as b's end
    batches = [
        batch([("a", 0), ("a", 1)]),
        batch([("a", 1), ("a", 2)]),
        batch([]),
        batch([("b", 0), ("b", 0), ("b", 1), ("c", 0)]),
    ]
    out = list(number_rows(batches))
    assert [b.column("table_row").to_pylist() for b in out] == [[0, 1], [1, 2], [], [3, 3, 4, 5]]
    assert all(CALL not in b.schema.names for b in out)
