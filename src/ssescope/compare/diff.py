"""Compare what a client's result states with the reply ssescope assembled.

Only what the result states is compared (a field it omits is no difference). Texts are
compared exactly; tool arguments as parsed JSON, so that key order and spacing do not
count and a difference is named by its path (``outputs[0].tool_calls[0].arguments.city``);
finish reasons match the Report's unified or raw value; usage counts key by key.
"""

from __future__ import annotations

import difflib
import json
import re
from dataclasses import dataclass
from typing import Any

from ..aggregate.report import OutputReport, Report, ResponseReport, ToolCallReport, UsageReport
from ..events import JSON
from ..fieldform import field_dict
from . import vercel
from ._read import _arguments
from .shapes import ExpectedCall, ExpectedOutput, ExpectedReply, normalise_result

__all__ = ["Difference", "compare_result"]

_IDENTIFIER = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


@dataclass(frozen=True, slots=True)
class Difference:
    """One place where the client's result and the assembled stream disagree.

    Attributes:
        field: the Report field it is about: ``text``, ``reasoning``, ``refusal``,
            ``tool_calls``, ``finish_reason`` or ``usage``.
        path: where exactly, in the Report's names
            (``outputs[0].tool_calls[1].arguments.city``, ``usage.input_tokens``).
        message: one line saying what differs.
        result: the value the client's result has there (``None`` when it has none).
        stream: the value the stream has there (``None`` when it has none).
        detail: more lines for a human, e.g. a unified diff of two texts.
    """

    field: str
    path: str
    message: str
    result: JSON = None
    stream: JSON = None
    detail: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        """Return the JSON form."""
        return field_dict(self, detail=list(self.detail))


def _show(value: object, limit: int = 60) -> str:
    text = json.dumps(value, ensure_ascii=False, sort_keys=True)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _key_path(path: str, key: str) -> str:
    return f"{path}.{key}" if _IDENTIFIER.match(key) else f"{path}[{json.dumps(key)}]"


def _same(a: object, b: object) -> bool:
    """JSON equality that does not take ``true`` for ``1``."""
    if isinstance(a, bool) or isinstance(b, bool):
        return a is b
    return a == b


def json_differences(result: JSON, stream: JSON, path: str) -> list[tuple[str, str, JSON, JSON]]:
    """Where two JSON values differ: ``(path, message, result value, stream value)``."""
    out: list[tuple[str, str, JSON, JSON]] = []
    if isinstance(result, dict) and isinstance(stream, dict):
        for key, value in result.items():
            where = _key_path(path, key)
            if key not in stream:
                out.append(
                    (
                        where,
                        f"the result has {_show(value)}, the stream has no such key",
                        value,
                        None,
                    )
                )
            else:
                out += json_differences(value, stream[key], where)
        for key, value in stream.items():
            if key not in result:
                where = _key_path(path, key)
                out.append(
                    (
                        where,
                        f"the stream has {_show(value)}, the result has no such key",
                        None,
                        value,
                    )
                )
        return out
    if isinstance(result, list) and isinstance(stream, list):
        if len(result) != len(stream):
            out.append(
                (
                    path,
                    f"the result has {len(result)} item(s), the stream {len(stream)}",
                    result,
                    stream,
                )
            )
        for n, (a, b) in enumerate(zip(result, stream, strict=False)):
            out += json_differences(a, b, f"{path}[{n}]")
        return out
    if not _same(result, stream):
        out.append(
            (
                path,
                f"the result has {_show(result)}, the stream has {_show(stream)}",
                result,
                stream,
            )
        )
    return out


def _text(name: str, path: str, result: str, stream: str) -> Difference | None:
    if result == stream:
        return None
    at = next(
        (n for n, (a, b) in enumerate(zip(result, stream, strict=False)) if a != b),
        min(len(result), len(stream)),
    )
    message = (
        f"the result has {len(result)} chars, the stream {len(stream)}; they differ from char "
        f"{at}: the result has {_show(result[at : at + 24])}, the stream {_show(stream[at : at + 24])}"
    )
    if result.rstrip("\n") == stream.rstrip("\n"):
        message = "only the trailing newlines differ"
    lines = [
        line.rstrip("\n")
        for line in difflib.unified_diff(
            result.splitlines(keepends=True) or [""],
            stream.splitlines(keepends=True) or [""],
            "result",
            "stream",
            lineterm="",
        )
    ]
    return Difference(name, path, message, result, stream, tuple(lines))


def _stream_arguments(call: ToolCallReport) -> JSON:
    return call.input if call.input is not None else _arguments(call.arguments)


def _call_diffs(want: ExpectedCall, got: ToolCallReport, path: str, shape: str) -> list[Difference]:
    diffs: list[Difference] = []
    if want.name is not None and want.name != got.name:
        diffs.append(
            Difference(
                "tool_calls",
                f"{path}.name",
                f"the result calls {want.name!r}, the stream {got.name!r}",
                want.name,
                got.name,
            )
        )
    # the Vercel AI SDK makes up an id for a call the stream gave none
    generated = shape == vercel.SHAPE and not got.id
    if want.id is not None and want.id != got.id and not generated:
        diffs.append(
            Difference(
                "tool_calls",
                f"{path}.id",
                f"the result has id {want.id!r}, the stream {got.id!r}",
                want.id,
                got.id,
            )
        )
    if want.has_arguments and not got.complete and not got.arguments:
        # nothing to parse: the client's {} is its own, not what the stream sent
        diffs.append(
            Difference(
                "tool_calls",
                f"{path}.arguments",
                f"the result has {_show(want.arguments)}, but the call never ended in the "
                "stream and carried no argument bytes",
                want.arguments,
                None,
            )
        )
        return diffs
    if want.has_arguments:
        stream_args = _stream_arguments(got)
        if isinstance(stream_args, str) and not isinstance(want.arguments, str):
            # the stream's arguments do not parse: say so rather than compare text with JSON
            ended = "" if got.complete else "; the call never ended in the stream"
            diffs.append(
                Difference(
                    "tool_calls",
                    f"{path}.arguments",
                    f"the result has {_show(want.arguments)}, but the stream's arguments are "
                    f"not valid JSON: {_show(stream_args)}{ended}",
                    want.arguments,
                    stream_args,
                )
            )
            return diffs
        for where, message, a, b in json_differences(
            want.arguments, stream_args, f"{path}.arguments"
        ):
            diffs.append(Difference("tool_calls", where, message, a, b))
    return diffs


def _calls(
    want: list[ExpectedCall], out: ExpectedOutput, got: OutputReport, path: str, shape: str
) -> list[Difference]:
    stream = [c for c in got.tool_calls if c.kind in out.call_kinds]
    diffs: list[Difference] = []
    if len(want) != len(stream):
        diffs.append(
            Difference(
                "tool_calls",
                path,
                f"the result has {len(want)} tool call(s), the stream {len(stream)}",
                len(want),
                len(stream),
            )
        )
    for n, (a, b) in enumerate(zip(want, stream, strict=False)):
        diffs += _call_diffs(a, b, f"{path}[{n}]", shape)
    for n, extra in enumerate(want[len(stream) :], len(stream)):
        diffs.append(
            Difference(
                "tool_calls",
                f"{path}[{n}]",
                f"the result has a call to {extra.name!r} that the stream does not have",
                extra.name,
                None,
            )
        )
    for n, missing in enumerate(stream[len(want) :], len(want)):
        diffs.append(
            Difference(
                "tool_calls",
                f"{path}[{n}]",
                f"the stream has a call to {missing.name!r} ({missing.arguments}) that the result "
                "does not have",
                None,
                missing.name,
            )
        )
    return diffs


def _finish_matches(want: ExpectedOutput, got: OutputReport, shape: str) -> bool:
    if want.finish_reason is None:
        return True
    if shape == vercel.SHAPE:
        return vercel.finish_matches(want.finish_reason, want.raw_finish_reason, got)
    return want.finish_reason in (got.finish_reason, got.raw_finish_reason)


def _output(want: ExpectedOutput, got: OutputReport | None, shape: str) -> list[Difference]:
    path = f"outputs[{want.index}]"
    # a missing output compares as an empty one: only what the result states can differ
    present = got if got is not None else OutputReport(want.index)
    diffs: list[Difference] = []
    for name in ("text", "reasoning", "refusal"):
        value = getattr(want, name)
        if value is None:
            continue
        if name == "text" and shape == vercel.SHAPE and vercel.text_matches(value, present):
            continue
        diff = _text(name, f"{path}.{name}", value, getattr(present, name))
        if diff is not None:
            diffs.append(diff)
    if want.tool_calls is not None:
        diffs += _calls(want.tool_calls, want, present, f"{path}.tool_calls", shape)
    if not _finish_matches(want, present, shape):
        diffs.append(
            Difference(
                "finish_reason",
                f"{path}.finish_reason",
                f"the result has {want.finish_reason!r}, the stream {present.finish_reason!r} "
                f"(raw {present.raw_finish_reason!r})",
                want.finish_reason,
                present.finish_reason,
            )
        )
    return diffs


def _response_of(expected: ExpectedReply, report: Report) -> ResponseReport:
    """The response the result is about: the one with its id, else the last."""
    if expected.response_id:
        for response in report.responses:
            if response.id == expected.response_id:
                return response
    return report.response


def compare_result(result: object, report: Report) -> list[Difference]:
    """Compare a client's final result with the reply assembled from the same stream.

    ``result`` is anything :func:`~ssescope.compare.normalise_result` reads (an SDK
    object, its JSON, the Vercel AI SDK's result, a Report, a dict of the Report's field
    names, a text), or an :class:`~ssescope.compare.ExpectedReply`. Only what the result
    states is compared. When the stream holds several responses, the one whose id the
    result names is compared, else the last.

    Returns:
        The differences, in the Report's order; an empty list when the client agrees.

    Raises:
        ResultError: the result has no known shape or a field of the wrong type.
    """
    expected = result if isinstance(result, ExpectedReply) else normalise_result(result)
    response = _response_of(expected, report)
    by_index = {o.index: o for o in response.outputs}
    diffs: list[Difference] = []
    for want in expected.outputs:
        diffs += _output(want, by_index.get(want.index), expected.shape)
    return diffs + _usage(expected, response.usage)


_CARRIED = ("input_tokens", "output_tokens")
"""The counts a client's result carries over whenever the stream gives them."""


def _usage(expected: ExpectedReply, usage: UsageReport | None) -> list[Difference]:
    diffs: list[Difference] = []
    if expected.client and usage is not None:
        for key in _CARRIED:
            got = getattr(usage, key)
            if got is not None and key not in expected.usage:
                diffs.append(
                    Difference(
                        "usage",
                        f"usage.{key}",
                        f"the stream reported {got}, the result has none (the client lost it)",
                        None,
                        got,
                    )
                )
    vercel_sdk = expected.shape == vercel.SHAPE
    for key, value in expected.usage.items():
        got = getattr(usage, key) if usage is not None else None
        if vercel_sdk and vercel.usage_matches(key, value, usage):
            continue
        if got != value:
            diffs.append(
                Difference(
                    "usage",
                    f"usage.{key}",
                    f"the result has {value}, the stream {'reported none' if got is None else got}",
                    value,
                    got,
                )
            )
    return diffs
