"""The public API: every exported name exists and says what it is."""

from __future__ import annotations

import importlib
import inspect
import pkgutil

import pytest

import ssescope

MODULES = sorted(m.name for m in pkgutil.walk_packages(ssescope.__path__, "ssescope."))


@pytest.mark.parametrize("name", ["ssescope", *MODULES])
def test_every_module_has_a_docstring_and_its_exports_exist_with_docstrings(name: str) -> None:
    module = importlib.import_module(name)
    assert (module.__doc__ or "").strip(), f"{name} has no docstring"
    for export in getattr(module, "__all__", []):
        obj = getattr(module, export)  # raises if __all__ names something missing
        if inspect.isclass(obj) or inspect.isfunction(obj):
            assert (obj.__doc__ or "").strip(), f"{name}.{export} has no docstring"


def test_the_top_level_exports_the_engine_and_its_containers() -> None:
    for name in (
        "inspect",
        "Pipeline",
        "Report",
        "SSEParser",
        "Framer",
        "read_container",
        "CaptureWriter",
    ):
        assert name in ssescope.__all__
