"""Gemini Interactions API streams (``POST /v1beta/interactions`` with ``stream: true``).

Theory of operation
===================

The body is SSE: each event's ``event:`` line repeats the payload's ``event_type``; the
same objects one per line (JSONL, the SSE framing stripped) are read the same way. Two
generations of events exist, read by one adapter:

* the step generation: ``interaction.created`` -> ``interaction.status_update`` ->
  ``step.start {index, step}`` / ``step.delta {index, delta}`` / ``step.stop {index}`` ->
  ``interaction.completed {interaction}``;
* the legacy generation: ``interaction.start``, ``content.start {index, content}`` /
  ``content.delta`` / ``content.stop``, ``interaction.complete``.

Deltas by type: ``text`` (reply text), ``thought_summary`` (reasoning text),
``thought_signature`` (the opaque signature of a thought), ``arguments_delta`` (a
function call's arguments as JSON text fragments, concatenated per step index; the call's
id and name are on its ``step.start``), ``function_call`` (legacy: a whole call with its
``arguments`` object), ``text_annotation_delta`` / ``text_annotation`` (citations),
``google_search_call`` and other server tool calls (their arguments object) and their
``*_result`` steps. A step's ``index`` is its place in the interaction, not the order in
which steps ran.

The terminal ``interaction.completed`` (legacy ``interaction.complete``) carries the
interaction's ``status`` and ``usage`` (its outputs are emptied: the reply is what the
deltas built): ``completed`` -> completed, ``requires_action`` -> completed with finish
``requires_action`` (a client function call waits for its result), ``failed`` -> failed,
``cancelled`` -> cancelled, ``incomplete`` / ``budget_exceeded`` -> incomplete. An ``error``
event is failed. A body that ends before the terminal is truncated. The interaction id
may be the empty string (``store: false``); ``previous_interaction_id`` is kept with the
response's id.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .._lazy import lazy_exports

if TYPE_CHECKING:
    from .adapter import GeminiInteractionsAdapter

__all__ = ["GeminiInteractionsAdapter"]

__getattr__ = lazy_exports(__name__, __all__)
