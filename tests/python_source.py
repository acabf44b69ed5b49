"""The pure-Python form of a core module, whichever core is running.

Some properties of the core can only be observed through Python itself: a subclass that
counts calls to a method, a profile hook that counts the C calls a method makes. The
compiled core has neither (its classes take no interpreted subclass, its code makes no
Python frames). Tests of such properties run against the module's source, loaded as
Python beside the compiled one: the same code, so the same property.
"""

from __future__ import annotations

import importlib
import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import ssescope

SRC = Path(ssescope.__file__ or "").resolve().parent


def python_source(name: str) -> ModuleType:
    """Module ``name`` (``ssescope.framing.sse``…) as Python: the imported module itself
    for the pure core, else its ``.py`` source loaded as ``<name>__source``."""
    module = importlib.import_module(name)
    if (module.__file__ or "").endswith(".py") or ssescope.CORE == "pure":
        return module
    alias = f"{name}__source"
    loaded = sys.modules.get(alias)
    if loaded is not None:
        return loaded
    path = SRC.joinpath(*name.split(".")[1:]).with_suffix(".py")
    spec = importlib.util.spec_from_file_location(alias, path)
    assert spec is not None and spec.loader is not None, path
    loaded = importlib.util.module_from_spec(spec)
    # Relative imports resolve against the real package, so records, diagnostics and
    # errors are the very classes the compiled core uses.
    loaded.__package__ = name.rpartition(".")[0]
    sys.modules[alias] = loaded
    spec.loader.exec_module(loaded)
    return loaded
