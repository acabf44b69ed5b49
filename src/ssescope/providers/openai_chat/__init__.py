"""OpenAI Chat Completions streams (``chat.completion.chunk``) and every compatible server.

Theory of operation
===================

Each record is one chunk: ``{"id", "object", "model", "choices": [{"index", "delta",
"finish_reason", ...}], "usage"?}``; the SSE wire ends with the literal ``data: [DONE]``.
The adapter maps every chunk to unified events and keeps only the state the protocol
needs to judge how the stream ended and to diagnose irregular tool-call fragments: per
choice, its finish reason and which tool indexes / ids it has seen.

Outputs and parts
    ``output`` is the choice index (``n > 1`` choices interleave). Each field has a single
    part (``part=None``): text, reasoning and refusal are plain appends.

Text and reasoning
    ``delta.content`` is a string, or (Mistral Magistral) an array of typed chunks
    ``{"type": "text", "text"}`` / ``{"type": "thinking", "thinking": [{"type": "text",
    "text"}]}``. Reasoning comes as ``delta.reasoning_content`` (DeepSeek, xAI, Moonshot,
    DashScope, llama.cpp), ``delta.reasoning`` (vLLM, Groq, OpenRouter, Ollama) and
    OpenRouter's ``delta.reasoning_details[]`` (``reasoning.text`` with an optional
    signature, ``reasoning.summary``, ``reasoning.encrypted``). A chunk carrying the same
    text in several of these spellings contributes it once: ``reasoning_content`` /
    ``reasoning`` win over the text of ``reasoning_details`` (whose signatures and
    encrypted data still become :class:`ReasoningMeta`). ``delta.refusal`` is refusal
    text, ``delta.audio`` becomes :class:`Audio`; logprobs and ``obfuscation`` padding
    are not read.

Repeated chunks
    Once the fast path has read a plain content chunk, a later chunk that is the same
    text around another content string and another ``obfuscation`` padding (both with
    nothing escaped) is read by that shape, without decoding (``shape.py``); anything
    else is decoded. The events are the same either way.

Tool calls
    ``delta.tool_calls[]`` entries become :class:`ToolCallDelta` with ``index``, ``id``,
    ``name``, ``type`` passed as sent (the aggregator matches fragments to calls: by new
    id, else index, else the open call). Entries of a whole call in one chunk are still
    fragments: the call ends when the choice's ``finish_reason`` arrives, which emits
    :class:`ToolCallsEnd` (not for ``length`` or ``error``: calls cut there stay
    incomplete). Irregular fragments are accepted and diagnosed (missing index, an index
    reused with a new id, two entries for one index in a chunk, a non-contiguous index,
    interleaved calls, a non-string id or name, arguments sent as an object, the
    ``multi_tool_use.parallel`` wrapper). Legacy ``delta.function_call`` is a call
    without index or id. Chat custom tools (``{"type": "custom", "custom": {"name",
    "input"}}``) are freeform text calls.

Usage
    Any ``usage`` object (finish chunk, empty-choices chunk, ``choices: null`` chunk,
    Perplexity's cumulative usage on every chunk) and Groq's ``x_groq.usage`` become
    :class:`Usage`, mapped by name only: ``prompt_tokens`` -> input, ``completion_tokens``
    -> output, ``total_tokens``, ``completion_tokens_details.reasoning_tokens``,
    ``prompt_tokens_details.cached_tokens`` (else DeepSeek ``prompt_cache_hit_tokens``,
    else a top-level ``cached_tokens``) -> cached input.

Errors
    A chunk with a truthy top-level ``error`` (OpenAI, OpenRouter with
    ``finish_reason: "error"``), a vLLM ``{"object": "error", ...}`` chunk and an SSE
    ``event: error`` record each give :class:`ProviderError`, a ``provider.error``
    diagnostic and ``Terminal(failed)``. A choice-level ``error`` object gives the error
    without a terminal (the status is then ``failed`` unless a later marker says
    otherwise, and ``[DONE]`` keeps it ``failed``).

How the stream ended
    ``data: [DONE]`` gives a :class:`Terminal`: ``failed`` if an error was reported or a
    choice finished with ``error``, else ``incomplete`` if a choice finished with
    ``length`` / ``content_filter`` / ``refusal``, carried refusal text (whatever its
    finish reason), or had no finish reason at all, else ``completed``
    (``docs/verdicts.md``). ``[DONE]`` before any finish reason (or before a choice's)
    adds ``stream.done-without-finish``; tool calls under ``finish_reason: "stop"`` add
    ``tool.calls-under-stop``.
    Perplexity's last chunk (``object: "chat.completion.done"``) is an end marker as
    well. On the SSE wire a stream that ends without ``[DONE]`` gets
    ``stream.missing-done`` and no terminal (status ``truncated``). JSONL dumps
    (framings other than SSE) cannot carry ``[DONE]``: there, at :meth:`close`, "every
    choice that appeared got a finish reason" is the end marker and gives the terminal.

Responses
    The first chunk with an id starts the response (:class:`ResponseStart`). A chunk with
    a different id after the end marker, or one with choices after every choice finished,
    starts a new response; any other different id (choices still open, a usage-only
    chunk) is diagnosed (``openai-chat.id-changed``) and kept in the current response. Azure's
    prompt-filter first chunk (``id: ""``, ``object: ""``, ``choices: []``) and its
    content-filter annotation chunks are ordinary chunks with no delta.

Speed
    Most records are plain chunks: one choice whose delta holds only ``content``. They
    take a short path (orjson directly, set-disjointness tests instead of a lookup per
    optional key); every other shape goes through the full handling.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .._lazy import lazy_exports

if TYPE_CHECKING:
    from .adapter import OpenAIChatAdapter
    from .maps import FINISH_REASONS, map_finish_reason

__all__ = ["FINISH_REASONS", "OpenAIChatAdapter", "map_finish_reason"]

__getattr__ = lazy_exports(__name__, __all__)
