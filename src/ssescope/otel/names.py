"""The OpenTelemetry GenAI names ssescope emits, and the options that choose among them.

The GenAI semantic conventions are still in development. Their inference signals were
renamed after v1.41.0, the last version published with the core conventions: the span
type became ``gen_ai.client.inference``, the client metrics moved from
``gen_ai.client.operation.*`` to ``gen_ai.client.inference.*``, the token histogram
``gen_ai.client.token.usage`` became counters and per-operation histograms, and the span
attribute ``gen_ai.usage.cache_creation.input_tokens`` became
``gen_ai.usage.cache_write.input_tokens``. ssescope emits the current names
(``"latest"``) by default; ``"v1.41"`` emits the older set instead and ``"both"`` emits
each signal under both names, for dashboards that are moving over.

No I/O and no OpenTelemetry import: plain names and numbers.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Final, Literal, TypeAlias

__all__ = [
    "CAPTURE_CONTENT_ENV",
    "DURATION_BUCKETS",
    "SEMCONVS",
    "SEMCONV_ENV",
    "STABILITY_ENV",
    "TOKEN_BUCKETS",
    "Semconv",
    "capture_content_from_env",
    "semconv_from_env",
]

Semconv: TypeAlias = Literal["latest", "v1.41", "both"]
"""Which names of the GenAI conventions are emitted."""

SEMCONVS: Final[tuple[Semconv, ...]] = ("latest", "v1.41", "both")

STABILITY_ENV: Final = "OTEL_SEMCONV_STABILITY_OPT_IN"
"""The conventions' opt-in variable; ``gen_ai_latest_experimental`` in it asks for the
latest names (which ssescope emits by default anyway)."""

SEMCONV_ENV: Final = "SSESCOPE_OTEL_SEMCONV"
"""``latest``, ``v1.41`` or ``both``: ssescope's own choice, read when no ``semconv``
argument is given."""

CAPTURE_CONTENT_ENV: Final = "OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT"
"""The variable the OpenTelemetry GenAI instrumentations read to record content:
``true``, ``SPAN_ONLY`` or ``SPAN_AND_EVENT`` turn it on; anything else leaves it off."""

DURATION_BUCKETS: Final[tuple[float, ...]] = (
    0.01,
    0.02,
    0.04,
    0.08,
    0.16,
    0.32,
    0.64,
    1.28,
    2.56,
    5.12,
    10.24,
    20.48,
    40.96,
    81.92,
)
"""The explicit bucket boundaries the conventions give the duration, time-to-first-chunk
and time-per-output-chunk histograms (seconds)."""

TOKEN_BUCKETS: Final[tuple[float, ...]] = tuple(float(4**i) for i in range(14))
"""1, 4, 16 … 67108864: the boundaries of the token histograms."""

# -- span attributes --------------------------------------------------------------------
OPERATION: Final = "gen_ai.operation.name"
PROVIDER: Final = "gen_ai.provider.name"
REQUEST_MODEL: Final = "gen_ai.request.model"
REQUEST_STREAM: Final = "gen_ai.request.stream"
RESPONSE_MODEL: Final = "gen_ai.response.model"
RESPONSE_ID: Final = "gen_ai.response.id"
FINISH_REASONS: Final = "gen_ai.response.finish_reasons"
TIME_TO_FIRST_CHUNK: Final = "gen_ai.response.time_to_first_chunk"
INPUT_TOKENS: Final = "gen_ai.usage.input_tokens"
OUTPUT_TOKENS: Final = "gen_ai.usage.output_tokens"
REASONING_TOKENS: Final = "gen_ai.usage.reasoning.output_tokens"
CACHE_READ_TOKENS: Final = "gen_ai.usage.cache_read.input_tokens"
OUTPUT_MESSAGES: Final = "gen_ai.output.messages"
ERROR_TYPE: Final = "error.type"
SERVER_ADDRESS: Final = "server.address"
SERVER_PORT: Final = "server.port"
HTTP_METHOD: Final = "http.request.method"
HTTP_STATUS: Final = "http.response.status_code"

# -- metrics ------------------------------------------------------------------------------
LATEST_DURATION: Final = "gen_ai.client.inference.duration"
LATEST_TTFC: Final = "gen_ai.client.inference.time_to_first_chunk"
LATEST_TPOC: Final = "gen_ai.client.inference.time_per_output_chunk"
LATEST_USAGE: Final[Mapping[str, str]] = {
    "input_tokens": "gen_ai.client.inference.usage.input_tokens",
    "output_tokens": "gen_ai.client.inference.usage.output_tokens",
    "cached_input_tokens": "gen_ai.client.inference.usage.cache_read.input_tokens",
    "reasoning_tokens": "gen_ai.client.inference.usage.reasoning.output_tokens",
}
"""The usage counters, by the Report's usage key."""
LATEST_OPERATION_TOKENS: Final[Mapping[str, str]] = {
    "input_tokens": "gen_ai.client.inference.operation.input_tokens",
    "output_tokens": "gen_ai.client.inference.operation.output_tokens",
}
"""The per-operation token histograms, by the Report's usage key."""
TOKEN_MODALITY: Final = "gen_ai.token.modality"

V141_DURATION: Final = "gen_ai.client.operation.duration"
V141_TTFC: Final = "gen_ai.client.operation.time_to_first_chunk"
V141_TPOC: Final = "gen_ai.client.operation.time_per_output_chunk"
V141_TOKEN_USAGE: Final = "gen_ai.client.token.usage"
V141_TOKEN_TYPE: Final = "gen_ai.token.type"

_ON: Final = frozenset({"true", "1", "span_only", "span_and_event"})


def semconv_from_env(environ: Mapping[str, str] | None = None) -> Semconv:
    """The names to emit when the caller gives none: ``SSESCOPE_OTEL_SEMCONV`` if it names
    one, else ``"latest"`` (which ``OTEL_SEMCONV_STABILITY_OPT_IN=gen_ai_latest_experimental``
    asks for too).

    Returns:
        ``"latest"``, ``"v1.41"`` or ``"both"``.
    """
    env = os.environ if environ is None else environ
    chosen = env.get(SEMCONV_ENV, "").strip().lower()
    for value in SEMCONVS:
        if chosen == value:
            return value
    return "latest"


def capture_content_from_env(environ: Mapping[str, str] | None = None) -> bool:
    """Whether ``OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT`` asks for content on
    spans (``true``, ``SPAN_ONLY``, ``SPAN_AND_EVENT``; case does not matter).

    Returns:
        ``False`` unless the variable says so: content is off by default.
    """
    env = os.environ if environ is None else environ
    return env.get(CAPTURE_CONTENT_ENV, "").strip().lower() in _ON
