"""When a silence without content is worth naming on a verdict line.

The proxy's exchange line, ``inspect``'s verdict line and the web page's Live list name
the longest silence without content (the Report's ``timing.max_content_idle_s``, the
proxy index line's ``content_idle_max_s``) once it reaches :data:`SILENCE_NOTE_S`.
"""

from __future__ import annotations

__all__ = ["SILENCE_NOTE_S"]

SILENCE_NOTE_S = 2.0
"""A silence without content at least this long is named on a verdict line."""
