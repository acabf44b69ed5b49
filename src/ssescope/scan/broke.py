"""Where a stream that did not end well broke, read from its Report (never from its bytes).

The scan's ``where_broke`` column: for a stream that was cut (``truncated``,
``cancelled``) or ``failed``, the last thing it had sent when it broke. Everything comes
from the Report the one engine built: its byte count, its outputs' content, their tool
calls (and whether each one's arguments were closed) and their finish reasons.
"""

from __future__ import annotations

from ..aggregate.report import OutputReport, Report

__all__ = ["BROKEN", "PLACES", "where_broke"]

BROKEN = ("failed", "truncated", "cancelled")
"""The verdicts a stream has a place where it broke for."""

PLACES = (
    "before-first-byte",
    "before-first-content",
    "mid-reasoning",
    "mid-text",
    "mid-tool-arguments",
    "after-tool-call",
    "after-finish",
)
"""Every value of ``where_broke``, in the order a stream goes through them:

- ``before-first-byte``: not one byte of the body arrived;
- ``before-first-content``: bytes, but no text, reasoning, refusal or tool call yet;
- ``mid-reasoning``: the last output had reasoning and no text yet;
- ``mid-text``: the last output was sending text (or a refusal);
- ``mid-tool-arguments``: a tool call's arguments were still open;
- ``after-tool-call``: the last output's tool calls were all closed, with no finish yet;
- ``after-finish``: every output had its finish reason, but the stream never confirmed
  its end (no terminal marker) or failed after it.
"""


def _has_content(output: OutputReport) -> bool:
    return bool(
        output.text
        or output.reasoning
        or output.refusal
        or output.tool_calls
        or (output.audio is not None and (output.audio.bytes or output.audio.transcript))
    )


def where_broke(report: Report) -> str | None:
    """Where the (last) response of ``report`` broke: one of :data:`PLACES`, or ``None``
    for a stream that did not break (``completed``, ``incomplete``)."""
    response = report.response
    if response.status not in BROKEN:
        return None
    if not report.bytes:
        return "before-first-byte"
    outputs = [o for o in response.outputs if _has_content(o)]
    if not outputs:
        return "before-first-content"
    if all(o.finish_reason is not None for o in response.outputs):
        return "after-finish"
    last = max(outputs, key=lambda o: o.index)
    if any(not call.complete for call in last.tool_calls):
        return "mid-tool-arguments"
    if last.tool_calls:
        return "after-tool-call"
    if last.text or last.refusal or last.audio is not None:
        return "mid-text"
    return "mid-reasoning"
