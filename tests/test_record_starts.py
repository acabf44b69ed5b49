"""RecordStarts: every record's offset, with runs of comments kept as runs."""

from __future__ import annotations

import tracemalloc

from hypothesis import given
from hypothesis import strategies as st

from ssescope.aggregate.starts import RecordStarts

# (is a comment, length of the record in bytes)
RECORDS = st.lists(st.tuples(st.booleans(), st.sampled_from([1, 2, 2, 2, 5, 9])), max_size=60)


def _fill(records: list[tuple[bool, int]]) -> tuple[RecordStarts, list[int]]:
    starts, plain, at = RecordStarts(), [], 0
    for index, (comment, length) in enumerate(records):
        if comment:
            starts.comment(index, at)
        else:
            starts.array.append(at)
        plain.append(at)
        at += length
        # every offset so far is right at every step, not only at the end
        assert [starts.get(i) for i in range(index + 1)] == plain
    return starts, plain


@given(RECORDS)
def test_every_offset_is_the_one_a_plain_list_gives(records: list[tuple[bool, int]]) -> None:
    starts, plain = _fill(records)
    assert len(starts) == len(plain)
    assert [starts[i] for i in range(len(plain))] == plain
    assert starts.get(-1) is None and starts.get(len(plain)) is None


def test_a_run_of_equal_comments_takes_no_memory_per_comment() -> None:
    starts = RecordStarts()
    tracemalloc.start()
    try:
        for i in range(200_000):
            starts.comment(i, 2 * i)
        held, _peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert held < 10_000  # not 8 bytes a comment (1.6 MB)
    assert len(starts) == 200_000 and starts.get(123_456) == 246_912
