"""Which responses the transport judges, and what their request said (model, stream).

Only streamed answers are judged: ``text/event-stream``, NDJSON / JSON Lines, AWS
event-stream, and a JSON array streamed by Gemini's ``:streamGenerateContent`` without
``alt=sse``. An HTTP error answering a request that asked for a stream is judged too (it
is the stream's ``failed`` verdict). Every other response passes through untouched.
"""

from __future__ import annotations

import re

import orjson

__all__ = ["STREAM_TYPES", "asked_for_stream", "is_stream", "request_model"]

STREAM_TYPES = frozenset(
    {
        "text/event-stream",
        "application/x-ndjson",
        "application/ndjson",
        "application/jsonl",
        "application/x-jsonlines",
        "application/jsonlines",
        "application/vnd.amazon.eventstream",
    }
)
"""The media types of a streamed body (lower case, without parameters)."""

_STREAM_PATHS = (":streamGenerateContent", "/converse-stream", "/invoke-with-response-stream")
_STREAM_FLAGS = (b'"stream":true', b'"stream": true')
_MODEL_IN_PATH = re.compile(r"/models/([^/:?]+)|/model/([^/?]+)/")
_BODY_LIMIT = 8 * 1024 * 1024  # bodies past this are not parsed for their model


def _media(content_type: str) -> str:
    return content_type.split(";", 1)[0].strip().lower()


def is_stream(content_type: str, path: str) -> bool:
    """Whether a response with this ``Content-Type``, for this URL path, is a stream."""
    media = _media(content_type)
    if media in STREAM_TYPES:
        return True
    return media == "application/json" and ":streamGenerateContent" in path


def asked_for_stream(path: str, query: str, body: bytes | None, accept: str) -> bool:
    """Whether the request asked for a streamed answer (its error answer is judged too)."""
    if "text/event-stream" in accept or "alt=sse" in query:
        return True
    if any(p in path for p in _STREAM_PATHS):
        return True
    return body is not None and any(flag in body for flag in _STREAM_FLAGS)


def request_model(path: str, body: bytes | None) -> str | None:
    """The model a request asked for: the JSON body's ``model``, else the URL's (Gemini
    ``/models/NAME:…``, Bedrock ``/model/ID/…``); ``None`` when it names none."""
    if body and len(body) <= _BODY_LIMIT and body.lstrip()[:1] == b"{":
        try:
            obj = orjson.loads(body)
        except orjson.JSONDecodeError:
            obj = None
        if isinstance(obj, dict):
            model = obj.get("model")
            if isinstance(model, str) and model:
                return model
    found = _MODEL_IN_PATH.search(path)
    if found is None:
        return None
    return found[1] or found[2]
