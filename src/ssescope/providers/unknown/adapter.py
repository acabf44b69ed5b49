"""The UnknownAdapter (see the package docstring)."""

from __future__ import annotations

from typing import ClassVar

from ...events import Unknown
from ...framing.records import DataRecord
from .._base import (
    INVALID,
    AdapterBase,
    AdapterOutput,
    decode_json,
    refuse_feed_after_close,
)

__all__ = ["UnknownAdapter"]


class UnknownAdapter(AdapterBase):
    """Reports each record as :class:`Unknown` (by its JSON ``type``/``object`` or SSE event)."""

    name: ClassVar[str] = "unknown"

    def feed(self, record: DataRecord) -> list[AdapterOutput]:
        """Map one record to an :class:`Unknown` event (or a ``json.invalid`` diagnostic)."""
        if self._closed:
            refuse_feed_after_close()
        if record.data.strip() == "[DONE]":
            return [Unknown(record.index, "[DONE]")]
        value, problem = decode_json(record)
        if value is INVALID:
            assert problem is not None
            return [problem]
        kind = record.event or "message"
        if isinstance(value, dict):
            for key in ("type", "object"):
                found = value.get(key)
                if isinstance(found, str):
                    kind = found
                    break
        return [Unknown(record.index, kind)]

    def _unfinished(self) -> list[AdapterOutput]:
        """Nothing is left unfinished by an unknown protocol."""
        return []
