"""``ssescope proxy --otel``: each judged exchange as a span and metrics.

The recorder calls the hook with the exchange and the Report it just built (the same
engine, fed as the chunks arrived): the exchange gives the wall-clock start, the method,
the upstream URL (redacted), the requested model and how the transfer ended (a stall the
proxy aborted on, a client that hung up).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import datetime, timezone

from ..aggregate.report import Report
from ..proxy.exchange import Exchange
from ..sourceinfo import END_REASONS
from .facts import ExchangeFacts
from .reporter import OtelReporter

__all__ = ["exchange_facts", "exchange_hook"]

_EPOCH = datetime(1970, 1, 1, tzinfo=timezone.utc)
_URL_MODEL = re.compile(r"/models/([^/:?]+)[:?/]")  # Gemini and Vertex name it in the path


def exchange_facts(ex: Exchange) -> ExchangeFacts:
    """What a proxied exchange says besides its Report (the model from the request body,
    or from the URL path as Gemini gives it)."""
    delta = ex.started - _EPOCH
    start = (delta.days * 86_400 + delta.seconds) * 1_000_000_000 + delta.microseconds * 1_000
    return ExchangeFacts(
        start_ns=start,
        method=ex.method,
        url=ex.upstream,
        request_model=ex.model or _url_model(ex.upstream),
        stream=ex.stream,
        end=next((e for e in END_REASONS if e == ex.end), None),
    )


def _url_model(url: str) -> str | None:
    found = _URL_MODEL.search(url)
    return found.group(1) if found else None


def exchange_hook(reporter: OtelReporter) -> Callable[[Exchange, Report], None]:
    """The recorder's ``on_report`` for ``reporter``: model calls and streams are exported,
    other requests (a model list, a health check) are not."""

    def hook(ex: Exchange, report: Report) -> None:
        if ex.stream or ex.model is not None:
            reporter(report, exchange_facts(ex))

    return hook
