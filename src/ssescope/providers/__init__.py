"""Provider adapters: records → unified events, one module per wire protocol."""

from __future__ import annotations

from ._base import INVALID, Adapter, AdapterOutput, decode_json
from .registry import PROVIDERS, ProviderName, make_adapter

__all__ = [
    "INVALID",
    "PROVIDERS",
    "Adapter",
    "AdapterOutput",
    "ProviderName",
    "decode_json",
    "make_adapter",
]
