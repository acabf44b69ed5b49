"""OpenAI Realtime sessions (GA and beta event names), one server event per WebSocket
message.

Theory of operation
===================

A Realtime session is a WebSocket carrying JSON events both ways. The client's events
(``session.update``, ``input_audio_buffer.append``, ``conversation.item.create``,
``response.create``, ``response.cancel``) are the requests: the WebSocket container keeps
them and never assembles them. This adapter reads the server's events, one per record:

* ``session.created`` / ``session.updated`` give the model (and the output audio format);
* ``response.created`` starts a response; ``response.done`` ends it **whatever
  happened**, and its ``response.status`` decides the verdict: ``completed`` ->
  completed, ``cancelled`` -> cancelled, ``incomplete`` -> incomplete, ``failed`` ->
  failed. ``status_details`` (``reason``: ``turn_detected``, ``client_cancelled``,
  ``max_output_tokens``, ``content_filter``; ``error``: ``{type, code}``) is the finish
  reason and goes into the verdict line; a failed response's error is the Report's error.
  A status other than those four is ``incomplete`` with ``realtime.unknown-status``; a
  status other than completed without details is ``realtime.status-without-details``;
* text: ``response.output_text.delta`` (beta ``response.text.delta``), restated by
  ``response.output_text.done`` and the final items of ``response.done``;
* audio: ``response.output_audio_transcript.delta`` (beta
  ``response.audio_transcript.delta``) is the output's audio transcript, and
  ``response.output_audio.delta`` (beta ``response.audio.delta``) is base64 audio, counted
  and sized (the Report's ``audio.chunks`` / ``audio.bytes``), never kept;
* function calls: an output item of type ``function_call`` (``name``, ``call_id``), its
  arguments by ``response.function_call_arguments.delta`` / ``.done``; a call that
  appears only in the final items of ``response.done`` is read from there;
* usage: ``response.done.response.usage`` (``input_token_details.cached_tokens`` is
  the cached input);
* ``conversation.item.*``, ``input_audio_buffer.*``, ``output_audio_buffer.*`` and the
  user's transcription events are the session's state and the user's input: read, not
  assembled (``…input_audio_transcription.failed`` is ``realtime.transcription-failed``);
* ``rate_limits.updated`` (it follows ``response.done``): a limit with nothing left is
  ``realtime.rate-limit-reached``;
* ``error`` is not terminal by itself: during a response it is the response's error
  (``provider.error``) and ``response.done`` still decides; outside a response it is
  ``realtime.session-error``, and a stream whose only outcome is such an error is failed.

A response created but never done (the socket closed, the capture ended) stays
truncated (``realtime.missing-response-done``; the WebSocket layer adds the close code).
A translation session (``gpt-realtime-translate``) has no ``response.*`` events: its
``session.output_transcript.delta`` and ``session.output_audio.delta`` are the output's
transcript and audio, the input transcript is the user's, and ``session.closed`` ends it
as completed.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .._lazy import lazy_exports

if TYPE_CHECKING:
    from .adapter import RealtimeAdapter
    from .maps import STATUSES, map_reason

__all__ = ["STATUSES", "RealtimeAdapter", "map_reason"]

__getattr__ = lazy_exports(__name__, __all__)
