"""What the web page needs from one stream: the Report, every record, and the timeline.

The page never parses anything itself. :func:`analyse` runs the same
:class:`~ssescope.pipeline.Pipeline` as ``ssescope inspect`` and adds what a debugger view
needs on top of the Report: every record with its byte span and the diagnostics that name
it, and the engine's *timeline* (:mod:`ssescope.aggregate.timeline`: each change the
aggregator made, with the record that caused it), which the scrubber replays up to any
record.
"""

from __future__ import annotations

import base64
import io
import json
from typing import Any

from ..aggregate.timeline import Timeline
from ..api import feed_chunks
from ..containers import Body, CaptureWriter, read_all
from ..errors import UsageError
from ..inflight import FedFindings
from ..output.frame_rows import FrameRow, FrameRows
from ..pipeline import Pipeline
from ..providers._base import AdapterOutput

__all__ = ["analyse", "build_capture"]

PREVIEW_CHARS = 160
"""How many characters of a record's data the frame table's preview column gets."""


def _preview(text: str) -> str:
    short = text[: PREVIEW_CHARS * 2]
    short = " ".join(short.split())
    if len(short) > PREVIEW_CHARS:
        short = short[: PREVIEW_CHARS - 1] + "…"
    return short


def _entry_line(index: int, report: dict[str, Any]) -> dict[str, Any]:
    entry = report.get("entry") or {"index": index, "method": None, "url": None, "started": None}
    return {**entry, "status": report["status"], "provider": report["provider"]}


def analyse(
    data: bytes, *, provider: str = "auto", framing: str = "auto", entry: int | None = None
) -> dict[str, Any]:
    """Inspect ``data`` (a stream body or a container) for the web page.

    A capture holding several streams (a HAR, a JSONL log) is inspected entry by entry:
    ``entries`` lists each one with its verdict, and the rest of the answer is about the
    chosen one (``entry``: its position in ``entries``; the first by default).

    Returns:
        ``{"report", "frames", "timeline", "container", "headers", "body_b64", "entries",
        "entry", "end_findings", "websocket"}``: the Report's dict, one dict per record, the timeline's changes (each
        as :meth:`~ssescope.aggregate.timeline.Change.to_list`),
        the body bytes in base64 when they differ from ``data`` (a container was
        unwrapped), else ``None``, the entries (``[]`` for an input holding one), and
        the positions in the Report's diagnostics of the findings about the stream's end
        (:class:`~ssescope.inflight.FedFindings`), and for a stream a WebSocket carried,
        the Report's ``source.websocket`` with ``describe`` (how it ended, in words) and
        ``order`` (its messages in both directions: client messages with their type, runs
        of server records), else ``None``.

    Raises:
        UsageError: for an unknown provider or framing name, or an ``entry`` out of range.
    """
    bodies, chosen = _choose(data, entry)
    entries: list[dict[str, Any]] = []
    if len(bodies) > 1:
        for i, other in enumerate(bodies):
            each = Pipeline(provider=provider, framing=framing, source=other.info())
            entries.append(_entry_line(i, feed_chunks(each, other.chunks).report().to_dict()))
    body = bodies[chosen]
    pipeline = Pipeline(provider=provider, framing=framing, keep_records=True, source=body.info())
    timeline = pipeline.aggregator.timeline = Timeline()
    table = FrameRows(pipeline)
    rows: list[FrameRow] = []

    fed = FedFindings()

    def on_events(events: list[AdapterOutput]) -> None:
        fed(events)
        rows.extend(table.take(events))

    feed_chunks(pipeline, body.chunks, on_events=on_events)
    rows.extend(table.finish())
    report = pipeline.report()
    report_dict = report.to_dict()
    position = {id(diag): i for i, diag in enumerate(report.diagnostics)}
    # A finding raised at the end about an earlier record (a tool call left open, named
    # by the record that opened it) goes on that record's row too: the page, unlike the
    # terminal's `records`, has the whole table before it shows a row.
    by_index = {row.index: row for row in rows if row.index is not None}
    for diag in table.late:
        owner = by_index.get(diag.record) if diag.record is not None else None
        if owner is not None and diag not in owner.diagnostics:
            owner.diagnostics.append(diag)

    frames: list[dict[str, Any]] = []
    append = frames.append
    for row in rows:
        # a record a framing or JSON diagnostic calls broken is invalid; other findings
        # (a call left open, a missing [DONE]) are shown on the row without condemning it
        state = "invalid" if row.invalid else "unknown" if row.unknown else ""
        index = report.records.total if row.index is None else row.index
        append(
            {
                "index": index,
                "kind": row.kind,
                "start": row.offset,
                "end": row.offset + row.length,
                "time": row.time,
                "event": row.event,
                "id": row.id,
                "size": row.length,
                "preview": _preview(row.preview),
                "data": row.data,
                "state": "cut" if row.kind == "tail" else state,
                "diagnostics": [position[id(d)] for d in row.diagnostics if id(d) in position],
            }
        )
    joined = b"".join(c.data for c in body.chunks)
    return {
        "report": report_dict,
        "frames": frames,
        "timeline": [change.to_list() for change in timeline.changes],
        "container": body.container,
        "headers": body.headers,
        "body_b64": None if joined == data else base64.b64encode(joined).decode("ascii"),
        "entries": entries,
        "entry": chosen,
        # the findings about its end (held while a Live exchange is still in flight)
        "end_findings": fed.at_end(report.diagnostics),
        "websocket": _websocket(body, len(body.chunks)),
    }


def _message_type(text: str) -> str | None:
    try:
        value = json.loads(text)
    except ValueError:
        return None
    kind = value.get("type") if isinstance(value, dict) else None
    return kind if isinstance(kind, str) else None


def _websocket(body: Body, received: int) -> dict[str, Any] | None:
    """Both directions of a WebSocket stream, in order: each client message (a request,
    never assembled) and each run of server messages (the records), and how it ended."""
    ws = body.websocket
    if ws is None:
        return None
    messages: list[dict[str, Any]] = []
    at = 0
    for text, (before, time) in zip(ws.sent, ws.sent_at, strict=False):
        if before > at:
            messages.append({"dir": "receive", "first": at, "last": before - 1})
            at = before
        messages.append(
            {
                "dir": "send",
                "time": time,
                "type": _message_type(text),
                "size": len(text),
                "preview": _preview(text),
                "before": before,
            }
        )
    if received > at:
        messages.append({"dir": "receive", "first": at, "last": received - 1})
    return {**ws.to_dict(), "describe": ws.describe(), "order": messages}


def _choose(data: bytes, entry: int | None) -> tuple[list[Body], int]:
    bodies = read_all(data)
    chosen = 0 if entry is None else entry
    if not 0 <= chosen < len(bodies):
        raise UsageError(f"entry {chosen} does not exist; the input holds {len(bodies)}")
    return bodies, chosen


def build_capture(data: bytes, entry: int | None = None) -> bytes:
    """Return ``data`` (a stream or a container) as an ``.ssecap`` capture (JSON Lines).

    The header carries the response status and headers when the container knew them;
    each chunk keeps its arrival time (``null`` when it was never measured). Of a capture
    holding several streams, the ``entry``-th (its position; the first by default).

    Raises:
        UsageError: for an ``entry`` out of range.
    """
    bodies, chosen = _choose(data, entry)
    body = bodies[chosen]
    out = io.BytesIO()
    writer = CaptureWriter(
        out,
        request=None if body.request is None else dict(body.request),
        response_status=body.status,
        response_headers=body.headers,
    )
    for chunk in body.chunks:
        writer.write_chunk(chunk.data, chunk.time)
    writer.close()
    return out.getvalue()
