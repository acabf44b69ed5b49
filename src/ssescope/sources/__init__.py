"""I/O adapters: read a live HTTP response, yield unified events, build the Report.

These are the only modules of the library that do I/O. ``ssescope.sources.httpx`` needs
the ``http`` extra, ``ssescope.sources.aiohttp`` the ``aiohttp`` extra; import them
directly.
"""

from __future__ import annotations

from ._live import CaptureSink, LiveCore

__all__ = ["CaptureSink", "LiveCore"]
