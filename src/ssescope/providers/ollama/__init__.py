"""Ollama native ``/api/chat`` and ``/api/generate`` streams.

Theory of operation
===================

The body is NDJSON (``application/x-ndjson``): one object per line. The same objects
wrapped in SSE ``data:`` events (a proxy re-framing the stream) are read the same way.

* ``/api/chat`` lines carry ``message {role, content, thinking?, tool_calls?, images?}``:
  ``content`` is reply text, ``thinking`` is reasoning (it arrives before the content when
  ``think`` is set), and ``tool_calls`` holds **complete** calls
  ``{id?, function {index, name, arguments}}`` whose ``arguments`` is a JSON object. Each
  call becomes one :class:`ToolCall` (compact JSON arguments) with its own ``index``, so
  that calls without ids never merge.
* ``/api/generate`` lines carry ``response`` (text) and ``thinking`` at the top level; the
  final line may carry the deprecated ``context`` token array (ignored).
* The last line has ``done: true`` — Ollama's only end marker — with ``done_reason`` and
  the metrics ``prompt_eval_count`` / ``eval_count`` (token counts) and the ``*_duration``
  values (nanoseconds, kept in the raw usage object). It may still carry a last piece of
  text. ``done_reason``: ``stop`` -> stop (completed), ``length`` -> length (incomplete),
  ``load`` / ``unload`` -> other (completed: a model-management reply, nothing was
  generated), ``""`` -> the runner connection closed before the model finished: other,
  ``incomplete``, and ``ollama.connection-closed``.
* ``{"error": "..."}`` lines (HTTP status stays 200 mid-stream) are a
  :class:`ProviderError` and end the response as ``failed``.

Lines carry no response id: a line after ``done: true`` starts a new response (two
replies captured back to back), except an error line, which belongs to the last one.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .._lazy import lazy_exports

if TYPE_CHECKING:
    from .adapter import OllamaAdapter
    from .maps import FINISH_REASONS, finish_status, map_finish_reason

__all__ = ["FINISH_REASONS", "OllamaAdapter", "finish_status", "map_finish_reason"]

__getattr__ = lazy_exports(__name__, __all__)
