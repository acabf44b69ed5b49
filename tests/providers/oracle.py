"""The one oracle of the provider tests: a body through the real Pipeline, in every chunking.

``feed`` runs a body through :class:`ssescope.Pipeline` whole, then one byte at a time,
then split in two at every position (``tests/splits.py``), checks that every chunking
gives the same unified events and the same Report, and returns what the whole body gave.
``assert_facts`` compares that Report with what a fixture states it assembles to.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from tests.providers.departures import depart
from tests.splits import all_splits

import ssescope
from ssescope.aggregate.aggregator import Aggregator
from ssescope.diagnostics import Diagnostic

__all__ = [
    "FIXTURES",
    "REAL",
    "Fed",
    "assemble",
    "assert_expected",
    "assert_facts",
    "chunkings",
    "expected_problems",
    "feed",
    "feed_fixture",
    "fixture_names",
    "framing_of",
    "real_expected",
]

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "tests" / "fixtures"
REAL = Path(os.environ.get("SSESCOPE_REAL_STREAMS", ROOT.parent / "shared" / "real_streams"))

# Every split in two of a longer body would cost a Pipeline run per byte; past this size
# the two-piece splits are taken where framers and decoders hold state (see ``chunkings``).
EVERY_SPLIT_LIMIT = 256
LONG_SPLITS = 64

# Report keys that describe the whole stream; any other fact is one of the first output.
_REPORT_KEYS = frozenset(
    {"status", "status_reason", "id", "model", "usage", "error", "framing", "provider", "responses"}
)


@dataclass(frozen=True)
class Fed:
    """What a body gave: the unified events (and diagnostics) and the Report."""

    events: list[Any]
    """Events and diagnostics in the order ``Pipeline.feed`` and ``close`` returned them."""
    report: dict[str, Any]
    """``Report.to_dict()``."""

    @property
    def output(self) -> dict[str, Any]:
        """The Report's first output (an empty one when there is none)."""
        outputs: list[dict[str, Any]] = self.report["outputs"]
        return outputs[0] if outputs else {}

    @property
    def codes(self) -> list[str]:
        """Codes of the Report's diagnostics, in order."""
        return [d["code"] for d in self.report["diagnostics"]]

    @property
    def event_codes(self) -> list[str]:
        """Codes of the diagnostics among the events (framing and adapter), in order."""
        return [e.code for e in self.events if isinstance(e, Diagnostic)]

    def of_type(self, *classes: type) -> list[Any]:
        """The events of the given classes, in order."""
        return [e for e in self.events if isinstance(e, classes)]

    @property
    def unified(self) -> list[Any]:
        """The events without the diagnostics."""
        return [e for e in self.events if not isinstance(e, Diagnostic)]


def _run(chunks: Iterable[bytes], provider: str, framing: str) -> Fed:
    pipeline = ssescope.Pipeline(provider=provider, framing=framing)
    events: list[Any] = []
    for chunk in chunks:
        events += pipeline.feed(chunk)
    events += pipeline.close()
    return Fed(events, pipeline.report().to_dict())


def chunkings(body: bytes) -> Iterator[list[bytes]]:
    """The chunkings ``feed`` checks: whole, byte by byte, and splits in two.

    Bodies up to ``EVERY_SPLIT_LIMIT`` bytes are split at every position. Longer ones are
    split where framers and decoders hold state: at each line end and one byte either side,
    and inside each multi-byte UTF-8 character; at most ``LONG_SPLITS`` of those positions,
    evenly spread (feeding byte by byte already cuts everywhere else).
    """
    if len(body) <= EVERY_SPLIT_LIMIT:
        yield from all_splits(body)
        return
    yield [body]
    yield [body[i : i + 1] for i in range(len(body))]
    cuts: set[int] = set()
    for i, byte in enumerate(body):
        if byte in b"\n\r":
            cuts.update((i, i + 1, i + 2))
        elif byte >= 0xC0:  # the lead byte of a multi-byte character: cut after it
            cuts.add(i + 1)
    points = sorted(c for c in cuts if 0 < c < len(body))
    if len(points) > LONG_SPLITS:
        step = len(points) / LONG_SPLITS
        points = [points[int(k * step)] for k in range(LONG_SPLITS)]
    for k in points:
        yield [body[:k], body[k:]]


def feed(
    body: bytes | str, provider: str = "auto", framing: str = "auto", *, split: bool = True
) -> Fed:
    """Run ``body`` through the Pipeline; with ``split``, check every chunking agrees.

    Returns what the whole body gave.
    """
    data = body.encode() if isinstance(body, str) else body
    whole = _run([data], provider, framing)
    if split:
        for chunks in chunkings(data):
            got = _run(chunks, provider, framing)
            where = f"{len(chunks)} chunks of sizes {[len(c) for c in chunks][:4]}..."
            assert got.events == whole.events, f"events differ when fed in {where}"
            assert got.report == whole.report, f"the Report differs when fed in {where}"
    return whole


def framing_of(name: str) -> str:
    """The framing a fixture's name says it has."""
    suffix = name.rsplit(".", 1)[-1]
    return {
        "sse": "sse",
        "jsonl": "ndjson",
        "ndjson": "ndjson",
        "json": "json-array",
        "bin": "aws-eventstream",
    }[suffix]


def fixture_names(provider_dir: str) -> list[str]:
    """The stream fixtures of one provider directory, sorted (no scripts)."""
    return sorted(p.name for p in (FIXTURES / provider_dir).iterdir() if p.suffix != ".py")


def feed_fixture(
    provider_dir: str, name: str, provider: str = "auto", *, framing: str | None = None
) -> Fed:
    """``feed`` one fixture with the framing its name says, in every chunking."""
    body = (FIXTURES / provider_dir / name).read_bytes()
    return feed(body, provider, framing or framing_of(name))


def _matches(got: Any, want: Any, path: str, problems: list[str]) -> None:
    if isinstance(want, dict) and isinstance(got, dict):
        for key, value in want.items():
            if key not in got:
                problems.append(f"{path}.{key}: missing")
            else:
                _matches(got[key], value, f"{path}.{key}", problems)
    elif isinstance(want, list) and isinstance(got, list):
        if len(got) != len(want):
            problems.append(f"{path}: {len(got)} items, expected {len(want)}: {got!r}")
            return
        for i, (g, w) in enumerate(zip(got, want, strict=True)):
            _matches(g, w, f"{path}[{i}]", problems)
    elif got != want:
        problems.append(f"{path}: {got!r}, expected {want!r}")


def assert_facts(fed: Fed, facts: dict[str, Any]) -> None:
    """Check the Report against a fixture's stated facts.

    ``status``, ``id``, ``model``, ``usage``, ``error``, ``framing`` and ``provider`` are
    the Report's own keys; ``codes`` is the list of its diagnostic codes; ``outputs`` the
    whole list of outputs; any other key is a field of the first output. A dict or a list
    of dicts states only the keys it names (a list must have exactly as many items).
    """
    report: dict[str, Any] = {}
    output: dict[str, Any] = {}
    for key, value in facts.items():
        if key == "codes":
            assert fed.codes == value, f"diagnostics {fed.codes}, expected {value}"
        elif key in _REPORT_KEYS or key == "outputs":
            report[key] = value
        else:
            output[key] = value
    if output:
        report.setdefault("outputs", [{}])
        report["outputs"][0] = {**report["outputs"][0], **output}
    problems: list[str] = []
    _matches(fed.report, report, "report", problems)
    assert not problems, "\n".join(problems)


def real_expected(provider: str | None) -> dict[str, dict[str, Any]]:
    """The EXPECTED.json entries of one provider's real captures, or of all of them with
    ``None`` (skips the test when the captures are absent), each with its documented
    departure applied (``tests/providers/departures.py``)."""
    path = REAL / "EXPECTED.json"
    if not path.is_file():
        pytest.skip(f"real captures not found at {REAL} (set SSESCOPE_REAL_STREAMS)")
    data: dict[str, dict[str, Any]] = json.loads(path.read_text(encoding="utf-8"))
    return {
        k: depart(k, v) for k, v in data.items() if provider is None or v["provider"] == provider
    }


# -- EXPECTED.json of the real captures ---------------------------------------------------

_MISSING = object()


def _set(obj: Any, path: str, value: Any) -> None:
    parts = path.replace("]", "").replace("[", ".").split(".")
    cur = obj
    for part in parts[:-1]:
        cur = cur[int(part)] if isinstance(cur, list) else cur[part]
    last = parts[-1]
    if isinstance(cur, list):
        cur[int(last)] = value
    else:
        cur[last] = value


def _mismatches(
    expected: Any, actual: Any, alternatives: dict[str, list[Any]], path: str
) -> list[str]:
    accepted = alternatives.get(path, [])
    if path and ("<any>" in accepted or any(actual == alt for alt in accepted)):
        return []
    if isinstance(expected, dict):
        if not isinstance(actual, dict):
            return [f"{path}: expected an object, got {actual!r}"]
        problems = []
        for key, value in expected.items():
            sub = f"{path}.{key}" if path else key
            problems += _mismatches(value, actual.get(key, _MISSING), alternatives, sub)
        return problems
    if isinstance(expected, list):
        if not isinstance(actual, list) or len(actual) != len(expected):
            return [f"{path}: expected {expected!r}, got {actual!r}"]
        problems = []
        for i, (e, a) in enumerate(zip(expected, actual, strict=True)):
            problems += _mismatches(e, a, alternatives, f"{path}[{i}]")
        return problems
    if expected != actual:
        return [f"{path}: expected {expected!r}, got {actual!r}"]
    return []


def _readings(entry: dict[str, Any]) -> list[tuple[dict[str, Any], dict[str, list[Any]]]]:
    base: dict[str, Any] = {k: entry[k] for k in ("status", "outputs", "usage") if k in entry}
    alternatives = dict(entry.get("alternatives", {}))
    readings: list[tuple[dict[str, Any], dict[str, list[Any]]]] = [(base, alternatives)]
    for variant in entry.get("variants", []):
        reading = json.loads(json.dumps(base))
        for path, value in variant.get("overrides", {}).items():
            _set(reading, path, value)
        merged = {**alternatives, **variant.get("alternatives", {})}
        readings.append((reading, merged))
    return readings


_OUTPUT_FIELDS = (
    "index",
    "text",
    "reasoning",
    "refusal",
    "finish_reason",
    "raw_finish_reason",
)
_CALL_FIELDS = ("id", "name", "arguments", "input", "complete")
_USAGE_FIELDS = (
    "input_tokens",
    "output_tokens",
    "total_tokens",
    "reasoning_tokens",
    "cached_input_tokens",
)


def _facts(response: dict[str, Any]) -> dict[str, Any]:
    """The facts EXPECTED.json states of one response (of a Report dict)."""
    usage = response.get("usage")
    return {
        "status": response["status"],
        "outputs": [
            {
                **{k: o[k] for k in _OUTPUT_FIELDS},
                "tool_calls": [{k: t[k] for k in _CALL_FIELDS} for t in o["tool_calls"]],
            }
            for o in response["outputs"]
        ],
        "usage": None if usage is None else {k: usage[k] for k in _USAGE_FIELDS},
    }


def _response_problems(entry: dict[str, Any], response: dict[str, Any]) -> list[str]:
    facts = _facts(response)
    best: list[str] | None = None
    for reading, alternatives in _readings(entry):
        problems = _mismatches(reading, {k: facts[k] for k in reading}, alternatives, "")
        if not problems:
            return []
        if best is None or len(problems) < len(best):
            best = problems
    return best or []


def expected_problems(report: dict[str, Any], entry: dict[str, Any]) -> list[str]:
    """How a Report dict differs from an EXPECTED.json entry (empty when it agrees).

    Where the entry lists ``alternatives`` (other accepted values for one path) or
    ``variants`` (other complete readings), any listed reading is right.
    """
    problems = [
        f"{key}: expected {entry[key]!r}, got {report[key]!r}"
        for key in ("provider", "framing")
        if report[key] != entry[key]
    ]
    if "responses" in entry:
        got = report.get("responses", [report])
        if len(got) != len(entry["responses"]):
            problems.append(f"responses: expected {len(entry['responses'])}, got {len(got)}")
        else:
            for i, (sub, resp) in enumerate(zip(entry["responses"], got, strict=True)):
                problems += [f"responses[{i}].{p}" for p in _response_problems(sub, resp)]
        if "status" in entry and report["status"] != entry["status"]:
            problems.append(f"status: expected {entry['status']!r}, got {report['status']!r}")
    else:
        problems += _response_problems(entry, report)
    codes = {d["code"] for d in report["diagnostics"]}
    for wanted in entry.get("expect_diagnostics", []):
        if not codes.intersection(wanted.split("|")):
            problems.append(f"diagnostics: expected {wanted!r} among {sorted(codes)}")
    for banned in entry.get("forbid_diagnostics", []):
        if banned in codes:
            problems.append(f"diagnostics: {banned!r} must not appear")
    return problems


def assert_expected(name: str, *, split: bool = True) -> Fed:
    """Feed one real capture (in every chunking) and check it against EXPECTED.json."""
    entry = real_expected(None)[name]
    fed = feed((REAL / name).read_bytes(), split=split)
    problems = expected_problems(fed.report, entry)
    assert not problems, "\n".join(problems)
    return fed


def assemble(events: Iterable[Any]) -> list[dict[str, Any]]:
    """Fold unified events with the real aggregator; the responses as Report dicts.

    For unit tests that hold an adapter's events rather than a body.
    """
    aggregator = Aggregator()
    aggregator.feed(events)
    return [response.to_dict() for response in aggregator.close()]
