"""The streams inside one input: each HAR entry and each response of a capture is one."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from ..aggregate.report import Report
from ..aggregate.timing import TimingOptions
from ..api import feed_chunks, open_streams
from ..pipeline import Pipeline

__all__ = ["Entry", "inspect_streams"]


@dataclass(frozen=True, slots=True)
class Entry:
    """Where a stream sits inside its input.

    Attributes:
        index: the stream's entry, the number ``inspect --entry`` takes: a HAR's
            ``log.entries`` index, a JSONL log's stream number (else its position among
            the input's streams); ``None`` when the input holds one stream.
        method: the request method, when the input records it (HAR, ``.ssecap``, curl).
        url: the request URL (secrets redacted), when the input records it.
        response: the response's position in a capture holding several back to back, or
            on a HAR entry's WebSocket connection (``--entry N.M``); ``None`` when the
            stream holds one.
        started: when the request started, as the input writes it (a HAR's
            ``startedDateTime``), or ``None``.
        tools: how many tools the request declared, when the input keeps the request's
            body (``.ssecap``, HAR); ``None`` when it does not, or declares none.
    """

    index: int | None = None
    method: str | None = None
    url: str | None = None
    response: int | None = None
    started: str | None = None
    tools: int | None = None


def inspect_streams(data: bytes, timing: TimingOptions | None = None) -> list[tuple[Entry, Report]]:
    """Inspect every stream inside one input, in order.

    A single stream gives exactly the Report of ``ssescope.inspect(data)``: the streams
    are opened as :func:`ssescope.inspect_all` opens them (:func:`~ssescope.api.open_streams`,
    then one :class:`Pipeline` fed by :func:`~ssescope.feed_chunks` per stream), with the
    input unwrapped once. A HAR with several streamed entries gives one Report per entry
    (its :class:`Entry` numbered as ``inspect --entry`` numbers it); a capture holding
    several responses back to back gives one Report per response (its ``response``
    number), with that response's verdict, outputs and usage, and the whole capture's
    records, diagnostics and timing. ``timing`` sets the stall thresholds
    (``--idle-threshold``; ``None``: the defaults).
    """
    found: list[tuple[Entry, Report]] = []
    # one stream, as inspect(data) unwraps it; or each streamed entry of a HAR or JSONL log
    streams = open_streams(data, every=True)
    several = len(streams) > 1
    for position, stream in enumerate(streams):
        info = stream.info
        pipeline = Pipeline(source=info, collect_events=False, timing=timing)
        report = feed_chunks(pipeline, stream.chunks).report()
        request, entry = info.request, info.entry
        method = entry.method if entry is not None else request["method"] if request else None
        url = entry.url if entry is not None else request["url"] if request else None
        index = entry.index if entry is not None else position if several else None
        started = entry.started if entry is not None else None
        # the responses of one HAR entry's WebSocket connection share its index (N.M)
        on_socket = entry.response if entry is not None else None
        where = Entry(index, method, url, on_socket, started, len(info.tools) or None)
        if len(report.responses) > 1:
            found.extend(
                (
                    dataclasses.replace(where, response=i),
                    dataclasses.replace(report, response=response, responses=[response]),
                )
                for i, response in enumerate(report.responses)
            )
        else:
            found.append((where, report))
    return found
