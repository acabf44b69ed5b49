"""A stream of nothing but comments is framed in memory that does not grow per comment."""

from __future__ import annotations

import tracemalloc

from ssescope import Pipeline


def test_a_pipeline_holds_no_memory_per_comment() -> None:
    body = b":\n" * 100_000 + b'data: {"choices":[]}\n\n'
    chunks = [body[i : i + 65536] for i in range(0, len(body), 65536)]
    warm = Pipeline(collect_events=False)  # what a first feed imports is not the stream's
    warm.feed(chunks[0] + chunks[-1])
    warm.close()
    warm.report()
    pipeline = Pipeline(collect_events=False)
    tracemalloc.start()
    try:
        for chunk in chunks:
            pipeline.feed(chunk)
        held, _peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    pipeline.close()
    report = pipeline.report()
    assert report.records.comments == 100_000 and report.records.data == 1
    assert held < 100_000  # 8 bytes a comment would be 800 kB
