"""Where the page finds its bundled examples (one small function to repoint)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from .. import examples

__all__ = ["ExampleInfo", "find_examples"]

_SUFFIXES = (".sse", ".ndjson", ".jsonl", ".json", ".txt", ".ssecap", ".har", ".http", ".bin")


@dataclass(frozen=True, slots=True)
class ExampleInfo:
    """One example the page can load: its ``name``, a one-line ``description`` and ``path``."""

    name: str
    description: str
    path: Path


def _from_package() -> list[ExampleInfo]:
    listed = examples.list_examples()
    return [ExampleInfo(e.name, e.description, examples.example_path(e.name)) for e in listed]


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

    The bundled examples are those of ``ssescope.examples`` (``list_examples``).
    """
    if directory is not None:
        return _from_dir(directory)
    return _from_package()
