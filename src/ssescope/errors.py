"""Exceptions raised by ssescope.

A malformed stream is a *result* (diagnostics in the output), never an exception.
Exceptions are raised only for misuse of the API and for the opt-in strict mode::

    SSEScopeError
     ├── UsageError        the API was called wrongly (feed after close, bad option)
     └── StreamError       strict mode: a diagnostic of error severity was produced;
                           ``.diagnostic`` holds it
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .diagnostics import Diagnostic

__all__ = ["SSEScopeError", "StreamError", "UsageError"]


class SSEScopeError(Exception):
    """Base class of every exception ssescope raises on purpose."""


class UsageError(SSEScopeError, ValueError):
    """The API was used wrongly: ``feed`` after ``close``, an unknown option value, …"""


class StreamError(SSEScopeError):
    """Raised in strict mode when the stream produces an error diagnostic."""

    def __init__(self, diagnostic: Diagnostic) -> None:
        super().__init__(diagnostic.message)
        self.diagnostic = diagnostic
