"""Which core runs: the one compiled by mypyc, or the pure-Python one.

Both are built from the same typed modules (``setup.py`` says when a build compiles them).
A compiled module is loaded from a C extension file rather than from its ``.py`` source;
the SSE framer stands for the whole core, which is compiled or not as one.
"""

from __future__ import annotations

from importlib.machinery import EXTENSION_SUFFIXES
from typing import Literal

from .framing import sse

__all__ = ["CORE", "CoreName", "core_label"]

CoreName = Literal["mypyc", "pure"]

CORE: CoreName = "mypyc" if (sse.__file__ or "").endswith(tuple(EXTENSION_SUFFIXES)) else "pure"
"""``"mypyc"`` when the compiled core is running, ``"pure"`` for the pure-Python one."""


def core_label() -> str:
    """How ``ssescope --version`` names the running core."""
    return "compiled core (mypyc)" if CORE == "mypyc" else "pure-Python core"
