"""The streams inside one input: each HAR entry and each response of a capture is one."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from ..aggregate.report import Report
from ..api import feed_body
from ..containers import read_all
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
    """

    index: int | None = None
    method: str | None = None
    url: str | None = None


def inspect_streams(data: bytes) -> list[tuple[Entry, Report]]:
    """Inspect every stream inside one input, in order.

    A single stream gives exactly the Report of ``ssescope.inspect(data)`` (the same
    container readers, :func:`~ssescope.feed_body` and :class:`Pipeline`, with the input
    unwrapped once). A HAR with several streamed entries gives one Report per entry; a
    capture holding several responses back to back gives one Report per
    response, with that response's verdict, outputs and usage, and the whole capture's
    records, diagnostics and timing.
    """
    found: list[tuple[str | None, str | None, Report]] = []
    bodies = read_all(data)  # one body, as inspect(data) unwraps it; or each HAR entry
    for body in bodies:
        request = body.request
        report = feed_body(Pipeline(collect_events=False), body).report()
        found.append(
            (request["method"] if request else None, request["url"] if request else None, report)
        )
    parts = [
        (method, url, dataclasses.replace(report, response=response, responses=[response]))
        if len(report.responses) > 1
        else (method, url, report)
        for method, url, report in found
        for response in (report.responses if len(report.responses) > 1 else [report.response])
    ]
    if len(parts) == 1:
        method, url, report = parts[0]
        return [(Entry(None, method, url), report)]
    return [(Entry(i, method, url), report) for i, (method, url, report) in enumerate(parts)]
