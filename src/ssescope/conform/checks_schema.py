"""The check of tool calls against the JSON Schema their request declared.

It reads the engine's findings (``tool.schema-mismatch``, ``tool.not-offered``), which the
aggregator makes when the capture keeps the request (:mod:`ssescope.toolschema`), and is
skipped when it does not.
"""

from __future__ import annotations

from ._judges import by_codes, check, skipped
from .exchange import Exchange
from .registry import Check, Outcome

__all__ = ["CHECKS", "FUNCTION_CALLING"]

FUNCTION_CALLING = "https://platform.openai.com/docs/guides/function-calling#strict-mode"
"""OpenAI's function-calling guide: the schema of a tool's parameters, and strict mode."""

_MISMATCHES = by_codes(("tool.schema-mismatch", "tool.not-offered"))


def _matches_schema(exchange: Exchange) -> Outcome:
    if not exchange.info.tools:
        return skipped("the capture keeps no request declaring tools")
    unchecked = [d for d in exchange.report.diagnostics if d.code == "tool.schema-unchecked"]
    outcome = _MISMATCHES(exchange)
    if outcome.verdict == "pass" and unchecked:
        return skipped(unchecked[0].message)
    return outcome


CHECKS: tuple[Check, ...] = (
    check(
        "tool.arguments-match-schema",
        "SHOULD",
        "tool arguments match the request's schema",
        "Each tool call names a tool the request offered, and its arguments satisfy that "
        "tool's JSON Schema (required properties, types, enums, `additionalProperties`); "
        "under `strict: true`, every property is present and none is added.",
        FUNCTION_CALLING,
        _matches_schema,
    ),
)
