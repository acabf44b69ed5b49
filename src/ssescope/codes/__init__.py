"""The registry of diagnostic codes: one :class:`Code` entry per code.

Each entry holds the code's name, its one severity, the layer whose finding it is,
whether it makes the record it names invalid, its message template (or named forms of
it), which of its arguments carry stream content, and its documentation. Emitters refer
to it through :func:`ssescope.diagnostics.diagnostic`; ``docs/diagnostics.md`` and the pages
in ``docs/diagnostics/`` are generated from it (``scripts/diagnostics_index.py``).
"""

from __future__ import annotations

from types import MappingProxyType

from . import (
    aggregate,
    anthropic,
    bedrock,
    cohere,
    containers_files,
    containers_http,
    framing,
    gemini,
    live,
    mcp,
    ollama,
    openai_chat,
    openai_responses,
    vercel_ui,
)
from ._spec import LAYERS, Code, Layer, Page, Severity

__all__ = ["CODES", "LAYERS", "PAGES", "Code", "Layer", "Page", "Severity", "codes_of", "lookup"]

_MODULES = (
    containers_http,
    containers_files,
    framing,
    aggregate,
    openai_chat,
    openai_responses,
    anthropic,
    gemini,
    ollama,
    cohere,
    bedrock,
    vercel_ui,
    mcp,
    live,
)

CODES: MappingProxyType[str, Code] = MappingProxyType(
    {code.name: code for module in _MODULES for code in module.CODES}
)
"""Every registered code by name, in docs order (pipeline order, then page order)."""

PAGES: tuple[Page, ...] = tuple(dict.fromkeys(code.page for code in CODES.values()))
"""The docs pages, in the order the index lists them."""


def lookup(name: str) -> Code:
    """The registry entry of ``name``.

    Raises:
        KeyError: if ``name`` is not a registered code.
    """
    return CODES[name]


def codes_of(layer: Layer) -> frozenset[str]:
    """The names of the codes whose finding belongs to ``layer``."""
    return frozenset(name for name, code in CODES.items() if code.layer == layer)
