"""A2A ``message/stream`` / ``tasks/resubscribe`` streams (0.x) and their 1.0 forms
(``SendStreamingMessage`` / ``SubscribeToTask``): JSON-RPC 2.0 results over SSE.

Theory of operation
===================

Each event's ``result`` is a task, a message, a status update or an artifact update:
tagged by ``kind`` in 0.x, wrapped as ``task`` / ``message`` / ``statusUpdate`` /
``artifactUpdate`` in 1.0 (states ``TASK_STATE_*``, no ``final`` field). The last task
state decides: ``completed`` → completed, ``failed`` / ``rejected`` → failed,
``canceled`` → cancelled, ``input-required`` / ``auth-required`` → incomplete; a stream
that ends in any other state is truncated (``a2a.missing-final``). Artifact text parts
are the reply.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .._lazy import lazy_exports

if TYPE_CHECKING:
    from .adapter import A2aAdapter

__all__ = ["A2aAdapter"]

__getattr__ = lazy_exports(__name__, __all__)
