"""Cohere v2 ``/v2/chat`` stream.

Theory of operation
===================

The wire is SSE with ``event:`` names, but the JSON ``type`` field is authoritative (the
Cohere SDK parses only ``data``); the event name is used only when ``type`` is missing,
and a disagreement is reported (``cohere.event-name-mismatch``, info). JSONL dumps carry
the same objects, one per line. A literal ``[DONE]`` (which the SDK also stops on) is
tolerated and ignored.

Event types and what they become (one reply per response, so ``output`` is always 0):

=====================  ==============================================================
``message-start``      :class:`ResponseStart` (``id``)
``content-start``      opens content part ``index``; ``delta.message.content.type`` is
                       ``"text"`` or ``"thinking"``
``content-delta``      ``content.text`` -> :class:`TextDelta`, ``content.thinking`` ->
                       :class:`ReasoningDelta`, ``part`` = the content ``index``
``content-end``        nothing (parts need no closing)
``tool-plan-delta``    :class:`ReasoningDelta` of kind ``"plan"`` (part ``"tool_plan"``):
                       the model's planning text, kept apart from the reply text
``tool-call-start``    :class:`ToolCallDelta` with the top-level ``index``, id, name and
                       type (``delta.message.tool_calls`` is ONE object, not a list)
``tool-call-delta``    :class:`ToolCallDelta` with an arguments fragment
``tool-call-end``      :class:`ToolCallEnd` for ``index``
``citation-start``     :class:`Citation` (``delta.message.citations``), part =
                       ``content_index``
``citation-end``       nothing
``message-end``        :class:`Finish`, :class:`Usage`, :class:`Terminal`
``debug``              known, ignored
=====================  ==============================================================

``message-end`` is the only end marker, in every framing. ``finish_reason`` COMPLETE /
STOP_SEQUENCE -> ``stop`` and TOOL_CALL -> ``tool_calls`` (status ``completed``),
MAX_TOKENS -> ``length`` (``incomplete``), ERROR / TIMEOUT -> ``error`` (``failed``).
Usage: ``usage.tokens`` (the tokens actually processed) gives ``input_tokens`` /
``output_tokens``, ``cached_tokens`` gives ``cached_input_tokens``; ``billed_units`` stays in
the raw object and is used only when ``tokens`` is absent.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .._lazy import lazy_exports

if TYPE_CHECKING:
    from .adapter import CohereAdapter
    from .maps import FINISH_REASONS, finish_status, map_finish_reason

__all__ = ["FINISH_REASONS", "CohereAdapter", "finish_status", "map_finish_reason"]

__getattr__ = lazy_exports(__name__, __all__)
