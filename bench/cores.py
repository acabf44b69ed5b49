"""Both cores of ssescope in one process, so that a benchmark compares them in one run.

``ssescope`` is whichever core is installed or first on the path (``ssescope.CORE`` says
which). When it is the compiled core, :func:`pure_core` imports the pure-Python core from a
copy of its ``.py`` sources under another name, ``ssescope_pure`` (the package imports its
own modules relatively, so the copy is complete): the two then run side by side,
interleaved, under the same load.

    pip install .          # the compiled core
    python bench/framing.py                   # both cores, side by side
"""

from __future__ import annotations

import importlib
import shutil
import sys
import tempfile
from pathlib import Path
from types import ModuleType

import ssescope

SRC = Path(__file__).resolve().parent.parent / "src" / "ssescope"


def pure_core() -> ModuleType | None:
    """The pure core as ``ssescope_pure``, or ``None`` when ``ssescope`` is already pure."""
    if ssescope.CORE == "pure":
        return None
    if "ssescope_pure" in sys.modules:
        return sys.modules["ssescope_pure"]
    root = Path(tempfile.mkdtemp(prefix="ssescope-pure-"))
    shutil.copytree(SRC, root / "ssescope_pure", ignore=shutil.ignore_patterns("*.so", "*.pyd"))
    sys.path.insert(0, str(root))
    module = importlib.import_module("ssescope_pure")
    assert module.CORE == "pure", module.CORE
    return module


def label(module: ModuleType) -> str:
    """``ssescope`` with its core: ``ssescope (mypyc)`` or ``ssescope (pure)``."""
    return f"ssescope ({module.CORE})"
