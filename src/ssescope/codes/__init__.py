"""The diagnostic codes of the shared layers, as typed constants.

Each layer owns the codes it raises: the containers (:mod:`.containers_http`,
:mod:`.containers_files`), the framers (:mod:`.framing`), the aggregator and the shared
JSON decoding (:mod:`.aggregate`), the JSON-RPC envelope (:mod:`.jsonrpc`), the live
client (:mod:`.live`) and WebSocket captures (:mod:`.websocket`) here, each provider
in its own ``providers/<p>/codes.py``. Emitters pass the object,
``diagnostic(codes.SSE_INVALID_RETRY, ...)``, so a misspelt code is a type error. The
index by name (for the docs, ``--redact`` on a Report and the exit codes) is
:mod:`ssescope.output.catalog`, built above the providers.
"""

from __future__ import annotations

from .aggregate import *  # noqa: F403
from .containers_files import *  # noqa: F403
from .containers_http import *  # noqa: F403
from .framing import *  # noqa: F403
from .jsonrpc import *  # noqa: F403
from .live import *  # noqa: F403
from .websocket import *  # noqa: F403
