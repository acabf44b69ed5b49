"""Vercel AI SDK UI-message streams (AI SDK 5 and later, ``x-vercel-ai-ui-message-stream: v1``).

Theory of operation
===================

Each record is one JSON chunk ``{"type": ..., ...}``; on the SSE wire the stream ends with
``data: [DONE]``. The stream carries one assistant message, so every piece goes to
output ``0``.

* Text and reasoning are multiplexed by ``id`` (``text-start`` / ``text-delta`` /
  ``text-end``, same for ``reasoning-*``). The SDK reuses ids across steps (``txt-0``
  again in step 2), so the part key is ``("text", id, n)`` / ``("reasoning", id, n)``
  where ``n`` counts how many times that id was started: a reused id opens a new part
  and the text keeps its order.
* Tool calls are keyed by ``toolCallId``: ``tool-input-start`` names the call,
  ``tool-input-delta`` streams its input text, ``tool-input-available`` ends it with the
  parsed input (compact JSON), or is the whole call when no start came.
  ``providerExecuted`` calls are ``kind="server"``. ``tool-output-*`` chunks are tool
  results (:class:`ServerToolResult`), whoever executed the tool.
* ``source-url`` / ``source-document`` are citations; ``error`` is a provider error;
  ``abort`` ends the response as cancelled.
* ``finish`` carries the finish reason (AI SDK 6; AI SDK 5 sends none) and, when the
  application put it in ``messageMetadata``, token usage.

End marker: on the SSE wire the terminal marker is ``data: [DONE]`` after a ``finish``
(its status follows the finish reason: ``length`` / ``content-filter`` are
``incomplete``, ``error`` is ``failed``, anything else ``completed``). In a dump without
SSE framing (``ndjson``, ``json-array``) there is no ``[DONE]``, so ``finish`` itself is
the marker.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .._lazy import lazy_exports

if TYPE_CHECKING:
    from .adapter import VercelUIAdapter
    from .maps import FINISH_REASONS, finish_status, map_finish_reason

__all__ = ["FINISH_REASONS", "VercelUIAdapter", "finish_status", "map_finish_reason"]

__getattr__ = lazy_exports(__name__, __all__)
