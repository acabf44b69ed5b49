"""When a silence without content is worth naming on a verdict line.

The proxy's exchange line, ``inspect``'s verdict line and the web page's Live list name
the longest silence without content (the Report's ``timing.max_content_idle_s``, the
proxy index line's ``content_idle_max_s``) once it reaches :data:`SILENCE_NOTE_S`, with
what it followed (``timing.max_content_idle_after``), all in the words of
:func:`silence_note`: ``idle 8.0 s mid tool call``, or ``keep-alives only for 6.0 s mid
text`` when keep-alives, pings or lifecycle events kept the bytes flowing meanwhile. The
scan's rows and report use the same words.

A client that gave up on a silent stream (hung up, or hit its read timeout) is
``cancelled``, and every surface words its reason the same way (:func:`hung_up`).
"""

from __future__ import annotations

__all__ = ["SILENCE_NOTE_S", "hung_up", "silence_note", "silence_where"]

SILENCE_NOTE_S = 2.0
"""A silence without content at least this long is named on a verdict line."""


def silence_where(after: str | None) -> str:
    """Where a silence was, from what content it followed (``timing.max_content_idle_after``):
    ``mid tool call``, ``mid text``, ``before any content`` (``None``), ``after the end``."""
    if after is None:
        return "before any content"
    if after == "end":
        return "after the end"
    return f"mid {after}"


def silence_note(quiet: float | None, after: str | None, byte_gap: float | None = None) -> str:
    """``idle 8.0 s mid tool call`` for a longest silence without content (``quiet``
    seconds) of :data:`SILENCE_NOTE_S` or more, ``keep-alives only for 6.0 s mid text`` when
    the longest silence without any record (``byte_gap``) was under half of it; else ``""``.
    """
    if quiet is None or quiet < SILENCE_NOTE_S:
        return ""
    where = silence_where(after)
    if byte_gap is not None and byte_gap < quiet / 2:
        return f"keep-alives only for {quiet:.1f} s {where}"
    return f"idle {quiet:.1f} s {where}"


def hung_up(waited: float) -> str:
    """The ``status_reason`` of a stream whose client gave up after ``waited`` seconds
    without a byte: ``"the client hung up after 3.0 s without data"`` (the proxy, for a
    client that hung up; the in-process transport, for a client's read timeout)."""
    return f"the client hung up after {max(0.0, waited):.1f} s without data"
