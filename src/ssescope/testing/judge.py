"""``assert_assembled``: did the client build what the stream it was served says?"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path

from ..aggregate.report import Report
from ..api import inspect, inspect_all
from ..compare import Difference, compare_result, normalise_result, shape_name
from ..containers import read_all
from ..errors import UsageError
from .server import ServedURL, source_bytes
from .websocket import WebSocketMessage, websocket_reports
from .ws_served import ServedSocket

Source = ServedURL | ServedSocket | bytes | str | os.PathLike[str] | Sequence[WebSocketMessage]
"""What :func:`assert_assembled` judges: a served URL (HTTP or WebSocket), a stream or
capture (bytes, a path, a bundled example name), or the messages of a WebSocket exchange."""

__all__ = ["assert_assembled"]


def _describe(source: Source) -> str:
    if isinstance(source, ServedURL):
        return f"the stream served at {source!s}"
    if isinstance(source, ServedSocket):
        return f"what was sent over the WebSocket {source!s}"
    if isinstance(source, bytes):
        return f"the stream ({len(source)} bytes)"
    if not isinstance(source, str | os.PathLike):
        return f"the WebSocket exchange ({len(source)} messages)"
    return f"the stream {Path(source).name if Path(source).exists() else str(source)!r}"


def _message(shape: str, where: str, diffs: list[Difference]) -> str:
    lines = [f"the client's result ({shape_name(shape)}) differs from {where}:"]
    for diff in diffs:
        lines.append(f"  {diff.path}: {diff.message}")
        lines.extend(f"      {line}" for line in diff.detail)
    return "\n".join(lines)


def _websocket_file(source: bytes | str | os.PathLike[str]) -> list[Report] | None:
    """The Reports of a WebSocket capture (``.ssecap`` WebSocket form, a HAR entry's
    ``_webSocketMessages``, a JSONL log of messages), or ``None`` for anything else."""
    if isinstance(source, bytes):
        data = source
    else:
        path = Path(source)
        if not path.is_file():
            return None
        data = path.read_bytes()
    if not any(body.websocket is not None for body in read_all(data)):
        return None
    return inspect_all(data)


def _pick(reports: list[Report], entry: int | str | None, where: str) -> Report:
    labels = [str(i) if r.entry is None else r.entry.label for i, r in enumerate(reports)]
    if entry is None:
        if len(reports) == 1:
            return reports[0]
        raise UsageError(
            f"{where} holds {len(reports)} responses (entries {', '.join(labels)}): "
            "pass entry=N for the one the client built"
        )
    for i, report in enumerate(reports):
        if (str(i) == str(entry)) if report.entry is None else report.entry.selected_by(entry):
            return report
    raise UsageError(f"there is no entry {entry}; {where} holds the entries {', '.join(labels)}")


def assert_assembled(source: Source, result: object, *, entry: int | str | None = None) -> Report:
    """Fail unless ``result`` states what the right assembly of ``source`` holds.

    The comparison is ``ssescope check --against``'s (:func:`ssescope.compare.compare_result`):
    only what the result states is compared, tool arguments as parsed JSON.

    Args:
        source: what the client was served: the URL ``ssescope_server.url(...)`` returned
            (its faults and quirks included), the body's bytes, a path or a bundled
            example name; the URL ``ssescope_ws_server.url(...)`` returned (the responses
            its connections were sent, once they have ended); or a WebSocket exchange: its capture (bytes or a path), or the
            list of its messages as the test holds them (``[("send", {...}),
            ("receive", "{...}"), …]``, see :func:`~ssescope.testing.websocket_reports`).
        result: what the client built: an SDK object (openai ``ChatCompletion`` or
            ``Response``, anthropic ``Message``, Gemini ``GenerateContentResponse``), its
            JSON, a dict of the Report's field names, or a text.
        entry: of a WebSocket exchange that carried several responses, the one the client
            built (its ``entry``: ``N``, or ``"N.M"`` in a HAR).

    Returns:
        The Report of the stream, for further assertions.

    Raises:
        AssertionError: the result differs; the message lists each differing field.
        ssescope.compare.ResultError: the result has no known shape.
        UsageError: a WebSocket exchange of several responses and no ``entry``, or an
            ``entry`` it does not hold.
    """
    where = _describe(source)
    if isinstance(source, ServedURL):
        report = inspect(iter([source_bytes(source)]))
    elif isinstance(source, ServedSocket):
        report = _pick(source.reports(), entry, where)
    elif isinstance(source, bytes | str | os.PathLike):
        reports = _websocket_file(source)
        if reports is not None:
            report = _pick(reports, entry, where)
        else:
            report = inspect(iter([source_bytes(source)]))
    else:
        report = _pick(websocket_reports(source), entry, where)
    expected = normalise_result(result)
    diffs = compare_result(expected, report)
    if diffs:
        raise AssertionError(_message(expected.shape, where, diffs))
    return report
