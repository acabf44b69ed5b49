"""Lazy exports for the provider packages.

A provider package re-exports its adapter class and its maps, but importing the package
must stay cheap: detection and the replay server read every provider's knowledge module
(``<package>.knowledge``), which would otherwise import every adapter.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterable

__all__ = ["lazy_exports"]


def lazy_exports(package: str, names: Iterable[str]) -> Callable[[str], object]:
    """A module ``__getattr__`` for the provider package ``package``.

    On first access of one of ``names`` (the package's ``__all__``) it imports the
    submodule that defines it and returns the attribute: the ``…Adapter`` class comes from
    ``<package>.adapter``, every other name (the finish-reason maps) from ``<package>.maps``.
    """
    exports = {name: "adapter" if name.endswith("Adapter") else "maps" for name in names}

    def __getattr__(name: str) -> object:
        module = exports.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        return getattr(importlib.import_module(f"{package}.{module}"), name)

    return __getattr__
