"""For every provider fixture and real capture: chunking never changes the Report, and a
stream cut anywhere never raises, is ``truncated`` until a marker was complete, and keeps
text that is a prefix of the full text."""

from __future__ import annotations

import os
import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import ssescope
from ssescope import Pipeline
from ssescope.events import Finish, ProviderError, Terminal

ROOT = Path(__file__).resolve().parents[1]
FIXTURES = ROOT / "tests" / "fixtures"
STREAMS = Path(os.environ.get("SSESCOPE_REAL_STREAMS", ROOT.parent / "shared" / "real_streams"))

PROVIDER_OF_DIR = {
    "openai_chat": "openai-chat",
    "openai_responses": "openai-responses",
    "anthropic": "anthropic",
    "gemini": "gemini",
    "ollama": "ollama",
    "cohere": "cohere",
    "bedrock": "bedrock",
    "vercel_ui": "vercel-ui",
}
STREAM_SUFFIXES = {".sse", ".jsonl", ".ndjson", ".json", ".bin"}


def _cases() -> list[tuple[str, Path, str]]:
    cases = [
        (f"{d}/{p.name}", p, provider)
        for d, provider in PROVIDER_OF_DIR.items()
        for p in sorted((FIXTURES / d).glob("*"))
        if p.suffix in STREAM_SUFFIXES
    ]
    if (STREAMS / "EXPECTED.json").is_file():
        cases += [
            (f"real/{p.relative_to(STREAMS)}", p, "auto")
            for p in sorted(STREAMS.rglob("*"))
            if p.suffix in STREAM_SUFFIXES
        ]
    return cases


CASES = _cases()
IDS = [c[0] for c in CASES]


def _dict(report: ssescope.Report) -> dict[str, Any]:
    d = report.to_dict()
    del d["source"]
    return d


def _full(path: Path, provider: str) -> tuple[bytes, Pipeline, list[Any]]:
    """The body, its finished pipeline and the unified events it produced."""
    body = path.read_bytes()
    pipeline = Pipeline(provider=provider, keep_records=True)
    events = pipeline.feed(body)
    events += pipeline.close()
    pipeline.report()
    return body, pipeline, events


def _inspect(body: bytes, provider: str) -> ssescope.Report:
    return ssescope.inspect(iter([body]), provider=provider)


@pytest.mark.parametrize(("name", "path", "provider"), CASES, ids=IDS)
@settings(
    max_examples=6, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(data=st.data())
def test_chunking_never_changes_the_report(
    name: str, path: Path, provider: str, data: st.DataObject
) -> None:
    body = path.read_bytes()
    whole = _dict(_inspect(body, provider))
    cuts = sorted(data.draw(st.sets(st.integers(1, max(1, len(body) - 1)), max_size=12)))
    pieces = [body[a:b] for a, b in zip([0, *cuts], [*cuts, len(body)], strict=True)]
    assert _dict(ssescope.inspect(iter(pieces), provider=provider)) == whole


def _cut_points(body: bytes, pipeline: Pipeline) -> list[int]:
    ends = sorted({r.end for r in pipeline.records})
    if len(ends) > 120:
        ends = ends[:: len(ends) // 120 + 1]
    rng = random.Random(len(body))
    return sorted({*ends, *(rng.randrange(len(body)) for _ in range(10))} - {len(body)})


@pytest.mark.parametrize(("name", "path", "provider"), CASES, ids=IDS)
def test_a_cut_stream_is_truncated_until_a_marker_and_keeps_a_prefix_of_the_text(
    name: str, path: Path, provider: str
) -> None:
    body, full, full_events = _full(path, provider)
    full_report = full.report()
    marker_records = {
        e.record for e in full_events if isinstance(e, Terminal | Finish | ProviderError)
    }
    # before the first record that can carry an end marker is complete, nothing ended
    first_marker_end = min(
        (r.end for r in full.records if r.index in marker_records), default=len(body)
    )
    rewrote = any(d.code == "snapshot.mismatch" for d in full_report.diagnostics)
    used = full.provider or provider
    for cut in _cut_points(body, full):
        report = _inspect(body[:cut], used)
        if cut < first_marker_end:
            assert report.status == "truncated", f"cut at byte {cut}: {report.status}"
        if rewrote:
            continue
        for got, want in zip(report.responses, full_report.responses, strict=False):
            by_index = {o.index: o for o in want.outputs}
            for out in got.outputs:
                if out.index in by_index:
                    assert by_index[out.index].text.startswith(out.text), f"cut at byte {cut}"
