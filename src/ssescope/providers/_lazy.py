"""Lazy exports for the provider packages.

A provider package re-exports its adapter class and its maps, but importing the package
must stay cheap: detection and the replay server read every provider's knowledge module
(``<package>.knowledge``), which would otherwise import every adapter.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable

__all__ = ["lazy_exports"]


def lazy_exports(package: str, exports: dict[str, str]) -> Callable[[str], object]:
    """A module ``__getattr__`` that imports ``exports[name]`` (a submodule of
    ``package``) on first access of ``name`` and returns its attribute ``name``."""

    def __getattr__(name: str) -> object:
        module = exports.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        return getattr(importlib.import_module(f"{package}.{module}"), name)

    return __getattr__
