"""Exceptions raised by ssescope.

A malformed stream is a *result* (diagnostics in the output), never an exception.
Exceptions are raised only for misuse of the API::

    SSEScopeError
     └── UsageError        the API was called wrongly (feed after close, bad option)
"""

from __future__ import annotations

__all__ = ["SSEScopeError", "UsageError"]


class SSEScopeError(Exception):
    """Base class of every exception ssescope raises on purpose."""


class UsageError(SSEScopeError, ValueError):
    """The API was used wrongly: ``feed`` after ``close``, an unknown option value, …"""
