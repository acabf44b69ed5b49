"""Did a client assemble this stream right? Compare a client's final result with the Report.

The official clients each build a final object from a stream (openai ``ChatCompletion``
and Responses ``Response``, anthropic ``Message``, Gemini ``GenerateContentResponse``,
the Vercel AI SDK's result). :func:`compare_result` reads any of them into the Report's
field names and compares what it states with the reply ssescope assembled from the same
bytes::

    report = ssescope.inspect("capture.sse")
    for diff in compare_result(final_completion, report):
        print(diff.path, diff.message)

:func:`load_result` reads a RESULT file's bytes (the ``check --against`` command's).
"""

from __future__ import annotations

import json

from ..limits import MAX_DEPTH, too_deep
from .diff import Difference, compare_result, json_differences
from .shapes import (
    SHAPES,
    ExpectedCall,
    ExpectedOutput,
    ExpectedReply,
    ResultError,
    normalise_result,
)

__all__ = [
    "SHAPES",
    "Difference",
    "ExpectedCall",
    "ExpectedOutput",
    "ExpectedReply",
    "ResultError",
    "compare_result",
    "json_differences",
    "load_result",
    "normalise_result",
    "shape_name",
]

_SHAPE_NAMES = {
    "ssescope-report": "a ssescope Report",
    "openai-chat-completion": "an openai ChatCompletion",
    "gemini-generate-content": "a Gemini GenerateContentResponse",
    "anthropic-message": "an anthropic Message",
    "openai-response": "an openai Responses Response",
    "vercel-ai-sdk": "a Vercel AI SDK result",
    "fields": "expected fields",
    "text": "an expected text",
}


def shape_name(shape: str) -> str:
    """How a message names a result shape (``"an anthropic Message"``); unknown ones as is."""
    return _SHAPE_NAMES.get(shape, shape)


def load_result(raw: bytes, name: str) -> object:
    """Read the bytes of a RESULT file: its JSON value, or its text.

    A file whose name ends in ``.json`` must hold JSON; any other file is JSON when it
    parses as a JSON object and plain text (the expected text of output 0) otherwise.

    Raises:
        ResultError: the file is not UTF-8, a ``.json`` file does not parse, or its JSON
            nests deeper than :data:`~ssescope.limits.MAX_DEPTH` levels or holds an
            integer too long to read.
    """
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise ResultError(f"{name} is not UTF-8 text") from exc
    try:
        value = json.loads(text, parse_int=_integer)
    except RecursionError:
        if not name.lower().endswith(".json") and not text.lstrip().startswith("{"):
            return text  # not a JSON object: the expected text
        raise ResultError(f"{name} nests JSON deeper than {MAX_DEPTH} levels") from None
    except _TooLong as exc:
        raise ResultError(
            f"{name} holds an integer of {exc.args[0]:,} digits (at most {_INT_DIGITS:,} are read)"
        ) from None
    except json.JSONDecodeError as exc:
        if name.lower().endswith(".json"):
            raise ResultError(
                f"{name} is not valid JSON: {exc.msg} at line {exc.lineno}, column {exc.colno}"
            ) from exc
        return text
    if isinstance(value, dict) or name.lower().endswith(".json"):
        if too_deep(value):
            raise ResultError(f"{name} nests JSON deeper than {MAX_DEPTH} levels")
        return value
    return text


_INT_DIGITS = 4300  # CPython's own limit on converting a string to an int


class _TooLong(Exception):
    """An integer of more digits than :data:`_INT_DIGITS` (its digit count in ``args``)."""


def _integer(token: str) -> int:
    digits = len(token.lstrip("-"))
    if digits > _INT_DIGITS:
        raise _TooLong(digits)
    return int(token)
