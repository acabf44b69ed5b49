"""Provider auto-detection from the first data records.

Each rule looks at one record: its SSE event name, its JSON shape (``object``, ``type``,
``candidates``, ``message`` + ``done`` …). The rules belong to the provider packages
(their ``knowledge`` modules) and run in the order the registry gives them. The first
record that a rule recognises decides, and the rule is reported. Records that say
nothing (``[DONE]``, a padding comment) are passed over.

An error record decides too, so that a stream whose only record is an in-stream error is
read by its provider's adapter (``failed``, with the error) and not as an unknown stream.
Each provider recognises its own documented error shape; where two share one, the most
specific member decides (``docs/verdicts.md`` lists the rules): the Responses API's
``sequence_number``, Anthropic's nested ``error`` under ``"type": "error"``, Vercel's
``errorText``, Gemini's google.rpc ``status``, Ollama's string ``error`` on an NDJSON
line; any other top-level ``error`` is an OpenAI-compatible error chunk. The rules of
the shared ``{"error": ...}`` shape run after every content rule.
"""

from __future__ import annotations

from typing import Any

import orjson

from ..framing.records import DataRecord
from ._knowledge import Probe
from .registry import detect_rules

__all__ = ["detect_provider"]


def detect_provider(record: DataRecord) -> tuple[str, str] | None:
    """Recognise the provider from one data record.

    Returns:
        ``(provider, rule)``, or ``None`` when this record does not tell.
    """
    event = record.event
    probe = Probe(event, None, None)
    decoded = False
    for provider, rule in detect_rules():
        if rule.needs_json and not decoded:
            decoded = True
            data = record.data.strip()
            if not data.startswith("{"):
                return None
            try:
                obj: Any = orjson.loads(data)
            except orjson.JSONDecodeError:
                return None
            if not isinstance(obj, dict):
                return None
            kind = obj.get("type")
            probe = Probe(event, obj, kind if isinstance(kind, str) else None)
        reason = rule.test(probe)
        if reason is not None:
            return provider, reason
    return None
