"""The provider registry: one line per provider package, everything else asks it.

Each package under ``ssescope.providers`` holds a provider's adapter and a ``knowledge``
module (:class:`~ssescope.providers._knowledge.Knowledge`): its detection rules, terminal
SSE events, the error frame and body the replay server injects, and its quirks. Adding a
provider means adding its package and one line to :data:`_PACKAGES` (see
``docs/adding-a-provider.md``). Packages are imported on first use.
"""

from __future__ import annotations

import importlib
import importlib.util
import json
from functools import cache
from types import ModuleType
from typing import TYPE_CHECKING, Literal, cast

from ..errors import UsageError
from ._base import Adapter
from ._knowledge import DetectRule, Knowledge

if TYPE_CHECKING:
    from ._quirks import QuirkTransform

__all__ = [
    "PROVIDERS",
    "ProviderName",
    "codes_module",
    "detect_rules",
    "error_body",
    "error_frame",
    "knowledge",
    "make_adapter",
    "quirk_transforms",
    "terminal_events",
]

ProviderName = Literal[
    "openai-chat",
    "openai-responses",
    "anthropic",
    "gemini",
    "ollama",
    "cohere",
    "bedrock",
    "realtime",
    "vercel-ui",
    "gemini-interactions",
    "ag-ui",
    "mcp",
    "a2a",
    "unknown",
]

# provider name -> its package under ssescope.providers
_PACKAGES: dict[str, str] = {
    "openai-chat": "openai_chat",
    "openai-responses": "openai_responses",
    "anthropic": "anthropic",
    "gemini": "gemini",
    "ollama": "ollama",
    "cohere": "cohere",
    "bedrock": "bedrock",
    "realtime": "realtime",
    "vercel-ui": "vercel_ui",
    "gemini-interactions": "gemini_interactions",
    "ag-ui": "ag_ui",
    "mcp": "mcp",
    "a2a": "a2a",
    "unknown": "unknown",
}

PROVIDERS: tuple[str, ...] = tuple(_PACKAGES)
"""Every provider name ``--provider`` takes, ``unknown`` last."""

_DEFAULT_ERRORS = "openai-chat"
"""Whose error frame and body stand in for a provider that has none (OpenAI's shape is
what most OpenAI-compatible servers send)."""


def _package(provider: str) -> str:
    package = _PACKAGES.get(provider)
    if package is None:
        raise UsageError(f"unknown provider {provider!r}; expected one of {', '.join(PROVIDERS)}")
    return f"{__package__}.{package}"


def _module(provider: str, name: str) -> ModuleType:
    return importlib.import_module(f"{_package(provider)}.{name}")


@cache
def knowledge(provider: str) -> Knowledge:
    """The :class:`~ssescope.providers._knowledge.Knowledge` of ``provider``.

    Raises:
        UsageError: for an unknown provider name.
    """
    return cast(Knowledge, _module(provider, "knowledge").KNOWLEDGE)


def make_adapter(provider: str, framing: str) -> Adapter:
    """Return a new adapter for ``provider``.

    Raises:
        UsageError: for an unknown provider name.
    """
    module_name, cls_name = knowledge(provider).adapter.split(":")
    return cast(Adapter, getattr(_module(provider, module_name), cls_name)(framing))


def codes_module(provider: str) -> ModuleType | None:
    """The module of the codes ``provider`` owns (``codes.py`` in its package: its codes
    and its message forms of shared codes, see :func:`ssescope.codes.spec.declared`), or
    ``None`` when it raises only shared codes.

    Raises:
        UsageError: for an unknown provider name.
    """
    name = f"{_package(provider)}.codes"
    if importlib.util.find_spec(name) is None:
        return None
    return importlib.import_module(name)


@cache
def detect_rules() -> tuple[tuple[str, DetectRule], ...]:
    """Every provider's detection rules as ``(provider, rule)``, in the order they run."""
    rules = [(k.name, rule) for k in map(knowledge, PROVIDERS) for rule in k.rules]
    return tuple(sorted(rules, key=lambda item: item[1].order))


@cache
def terminal_events() -> frozenset[str]:
    """The SSE event names that end a response, of every provider."""
    return frozenset().union(*(knowledge(p).terminal_events for p in PROVIDERS))


def error_frame(provider: str, framing: str) -> bytes:
    """The provider's own mid-stream error, framed like the stream (SSE, NDJSON or a
    binary framing such as the AWS event-stream, whose provider's frame is used)."""
    for name in PROVIDERS:
        frame = knowledge(name).error_frame
        if frame is not None and frame.binary is not None and frame.binary[0] == framing:
            return frame.encode(framing)
    own = knowledge(provider).error_frame if provider in _PACKAGES else None
    if own is None:
        own = knowledge(_DEFAULT_ERRORS).error_frame
    if own is None:  # the default provider has one
        raise LookupError(_DEFAULT_ERRORS)
    return own.encode(framing)


def error_body(provider: str, status: int) -> bytes:
    """The JSON body a provider answers an HTTP error with."""
    make = knowledge(provider).error_body if provider in _PACKAGES else None
    if make is None:
        make = knowledge(_DEFAULT_ERRORS).error_body
    if make is None:  # the default provider has one
        raise LookupError(_DEFAULT_ERRORS)
    return json.dumps(make(status)).encode()


def quirk_transforms(provider: str) -> dict[str, QuirkTransform]:
    """The quirks ``provider``'s quirk module implements, by preset name (none for a
    provider without one, or an unknown name)."""
    if provider not in _PACKAGES:
        return {}
    module = knowledge(provider).quirks
    if module is None:
        return {}
    return cast("dict[str, QuirkTransform]", _module(provider, module).QUIRKS)
