"""What ssescope knows about Amazon Bedrock streams outside the adapter."""

from __future__ import annotations

from ...framing.eventstream import encode_message
from .._knowledge import DetectRule, ErrorFrame, Knowledge, Probe, event_rule

__all__ = ["CONVERSE_KEYS", "EVENT_KEYS", "KNOWLEDGE"]

EVENT_KEYS = frozenset(
    {
        "messageStart",
        "contentBlockStart",
        "contentBlockDelta",
        "contentBlockStop",
        "messageStop",
        "metadata",
    }
)
"""The keys of the ConverseStream events that carry the reply (one per decoded object)."""

CONVERSE_KEYS = EVENT_KEYS | frozenset(
    {
        "internalServerException",
        "modelStreamErrorException",
        "throttlingException",
        "validationException",
        "serviceUnavailableException",
    }
)
"""The keys of every ConverseStream event, the exceptions too."""


def _invoke_chunk(probe: Probe) -> str | None:
    obj = probe.obj
    if obj is None or len(obj) != 1:
        return None
    chunk = obj.get("chunk")
    if isinstance(chunk, dict) and "bytes" in chunk:
        return "a JSON object keyed by 'chunk' with base64 'bytes' (InvokeModelWithResponseStream)"
    return None


def _converse_event(probe: Probe) -> str | None:
    obj = probe.obj
    if obj is None:
        return None
    keys = CONVERSE_KEYS.intersection(obj)
    if keys and len(obj) == 1:
        return f"a JSON object keyed by the ConverseStream event {next(iter(keys))!r}"
    return None


def _binary_error() -> bytes:
    # an exception message, its type in the headers
    return encode_message(
        {
            ":message-type": "exception",
            ":exception-type": "modelStreamErrorException",
            ":content-type": "application/json",
        },
        b'{"message":"Model stream error."}',
    )


KNOWLEDGE = Knowledge(
    name="bedrock",
    adapter="adapter:BedrockAdapter",
    rules=(
        event_rule(
            0, "AWS event-stream message type", prefixes=("event:", "exception:"), needs_json=False
        ),
        DetectRule(140, _invoke_chunk),
        DetectRule(150, _converse_event),
    ),
    # the decoded (one object per line) form; the binary form for the AWS event-stream
    error_frame=ErrorFrame(
        None,
        {"modelStreamErrorException": {"message": "Model stream error."}},
        binary=("aws-eventstream", _binary_error),
    ),
    quirks="quirks",
)
"""The registry's entry for Amazon Bedrock."""
