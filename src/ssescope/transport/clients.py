"""One-line clients for the SDKs: ``http_client=ssescope.http_client(on_report=...)``.

The openai, anthropic and google-genai SDKs speak ``httpx2`` (a fork of ``httpx`` under
its own name) and take an ``http_client``; a client made by hand gets the library's
defaults, not the SDK's. These helpers make one with the SDKs' own defaults (a 600 s
timeout with 5 s to connect, up to 1000 connections, redirects followed, and anthropic's
TCP keep-alive) and a :class:`~ssescope.Transport` around the library's transport.
"""

from __future__ import annotations

import importlib
import socket
from typing import Any

from .transport import AsyncTransport, OnReport, Recording, Transport

__all__ = ["TRANSPORT_OPTIONS", "async_http_client", "http_client"]

TRANSPORT_OPTIONS = (
    "verify",
    "cert",
    "trust_env",
    "http1",
    "http2",
    "limits",
    "proxy",
    "retries",
    "local_address",
    "uds",
    "socket_options",
)
"""The keyword arguments given to the inner ``HTTPTransport`` rather than the client."""


def _keepalive() -> list[tuple[int, int, int]]:
    options = [(socket.SOL_SOCKET, socket.SO_KEEPALIVE, 1)]
    for name, value in (("TCP_KEEPINTVL", 60), ("TCP_KEEPCNT", 5), ("TCP_KEEPIDLE", 60)):
        number = getattr(socket, name, None)
        if number is not None:
            options.append((socket.IPPROTO_TCP, number, value))
    return options


def _split(library: str, kw: dict[str, Any]) -> tuple[Any, dict[str, Any], dict[str, Any]]:
    lib = importlib.import_module(library)
    kw.setdefault("timeout", lib.Timeout(600.0, connect=5.0))
    kw.setdefault("limits", lib.Limits(max_connections=1000, max_keepalive_connections=100))
    kw.setdefault("follow_redirects", True)
    kw.setdefault("socket_options", _keepalive())
    inner = {k: kw.pop(k) for k in TRANSPORT_OPTIONS if k in kw}
    return lib, inner, kw


def http_client(
    *,
    on_report: OnReport = None,
    record: Recording | None = None,
    provider: str = "auto",
    library: str = "httpx2",
    **kw: Any,
) -> Any:
    """A sync client (``httpx2.Client`` by default) whose streams are judged.

    Args:
        on_report: called with each stream's Report (one callable or several).
        record: a capture sink (:class:`~ssescope.transport.CaptureSampler`).
        provider: ``"auto"`` or the provider every stream is read as.
        library: ``"httpx2"`` (the openai, anthropic and google-genai SDKs) or ``"httpx"``.
        kw: the client's arguments; the transport's own (``verify``, ``limits``,
            ``proxy``, ``http2``…) go to the inner ``HTTPTransport``.
    """
    lib, inner, rest = _split(library, kw)
    transport = Transport(
        lib.HTTPTransport(**inner), on_report=on_report, record=record, provider=provider
    )
    return lib.Client(transport=transport, **rest)


def async_http_client(
    *,
    on_report: OnReport = None,
    record: Recording | None = None,
    provider: str = "auto",
    library: str = "httpx2",
    **kw: Any,
) -> Any:
    """An async client (``httpx2.AsyncClient`` by default) whose streams are judged; the
    arguments of :func:`http_client`."""
    lib, inner, rest = _split(library, kw)
    transport = AsyncTransport(
        lib.AsyncHTTPTransport(**inner), on_report=on_report, record=record, provider=provider
    )
    return lib.AsyncClient(transport=transport, **rest)
