"""The streams inside one input: each HAR entry and each response of a capture is one."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from ..aggregate.report import Report
from ..api import feed_chunks, open_streams
from ..pipeline import Pipeline

__all__ = ["Entry", "inspect_streams"]


@dataclass(frozen=True, slots=True)
class Entry:
    """Where a stream sits inside its input.

    Attributes:
        index: the stream's position in the input (HAR entry order, then response
            order), or ``None`` when the input holds one stream.
        method: the request method, when the input records it (HAR, ``.ssecap``, curl).
        url: the request URL (secrets redacted), when the input records it.
        tools: how many tools the request declared, when the input keeps the request's
            body (``.ssecap``, HAR); ``None`` when it does not, or declares none.
    """

    index: int | None = None
    method: str | None = None
    url: str | None = None
    tools: int | None = None


def inspect_streams(data: bytes) -> list[tuple[Entry, Report]]:
    """Inspect every stream inside one input, in order.

    A single stream gives exactly the Report of ``ssescope.inspect(data)``: the streams
    are opened as :func:`ssescope.inspect_all` opens them (:func:`~ssescope.api.open_streams`,
    then one :class:`Pipeline` fed by :func:`~ssescope.feed_chunks` per stream), with the
    input unwrapped once. A HAR with several streamed entries gives one Report per entry; a
    capture holding several responses back to back gives one Report per
    response, with that response's verdict, outputs and usage, and the whole capture's
    records, diagnostics and timing.
    """
    found: list[tuple[str | None, str | None, int | None, Report]] = []
    # one stream, as inspect(data) unwraps it; or each streamed entry of a HAR or JSONL log
    for stream in open_streams(data, every=True):
        info = stream.info
        pipeline = Pipeline(source=info, collect_events=False)
        report = feed_chunks(pipeline, stream.chunks).report()
        request, entry = info.request, info.entry
        method = entry.method if entry is not None else request["method"] if request else None
        url = entry.url if entry is not None else request["url"] if request else None
        found.append((method, url, len(info.tools) or None, report))
    parts = [
        (method, url, tools, dataclasses.replace(report, response=response, responses=[response]))
        if len(report.responses) > 1
        else (method, url, tools, report)
        for method, url, tools, report in found
        for response in (report.responses if len(report.responses) > 1 else [report.response])
    ]
    if len(parts) == 1:
        method, url, tools, report = parts[0]
        return [(Entry(None, method, url, tools), report)]
    return [
        (Entry(i, method, url, tools), report)
        for i, (method, url, tools, report) in enumerate(parts)
    ]
