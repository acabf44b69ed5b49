"""Provider auto-detection from the first data records.

Each rule looks at one record: its SSE event name, its JSON shape (``object``, ``type``,
``candidates``, ``message`` + ``done`` …). The rules belong to the provider packages
(their ``knowledge`` modules) and run in the order the registry gives them. The first
record that a rule recognises decides, and the rule is reported. Records that say
nothing (``[DONE]``, a bare error object, a padding comment) are passed over.
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
