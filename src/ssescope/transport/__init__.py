"""The in-process transport: judge every stream an app reads, where the app runs.

``ssescope.Transport`` / ``ssescope.AsyncTransport`` wrap an httpx (or httpx2) transport;
each streamed response is teed, as the app reads it, into the one engine, and ends with a
:class:`~ssescope.Report` however the stream ends. The Report goes to the ``on_report``
sinks: callables, :class:`LogReports`, and (``record=``) :class:`CaptureSampler`. See
``docs/transport.md``.
"""

from __future__ import annotations

from .clients import async_http_client, http_client
from .judge import ReportSink, StreamJudge
from .record import BROKEN, CaptureSampler
from .sinks import VERDICT_ORDER, LogReports, describe
from .transport import AsyncTransport, OnReport, Recording, Transport, sinks_of

__all__ = [
    "BROKEN",
    "VERDICT_ORDER",
    "AsyncTransport",
    "CaptureSampler",
    "LogReports",
    "OnReport",
    "Recording",
    "ReportSink",
    "StreamJudge",
    "Transport",
    "async_http_client",
    "describe",
    "http_client",
    "sinks_of",
]
