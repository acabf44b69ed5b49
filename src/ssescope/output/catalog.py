"""The index of every diagnostic code by name, built by walking the layers that own them.

Emitters pass code objects and never look a code up by name; the name is needed only
where a Report is read back as JSON (``--redact``), and by the docs generator. The index
sits above the providers: it takes the shared layers' codes from :mod:`ssescope.codes` and
each provider's from the provider registry, in docs order (the containers, the framers,
the aggregator, the JSON-RPC envelope, the providers in registry order, the live client).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import replace
from types import MappingProxyType, ModuleType

from ..codes import (
    aggregate,
    containers_files,
    containers_http,
    framing,
    jsonrpc,
    live,
    websocket,
)
from ..codes.spec import Code, Layer, Page, declared
from ..providers.registry import PROVIDERS, codes_module

__all__ = ["CODES", "PAGES", "codes_of", "lookup"]


def _modules() -> Iterator[ModuleType]:
    yield from (containers_http, containers_files, websocket, framing, aggregate, jsonrpc)
    for provider in PROVIDERS:
        module = codes_module(provider)
        if module is not None:
            yield module
    yield live


def _index() -> dict[str, Code]:
    found: dict[str, Code] = {}
    forms: dict[str, dict[str, str]] = {}
    for module in _modules():
        codes, own_forms = declared(module)
        for code in codes:
            if code.name in found:
                raise ValueError(f"{code.name} is defined twice ({module.__name__})")
            found[code.name] = code
        for form in own_forms:
            forms.setdefault(form.code.name, {})[form.name] = form.message
    for name, added in forms.items():
        shared = found[name]
        own = {} if isinstance(shared.message, str) else dict(shared.message)
        found[name] = replace(shared, message={**own, **added}, _compiled={})
    return found


CODES: Mapping[str, Code] = MappingProxyType(_index())
"""Every code by name, in docs order; a shared code lists every form the layers add."""

PAGES: tuple[Page, ...] = tuple(dict.fromkeys(code.page for code in CODES.values()))
"""The docs pages, in the order the index lists them."""


def lookup(name: str) -> Code:
    """The code named ``name``.

    Raises:
        KeyError: if no layer owns ``name``.
    """
    return CODES[name]


def codes_of(layer: Layer) -> frozenset[str]:
    """The names of the codes whose finding belongs to ``layer``."""
    return frozenset(name for name, code in CODES.items() if code.layer == layer)
