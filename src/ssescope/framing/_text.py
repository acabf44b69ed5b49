"""Small helpers shared by the framers (and the containers): the BOM, the event-size
option, and decoding one finished piece of the body."""

from __future__ import annotations

from .. import codes
from ..diagnostics import Diagnostic, diagnostic
from ..errors import UsageError

__all__ = ["BOM", "check_max_event_bytes", "decode_utf8"]

BOM = b"\xef\xbb\xbf"
"""The UTF-8 byte order mark: stripped once, only at byte 0 of a body or a container."""


def check_max_event_bytes(value: object) -> int | None:
    """Return ``value`` if it is ``None`` or a positive integer.

    The constructors that take ``max_event_bytes`` type it ``object`` and leave the check to
    this function, so that a wrong type is the same :class:`UsageError` in the compiled core
    (which would otherwise refuse it with a ``TypeError`` at the call) as in the pure one.

    Raises:
        UsageError: for anything else (``True``, ``0``, ``1.5``, …).
    """
    if value is not None and (isinstance(value, bool) or not isinstance(value, int) or value <= 0):
        raise UsageError(f"max_event_bytes must be a positive integer, got {value!r}")
    return value


def decode_utf8(raw: bytes, offset: int, record: int | None) -> tuple[str, Diagnostic | None]:
    """Decode ``raw`` as UTF-8, replacing invalid bytes and describing them.

    Returns:
        The text, and a ``utf8.invalid-bytes`` diagnostic (or ``None`` if ``raw`` was valid).
    """
    try:
        return raw.decode(), None
    except UnicodeDecodeError as exc:
        text = raw.decode("utf-8", "replace")
        return text, diagnostic(
            codes.UTF8_INVALID_BYTES,
            offset + exc.start,
            record,
            form="text",
            at=offset + exc.start,
            text=text,
        )
