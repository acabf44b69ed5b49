"""Small helpers shared by the framers: decoding one finished piece of the body."""

from __future__ import annotations

from ..diagnostics import Diagnostic, diagnostic

__all__ = ["decode_utf8"]


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
            "utf8.invalid-bytes",
            offset + exc.start,
            record,
            form="text",
            at=offset + exc.start,
            text=text,
        )
