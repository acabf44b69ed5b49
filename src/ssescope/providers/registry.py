"""The adapters by provider name, imported on first use."""

from __future__ import annotations

import importlib
from typing import Literal, cast

from ..errors import UsageError
from ._base import Adapter

__all__ = ["PROVIDERS", "ProviderName", "make_adapter"]

ProviderName = Literal[
    "openai-chat",
    "openai-responses",
    "anthropic",
    "gemini",
    "ollama",
    "cohere",
    "bedrock",
    "vercel-ui",
    "unknown",
]

_ADAPTERS: dict[str, str] = {
    "openai-chat": "openai_chat:OpenAIChatAdapter",
    "openai-responses": "openai_responses:OpenAIResponsesAdapter",
    "anthropic": "anthropic:AnthropicAdapter",
    "gemini": "gemini:GeminiAdapter",
    "ollama": "ollama:OllamaAdapter",
    "cohere": "cohere:CohereAdapter",
    "bedrock": "bedrock:BedrockAdapter",
    "vercel-ui": "vercel_ui:VercelUIAdapter",
    "unknown": "unknown:UnknownAdapter",
}

PROVIDERS: tuple[str, ...] = tuple(_ADAPTERS)


def make_adapter(provider: str, framing: str) -> Adapter:
    """Return a new adapter for ``provider``.

    Raises:
        UsageError: for an unknown provider name.
    """
    target = _ADAPTERS.get(provider)
    if target is None:
        raise UsageError(f"unknown provider {provider!r}; expected one of {', '.join(PROVIDERS)}")
    module_name, cls_name = target.split(":")
    module = importlib.import_module(f"{__package__}.{module_name}")
    return cast(Adapter, getattr(module, cls_name)(framing))
