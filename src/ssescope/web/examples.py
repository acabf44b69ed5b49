"""Where the page finds its bundled examples (one small function to repoint)."""

from __future__ import annotations

from dataclasses import dataclass
from importlib import resources
from pathlib import Path

__all__ = ["ExampleInfo", "find_examples"]

_SUFFIXES = (".sse", ".ndjson", ".jsonl", ".json", ".txt", ".ssecap", ".har", ".http", ".bin")


@dataclass(frozen=True, slots=True)
class ExampleInfo:
    """One example the page can load: its ``name``, a one-line ``description`` and ``path``."""

    name: str
    description: str
    path: Path


def _from_package() -> list[ExampleInfo]:
    try:
        from ssescope import examples as mod  # type: ignore[attr-defined,unused-ignore]
    except ImportError:
        return []
    try:
        listed = mod.list_examples()
        return [ExampleInfo(e.name, e.description, mod.example_path(e.name)) for e in listed]
    except Exception:  # a half-written examples package must not break the page
        return []


def _from_dir(directory: Path) -> list[ExampleInfo]:
    if not directory.is_dir():
        return []
    return [
        ExampleInfo(p.name.rsplit(".", 1)[0], p.name, p)
        for p in sorted(directory.iterdir())
        if p.is_file() and p.suffix in _SUFFIXES
    ]


def find_examples(directory: Path | None = None) -> list[ExampleInfo]:
    """Return the examples to offer, sorted by name.

    Args:
        directory: a folder of example files to use instead of the bundled ones.

    The bundled examples come from ``ssescope.examples`` (``list_examples``) when that
    module exists, else from the package folder ``ssescope/examples``, else from an
    ``examples/`` folder at the root of a source checkout.
    """
    if directory is not None:
        return _from_dir(directory)
    found = _from_package()
    if found:
        return found
    package_dir = Path(str(resources.files("ssescope"))) / "examples"
    found = _from_dir(package_dir)
    if found:
        return found
    return _from_dir(Path(__file__).resolve().parents[3] / "examples")
