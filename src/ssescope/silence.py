"""When a silence without content is worth naming on a verdict line.

The proxy's exchange line, ``inspect``'s verdict line and the web page's Live list name
the longest silence without content (the Report's ``timing.max_content_idle_s``, the
proxy index line's ``content_idle_max_s``) once it reaches :data:`SILENCE_NOTE_S`.

A client that gave up on a silent stream (hung up, or hit its read timeout) is
``cancelled``, and every surface words its reason the same way (:func:`hung_up`).
"""

from __future__ import annotations

__all__ = ["SILENCE_NOTE_S", "hung_up"]

SILENCE_NOTE_S = 2.0
"""A silence without content at least this long is named on a verdict line."""


def hung_up(waited: float) -> str:
    """The ``status_reason`` of a stream whose client gave up after ``waited`` seconds
    without a byte: ``"the client hung up after 3.0 s without data"`` (the proxy, for a
    client that hung up; the in-process transport, for a client's read timeout)."""
    return f"the client hung up after {max(0.0, waited):.1f} s without data"
