"""The opt-in size cap, and the cost model: linear work however the bytes are chunked.

Cost is checked by counting operations (function calls seen by a profile hook), never
by timing: performance itself is measured by ``bench/framing.py``.
"""

from __future__ import annotations

import sys
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from types import FrameType

import pytest

from ssescope.errors import UsageError
from ssescope.framing import SSEParser

from ..python_source import python_source
from ._helpers import codes, diags, events, pairs, parse, parse_chunks

# -- max_event_bytes ----------------------------------------------------------------------


def test_a_block_over_the_cap_is_dropped_with_an_error_and_parsing_resumes() -> None:
    out = parse(b"data: " + b"x" * 30 + b"\n\ndata: ok\n\n", max_event_bytes=20)
    assert pairs(out) == [("message", "ok")]
    (big,) = diags(out, "sse.event-too-large")
    assert (big.severity, big.offset, big.record) == ("error", 0, None)
    assert "max_event_bytes=20" in big.message


def test_a_block_exactly_at_the_cap_is_kept() -> None:
    # "data: 12345" and its LF are 12 bytes; the blank line does not count
    assert pairs(parse(b"data: 12345\n\n", max_event_bytes=12)) == [("message", "12345")]
    assert codes(parse(b"data: 12345\n\n", max_event_bytes=11)) == ["sse.event-too-large"]


def test_the_cap_counts_every_line_of_the_block() -> None:
    out = parse(b"data: aaaa\ndata: bbbb\n\ndata: c\n\n", max_event_bytes=15)
    assert pairs(out) == [("message", "c")]
    assert diags(out, "sse.event-too-large")[0].offset == 0


def test_every_line_of_a_dropped_block_is_dropped_until_its_blank_line() -> None:
    body = b"data: ok\n\ndata: " + b"x" * 60 + b"\ndata: tail\n: c\n\ndata: next\n\n"
    out = parse(body, max_event_bytes=40)
    assert pairs(out) == [("message", "ok"), ("message", "next")]
    assert diags(out, "sse.event-too-large")[0].offset == 10


def test_a_dropped_block_still_commits_its_id() -> None:
    parser = SSEParser(max_event_bytes=20)
    out = parser.feed(b"id: 5\ndata: " + b"x" * 40 + b"\n\ndata: next\n\n")
    assert [(e.data, e.id) for e in events(out)] == [("next", "5")]
    assert parser.last_event_id == "5"


def test_a_capped_huge_line_in_small_chunks_is_reported_once_and_not_kept() -> None:
    parser = SSEParser(max_event_bytes=1000)
    out = parser.feed(b"data: ")
    for _ in range(1000):
        out += parser.feed(b"y" * 64)
    assert codes(out) == ["sse.event-too-large"]
    assert sum(map(len, parser._partial)) == 0  # nothing of the dropped line is held
    out += parser.feed(b"\n\ndata: after\n\n")
    assert pairs(out) == [("message", "after")]


def test_a_capped_unterminated_block_at_the_end_is_not_reported_twice() -> None:
    out = parse(b"data: " + b"z" * 50, max_event_bytes=10)
    assert codes(out) == ["sse.event-too-large"]


def test_a_bom_does_not_count_towards_the_cap_or_move_the_offset() -> None:
    out = parse(b"\xef\xbb\xbfdata: " + b"z" * 20 + b"\n\n", max_event_bytes=10)
    assert diags(out, "sse.event-too-large")[0].offset == 3


@pytest.mark.parametrize("value", [0, -1, 1.5, True, "10"])
def test_an_invalid_cap_is_a_usage_error(value: object) -> None:
    with pytest.raises(UsageError):
        SSEParser(max_event_bytes=value)


def test_feeding_after_close_or_closing_twice_is_a_usage_error() -> None:
    parser = SSEParser()
    parser.feed(b"data: x")
    parser.close()
    with pytest.raises(UsageError):
        parser.feed(b"\n\n")
    with pytest.raises(UsageError):
        parser.close()


# -- cost model ---------------------------------------------------------------------------


@contextmanager
def counting_calls() -> Iterator[Counter[str]]:
    """Count every Python and C function call made inside the block, by name."""
    counts: Counter[str] = Counter()

    def hook(frame: FrameType, event: str, arg: object) -> None:
        if event == "call":
            counts[frame.f_code.co_name] += 1
        elif event == "c_call":
            counts[getattr(arg, "__qualname__", "?")] += 1

    sys.setprofile(hook)
    try:
        yield counts
    finally:
        sys.setprofile(None)


def calls_for(feed_chunks: Callable[[SSEParser], object]) -> Counter[str]:
    # A profile hook sees the C calls of Python code only: the framer's Python form.
    parser = python_source("ssescope.framing.sse").SSEParser()
    with counting_calls() as counts:
        feed_chunks(parser)
    return counts


def test_one_long_line_in_small_chunks_costs_a_constant_per_chunk_and_one_join() -> None:
    # 2 MiB in 512-byte chunks: each chunk is searched once for LF and CR (memchr over
    # that chunk only) and appended to a list; the pieces are joined exactly once.
    def run(size: int) -> Callable[[SSEParser], object]:
        body = b"data: " + b"x" * size + b"\n\n"
        chunks = [body[i : i + 512] for i in range(0, len(body), 512)]

        def feed(parser: SSEParser) -> object:
            out = [parser.feed(chunk) for chunk in chunks]
            assert len(out[-1][0].data) == size  # type: ignore[union-attr]
            return out

        return feed

    small = calls_for(run(256 * 1024))
    big = calls_for(run(2 * 1024 * 1024))
    assert big["bytes.join"] == small["bytes.join"] == 1
    assert big["bytes.find"] <= 8 * small["bytes.find"] + 8
    assert sum(big.values()) <= 8 * sum(small.values()) + 20


def test_small_events_in_small_chunks_cost_a_constant_per_event() -> None:
    def run(n: int) -> Callable[[SSEParser], object]:
        body = b"".join(b"data: %d\n\n" % k for k in range(n))
        chunks = [body[i : i + 64] for i in range(0, len(body), 64)]

        def feed(parser: SSEParser) -> object:
            out = [r for chunk in chunks for r in parser.feed(chunk)]
            assert len(out) == n
            return out

        return feed

    small = calls_for(run(2_000))
    big = calls_for(run(8_000))
    assert sum(big.values()) / 8_000 <= 1.15 * sum(small.values()) / 2_000
    # a line that straddles chunks is joined once, from that line's pieces only
    assert big["bytes.join"] <= len(b"".join(b"data: %d\n\n" % k for k in range(8_000))) / 64 + 1


def test_a_long_multi_line_event_costs_a_constant_per_line() -> None:
    def run(lines: int) -> Callable[[SSEParser], object]:
        body = b"data: abc\r\n" * lines + b"\r\n"
        chunks = [body[i : i + 100] for i in range(0, len(body), 100)]

        def feed(parser: SSEParser) -> object:
            out = [r for chunk in chunks for r in parser.feed(chunk)]
            assert len(events(out)) == 1
            return out

        return feed

    small = calls_for(run(1_000))
    big = calls_for(run(4_000))
    assert sum(big.values()) <= 4.2 * sum(small.values())


def test_a_long_line_split_into_one_byte_chunks_is_still_one_event() -> None:
    body = b"data: " + b"q" * 5000 + b"\n\n"
    out = parse_chunks([body[i : i + 1] for i in range(len(body))])
    assert pairs(out) == [("message", "q" * 5000)]


def test_a_comment_longer_than_the_cap_counts_like_any_line() -> None:
    # a line that has not ended cannot be told to be a comment, so comments count too
    out = parse(b":" + b"c" * 30 + b"\n\ndata: ok\n\n", max_event_bytes=16)
    assert codes(out) == ["sse.event-too-large"]
    assert pairs(out) == [("message", "ok")]
