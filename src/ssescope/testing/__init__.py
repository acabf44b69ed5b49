"""Test a client against real failures: a replay server fixture, every chunking, a judge.

Installed with the ``pytest`` (or ``test``) extra, the pytest plugin
(:mod:`ssescope.testing.plugin`) is loaded automatically and gives a test:

- the ``ssescope_server`` fixture: :meth:`SSEScopeServer.url` serves a stream (a path,
  bytes or a bundled example name) with chunking, delays, faults and quirk presets on
  127.0.0.1, at a base URL an SDK's ``base_url`` can point at;
- the ``ssescope_ws_server`` fixture: :meth:`WebSocketServer.url` serves a WebSocket
  capture (or any Responses stream) with the WebSocket faults, each ``response.create``
  answered with the next recorded response, and :meth:`WebSocketServer.reports` gives
  the Report of each response the test's clients were sent;
- the ``ssescope_chunking`` fixture: a test that asks for it runs once per chunking of
  :data:`CHUNKINGS` (whole, 1 byte, random seeds, split inside UTF-8);
- :func:`assert_assembled`: fails with a field-by-field diff when what the client built
  differs from the right assembly of the stream it was served (a WebSocket exchange too:
  its capture, or the list of its messages);
- :func:`websocket_reports`: the Report of each response of a WebSocket exchange, from
  the messages a test of a WebSocket client holds.
"""

from __future__ import annotations

from .chunking import CHUNKINGS, chunkings
from .judge import assert_assembled
from .server import ServedURL, SSEScopeServer
from .websocket import websocket_reports
from .ws_served import ServedSocket, WebSocketServer

__all__ = [
    "CHUNKINGS",
    "SSEScopeServer",
    "ServedSocket",
    "ServedURL",
    "WebSocketServer",
    "assert_assembled",
    "chunkings",
    "websocket_reports",
]
