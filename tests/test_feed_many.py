"""``Pipeline.feed_many``: a batch of chunks, each with its own time, gives the Report that
feeding them one by one gives (the in-app transport feeds its batches this way)."""

from __future__ import annotations

import os
import random
from pathlib import Path

import pytest

from ssescope.api import open_streams
from ssescope.containers import Chunk
from ssescope.errors import UsageError
from ssescope.pipeline import Pipeline
from ssescope.sourceinfo import SourceInfo

ROOT = Path(__file__).resolve().parents[1]
FIXTURES = ROOT / "tests" / "fixtures"
STREAMS = Path(os.environ.get("SSESCOPE_REAL_STREAMS", ROOT.parent / "shared" / "real_streams"))


def _bodies() -> list[Path]:
    found = sorted(p for p in FIXTURES.rglob("*") if p.is_file() and p.suffix != ".md")
    if STREAMS.is_dir():
        found += sorted(
            p
            for p in STREAMS.rglob("*")
            if p.is_file() and p.name not in ("README.md", "EXPECTED.json")
        )
    return found


def _name(path: Path) -> str:
    return str(path.relative_to(FIXTURES if path.is_relative_to(FIXTURES) else STREAMS.parent))


def _timed(chunks: list[Chunk | bytes], rng: random.Random) -> tuple[list[bytes], list[float]]:
    """The chunks with a time each: their own, or made up (gaps around the stall and burst
    thresholds) where the form keeps none; a chunk of several records is cut smaller."""
    data: list[bytes] = []
    times: list[float] = []
    t = 0.0
    for chunk in chunks:
        raw = bytes(chunk.data) if isinstance(chunk, Chunk) else bytes(chunk)
        own = chunk.time if isinstance(chunk, Chunk) else None
        pieces = [raw] if own is not None or len(raw) < 64 else _cut(raw, rng)
        for piece in pieces:
            t = own if own is not None else t + rng.choice([0.0, 0.0002, 0.01, 0.3, 2.5, 11.0])
            data.append(piece)
            times.append(t)
    return data, times


def _cut(raw: bytes, rng: random.Random) -> list[bytes]:
    out = []
    i = 0
    while i < len(raw):
        size = rng.randint(1, 120)
        out.append(raw[i : i + size])
        i += size
    return out


def _one_by_one(info: SourceInfo, data: list[bytes], times: list[float], bounded: bool) -> Pipeline:
    pipeline = Pipeline(source=info, bounded=bounded, collect_events=not bounded)
    for piece, t in zip(data, times, strict=True):
        pipeline.feed(piece, t)
    return pipeline


def _batched(
    info: SourceInfo, data: list[bytes], times: list[float], size: int, bounded: bool
) -> Pipeline:
    pipeline = Pipeline(source=info, bounded=bounded, collect_events=not bounded)
    for k in range(0, len(data), size):
        pipeline.feed_many(data[k : k + size], times[k : k + size])
    return pipeline


@pytest.mark.parametrize("path", _bodies(), ids=_name)
def test_a_batch_gives_the_report_of_its_chunks_fed_one_by_one(path: Path) -> None:
    rng = random.Random(path.name)
    for stream in open_streams(path):
        data, times = _timed(list(stream.chunks), rng)
        if not data:
            continue
        end = times[-1] + 0.5
        for bounded in (True, False):
            one = _one_by_one(stream.info, data, times, bounded)
            one.close(end)
            expected = one.report().to_dict()
            for size in (3, 256):
                many = _batched(stream.info, data, times, size, bounded)
                many.close(end)
                assert many.report().to_dict() == expected, (size, bounded)


CHAT = [
    b'data: {"id":"c","choices":[{"index":0,"delta":{"role":"assistant"}}]}\n\n',
    b'data: {"id":"c","choices":[{"index":0,"delta":{"content":"Hel"}}]}\n\n',
    b'data: {"id":"c","choices":[{"index":0,"delta":{"content":"lo"}}]}\n\n',
    b": keep-alive\n\n",
    b'data: {"id":"c","choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}\n\n',
]


def test_after_a_batch_the_last_content_time_is_its_latest_content_records() -> None:
    pipeline = Pipeline()
    pipeline.feed(CHAT[0], 0.1)
    events = pipeline.feed_many(CHAT[1:4], [0.2, 0.3, 0.4])
    assert pipeline.last_content_time == 0.3  # (the comment after it carries none)
    assert [type(e).__name__ for e in events].count("TextDelta") == 2
    pipeline.feed_many([*CHAT[4:], b"data: [DONE]\n\n"], [0.9, 1.0])
    assert pipeline.last_content_time == 1.0  # the terminal event
    pipeline.close(1.1)
    assert pipeline.report().status == "completed"


def test_a_batch_before_the_provider_is_known_is_fed_one_by_one() -> None:
    pipeline = Pipeline(bounded=True)
    pipeline.feed_many(CHAT, [0.1, 0.2, 0.3, 0.4, 0.5])
    pipeline.close(0.6)
    report = pipeline.report()
    assert report.provider == "openai-chat"
    assert report.timing.first_content_s == 0.2


def test_a_batch_needs_one_time_per_chunk() -> None:
    with pytest.raises(UsageError):
        Pipeline().feed_many(CHAT, [0.1])
