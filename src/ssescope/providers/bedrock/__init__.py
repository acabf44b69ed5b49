"""AWS Bedrock ``ConverseStream`` (and Anthropic models through ``InvokeModelWithResponseStream``).

Bedrock streams are AWS event-stream messages (PROVIDER_FORMATS §5.3). Two forms are read:

* the binary wire form (framing ``aws-eventstream``): each message is a record whose
  ``event`` is ``"event:<type>"`` or ``"exception:<type>"`` and whose data is the JSON
  payload (``{"contentBlockIndex":0,"delta":{"text":"Hi"},"p":"abcd"}``);
* the decoded form SDKs and test suites keep (framing ``ndjson``, or a JSON array): one
  object per message, keyed by its type (``{"contentBlockDelta":{…}}``,
  ``{"throttlingException":{"message":…}}``).

The ``p`` field of payloads is size-normalising padding and is never read.

Mapping to unified events (one output, 0; ``part`` and tool ``index`` =
``contentBlockIndex``):

* ``messageStart`` → :class:`ResponseStart` (Bedrock sends no id or model).
* ``contentBlockStart`` with ``start.toolUse`` → :class:`ToolCallDelta` with id and name
  (``kind="server"`` for a provider-run tool, ``type: "server_tool_use"``); text and
  reasoning blocks have no start event. ``start.toolResult`` opens the result of a
  provider-run tool: its ``toolResult`` deltas are collected, and at its
  ``contentBlockStop`` it is one :class:`ServerToolResult`.
* ``contentBlockDelta``: ``text`` → text; ``toolUse.input`` → argument fragment;
  ``reasoningContent`` ``text`` → reasoning, ``signature`` → :class:`ReasoningMeta`
  signature, ``redactedContent`` → :class:`ReasoningMeta` redacted; ``citation`` →
  :class:`Citation`.
* ``contentBlockStop`` → :class:`ToolCallEnd` for a tool block.
* ``messageStop`` → :class:`Finish` and :class:`Terminal` (``completed`` for end_turn /
  tool_use / stop_sequence, ``incomplete`` for max_tokens /
  model_context_window_exceeded / guardrail_intervened / content_filtered).
* ``metadata`` → :class:`Usage`. It normally arrives *after* ``messageStop``: the
  Terminal is still emitted at ``messageStop`` (that is the protocol's end of the
  reply), and a Usage after a Terminal is not content, so it is not an event after the
  end.
* exceptions (``throttlingException``, ``modelStreamErrorException``…) →
  :class:`ProviderError` + ``provider.error`` + :class:`Terminal` ``failed``.
* ``chunk`` (``InvokeModelWithResponseStream``): its base64 ``bytes`` hold one event of
  the model's native API; Anthropic events are handed to an inner
  :class:`~ssescope.providers.anthropic.AnthropicAdapter`, and the
  ``amazon-bedrock-invocationMetrics`` Bedrock adds to the last one become a Usage.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .._lazy import lazy_exports

if TYPE_CHECKING:
    from .adapter import BedrockAdapter
    from .maps import FINISH_REASONS, map_finish_reason

__all__ = ["FINISH_REASONS", "BedrockAdapter", "map_finish_reason"]

__getattr__ = lazy_exports(__name__, __all__)
