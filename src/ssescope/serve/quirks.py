"""Quirk presets: what real servers and gateways do to a stream, by name.

``serve --quirk NAME`` (or ``?quirk=NAME``, or the pytest fixture's ``quirk=``) replays a
capture the way a real server or gateway got it wrong. A quirk that changes records is
applied by the provider's own quirk module (the ``quirks`` module of its package, found
through the provider registry), so that it has the provider's wire shape; a wire-level quirk (heartbeats, buffering, headers, a
gateway timeout, a connection held open) applies to any provider. A quirk that makes no
sense for a stream is refused with a one-line :class:`UsageError`. Nothing here does I/O.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..errors import UsageError
from ..framing.eventstream import encode_record
from ..providers._quirks import QuirkRefused, QuirkTransform, WireRecord
from ..providers.registry import quirk_transforms
from . import wire_quirks
from .faults import record_spans
from .plan import QuirkPlan

__all__ = ["PRESETS", "Quirk", "QuirkPlan", "QuirkPreset", "apply_quirks", "parse_quirk", "shape"]


@dataclass(frozen=True, slots=True)
class QuirkPreset:
    """One preset: its name, what it reproduces, where it applies.

    Attributes:
        name: what ``--quirk`` takes.
        summary: one line saying what the server does.
        applies_to: the providers whose quirk module implements it, or ``("any",)``
            for a wire-level quirk (``("any SSE",)`` when it needs SSE framing).
        seconds: the default of ``NAME@SECONDS`` for a quirk that takes a duration.
    """

    name: str
    summary: str
    applies_to: tuple[str, ...]
    seconds: float | None = None


PRESETS: tuple[QuirkPreset, ...] = (
    QuirkPreset(
        "azure-empty-choices-first",
        "a first chunk with prompt_filter_results and empty choices (Azure OpenAI)",
        ("openai-chat",),
    ),
    QuirkPreset(
        "usage-only-chunk",
        "the usage in a last chunk of its own, with empty choices",
        ("openai-chat", "gemini"),
    ),
    QuirkPreset("no-assistant-role", "no delta says role: assistant", ("openai-chat",)),
    QuirkPreset(
        "error-frame-then-done",
        "halfway through, an error data frame, then data: [DONE]",
        ("openai-chat", "vercel-ui", "gemini", "ollama", "cohere", "bedrock"),
    ),
    QuirkPreset(
        "anthropic-overloaded-midstream",
        "halfway through, event: error overloaded_error, then the connection ends",
        ("anthropic",),
    ),
    QuirkPreset(
        "finish-on-every-chunk",
        "every chunk carries the final finish_reason",
        ("openai-chat", "gemini", "ollama"),
    ),
    QuirkPreset(
        "heartbeat-only-stall",
        "halfway through, only keep-alive comments for SECONDS, then the connection ends",
        ("any SSE",),
        5.0,
    ),
    QuirkPreset(
        "keep-open-after-done",
        "the whole stream, then the connection stays open for SECONDS",
        ("any",),
        30.0,
    ),
    QuirkPreset(
        "proxy-buffered",
        "nothing until the stream is over, then everything in one burst",
        ("any",),
    ),
    QuirkPreset(
        "gateway-timeout-524",
        "no answer for SECONDS, then a Cloudflare-style 524 HTML page",
        ("any",),
        100.0,
    ),
    QuirkPreset(
        "gzip-header-on-plain-body",
        "content-encoding: gzip on a body that is not compressed",
        ("any",),
    ),
    QuirkPreset(
        "duplicate-tool-args",
        "after a tool call's argument deltas, one more repeating all of them",
        ("openai-chat", "anthropic", "openai-responses", "bedrock"),
    ),
    QuirkPreset(
        "responses-missing-output-item-added",
        "no response.output_item.added: deltas name items never opened",
        ("openai-responses",),
    ),
    QuirkPreset(
        "run-finished-after-run-error",
        "halfway through, RUN_ERROR, then RUN_FINISHED all the same",
        ("ag-ui",),
    ),
    QuirkPreset(
        "ends-on-content-delta",
        "the stream ends on its last content delta: no step stop, no interaction.completed",
        ("gemini-interactions",),
    ),
    QuirkPreset(
        "final-status-missing",
        "the task's final status-update is never sent: the stream ends while it is working",
        ("a2a",),
    ),
    QuirkPreset(
        "response-never-comes",
        "the notifications are sent, then the JSON-RPC response is withheld",
        ("mcp",),
    ),
    QuirkPreset(
        "multi-line-data",
        "each JSON data payload spread over several data: lines",
        ("any SSE",),
    ),
    QuirkPreset(
        "realtime-incomplete-no-details",
        "response.done with status incomplete and status_details null (OpenAI Realtime)",
        ("realtime",),
    ),
    QuirkPreset(
        "realtime-beta-event-names",
        "the beta event names: response.text.delta, response.audio_transcript.delta…",
        ("realtime",),
    ),
)
"""Every quirk preset, in the order ``serve --list-quirks`` prints them."""

_BY_NAME = {p.name: p for p in PRESETS}

_REFRAMED = ("sse", "ndjson", "aws-eventstream")
"""The framings whose records a provider's quirk can rewrite (:func:`_frame` writes them)."""


@dataclass(frozen=True, slots=True)
class Quirk:
    """A parsed ``NAME`` or ``NAME@SECONDS``."""

    name: str
    seconds: float | None = None

    def __str__(self) -> str:
        preset = _BY_NAME[self.name]
        if self.seconds is not None and self.seconds != preset.seconds:
            return f"{self.name}@{self.seconds:g}"
        return self.name


def parse_quirk(spec: str) -> Quirk:
    """Parse ``NAME`` or, for a quirk that takes a duration, ``NAME@SECONDS``.

    Raises:
        UsageError: an unknown name, or a bad duration.
    """
    name, sep, value = spec.strip().partition("@")
    preset = _BY_NAME.get(name)
    if preset is None:
        names = ", ".join(p.name for p in PRESETS)
        raise UsageError(f"unknown quirk {spec!r}; expected one of: {names}")
    if not sep:
        return Quirk(name, preset.seconds)
    if preset.seconds is None:
        raise UsageError(f"bad quirk {spec!r}: {name} takes no @SECONDS")
    try:
        seconds = float(value)
    except ValueError:
        raise UsageError(f"bad quirk {spec!r}: {value!r} is not a number of seconds") from None
    if not seconds >= 0 or seconds == float("inf"):
        raise UsageError(f"bad quirk {spec!r}: the duration must be a finite number >= 0")
    return Quirk(name, seconds)


def _records(body: bytes) -> tuple[list[WireRecord], bytes, str, str]:
    spans, framing, provider = record_spans(body)
    records: list[WireRecord] = []
    pos = 0
    for span in spans:
        event = span.event if span.event not in (None, "message") else None
        end = span.end
        records.append(WireRecord(event, span.data, body[pos:end]))
        pos = end
    return records, body[pos:], framing, provider


def _frame(records: Sequence[WireRecord], rest: bytes, framing: str, newline: str) -> bytes:
    out = bytearray()
    for record in records:
        if record.raw:
            out += record.raw
        elif record.data is None:
            out += f": keep-alive{newline}{newline}".encode()
        elif framing == "aws-eventstream":
            out += encode_record(record.event or "event:", record.data.encode())
        elif framing == "sse":
            head = f"event: {record.event}{newline}" if record.event else ""
            lines = "".join(f"data: {line}{newline}" for line in record.data.split("\n"))
            out += f"{head}{lines}{newline}".encode()
        else:
            out += record.data.encode() + b"\n"
    return bytes(out + rest)


def _provider_transform(quirk: Quirk, provider: str) -> QuirkTransform:
    preset = _BY_NAME[quirk.name]
    transform = quirk_transforms(provider).get(quirk.name)
    if transform is None:
        where = ", ".join(preset.applies_to)
        raise QuirkRefused(
            f"quirk {quirk.name!r} does not apply to {provider} streams (it applies to: {where})"
        )
    return transform


def apply_quirks(body: bytes, quirks: Sequence[Quirk]) -> QuirkPlan:
    """Apply ``quirks`` to ``body``, in order.

    Raises:
        UsageError: a quirk does not apply to this stream (one line saying why).
    """
    records, rest, framing, provider = _records(body)
    plan = QuirkPlan(body, provider=provider, framing=framing)
    if not quirks:
        return plan
    newline = "\r\n" if b"\r\n" in body else "\n"
    changed = False
    for quirk in quirks:
        preset = _BY_NAME[quirk.name]
        if "any SSE" in preset.applies_to and framing != "sse":
            raise QuirkRefused(f"quirk {quirk.name!r} needs an SSE stream, not {framing}")
        if preset.applies_to[0].startswith("any"):
            records, rest = wire_quirks.apply(quirk.name, quirk.seconds, records, rest, plan)
            changed = True
            continue
        if framing not in _REFRAMED:
            raise QuirkRefused(
                f"quirk {quirk.name!r} needs an SSE, NDJSON or AWS event-stream body, not {framing}"
            )
        transform = _provider_transform(quirk, provider)
        try:
            records = transform(records)
        except QuirkRefused as exc:
            raise QuirkRefused(f"quirk {quirk.name!r} does not apply: {exc}") from None
        changed = True
    if changed and plan.status is None:
        plan.body = _frame(records, rest, framing, newline)
    return plan


def shape(chunks: list[tuple[bytes, float]], plan: QuirkPlan) -> list[tuple[bytes, float]]:
    """The timed chunks to send, once the plan's burst and tail are applied."""
    if plan.burst and chunks:
        chunks = [(b"".join(c for c, _ in chunks), sum(w for _, w in chunks))]
    return chunks + plan.tail
