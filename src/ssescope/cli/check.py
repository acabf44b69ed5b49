"""``check STREAM --against RESULT``: compare an assembled reply with an expected one."""

from __future__ import annotations

import difflib
import json
from dataclasses import dataclass
from typing import Any

from ..aggregate.report import Report
from ..errors import UsageError
from ..limits import MAX_DEPTH, loads_finite, may_be_too_deep, too_deep

__all__ = ["FieldDiff", "compare", "load_expected"]

_KEYS = ("text", "reasoning", "tool_calls", "finish_reason", "usage")


@dataclass(slots=True)
class FieldDiff:
    """One field that differs: its name and a readable explanation (diff lines)."""

    field: str
    lines: list[str]


def load_expected(raw: bytes, name: str) -> dict[str, Any]:
    """Read RESULT: a JSON object with any of the known keys, else plain text.

    Raises:
        UsageError: a JSON object with none of the known keys, or a bad ``tool_calls``.
    """
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise UsageError(f"{name} is not UTF-8 text") from exc
    try:
        value = loads_finite(text)
    except ValueError:
        return {"text": text}
    if not isinstance(value, dict):
        return {"text": text}
    if may_be_too_deep(text) and too_deep(value):
        raise UsageError(f"{name} nests arrays and objects more than {MAX_DEPTH} levels deep")
    known = {k: value[k] for k in _KEYS if k in value}
    if not known:
        raise UsageError(f"{name} is a JSON object without any of: {', '.join(_KEYS)}")
    if known.get("usage") is not None and not isinstance(known["usage"], dict):
        raise UsageError(f"{name}: 'usage' must be an object or null")
    calls = known.get("tool_calls")
    if calls is not None and (
        not isinstance(calls, list) or not all(isinstance(c, dict) for c in calls)
    ):
        raise UsageError(f"{name}: 'tool_calls' must be a list of objects")
    return known


def _text_diff(field: str, expected: str, actual: str) -> FieldDiff | None:
    if expected == actual:
        return None
    lines = list(
        difflib.unified_diff(
            expected.splitlines(keepends=True) or [""],
            actual.splitlines(keepends=True) or [""],
            "expected",
            "stream",
            lineterm="",
        )
    )
    lines = [ln.rstrip("\n") for ln in lines]
    if expected.rstrip("\n") == actual.rstrip("\n"):
        lines.append("(only the trailing newlines differ)")
    return FieldDiff(field, lines)


def _args_of(call: dict[str, Any]) -> Any:
    if "input" in call:
        return call["input"]
    args = call.get("arguments")
    if isinstance(args, str):
        try:
            return loads_finite(args) if args.strip() else {}
        except ValueError:
            return args
    return args


def _calls(expected: list[dict[str, Any]], report: Report) -> FieldDiff | None:
    actual = report.outputs[0].tool_calls if report.outputs else []
    lines: list[str] = []
    if len(expected) != len(actual):
        lines.append(f"expected {len(expected)} tool call(s), the stream has {len(actual)}")
    for i, (exp, act) in enumerate(zip(expected, actual, strict=False)):
        if "name" in exp and exp["name"] != act.name:
            lines.append(f"[{i}] name: expected {exp['name']!r}, got {act.name!r}")
        if "id" in exp and exp["id"] != act.id:
            lines.append(f"[{i}] id: expected {exp['id']!r}, got {act.id!r}")
        if "input" in exp or "arguments" in exp:
            want = _args_of(exp)
            got: Any = act.input if act.input is not None else act.arguments
            if want != got:
                lines.append(
                    f"[{i}] arguments: expected {json.dumps(want, sort_keys=True)}, "
                    f"got {json.dumps(got, sort_keys=True)}"
                )
    for i, act in enumerate(actual[len(expected) :], len(expected)):
        lines.append(f"[{i}] unexpected call {act.name!r} {act.arguments}")
    return FieldDiff("tool_calls", lines) if lines else None


def compare(expected: dict[str, Any], report: Report) -> list[FieldDiff]:
    """Compare the expected fields with output 0 (and usage) of the Report."""
    out = report.outputs[0] if report.outputs else None
    diffs: list[FieldDiff | None] = []
    for key in ("text", "reasoning"):
        if key in expected:
            got = getattr(out, key) if out is not None else ""
            diffs.append(_text_diff(key, str(expected[key]), got))
    if "tool_calls" in expected:
        diffs.append(_calls(expected["tool_calls"], report))
    if "finish_reason" in expected:
        want = expected["finish_reason"]
        unified = out.finish_reason if out else None
        raw = out.raw_finish_reason if out else None
        if want not in (unified, raw):
            diffs.append(
                FieldDiff(
                    "finish_reason",
                    [f"expected {want!r}, got {unified!r} (raw {raw!r})"],
                )
            )
    if "usage" in expected:
        usage = report.usage.to_dict() if report.usage else None
        want_usage = expected["usage"]
        if want_usage is None or usage is None:
            if want_usage != usage:
                diffs.append(FieldDiff("usage", [f"expected {want_usage!r}, got {usage!r}"]))
        else:
            lines = [
                f"{k}: expected {v!r}, got {usage.get(k)!r}"
                for k, v in want_usage.items()
                if usage.get(k) != v
            ]
            if lines:
                diffs.append(FieldDiff("usage", lines))
    return [d for d in diffs if d is not None]
