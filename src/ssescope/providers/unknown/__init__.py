"""The adapter used when no provider could be recognised: it decodes and counts."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .._lazy import lazy_exports

if TYPE_CHECKING:
    from .adapter import UnknownAdapter

__all__ = ["UnknownAdapter"]

__getattr__ = lazy_exports(__name__, __all__)
