"""What every provider adapter is, and the helpers they share.

An adapter maps the records of one wire protocol to unified events (``ssescope.events``)
and nothing else: no I/O, no UI, no aggregation state beyond what the protocol needs
(which block is open, which finish reasons were seen).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import ClassVar, Protocol, TypeAlias, cast

import orjson
from orjson import loads as _loads

from .. import codes
from ..codes.spec import Code, Form
from ..diagnostics import Diagnostic, build, diagnostic, quote
from ..events import JSON, ProviderError, ResponseStart, Status, Terminal, UnifiedEvent, Usage
from ..framing.records import DataRecord
from ..incremental import close_once, refuse_feed_after_close
from ..limits import (
    EXCERPT_CHARS,
    MAX_DEPTH,
    NonFiniteNumber,
    decoded_may_be_too_deep,
    excerpt,
    loads_strict,
    too_deep,
)

__all__ = [
    "INVALID",
    "Adapter",
    "AdapterBase",
    "AdapterOutput",
    "Malformed",
    "compact_json",
    "decode_json",
    "decode_object",
    "decode_record",
    "diag",
    "error_fields",
    "int_or_none",
    "nonempty_str",
    "not_streamed",
    "object_field",
    "provider_error",
    "refuse_feed_after_close",
    "str_or_none",
    "token_count",
    "usage_event",
    "whole_terminal",
    "wire_error",
]

AdapterOutput: TypeAlias = "UnifiedEvent | Diagnostic"


class _Invalid:
    __slots__ = ()

    def __repr__(self) -> str:
        return "INVALID"


INVALID = _Invalid()
"""Returned by :func:`decode_json` when a record's data is not JSON."""


class Adapter(Protocol):
    """A provider adapter: records in, unified events and diagnostics out.

    Implementations take the framing name (``"sse"``, ``"ndjson"``, ``"json-array"``,
    ``"aws-eventstream"``) as their only constructor argument, because some end markers
    depend on it (``data: [DONE]`` exists only on the SSE wire, not in JSONL dumps).
    """

    name: ClassVar[str]

    def feed(self, record: DataRecord) -> list[AdapterOutput]:
        """Map one data record to events and diagnostics."""

    def close(self) -> list[AdapterOutput]:
        """End of stream: report what the protocol left unfinished."""


class AdapterBase:
    """The state an adapter of single-response records starts with.

    ``framing`` is the framing name, ``_started`` whether the response began and
    ``_ended`` whether it ended (``_response_start`` and ``_response_end`` emit those
    events and keep the flags), and ``_last_index``/``_last_end`` locate the last record,
    where end-of-stream findings are reported. A subclass sets ``name``.

    ``_closed`` is the :class:`~ssescope.incremental.Incremental` contract, kept here for
    every adapter: ``feed`` refuses a record after ``close`` and hands the record to
    ``_read``; ``close`` closes once and returns ``_unfinished()``. A subclass writes
    those two (or, for a protocol whose every record is one JSON event object, gives the
    base its ``unexpected`` code and writes ``_feed_object`` instead of ``_read``). An
    adapter whose hot path returns lists it builds itself writes ``feed`` instead of
    ``_read``, starting with ``if self._closed: refuse_feed_after_close()``.
    """

    name: ClassVar[str]

    def __init__(self, framing: str, unexpected: Code | None = None) -> None:
        self._closed = False
        self.framing = framing
        self._started = False
        self._ended = False
        self._last_index = 0
        self._last_end = 0
        self._unexpected = unexpected

    def feed(self, record: DataRecord) -> list[AdapterOutput]:
        """Map one data record to events and diagnostics (``_read`` says how).

        Declared here so that mypy holds every adapter to this shape, and through it to
        :class:`~ssescope.incremental.Incremental` (``pipeline.py``).
        """
        if self._closed:
            refuse_feed_after_close()
        out: list[AdapterOutput] = []
        self._read(record, out)
        return out

    def _read(self, record: DataRecord, out: list[AdapterOutput]) -> None:
        """Map one data record, its events and diagnostics appended to ``out``.

        For an adapter whose every record is one JSON event object (it gives the base
        ``unexpected``, its code for JSON that is not an object): the object is decoded
        and handed to ``_feed_object``. Any other adapter writes its own ``_read``.
        """
        unexpected = self._unexpected
        if unexpected is None:
            raise NotImplementedError(f"{type(self).__name__} does not read records")
        obj = self._object(record, out, unexpected)
        if obj is not None:
            self._feed_object(obj, record, out)

    def _feed_object(
        self, obj: dict[str, JSON], record: DataRecord, out: list[AdapterOutput]
    ) -> None:
        """Map the decoded event object of ``record`` (see ``_read``)."""
        raise NotImplementedError(f"{type(self).__name__} does not read event objects")

    def close(self) -> list[AdapterOutput]:
        """End of stream: report what the protocol left unfinished (``_unfinished``)."""
        close_once(self)
        return self._unfinished()

    def _unfinished(self) -> list[AdapterOutput]:
        """What ``close`` reports at the end of the stream (each adapter's own)."""
        raise NotImplementedError(f"{type(self).__name__} does not close")

    def _object(
        self, record: DataRecord, out: list[AdapterOutput], unexpected: Code
    ) -> dict[str, JSON] | None:
        """Note ``record`` as the last one and decode its object (:func:`decode_object`)."""
        self._note(record)
        return decode_object(record, out, unexpected)

    def _note(self, record: DataRecord) -> None:
        """Note ``record`` as the last one, where end-of-stream findings are reported."""
        self._last_index = record.index
        self._last_end = record.end

    def _unended(self, code: Code) -> list[AdapterOutput]:
        """What ``_unfinished`` reports for a protocol whose response ends with a marker:
        ``code`` (at the last record) when the response started and did not end."""
        if self._started and not self._ended:
            return [diagnostic(code, self._last_end, self._last_index)]
        return []

    def _response_start(
        self,
        record: DataRecord,
        out: list[AdapterOutput],
        rid: str | None = None,
        model: str | None = None,
    ) -> None:
        """A response starts at ``record``: its :class:`~ssescope.events.ResponseStart`
        (with its id and model, when the wire names them); it has not ended yet."""
        out.append(ResponseStart(record.index, rid, model))
        self._started = True
        self._ended = False

    def _response_end(
        self, record: DataRecord, out: list[AdapterOutput], status: Status, reason: str
    ) -> None:
        """The response ends at ``record``: its :class:`~ssescope.events.Terminal`."""
        out.append(Terminal(record.index, status, reason))
        self._ended = True


class Malformed(Exception):
    """A field of an event has an impossible type; reported, the event is skipped."""


def object_field(obj: dict[str, JSON], key: str) -> dict[str, JSON]:
    """``obj[key]``, which must be a JSON object.

    Raises:
        Malformed: naming the field and what it holds instead.
    """
    value = obj.get(key)
    if not isinstance(value, dict):
        raise Malformed(f'its "{key}" is not an object ({quote(value)})')
    return value


def decode_json(record: DataRecord) -> tuple[JSON | _Invalid, Diagnostic | None]:
    """Decode a record's data as JSON.

    orjson is tried first (about 4x faster on stream chunks); the standard library is the
    fallback that names the error's position. ``NaN``, ``Infinity`` and numbers beyond a
    double are refused (``json.non-finite-number``), as JSON does, so a Report stays strict
    JSON. A value nested more than :data:`ssescope.limits.MAX_DEPTH` levels is refused
    (``json.too-deep``).

    Returns:
        ``(value, None)``, or ``(INVALID, diagnostic)`` with a ``json.invalid``,
        ``json.non-finite-number`` or ``json.too-deep`` error that
        quotes the data and names the position; the record stays in the stream.
    """
    data = record.data
    try:
        value = _loads(data)  # (imported by name: no attribute lookup per record)
    except orjson.JSONDecodeError:
        pass
    else:
        if decoded_may_be_too_deep(data) and too_deep(value):
            return INVALID, too_deep_diagnostic(record)
        return value, None
    try:
        value = loads_strict(data)
    except RecursionError:
        return INVALID, too_deep_diagnostic(record)
    except NonFiniteNumber as refused:  # (its own name: the compiled core types each one)
        return INVALID, diagnostic(
            codes.JSON_NON_FINITE_NUMBER,
            record.start,
            record.index,
            excerpt(data),
            number=refused.args[0],
            data=data,
            length=_length(data),
        )
    except ValueError as exc:
        pos = getattr(exc, "pos", None)
        where = f" at character {pos}" if pos is not None else ""
        reason = getattr(exc, "msg", str(exc))
        return INVALID, diagnostic(
            codes.JSON_INVALID,
            record.start,
            record.index,
            excerpt(data),
            reason=reason,
            where=where,
            data=data,
            length=_length(data),
        )
    if decoded_may_be_too_deep(data) and too_deep(value):
        return INVALID, too_deep_diagnostic(record)
    return value, None


def _length(data: str) -> str:
    if len(data) <= EXCERPT_CHARS:
        return ""
    return f" ({len(data):,} characters, the first {EXCERPT_CHARS:,} in the diagnostic)"


def decode_record(
    record: DataRecord, out: list[AdapterOutput], *, done: Code | None = None
) -> JSON | _Invalid:
    """Decode a record with :func:`decode_json`, its problem appended to ``out``.

    A ``[DONE]`` record (an SSE re-framing proxy's end marker) is no decode problem: it is
    tolerated, or reported as the diagnostic code ``done`` when one is given. Returns the
    value, or :data:`INVALID` when the record holds none.
    """
    value, problem = decode_json(record)
    if problem is not None or value is INVALID:
        if record.data.strip() == "[DONE]":
            if done is not None:
                out.append(diag(done, record))
        elif problem is not None:
            out.append(problem)
        return INVALID
    return value


def decode_object(
    record: DataRecord, out: list[AdapterOutput], unexpected: Code
) -> dict[str, JSON] | None:
    """Decode a record that must hold one JSON object (see :func:`decode_record`).

    Another JSON value is reported as the diagnostic code ``unexpected`` (with ``obj``).
    Returns the object, or ``None`` once the problem is in ``out``.
    """
    value = decode_record(record, out)
    if value is INVALID:
        return None
    obj = cast("JSON", value)
    if not isinstance(obj, dict):
        out.append(diag(unexpected, record, obj=obj))
        return None
    return obj


def too_deep_diagnostic(record: DataRecord) -> Diagnostic:
    """The ``json.too-deep`` error for a record nested beyond the depth limit."""
    return diagnostic(
        codes.JSON_TOO_DEEP,
        record.start,
        record.index,
        excerpt(record.data),
        depth=MAX_DEPTH,
        data=record.data,
        length=_length(record.data),
    )


def diag(
    code: Code | Form, record: DataRecord, *, form: str | None = None, **args: object
) -> Diagnostic:
    """Build a diagnostic of ``code`` located at ``record`` (see :func:`diagnostic`)."""
    return build(code, args, record.start, record.index, None, form)


def not_streamed(what: str, record: DataRecord) -> Diagnostic:
    """The ``stream.not-streamed`` warning: the body is one whole response, not a stream.

    Args:
        what: the object the body is (``"chat.completion object"``, ``"Response object"``).
        record: the record holding it.
    """
    return diag(codes.STREAM_NOT_STREAMED, record, what=what)


def whole_terminal(out: list[AdapterOutput], what: str) -> None:
    """Say in the terminal reason that the response came whole: ``a whole X, not streamed
    (<the marker's reason>)`` (for the events a whole, not streamed, body was read as)."""
    for i, item in enumerate(out):
        if isinstance(item, Terminal):
            out[i] = Terminal(
                item.record, item.status, f"a whole {what}, not streamed ({item.reason})"
            )


def compact_json(value: object) -> str:
    """Compact JSON text of a value the wire sent as an object instead of a string
    (whole tool-call arguments): no spaces, non-ASCII kept as it is."""
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def str_or_none(value: object) -> str | None:
    """``value`` when it is a string, else ``None`` (an id or a name as sent)."""
    return value if isinstance(value, str) else None


def nonempty_str(value: object) -> str | None:
    """``value`` when it is a string with some text, else ``None`` (a fragment worth an
    event: an empty delta carries nothing)."""
    return value if isinstance(value, str) and value else None


def int_or_none(value: object) -> int | None:
    """``value`` if it is an integer (and not a bool), else ``None``."""
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def token_count(value: object) -> int | None:
    """A token count as the provider sent it, or ``None`` when it is not a JSON integer.

    The one numeric policy of every adapter: ``8``, ``0`` and ``-1`` are taken as sent (the
    aggregator keeps counts of 0 or more); ``8.0``, ``"8"``, ``true`` and ``null`` are
    ``None``. The aggregator reports each such value of a token field of the raw usage
    object as ``usage.invalid-value``; the raw usage keeps what was sent.
    """
    return value if type(value) is int else None


def provider_error(
    record: DataRecord,
    out: list[AdapterOutput],
    _message: str,
    _kind: str | None = None,
    _code: str | None = None,
    _raw: JSON = None,
    /,
    *,
    form: Form,
    **args: object,
) -> None:
    """Append a :class:`~ssescope.events.ProviderError` and its ``provider.error`` error.

    Args:
        record: the record that carried the error.
        out: where the event and the diagnostic go.
        _message: the error's message text.
        _kind: the provider's error type (``overloaded_error``, ``UNAVAILABLE``…).
        _code: the provider's error code, as text.
        _raw: the error value as the wire sent it.
        form: the provider's message form of ``provider.error`` (its ``codes.ERROR``).
        **args: the arguments of that message form (``message``, ``error_type``… as it names
            them). (The positional parameters take names no message form can use, with a
            leading underscore: the compiled core does not let a keyword argument share
            the name of a positional-only one.)
    """
    out.append(ProviderError(record.index, _kind, _message, _code, _raw))
    out.append(build(form, args, record.start, record.index))


def wire_error(
    record: DataRecord,
    out: list[AdapterOutput],
    _err: JSON,
    /,
    *,
    form: Form,
    type_key: str = "type",
    **args: object,
) -> None:
    """Append the provider's error as the wire sent it (:func:`provider_error`): its type,
    message and code read by :func:`error_fields` (the error's compact JSON is the
    message when it has none), the message given to ``form`` as its ``text``, beside
    ``args``."""
    kind, text, code = error_fields(_err, compact_json, type_key=type_key)
    provider_error(record, out, text, kind, code, _err, form=form, text=text, **args)


def error_fields(
    err: object, fallback: Callable[[object], str], *, type_key: str = "type"
) -> tuple[str | None, str, str | None]:
    """Read an error value the common way: ``(error type, message, code)``.

    An object gives its ``message`` (else ``fallback(err)``), the string at ``type_key``
    and its ``code`` as text; a string is the message; anything else is ``fallback(err)``.
    """
    if isinstance(err, dict):
        msg = err.get("message")
        kind = err.get(type_key)
        code = err.get("code")
        return (
            kind if isinstance(kind, str) else None,
            msg if isinstance(msg, str) else fallback(err),
            None if code is None else str(code),
        )
    if isinstance(err, str):
        return None, err, None
    return None, fallback(err), None


def usage_event(
    usage: object,
    keys: tuple[tuple[str, str], ...],
    source: str,
    code: Code,
    record: DataRecord,
    out: list[AdapterOutput],
) -> None:
    """Append a :class:`~ssescope.events.Usage` mapping the wire's usage object by name.

    Args:
        usage: the wire's usage object (anything: it is checked).
        keys: ``(wire name, normalised name)`` pairs; the numbers are taken as sent.
        source: where the usage came from (``"message_delta"``, ``"metadata"``…).
        code: the diagnostic code for a usage that is not an object or a count that is
            not an integer (e.g. ``"anthropic.invalid-usage"``); such values are ignored.
        record: the record it came from.
        out: where the event and diagnostics go.
    """
    if not isinstance(usage, dict):
        if usage is not None:
            out.append(diag(code, record, form="not-an-object", usage=usage))
        return
    values: dict[str, int | None] = {}
    for wire, key in keys:
        if wire in usage:
            v = usage[wire]
            n = token_count(v)
            if n is not None:
                values[key] = n
            elif v is not None:
                out.append(
                    diag(code, record, form="not-an-integer", source=source, field=wire, value=v)
                )
    out.append(Usage(record.index, values, usage, source))
