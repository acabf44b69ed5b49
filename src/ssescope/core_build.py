"""Which core runs: the one compiled by mypyc, or the pure-Python one.

Both are built from the same typed modules (``setup.py`` says when a build compiles them).
A compiled module is loaded from a C extension file rather than from its ``.py`` source;
the SSE framer stands for the whole core, which is compiled or not as one.

Compiled modules and classes lose their docstrings. The build ships them in
``_docstrings.json``, and :func:`restore_docstrings` puts them back when the package is
imported.
"""

from __future__ import annotations

import importlib
import json
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path
from types import ModuleType
from typing import Literal

from .framing import sse

__all__ = ["CORE", "CoreName", "core_label", "restore_docstrings"]

CoreName = Literal["mypyc", "pure"]

CORE: CoreName = "mypyc" if (sse.__file__ or "").endswith(tuple(EXTENSION_SUFFIXES)) else "pure"
"""``"mypyc"`` when the compiled core is running, ``"pure"`` for the pure-Python one."""

_TABLE = Path(__file__).with_name("_docstrings.json")


def core_label() -> str:
    """How ``ssescope --version`` names the running core."""
    return "compiled core (mypyc)" if CORE == "mypyc" else "pure-Python core"


def _apply(module: ModuleType, docs: dict[str, str]) -> None:
    if not module.__doc__:
        module.__doc__ = docs.get("")
    for name, doc in docs.items():
        cls = getattr(module, name, None) if name else None
        if isinstance(cls, type) and not cls.__doc__:
            cls.__doc__ = doc


def restore_docstrings() -> None:
    """Give the compiled modules and classes their docstrings back (no-op for pure)."""
    if CORE != "mypyc" or not _TABLE.is_file():
        return
    table: dict[str, dict[str, str]] = json.loads(_TABLE.read_text(encoding="utf-8"))
    for name, docs in table.items():
        # Compiled modules of one group initialise each other without the import system,
        # so each is imported here (cheap: compiled modules are built, not executed).
        _apply(importlib.import_module(name), docs)


restore_docstrings()
