"""The fallback adapter's entry: no rules, no templates; it is used when no rule matched."""

from __future__ import annotations

from .._knowledge import Knowledge

__all__ = ["KNOWLEDGE"]

KNOWLEDGE = Knowledge(name="unknown", adapter="adapter:UnknownAdapter")
"""The registry's entry for streams of no recognised provider."""
