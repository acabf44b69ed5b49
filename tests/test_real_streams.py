"""Every real captured stream gives the facts its EXPECTED.json entry states.

The captures live outside the project (``$SSESCOPE_REAL_STREAMS``, by default
``../shared/real_streams`` next to the repository). Where EXPECTED lists
``alternatives`` (other accepted values for one path) or ``variants`` (other complete
readings), any listed reading is right.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

import ssescope

ROOT = Path(__file__).resolve().parents[1]
STREAMS = Path(os.environ.get("SSESCOPE_REAL_STREAMS", ROOT.parent / "shared" / "real_streams"))

if not (STREAMS / "EXPECTED.json").is_file():
    pytest.skip(
        f"the real captured streams are not at {STREAMS} (set SSESCOPE_REAL_STREAMS)",
        allow_module_level=True,
    )

EXPECTED: dict[str, dict[str, Any]] = json.loads((STREAMS / "EXPECTED.json").read_text())

_MISSING = object()


def _facts(response: ssescope.ResponseReport) -> dict[str, Any]:
    return {
        "status": response.status,
        "outputs": [
            {
                "index": o.index,
                "text": o.text,
                "reasoning": o.reasoning,
                "refusal": o.refusal,
                "finish_reason": o.finish_reason,
                "raw_finish_reason": o.raw_finish_reason,
                "tool_calls": [
                    {
                        "id": t.id,
                        "name": t.name,
                        "arguments": t.arguments,
                        "input": t.input,
                        "complete": t.complete,
                    }
                    for t in o.tool_calls
                ],
            }
            for o in response.outputs
        ],
        "usage": None
        if response.usage is None
        else {
            k: getattr(response.usage, k)
            for k in (
                "input_tokens",
                "output_tokens",
                "total_tokens",
                "reasoning_tokens",
                "cached_input_tokens",
            )
        },
    }


def _get(obj: Any, path: str) -> Any:
    cur = obj
    for part in path.replace("]", "").replace("[", ".").split("."):
        if isinstance(cur, list):
            idx = int(part)
            if idx >= len(cur):
                return _MISSING
            cur = cur[idx]
        elif isinstance(cur, dict):
            if part not in cur:
                return _MISSING
            cur = cur[part]
        else:
            return _MISSING
    return cur


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
    base = {k: entry[k] for k in ("status", "outputs", "usage") if k in entry}
    alternatives = dict(entry.get("alternatives", {}))
    readings = [(base, alternatives)]
    for variant in entry.get("variants", []):
        reading = json.loads(json.dumps(base))
        for path, value in variant.get("overrides", {}).items():
            _set(reading, path, value)
        merged = {**alternatives, **variant.get("alternatives", {})}
        readings.append((reading, merged))
    return readings


def _check_response(entry: dict[str, Any], response: ssescope.ResponseReport) -> list[str]:
    facts = _facts(response)
    best: list[str] | None = None
    for reading, alternatives in _readings(entry):
        problems = _mismatches(reading, {k: facts[k] for k in reading}, alternatives, "")
        if not problems:
            return []
        if best is None or len(problems) < len(best):
            best = problems
    return best or []


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_the_report_of_a_real_stream_agrees_with_expected(name: str) -> None:
    entry = EXPECTED[name]
    report = ssescope.inspect(STREAMS / name)
    problems: list[str] = []
    if report.provider != entry["provider"]:
        problems.append(f"provider: expected {entry['provider']!r}, got {report.provider!r}")
    if report.framing != entry["framing"]:
        problems.append(f"framing: expected {entry['framing']!r}, got {report.framing!r}")
    if "responses" in entry:
        got = report.responses
        if len(got) != len(entry["responses"]):
            problems.append(f"responses: expected {len(entry['responses'])}, got {len(got)}")
        else:
            for i, (sub, resp) in enumerate(zip(entry["responses"], got, strict=True)):
                problems += [f"responses[{i}].{p}" for p in _check_response(sub, resp)]
        if "status" in entry and report.status != entry["status"]:
            problems.append(f"status: expected {entry['status']!r}, got {report.status!r}")
    else:
        problems += _check_response(entry, report.response)
    codes = {d.code for d in report.diagnostics}
    for wanted in entry.get("expect_diagnostics", []):
        if not codes.intersection(wanted.split("|")):
            problems.append(f"diagnostics: expected {wanted!r} among {sorted(codes)}")
    for banned in entry.get("forbid_diagnostics", []):
        if banned in codes:
            problems.append(f"diagnostics: {banned!r} must not appear")
    assert not problems, "\n".join(problems)


def test_every_real_stream_is_listed_in_expected() -> None:
    files = {
        str(p.relative_to(STREAMS))
        for p in STREAMS.rglob("*")
        if p.is_file() and p.name not in ("README.md", "EXPECTED.json")
    }
    assert files == set(EXPECTED)
