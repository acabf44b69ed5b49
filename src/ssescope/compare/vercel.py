"""The Vercel AI SDK's own conventions, so that ``check --against`` compares only what the
SDK carried over from the stream.

The SDK's result is not the stream's data as sent: its providers fill the usage counts a
stream does not give with ``0``, compute ``totalTokens`` (input + output), count reasoning
in ``outputTokens`` where the provider does not (Gemini's ``candidatesTokenCount`` plus
``thoughtsTokenCount``, xAI's ``completion_tokens`` plus reasoning), count cached input in
``inputTokens`` (Anthropic: ``input_tokens`` + cache reads + cache writes, the uncached part
in ``inputTokenDetails.noCacheTokens``), generate ids for tool calls that have none (Gemini),
put a refusal into ``text`` (OpenAI Chat), and name finish reasons in its own words
(``tool-calls`` also for a Gemini ``STOP`` with function calls, ``content-filter`` also for
a refusal, ``other`` for a reason it does not know, and ``other`` or ``unknown`` while
none has arrived). Its
``rawFinishReason``, when the result has it, is the provider's own word and is compared
as such. The rules are those of ``docs/verdicts.md``.
"""

from __future__ import annotations

from typing import Any

from ..aggregate.report import OutputReport, UsageReport

__all__ = [
    "NOT_CARRIED",
    "SHAPE",
    "finish_matches",
    "text_matches",
    "usage_matches",
]

SHAPE = "vercel-ai-sdk"
"""The shape name of a Vercel AI SDK result."""

NOT_CARRIED = frozenset({"total_tokens"})
"""Usage keys the SDK computes itself rather than carries over (never compared)."""

_FINISH = {"tool-calls": "tool_calls", "content-filter": "content_filter"}


def finish_matches(finish: str, raw: str | None, got: OutputReport) -> bool:
    """Whether the SDK's finish reason (``finish``, and its ``rawFinishReason`` ``raw`` if
    the result has one) says what the stream's does."""
    if raw is not None:
        return raw == got.raw_finish_reason
    unified = _FINISH.get(finish, finish)
    if unified in (got.finish_reason, got.raw_finish_reason):
        return True
    if finish == "tool-calls":  # a natural stop that called tools
        return got.finish_reason == "stop" and bool(got.tool_calls)
    if finish == "content-filter":  # the SDK has no refusal reason
        return got.finish_reason == "refusal" or (got.finish_reason == "stop" and bool(got.refusal))
    if finish in ("other", "unknown"):  # what it says before a finish reason arrives
        return got.finish_reason is None
    return False


def text_matches(text: str, got: OutputReport) -> bool:
    """Whether the SDK's text is the stream's (a refusal comes in the SDK's text)."""
    return text in (got.text, got.text + got.refusal)


def usage_matches(key: str, value: int, usage: UsageReport | None) -> bool:
    """Whether the SDK's count ``value`` for ``key`` agrees with the stream's usage."""
    got: int | None = None if usage is None else getattr(usage, key)
    if value == got:
        return True
    if got is None:
        return value == 0  # the SDK's 0 for a count the stream did not give
    assert usage is not None
    if key == "output_tokens":
        return value == got + (usage.reasoning_tokens or 0)
    if key == "input_tokens":
        cached = usage.cached_input_tokens or 0
        return value in (got + cached, got + cached + _cache_writes(usage.raw))
    return False


def _cache_writes(raw: Any) -> int:
    """Anthropic's cache writes (``cache_creation_input_tokens``), in the raw usage."""
    if isinstance(raw, dict):
        value = raw.get("cache_creation_input_tokens")
        if isinstance(value, int) and not isinstance(value, bool):
            return value
    return 0
