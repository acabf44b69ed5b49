"""The pieces every adapter shares: one token-count policy, one provider-error emitter."""

from __future__ import annotations

import pytest

import ssescope
from ssescope.diagnostics import Diagnostic
from ssescope.events import ProviderError
from ssescope.framing.records import SSEEvent
from ssescope.providers import registry
from ssescope.providers._base import (
    AdapterBase,
    AdapterOutput,
    error_fields,
    provider_error,
    token_count,
)
from ssescope.providers.ollama import codes as ollama_codes


@pytest.mark.parametrize(
    ("value", "expected"),
    [(8, 8), (0, 0), (-1, -1), (8.0, None), (8.5, None), ("8", None), (True, None), (None, None)],
)
def test_a_token_count_is_a_json_integer_or_none(value: object, expected: int | None) -> None:
    assert token_count(value) == expected


# The same float count in every provider's usage object: null in the Report, and the
# aggregator's usage.invalid-value warning names it.
_FLOAT_USAGE = {
    "openai-chat": (
        b'data: {"object":"chat.completion.chunk","choices":[{"index":0,"delta":{"content":"hi"},'
        b'"finish_reason":"stop"}],"usage":{"prompt_tokens":8.0,"completion_tokens":2}}\n\n'
        b"data: [DONE]\n\n"
    ),
    "cohere": (
        b'data: {"type":"message-start","delta":{"message":{"role":"assistant"}}}\n\n'
        b'data: {"type":"message-end","delta":{"finish_reason":"COMPLETE",'
        b'"usage":{"tokens":{"input_tokens":8.0,"output_tokens":2}}}}\n\n'
    ),
    "gemini": (
        b'data: {"candidates":[{"content":{"parts":[{"text":"hi"}]},"finishReason":"STOP"}],'
        b'"usageMetadata":{"promptTokenCount":8.0,"candidatesTokenCount":2}}\n\n'
    ),
}


@pytest.mark.parametrize("provider", sorted(_FLOAT_USAGE))
def test_a_float_token_count_is_null_in_every_provider(provider: str) -> None:
    report = ssescope.inspect(_FLOAT_USAGE[provider])
    assert report.provider == provider
    data = report.to_dict()
    assert data["usage"]["input_tokens"] is None
    assert data["usage"]["output_tokens"] == 2
    assert "usage.invalid-value" in [d["code"] for d in data["diagnostics"]]


def test_provider_error_appends_the_event_and_its_diagnostic() -> None:
    record = SSEEvent(3, "message", '{"error":"x"}', "", None, 10, 20)
    out: list[AdapterOutput] = []
    provider_error(
        record, out, "boom", "overloaded", "529", {"e": 1}, form=ollama_codes.ERROR, text="boom"
    )
    event, diag = out
    assert event == ProviderError(3, "overloaded", "boom", "529", {"e": 1})
    assert isinstance(diag, Diagnostic)
    assert diag.code == "provider.error"
    assert diag.record == 3
    assert "boom" in diag.message


def test_error_fields_reads_objects_strings_and_other_values() -> None:
    assert error_fields({"message": "m", "type": "t", "code": 5}, repr) == ("t", "m", "5")
    assert error_fields({"message": "m", "status": "S"}, repr, type_key="status") == (
        "S",
        "m",
        None,
    )
    assert error_fields({"code": None}, lambda e: "fallback") == (None, "fallback", None)
    assert error_fields("text", repr) == (None, "text", None)
    assert error_fields(42, repr) == (None, "42", None)


@pytest.mark.parametrize("provider", registry.PROVIDERS)
def test_every_adapter_is_one_class_on_adapter_base(provider: str) -> None:
    """An adapter is one class on the one base: its methods are found in its own module
    or in AdapterBase, with no tower of mixins between."""
    cls = type(registry.make_adapter(provider, "sse"))
    assert cls.__mro__ == (cls, AdapterBase, object)


def test_the_base_alone_reads_nothing_and_says_so() -> None:
    """AdapterBase declares feed and close (mypy holds each adapter's to them); a class
    that does not define them fails loudly instead of reading a stream as empty."""
    base = AdapterBase("sse")
    with pytest.raises(NotImplementedError, match="AdapterBase does not read records"):
        base.feed(SSEEvent(0, "message", "{}", "", None, 0, 10))
    with pytest.raises(NotImplementedError, match="AdapterBase does not close"):
        base.close()
