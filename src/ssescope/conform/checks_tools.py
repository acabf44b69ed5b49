"""Checks on the tool calls a stream carries (read from the engine's Report)."""

from __future__ import annotations

from . import _sources as src
from ._judges import by_codes, check, skipped
from .exchange import Exchange
from .registry import Check, Outcome

__all__ = ["CHECKS"]

_UNENDED = by_codes(("tool.incomplete", "gemini.unterminated-function-call"))


_UNDER_STOP = by_codes(("tool.calls-under-stop",))


def _finish_reason(exchange: Exchange) -> Outcome:
    expect = exchange.expect
    if expect is not None and expect.stop_allowed and exchange.provider == "openai-chat":
        return skipped("the request forced the call by name, which OpenAI itself ends with stop")
    return _UNDER_STOP(exchange)


def _complete(exchange: Exchange) -> Outcome:
    if exchange.report.status == "incomplete":
        return skipped("the reply was cut on purpose (a token limit or a filter)")
    return _UNENDED(exchange)


CHECKS: tuple[Check, ...] = (
    check(
        "tools.finish-reason",
        "MUST",
        "tool calls end with the tool-call finish reason",
        "A reply holding tool calls finishes with `tool_calls` (`tool_use`), not `stop` "
        "(but for a Chat call the request forced by name, which OpenAI ends with `stop`).",
        src.OPENAI_CHAT,
        _finish_reason,
    ),
    check(
        "tools.arguments-present",
        "MUST",
        "tool arguments are not empty where required",
        "A call to a tool with required parameters carries its arguments.",
        src.OPENAI_CHAT,
        ("tool.empty-arguments-required",),
    ),
    check(
        "tools.arguments-non-empty",
        "SHOULD",
        "tool arguments are an object",
        "A call without arguments sends `{}`, not an empty string.",
        src.OPENAI_CHAT,
        ("tool.empty-arguments",),
    ),
    check(
        "tools.arguments-parse",
        "MUST",
        "tool arguments parse",
        "The concatenated arguments of an ended call are one JSON object, first `{` included.",
        src.OPENAI_CHAT,
        (
            "tool.invalid-arguments",
            "tool.arguments-too-deep",
            "gemini.invalid-function-call",
            "gemini.invalid-partial-args",
            "ollama.invalid-tool-call",
        ),
    ),
    check(
        "tools.complete",
        "MUST",
        "tool calls are ended",
        "Every tool call the stream opens is ended before the response completes.",
        src.ANTHROPIC,
        _complete,
    ),
    check(
        "tools.index-unique",
        "MUST",
        "a tool index names one call",
        "A tool-call index, once used for a call, is not reused for another.",
        src.OPENAI_CHAT,
        ("openai-chat.tool-index-reused", "gemini.orphan-partial-args"),
    ),
    check(
        "tools.index-present",
        "SHOULD",
        "tool calls are indexed in order",
        "Each tool-call delta carries its index, and indexes count up without gaps.",
        src.OPENAI_CHAT,
        (
            "tool.missing-index",
            "openai-chat.duplicate-tool-index",
            "openai-chat.tool-index-gap",
            "gemini.stray-function-call-end",
        ),
    ),
    check(
        "tools.field-types",
        "MUST",
        "tool fields are strings",
        "A tool call's id, name and arguments are strings.",
        src.OPENAI_CHAT,
        (
            "openai-chat.tool-id-not-string",
            "openai-chat.tool-name-not-string",
            "openai-chat.tool-arguments-not-string",
        ),
    ),
    check(
        "tools.stable-name",
        "MUST",
        "a call keeps its name",
        "Later deltas of a tool call do not change its name.",
        src.OPENAI_CHAT,
        ("tool.conflicting-name",),
    ),
    check(
        "tools.no-parallel-wrapper",
        "SHOULD",
        "parallel calls are separate calls",
        "Parallel tool calls are sent as separate calls, not one `multi_tool_use.parallel`.",
        src.OPENAI_CHAT,
        ("openai-chat.parallel-wrapper",),
    ),
)
