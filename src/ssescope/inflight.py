"""Whether a capture is still being written, and how long it has run and been idle.

A stream in flight is never judged: it has not ended, so it lacks its end, which is no
fault. ``ssescope proxy --record DIR`` writes each exchange's ``.ssecap`` as it streams
and its ``index.jsonl`` line once it ends; a capture in such a folder with neither its
``end`` line nor its index line is in flight (:func:`in_flight`). :func:`streaming_times`
gives its age and the time since its last data, for the Live view and ``inspect``.
"""

from __future__ import annotations

import os
import re
import stat
import time
from collections.abc import Sequence
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import orjson

from .diagnostics import Diagnostic

__all__ = ["INDEX_NAME", "FedFindings", "in_flight", "streaming_text", "streaming_times"]

INDEX_NAME = "index.jsonl"
"""The index file the proxy writes in its record folder (one line per ended exchange)."""

_STAMP = re.compile(r"^(\d{8}T\d{6}(?:\.\d{1,6})?)Z")
_TAIL = 65536  # what is read of a capture's end for its last line
_INDEX_TAIL = 4 * 1024 * 1024  # what is read of an index for the capture's line


def streaming_times(name: str, written: float, now: float | None = None) -> dict[str, Any]:
    """How long an exchange in flight has run (``age_s``, from the start time its capture's
    name begins with; ``None`` for another name) and how long since its capture was last
    written (``idle_s``: no data received for that long).

    Args:
        name: the capture's name (``20261201T041512.123456Z-…``, as the proxy names them).
        written: the capture's last write time (``st_mtime``).
        now: the time to measure at (default: now).
    """
    now = time.time() if now is None else now
    age: float | None = None
    match = _STAMP.match(name)
    if match:
        stamp = match.group(1)
        fmt = "%Y%m%dT%H%M%S.%f" if "." in stamp else "%Y%m%dT%H%M%S"
        try:
            started = datetime.strptime(stamp, fmt).replace(tzinfo=timezone.utc)
        except ValueError:
            started = None
        if started is not None:
            age = max(0.0, round(now - started.timestamp(), 3))
    idle = max(0.0, round(now - written, 3))
    if age is not None:
        idle = min(idle, age)
    return {"age_s": age, "idle_s": idle}


def streaming_text(times: dict[str, Any]) -> str:
    """``streaming for 6.20 s · idle 5.01 s so far · no verdict until it ends``."""
    parts = []
    if times.get("age_s") is not None:
        parts.append(f"streaming for {times['age_s']:.2f} s")
    else:
        parts.append("streaming")
    if times.get("idle_s") is not None:
        parts.append(f"idle {times['idle_s']:.2f} s so far")
    parts.append("no verdict until it ends")
    return " · ".join(parts)


class FedFindings:
    """Which findings a stream raised as it was fed, apart from those of its end.

    Pass it as ``on_events`` to :func:`ssescope.api.feed_chunks` (called for each chunk's
    events, then once for the close's). The findings the close and the Report add (a call
    left open, a missing ``[DONE]``, a cut tail) are about the end: a stream in flight has
    not ended, so they are held until it does.
    """

    def __init__(self) -> None:
        self._calls: list[list[Diagnostic]] = []  # (the objects: their ids stay unique)

    def __call__(self, events: Sequence[object]) -> None:
        self._calls.append([e for e in events if isinstance(e, Diagnostic)])

    def at_end(self, diagnostics: Sequence[Diagnostic]) -> list[int]:
        """The positions in ``diagnostics`` (the Report's) of the findings of the end."""
        fed = {id(d) for call in self._calls[:-1] for d in call}
        return [n for n, d in enumerate(diagnostics) if id(d) not in fed]


def _ends(path: Path, size: int) -> bool:
    """Whether the capture's last whole line is its ``{"end": …}`` line."""
    with path.open("rb") as fp:
        fp.seek(max(0, size - _TAIL))
        lines = fp.read().rstrip(b"\n").rsplit(b"\n", 1)
    last = lines[-1].strip()
    if not last.startswith(b'{"end"'):
        return False
    try:
        obj = orjson.loads(last)
    except orjson.JSONDecodeError:
        return False
    return isinstance(obj, dict) and "end" in obj


def _indexed(index: Path, name: str) -> bool:
    """Whether the proxy's index names ``name`` (the exchange ended)."""
    with index.open("rb") as fp:
        size = os.fstat(fp.fileno()).st_size
        fp.seek(max(0, size - _INDEX_TAIL))
        data = fp.read()
    needle = orjson.dumps(name)
    return any(needle in line for line in data.splitlines())


def in_flight(path: str | Path) -> dict[str, Any] | None:
    """``{"age_s", "idle_s"}`` if ``path`` is a proxy's capture still being written, else
    ``None``: an ``.ssecap`` in a folder holding the proxy's index, with no ``end`` line
    and no index line yet. Anything unreadable is not in flight (it is judged as usual).
    """
    path = Path(path)
    if path.suffix != ".ssecap":
        return None
    index = path.parent / INDEX_NAME
    try:
        st = os.stat(path)
        if not stat.S_ISREG(st.st_mode) or not index.is_file():
            return None
        if _ends(path, st.st_size) or _indexed(index, path.name[: -len(".ssecap")]):
            return None
    except OSError:
        return None
    return streaming_times(path.name, st.st_mtime)
