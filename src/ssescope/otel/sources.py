"""The captures ``ssescope export-otel`` reads, each with what is known of its exchange.

A record folder (``ssescope proxy --record``) lists its exchanges in ``index.jsonl``: the
start time, method, upstream URL, requested model and how each ended; its captures keep
every chunk's arrival time. A lone ``.ssecap`` capture keeps its request (method, URL,
body) and its chunk times; its start is the time stamped in its name when the proxy named
it, else the file's modification time less the stream's length. A HAR keeps each entry's
``startedDateTime``. Every stream goes through the one engine (:func:`ssescope.inspect_all`
opens them the same way).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import orjson

from ..aggregate.report import Report
from ..api import _report, open_streams
from ..proxy.folder import INDEX_NAME
from ..sourceinfo import END_REASONS
from .facts import ExchangeFacts, facts_from_report, parse_time_ns

__all__ = ["CAPTURE_SUFFIXES", "Captured", "iter_captured"]

CAPTURE_SUFFIXES = (".ssecap", ".har", ".jsonl", ".http", ".txt", ".sse")
"""What a folder without an index is read for."""


@dataclass(frozen=True, slots=True)
class Captured:
    """One stream of a capture: where it is, its Report, and the facts of its exchange."""

    label: str
    report: Report
    facts: ExchangeFacts


def _index(folder: Path) -> dict[str, dict[str, Any]]:
    """The record folder's index lines, by capture file name (the last line wins)."""
    found: dict[str, dict[str, Any]] = {}
    path = folder / INDEX_NAME
    if not path.is_file():
        return found
    for raw in path.read_bytes().splitlines():
        try:
            line = orjson.loads(raw)
        except orjson.JSONDecodeError:
            continue
        if isinstance(line, dict) and isinstance(line.get("name"), str) and line["name"]:
            found[line["name"] + ".ssecap"] = line
    return found


def _request_model(path: Path) -> str | None:
    """The model a ``.ssecap`` capture's request asked for (its header's request body)."""
    try:
        with path.open("rb") as fp:
            header = orjson.loads(fp.readline())
        model = header["request"]["body"]["model"]
    except (OSError, orjson.JSONDecodeError, KeyError, TypeError):
        return None
    return model if isinstance(model, str) else None


def _from_index(line: dict[str, Any]) -> dict[str, Any]:
    end = line.get("end")
    return {
        "start_ns": parse_time_ns(line.get("time") if isinstance(line.get("time"), str) else None),
        "method": line.get("method") if isinstance(line.get("method"), str) else None,
        "url": line.get("upstream") if isinstance(line.get("upstream"), str) else None,
        "request_model": line.get("model") if isinstance(line.get("model"), str) else None,
        "end": next((e for e in END_REASONS if e == end), None),
    }


def _files(path: Path) -> tuple[list[Path], dict[str, dict[str, Any]]]:
    if not path.is_dir():
        return [path], {}
    index = _index(path)
    if index:
        return [path / name for name in index if (path / name).is_file()], index
    found = sorted(p for p in path.iterdir() if p.is_file() and p.suffix in CAPTURE_SUFFIXES)
    return [p for p in found if p.name != INDEX_NAME], index


def iter_captured(paths: list[Path]) -> Iterator[Captured]:
    """Every stream of the given captures and record folders, in order, with its facts.

    Raises:
        UsageError: for a path that does not exist.
    """
    for path in paths:
        files, index = _files(path)
        for file in files:
            streams = open_streams(file, every=True)
            for number, stream in enumerate(streams):
                report = _report(stream, "auto", "auto", None, None)
                given: dict[str, Any] = {}
                line = index.get(file.name)
                if line is not None:
                    given = _from_index(line)
                elif file.suffix == ".ssecap":
                    request: Mapping[str, Any] = stream.info.request or {}
                    given = {
                        "method": request.get("method"),
                        "url": request.get("url"),
                        "request_model": _request_model(file),
                        "start_ns": parse_time_ns(file.name) or _from_mtime(file, report),
                        "end": stream.info.end,
                    }
                label = str(file) if len(streams) == 1 else f"{file}#{number}"
                yield Captured(label, report, facts_from_report(report, **given))


def _from_mtime(file: Path, report: Report) -> int | None:
    """When the capture's request started, from when the file was last written."""
    try:
        written = file.stat().st_mtime_ns
    except OSError:
        return None
    total = report.timing.total_s or 0.0
    return written - round(total * 1e9)
