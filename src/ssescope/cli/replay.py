"""``replay``: the same bytes in many chunkings must give the same Report."""

from __future__ import annotations

import hashlib
import json
import random
import time
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from ..aggregate.report import Report
from ..pipeline import Pipeline

__all__ = ["ReplayRun", "chunkings", "digest", "run_chunking"]

FIXED_SIZES = (1, 2, 3, 7, 64, 1024)


def digest(report: Report) -> str:
    """sha256 of the Report's canonical JSON, without timing (keys sorted, compact)."""
    data: dict[str, Any] = report.to_dict()
    data.pop("timing", None)
    data["diagnostics"] = [
        j
        for d, j in zip(report.diagnostics, data["diagnostics"], strict=True)
        if d.spec.layer != "timing"
    ]
    text = json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def _fixed(body: bytes, size: int) -> Iterator[bytes]:
    for i in range(0, len(body), size):
        yield body[i : i + size]


def _random(body: bytes, seed: int) -> Iterator[bytes]:
    rng = random.Random(seed)
    i = 0
    while i < len(body):
        n = rng.randint(1, 97)
        yield body[i : i + n]
        i += n


def chunkings(
    body: bytes, *, seed: int, count: int, original: list[bytes] | None = None
) -> list[tuple[str, Iterator[bytes] | list[bytes]]]:
    """The chunkings to try: whole, fixed sizes, the capture's own, seeded random splits."""
    out: list[tuple[str, Iterator[bytes] | list[bytes]]] = [("whole", [body])]
    out.extend((f"{n} byte{'s' if n > 1 else ''}", _fixed(body, n)) for n in FIXED_SIZES)
    if original is not None:
        out.append(("original", original))
    out.extend((f"random seed {seed + k}", _random(body, seed + k)) for k in range(count))
    return out


@dataclass(slots=True)
class ReplayRun:
    """The result of one chunking."""

    chunking: str
    chunks: int
    digest: str
    status: str
    seconds: float


def run_chunking(
    name: str, pieces: Iterator[bytes] | list[bytes], provider: str, framing: str
) -> ReplayRun:
    """Feed ``pieces`` through a new Pipeline and return the digest and time taken."""
    start = time.perf_counter()
    pipeline = Pipeline(provider=provider, framing=framing)
    n = 0
    for piece in pieces:
        pipeline.feed(piece)
        n += 1
    pipeline.close()
    report = pipeline.report()
    seconds = time.perf_counter() - start
    return ReplayRun(name, n, digest(report), report.status, seconds)
