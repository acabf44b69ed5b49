"""Every layer has the one Incremental shape, and refuses input after close()."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from ssescope import Incremental, Pipeline, UsageError
from ssescope.aggregate.aggregator import Aggregator
from ssescope.events import TextDelta
from ssescope.framing import EventStreamParser, Framer, JSONArrayParser, NDJSONParser, SSEParser
from ssescope.framing.records import JSONRecord
from ssescope.incremental import CLOSE_TWICE, FEED_AFTER_CLOSE
from ssescope.providers._base import Adapter
from ssescope.providers.a2a.adapter import A2aAdapter
from ssescope.providers.ag_ui.adapter import AgUiAdapter
from ssescope.providers.anthropic.adapter import AnthropicAdapter
from ssescope.providers.bedrock.adapter import BedrockAdapter
from ssescope.providers.cohere.adapter import CohereAdapter
from ssescope.providers.gemini.adapter import GeminiAdapter
from ssescope.providers.gemini_interactions.adapter import GeminiInteractionsAdapter
from ssescope.providers.mcp.adapter import McpAdapter
from ssescope.providers.ollama.adapter import OllamaAdapter
from ssescope.providers.openai_chat.adapter import OpenAIChatAdapter
from ssescope.providers.openai_responses.adapter import OpenAIResponsesAdapter
from ssescope.providers.realtime.adapter import RealtimeAdapter
from ssescope.providers.registry import PROVIDERS, make_adapter
from ssescope.providers.unknown.adapter import UnknownAdapter
from ssescope.providers.vercel_ui.adapter import VercelUIAdapter

# mypy checks each adapter class against the Adapter protocol here (the pipeline holds that
# protocol to the Incremental shape); the test below keeps the table equal to the registry.
ADAPTERS: dict[str, type[Adapter]] = {
    "openai-chat": OpenAIChatAdapter,
    "openai-responses": OpenAIResponsesAdapter,
    "anthropic": AnthropicAdapter,
    "gemini": GeminiAdapter,
    "ollama": OllamaAdapter,
    "cohere": CohereAdapter,
    "bedrock": BedrockAdapter,
    "realtime": RealtimeAdapter,
    "vercel-ui": VercelUIAdapter,
    "gemini-interactions": GeminiInteractionsAdapter,
    "ag-ui": AgUiAdapter,
    "mcp": McpAdapter,
    "a2a": A2aAdapter,
    "unknown": UnknownAdapter,
}

RECORD = JSONRecord(0, '{"x": 1}', 0, 8, None, None)

# (name, factory, one valid input for feed)
LAYERS: list[tuple[str, Callable[[], Any], Any]] = [
    ("sse", SSEParser, b"data: x\n\n"),
    ("ndjson", NDJSONParser, b'{"x": 1}\n'),
    ("json-array", JSONArrayParser, b'[{"x": 1}]'),
    ("aws-eventstream", EventStreamParser, b""),
    ("framer", lambda: Framer("auto"), b"data: x\n\n"),
    *[(f"adapter-{p}", lambda p=p: make_adapter(p, "sse"), RECORD) for p in PROVIDERS],
    ("aggregator", Aggregator, [TextDelta(0, 0, "hi")]),
    ("pipeline", Pipeline, b"data: x\n\n"),
]


@pytest.mark.parametrize(("name", "factory", "piece"), LAYERS, ids=[n for n, _, _ in LAYERS])
def test_every_layer_is_incremental_and_refuses_feed_after_close(
    name: str, factory: Callable[[], Any], piece: Any
) -> None:
    layer = factory()
    assert isinstance(layer, Incremental), name
    assert isinstance(layer.feed(piece), list)
    assert isinstance(layer.close(), list)
    with pytest.raises(UsageError, match=r"feed\(\) called after close\(\)") as feed_err:
        layer.feed(piece)
    assert str(feed_err.value) == FEED_AFTER_CLOSE
    with pytest.raises(UsageError) as close_err:
        layer.close()
    assert str(close_err.value) == CLOSE_TWICE


def test_the_statically_checked_adapters_are_the_registry() -> None:
    assert set(ADAPTERS) == set(PROVIDERS)
    for name, cls in ADAPTERS.items():
        assert type(make_adapter(name, "sse")) is cls, name


def test_the_aggregator_closes_into_its_responses() -> None:
    agg = Aggregator()
    assert agg.feed([TextDelta(0, 0, "hi")]) == []
    (response,) = agg.close()
    assert response.outputs[0].text == "hi"
