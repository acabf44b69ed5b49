"""An ``httpx2.Client`` over :class:`ssescope.Transport`, typed."""

from __future__ import annotations

from typing import Any, cast

import httpx2

import ssescope


def judged_client(transport: ssescope.Transport, **kw: Any) -> httpx2.Client:
    """``httpx2.Client(transport=transport, **kw)``.

    The transport serves httpx and httpx2 alike by duck typing, so it subclasses neither
    library's ``BaseTransport``; the cast here says so once, for every test that builds
    the client by hand.
    """
    return httpx2.Client(transport=cast(httpx2.BaseTransport, transport), **kw)
