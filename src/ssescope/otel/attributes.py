"""A Report as OpenTelemetry GenAI attributes: the mapping, with no OpenTelemetry import.

Everything here is plain data (``str``, ``bool``, ``int``, ``float`` and sequences of
them), so that it can be tested and documented without the SDK. :mod:`.span` and
:mod:`.metrics` hand these values to the SDK.

``error.type`` takes its values from one documented, low-cardinality list
(:data:`ERROR_TYPES`): ``ssescope.truncated``, ``ssescope.cancelled``,
``ssescope.stalled``, the provider's own error type when it sent one (such as
``overloaded_error`` or ``rate_limit_error``; a value that is not a short identifier
becomes ``_OTHER``), the HTTP status code of an error answer without one (``"429"``), or
``_OTHER``.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from typing import Final, TypeAlias
from urllib.parse import urlsplit

from ..aggregate.report import OutputReport, Report
from ..diagnostics import Diagnostic
from . import names as n
from .facts import ExchangeFacts

__all__ = [
    "ERROR_TYPES",
    "AttributeValue",
    "Attributes",
    "content_gaps",
    "diagnostic_events",
    "error_type",
    "finish_reasons",
    "is_error",
    "metric_attributes",
    "operation_name",
    "output_messages",
    "provider_name",
    "span_attributes",
    "span_name",
]

AttributeValue: TypeAlias = "str | bool | int | float | Sequence[str]"
Attributes: TypeAlias = "dict[str, AttributeValue]"

ERROR_TYPES: Final[tuple[str, ...]] = (
    "ssescope.truncated",
    "ssescope.cancelled",
    "ssescope.stalled",
    "<the provider's error type>",
    "<the HTTP status code>",
    "_OTHER",
)
"""Every kind of ``error.type`` value the export sets (the documented list)."""

_ERROR_STATUSES: Final = frozenset({"failed", "truncated", "cancelled"})
_IDENTIFIER: Final = re.compile(r"^[A-Za-z][A-Za-z0-9_.\-]{0,63}$")

# OpenAI-compatible servers (and proxies) are told apart by their host.
_HOSTS: Final[tuple[tuple[str, str], ...]] = (
    ("openai.azure.com", "azure.ai.openai"),
    ("services.ai.azure.com", "azure.ai.inference"),
    ("deepseek.com", "deepseek"),
    ("groq.com", "groq"),
    ("x.ai", "x_ai"),
    ("mistral.ai", "mistral_ai"),
    ("perplexity.ai", "perplexity"),
    ("moonshot.ai", "moonshot_ai"),
    ("moonshot.cn", "moonshot_ai"),
    ("generativelanguage.googleapis.com", "gcp.gemini"),
    ("aiplatform.googleapis.com", "gcp.vertex_ai"),
    ("amazonaws.com", "aws.bedrock"),
    ("anthropic.com", "anthropic"),
    ("cohere.com", "cohere"),
    ("cohere.ai", "cohere"),
    ("openai.com", "openai"),
)
# By wire protocol, when the host says nothing: the conventions' well-known value where
# the protocol is one provider's own (the Realtime API is OpenAI's; the Interactions API,
# like generateContent, is served by Google's Gemini API and Vertex AI alike, hence
# ``gcp.gen_ai``). Ollama's and the Vercel AI SDK's have no well-known value: their own
# name, as the conventions allow. The agent protocols (MCP, A2A, AG-UI) name no model
# provider at all, whatever model stands behind the server: ``_OTHER``.
_PROVIDERS: Final[Mapping[str, str]] = {
    "openai-chat": "openai",
    "openai-responses": "openai",
    "realtime": "openai",
    "anthropic": "anthropic",
    "gemini": "gcp.gen_ai",
    "gemini-interactions": "gcp.gen_ai",
    "bedrock": "aws.bedrock",
    "cohere": "cohere",
    "ollama": "ollama",
    "vercel-ui": "vercel_ai",
}
_SEVERITY_ORDER: Final[Mapping[str, int]] = {"error": 0, "warning": 1, "info": 2}


def _host_port(url: str | None) -> tuple[str | None, int | None]:
    if not url:
        return None, None
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError:
        return None, None
    host = parts.hostname
    if port is None and parts.scheme in ("http", "https"):
        port = 443 if parts.scheme == "https" else 80
    return host, port


def provider_name(report: Report, facts: ExchangeFacts) -> str:
    """``gen_ai.provider.name``: from the request's host when it names a known provider,
    else from the wire protocol ssescope detected (``_OTHER`` when none was)."""
    host, _ = _host_port(facts.url)
    if host:
        for suffix, name in _HOSTS:
            if host == suffix or host.endswith("." + suffix):
                return name
    return _PROVIDERS.get(report.provider, "_OTHER")


def operation_name(report: Report) -> str:
    """``gen_ai.operation.name``: ``generate_content`` for Gemini, ``chat`` otherwise."""
    return "generate_content" if report.provider == "gemini" else "chat"


def span_name(report: Report, facts: ExchangeFacts) -> str:
    """``{gen_ai.operation.name} {gen_ai.request.model}`` (the operation alone without a
    model)."""
    operation = operation_name(report)
    return f"{operation} {facts.request_model}" if facts.request_model else operation


def is_error(report: Report) -> bool:
    """Whether the span's status is ERROR: the stream failed, was cut or was abandoned."""
    return report.status in _ERROR_STATUSES


def finish_reasons(report: Report) -> list[str]:
    """``gen_ai.response.finish_reasons``, one per output in order.

    A truncated or cancelled stream ended before its final event: every position is
    ``error``. A failed one keeps the reasons that arrived and says ``error`` where none
    did. Otherwise the unified reason (``stop``, ``length``, ``tool_calls``,
    ``content_filter``, ``refusal``, ``other``), ``unknown`` where none arrived.
    """
    status = report.status
    outputs = report.outputs
    if status in ("truncated", "cancelled"):
        return ["error"] * max(1, len(outputs))
    if status == "failed":
        return [o.finish_reason or "error" for o in outputs] or ["error"]
    return [o.finish_reason or "unknown" for o in outputs]


def error_type(report: Report, facts: ExchangeFacts) -> str | None:
    """``error.type`` (see :data:`ERROR_TYPES`), or ``None`` when the stream did not end
    in an error."""
    status = report.status
    if status == "cancelled":
        return "ssescope.cancelled"
    if status == "truncated":
        stalled = facts.end == "stalled" or any(
            d.code == "timing.stall" for d in report.diagnostics
        )
        return "ssescope.stalled" if stalled else "ssescope.truncated"
    if status != "failed":
        return None
    error = report.error or {}
    kind = error.get("type")
    if isinstance(kind, str) and _IDENTIFIER.match(kind):
        return kind
    code = error.get("code")
    if isinstance(code, str) and _IDENTIFIER.match(code):
        return code
    if report.http_status is not None and report.http_status >= 400:
        return str(report.http_status)
    return "_OTHER"


def content_gaps(report: Report) -> list[float]:
    """The time from each record that carried content to the next one: what
    ``time_per_output_chunk`` records (one value per content record after the first)."""
    times = report.timing.content_times
    return [max(0.0, times[i] - times[i - 1]) for i in range(1, len(times))]


def metric_attributes(report: Report, facts: ExchangeFacts) -> Attributes:
    """The attributes every GenAI client metric carries (``error.type`` is added to the
    duration only, by :mod:`.metrics`)."""
    attrs: Attributes = {
        n.OPERATION: operation_name(report),
        n.PROVIDER: provider_name(report, facts),
    }
    if facts.request_model:
        attrs[n.REQUEST_MODEL] = facts.request_model
    if report.response.model:
        attrs[n.RESPONSE_MODEL] = report.response.model
    host, port = _host_port(facts.url)
    if host:
        attrs[n.SERVER_ADDRESS] = host
        if port is not None:
            attrs[n.SERVER_PORT] = port
    return attrs


def _usage(report: Report) -> Attributes:
    usage = report.usage
    attrs: Attributes = {}
    if usage is None:
        return attrs
    for value, key in (
        (usage.input_tokens, n.INPUT_TOKENS),
        (usage.output_tokens, n.OUTPUT_TOKENS),
        (usage.reasoning_tokens, n.REASONING_TOKENS),
        (usage.cached_input_tokens, n.CACHE_READ_TOKENS),
    ):
        if value is not None:
            attrs[key] = value
    return attrs


def _severity_counts(diagnostics: Sequence[Diagnostic]) -> tuple[int, int]:
    errors = sum(1 for d in diagnostics if d.severity == "error")
    warnings = sum(1 for d in diagnostics if d.severity == "warning")
    return errors, warnings


def span_attributes(
    report: Report,
    facts: ExchangeFacts,
    *,
    capture_content: bool = False,
) -> Attributes:
    """Every attribute of the stream's span.

    The GenAI ones (``gen_ai.*``, ``error.type``, ``server.*``), the HTTP status and
    method, and ssescope's own (``ssescope.*``): the verdict and its reason, the provider
    protocol, time to first byte and first event, the longest time without a content
    record (``ssescope.content_idle_max``, the Report's ``max_content_idle_s``) and between any records, the record count and
    the count of error and warning diagnostics. Usage only as the stream reported it,
    never estimated. Content (``gen_ai.output.messages``) only with ``capture_content``.
    """
    timing = report.timing
    attrs = metric_attributes(report, facts)
    attrs[n.REQUEST_STREAM] = facts.stream
    if report.response.id:
        attrs[n.RESPONSE_ID] = report.response.id
    reasons = finish_reasons(report)
    if reasons:
        attrs[n.FINISH_REASONS] = reasons
    if timing.first_content_s is not None:
        attrs[n.TIME_TO_FIRST_CHUNK] = timing.first_content_s
    attrs.update(_usage(report))
    kind = error_type(report, facts)
    if kind is not None:
        attrs[n.ERROR_TYPE] = kind
    if report.http_status is not None:
        attrs[n.HTTP_STATUS] = report.http_status
    if facts.method:
        attrs[n.HTTP_METHOD] = facts.method
    attrs["ssescope.verdict"] = report.status
    attrs["ssescope.status_reason"] = report.response.status_reason
    attrs["ssescope.provider"] = report.provider
    attrs["ssescope.records"] = report.records.total
    if timing.first_byte_s is not None:
        attrs["ssescope.time_to_first_byte"] = timing.first_byte_s
    if timing.first_event_s is not None:
        attrs["ssescope.time_to_first_event"] = timing.first_event_s
    if timing.max_content_idle_s is not None:
        attrs["ssescope.content_idle_max"] = timing.max_content_idle_s
    if timing.max_gap_s is not None:
        attrs["ssescope.gap_max"] = timing.max_gap_s
    if facts.end is not None:
        attrs["ssescope.end"] = facts.end
    errors, warnings = _severity_counts(report.diagnostics)
    attrs["ssescope.diagnostics.errors"] = errors
    attrs["ssescope.diagnostics.warnings"] = warnings
    if capture_content:
        attrs[n.OUTPUT_MESSAGES] = output_messages(report)
    return attrs


def diagnostic_events(
    report: Report, *, limit: int = 32, capture_content: bool = False
) -> tuple[list[Attributes], int]:
    """The diagnostics as span events' attributes (``ssescope.diagnostic`` events): errors
    first, then warnings, then the rest, each group in stream order, at most ``limit``.

    Each carries the code, severity, record and byte offset. The message (which may quote
    the stream's text) is added only with ``capture_content``.

    Returns:
        The events' attributes and how many diagnostics were left out.
    """
    ordered = sorted(
        enumerate(report.diagnostics), key=lambda p: (_SEVERITY_ORDER.get(p[1].severity, 3), p[0])
    )
    events: list[Attributes] = []
    for _, diag in ordered[: max(0, limit)]:
        attrs: Attributes = {
            "ssescope.diagnostic.code": diag.code,
            "ssescope.diagnostic.severity": diag.severity,
        }
        if diag.record is not None:
            attrs["ssescope.diagnostic.record"] = diag.record
        if diag.offset is not None:
            attrs["ssescope.diagnostic.offset"] = diag.offset
        if capture_content:
            attrs["ssescope.diagnostic.message"] = diag.message
        events.append(attrs)
    return events, max(0, len(ordered) - len(events))


def _parts(output: OutputReport) -> list[dict[str, object]]:
    parts: list[dict[str, object]] = []
    if output.reasoning:
        parts.append({"type": "reasoning", "content": output.reasoning})
    if output.text:
        parts.append({"type": "text", "content": output.text})
    if output.refusal:
        parts.append({"type": "refusal", "content": output.refusal})
    parts.extend(
        {
            "type": "tool_call",
            "id": call.id,
            "name": call.name,
            "arguments": call.input if call.input is not None else call.arguments,
        }
        for call in output.tool_calls
    )
    return parts


def output_messages(report: Report) -> str:
    """``gen_ai.output.messages`` as the JSON string the conventions allow on spans: one
    assistant message per output, its reasoning, text, refusal and tool-call parts."""
    messages = [{"role": "assistant", "parts": _parts(o)} for o in report.outputs]
    return json.dumps(messages, ensure_ascii=False)
