"""``ssescope proxy``: a recording reverse proxy an app points its base URL at.

Every exchange is forwarded untouched and unbuffered (:mod:`.forward`), a copy of each chunk
with its arrival time goes to the recorder (:mod:`.recorder`), which writes a ``.ssecap``
capture and judges the exchange with the same :class:`~ssescope.pipeline.Pipeline` as
``inspect``; :mod:`.display` prints one line per exchange and the streams in flight.
"""

from __future__ import annotations

from .connections import ServerLimits
from .exchange import Exchange, Registry
from .forward import ProxyApp, ProxyOptions, make_client
from .recorder import Recorder, capture_name
from .run import ProxyThread, serve

__all__ = [
    "Exchange",
    "ProxyApp",
    "ProxyOptions",
    "ProxyThread",
    "Recorder",
    "Registry",
    "ServerLimits",
    "capture_name",
    "make_client",
    "serve",
]
