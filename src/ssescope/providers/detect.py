"""Provider auto-detection from the first data records.

Each rule looks at one record: its SSE event name, its JSON shape (``object``, ``type``,
``candidates``, ``message`` + ``done`` …). The first record that a rule recognises
decides, and the rule is reported. Records that say nothing (``[DONE]``, a bare error
object, a padding comment) are passed over.
"""

from __future__ import annotations

from typing import Any

import orjson

from ..framing.records import DataRecord

__all__ = ["detect_provider"]

_ANTHROPIC_TYPES = frozenset(
    {
        "message_start",
        "content_block_start",
        "content_block_delta",
        "content_block_stop",
        "message_delta",
        "message_stop",
        "ping",
    }
)
_COHERE_TYPES = frozenset(
    {
        "message-start",
        "content-start",
        "content-delta",
        "content-end",
        "tool-plan-delta",
        "tool-call-start",
        "tool-call-delta",
        "tool-call-end",
        "citation-start",
        "citation-end",
        "message-end",
    }
)
_VERCEL_TYPES = frozenset(
    {
        "start",
        "start-step",
        "finish-step",
        "text-start",
        "text-delta",
        "text-end",
        "reasoning-start",
        "reasoning-delta",
        "reasoning-end",
        "tool-input-start",
        "tool-input-delta",
        "tool-input-available",
        "tool-output-available",
        "source-url",
        "source-document",
        "finish",
        "abort",
        "message-metadata",
    }
)
_BEDROCK_KEYS = frozenset(
    {
        "messageStart",
        "contentBlockStart",
        "contentBlockDelta",
        "contentBlockStop",
        "messageStop",
        "metadata",
        "internalServerException",
        "modelStreamErrorException",
        "throttlingException",
        "validationException",
        "serviceUnavailableException",
    }
)


def detect_provider(record: DataRecord) -> tuple[str, str] | None:
    """Recognise the provider from one data record.

    Returns:
        ``(provider, rule)``, or ``None`` when this record does not tell.
    """
    event = record.event
    if event is not None and event.startswith(("event:", "exception:")):
        return "bedrock", f"AWS event-stream message type {event!r}"
    data = record.data.strip()
    if not data.startswith("{"):
        return None
    try:
        obj: Any = orjson.loads(data)
    except orjson.JSONDecodeError:
        return None
    if not isinstance(obj, dict):
        return None
    kind = obj.get("type")
    if isinstance(kind, str):
        if kind in _ANTHROPIC_TYPES:
            return "anthropic", f"JSON type {kind!r} is an Anthropic Messages event"
        if kind.startswith("response."):
            return "openai-responses", f"JSON type {kind!r} is a Responses API event"
        if kind == "error" and "sequence_number" in obj:
            return "openai-responses", "an error event with a sequence_number (Responses API)"
        if kind in _COHERE_TYPES:
            return "cohere", f"JSON type {kind!r} is a Cohere v2 stream event"
        if kind in _VERCEL_TYPES or kind.startswith(("data-", "tool-")):
            return "vercel-ui", f"JSON type {kind!r} is an AI SDK UI-message stream part"
        if kind == "message" and obj.get("role") == "assistant" and "content" in obj:
            return "anthropic", "a whole Anthropic Messages 'message' object (not streamed)"
    if obj.get("object") == "response" and "output" in obj and kind is None:
        return "openai-responses", "a whole Responses API Response object (not streamed)"
    if obj.get("object") == "chat.completion" and "choices" in obj:
        return "openai-chat", "a whole 'chat.completion' object (not streamed)"
    if obj.get("object") in ("chat.completion.chunk", "chat.completion.done"):
        return "openai-chat", f"JSON object {obj.get('object')!r}"
    if obj.get("object") == "error" and "message" in obj:
        return (
            "openai-chat",
            "a vLLM error object ('object': 'error') in an OpenAI-compatible stream",
        )
    if "choices" in obj:
        return "openai-chat", "a JSON object with 'choices' (an OpenAI-compatible chunk)"
    if "candidates" in obj or "usageMetadata" in obj or "promptFeedback" in obj:
        return "gemini", "a JSON object with 'candidates' / 'usageMetadata' (Gemini)"
    if "done" in obj and ("message" in obj or "response" in obj or "model" in obj):
        return "ollama", "a JSON object with 'done' and 'message'/'response' (Ollama)"
    chunk = obj.get("chunk")
    if len(obj) == 1 and isinstance(chunk, dict) and "bytes" in chunk:
        return (
            "bedrock",
            "a JSON object keyed by 'chunk' with base64 'bytes' (InvokeModelWithResponseStream)",
        )
    keys = _BEDROCK_KEYS.intersection(obj)
    if keys and len(obj) == 1:
        return "bedrock", f"a JSON object keyed by the ConverseStream event {next(iter(keys))!r}"
    if event in _ANTHROPIC_TYPES:
        return "anthropic", f"SSE event name {event!r}"
    return None
