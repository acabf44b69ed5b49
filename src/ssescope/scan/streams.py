"""The streams inside one input: each HAR entry and each response of a capture is one."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from ..aggregate.report import Report
from ..api import feed_chunks, open_streams
from ..pipeline import Pipeline
from ..sourceinfo import EntryInfo

__all__ = ["Entry", "inspect_streams"]


@dataclass(frozen=True, slots=True)
class Entry:
    """Where a stream sits inside its input, numbered as ``inspect --entry`` numbers it.

    Attributes:
        index: the entry's index when the input records entries (a HAR's ``log.entries``
            position, a JSONL log's stream number, a response's number on a WebSocket
            connection), else the response's position among the responses of one stream
            back to back; ``None`` when the input holds one stream.
        method: the request method, when the input records it (HAR, ``.ssecap``, curl).
        url: the request URL (secrets redacted), when the input records it.
        response: of a HAR entry whose WebSocket connection carried several responses
            (``--entry N.M``), or of an entry holding several responses back to back, the
            response's position in it; else ``None``.
    """

    index: int | None = None
    method: str | None = None
    url: str | None = None
    response: int | None = None


def inspect_streams(data: bytes) -> list[tuple[Entry, Report]]:
    """Inspect every stream inside one input, in order.

    A single stream gives exactly the Report of ``ssescope.inspect(data)``: the streams
    are opened as :func:`ssescope.inspect_all` opens them (:func:`~ssescope.api.open_streams`,
    then one :class:`Pipeline` fed by :func:`~ssescope.feed_chunks` per stream), with the
    input unwrapped once. A HAR with several streamed entries gives one Report per entry,
    and a WebSocket connection one per response; a capture holding several responses back
    to back gives one Report per response, with that response's verdict, outputs and
    usage, and the whole capture's records, diagnostics and timing.
    """
    found: list[tuple[EntryInfo | None, str | None, str | None, Report]] = []
    # one stream, as inspect(data) unwraps it; or each streamed entry of a HAR or JSONL log
    for stream in open_streams(data, every=True):
        info = stream.info
        pipeline = Pipeline(source=info, collect_events=False)
        report = feed_chunks(pipeline, stream.chunks).report()
        request, entry = info.request, info.entry
        method = entry.method if entry is not None else request["method"] if request else None
        url = entry.url if entry is not None else request["url"] if request else None
        found.append((entry, method, url, report))
    parts: list[tuple[EntryInfo | None, int | None, str | None, str | None, Report]] = []
    for entry, method, url, report in found:
        if len(report.responses) > 1:
            for k, response in enumerate(report.responses):
                one = dataclasses.replace(report, response=response, responses=[response])
                parts.append((entry, k, method, url, one))
        else:
            parts.append((entry, None, method, url, report))
    if len(parts) == 1:
        _, _, method, url, report = parts[0]
        return [(Entry(None, method, url), report)]
    out: list[tuple[Entry, Report]] = []
    for i, (entry, n, method, url, one) in enumerate(parts):
        if entry is None:
            where = Entry(i, method, url)
        else:
            where = Entry(entry.index, method, url, entry.response if n is None else n)
        out.append((where, one))
    return out
