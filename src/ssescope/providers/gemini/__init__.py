"""Google Gemini / Vertex AI ``streamGenerateContent``.

Theory of operation
===================

Every record is one ``GenerateContentResponse`` chunk, whatever the framing: an SSE event
(``alt=sse``: ``data:`` lines, CRLF line ends, no terminator event), an element of the
streamed JSON array (no ``alt=sse``), or a line of a JSONL dump. A chunk carries
``candidates[]`` (one per requested candidate, keyed by ``index``; Vertex often omits the
index, which then means 0), ``usageMetadata`` (cumulative: the latest report wins),
``promptFeedback`` (only when the prompt itself was blocked), ``modelVersion`` and
``responseId``.

Parts of ``candidates[].content.parts``:

* ``text`` is reply text; with ``thought: true`` it is a reasoning summary.
* ``thoughtSignature`` may sit on any part (even an otherwise empty ``{"text": ""}``); it
  is opaque replay data, reported as :class:`ReasoningMeta`, never as text.
* ``functionCall {name, args?, id?}`` is a whole call (``args`` is an object, absent for
  a call without arguments). Each call gets its own synthetic ``index`` so that calls
  without ids stay separate in the aggregator.
* Gemini 3 streams arguments: ``{name, willContinue: true}`` opens a call,
  ``{partialArgs: [{jsonPath, stringValue|numberValue|boolValue|nullValue, ...}],
  willContinue: true}`` fragments fill it (string values of one path concatenate), and an
  empty ``functionCall: {}`` closes it. The adapter builds the arguments object and emits
  one :class:`ToolCall` when the call ends. Some captures never send the empty
  terminator: their last fragment simply lacks ``willContinue``; that fragment is read as
  the end (``gemini.function-call-end-inferred``, info). A call still open when a new
  call starts, when its candidate's ``finishReason`` arrives, or at the end of the body is
  emitted with ``complete=False`` (``gemini.unterminated-function-call``).
* ``executableCode`` is a provider-executed call (a ``server`` :class:`ToolCall` named
  ``code_execution``); ``codeExecutionResult`` is its result (:class:`ServerToolResult`);
  ``inlineData`` with an ``audio/*`` type is :class:`Audio`, other inline data and
  ``fileData`` are reported by size only (``gemini.inline-data``, info): base64 never
  becomes text. ``functionResponse`` parts are known and carry nothing for the reply.

End of a response: Gemini sends no end event; the chunk that gives a candidate its
``finishReason`` is the marker. A :class:`Terminal` is emitted once every candidate seen
has finished (``completed`` for STOP, ``incomplete`` for length / content filters /
other reasons, ``failed`` for the tool-call failures). A prompt blocked before any
candidate (``promptFeedback.blockReason``) ends the response as ``incomplete``. An
``{"error": {...}}`` object (also array-wrapped, also written without ``data:`` inside an
SSE body) is a :class:`ProviderError` and ends the response as ``failed``. The same rules
hold in every framing: the JSON array's closing ``]`` is checked by the framer.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .._lazy import lazy_exports

if TYPE_CHECKING:
    from .adapter import GeminiAdapter
    from .maps import finish_status, map_finish_reason

__all__ = ["GeminiAdapter", "finish_status", "map_finish_reason"]

__getattr__ = lazy_exports(__name__, __all__)
