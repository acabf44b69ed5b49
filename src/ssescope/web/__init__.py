"""The local web debugger (``ssescope web``): a page served on 127.0.0.1 only.

Parsing happens in the Python engine (``POST /api/inspect``), so the page and the CLI never
disagree; the page itself loads nothing from any other host.
"""

from __future__ import annotations

from .analysis import analyse, build_capture
from .server import CSP, DEFAULT_MAX_BODY, LOOPBACK_HOSTS, create_app

__all__ = ["CSP", "DEFAULT_MAX_BODY", "LOOPBACK_HOSTS", "analyse", "build_capture", "create_app"]
