"""The web page's Live view: the proxy's exchanges as they arrive, from its record folder.

``ssescope proxy --record DIR`` writes one ``.ssecap`` per exchange as it streams and one
``index.jsonl`` line as each ends. The Live view reads that folder without ever getting
in the proxy's way (``proxy --web`` serves it from the proxy's own process):

* everything it reads is read in a worker thread (:class:`LiveFolder`, one job at a
  time), never on the event loop that forwards the streams;
* ``GET /api/live`` lists the exchanges: the index is read incrementally (only the
  lines added since the last refresh), the folder is scanned again only when a capture
  was added to it, and an exchange still in flight costs one ``stat`` per refresh;
* ``GET /api/live/{name}/inspect`` is the page's analysis of one exchange (the same as
  ``POST /api/inspect`` of its capture) for the first :data:`DETAIL_BYTES` of its capture
  at most, made in a process of its own (:func:`analyse_apart`: analysing megabytes would
  otherwise hold the interpreter lock away from the forwarding loop), again only when the
  capture grew, and no more often than its cost allows; an exchange beyond that size is
  shown by its first part, with the proxy's verdict for the whole of it once it ended;
* ``GET /api/live/{name}`` streams the capture as far as it is written (whole lines
  only), a MiB at a time.

Memory therefore stays bounded whatever the size of a capture or the number of exchanges.
"""

from __future__ import annotations

import heapq
import os
import re
import stat
import threading
import time
from collections import OrderedDict
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any, BinaryIO

import anyio
import orjson
from anyio import to_thread
from starlette.requests import Request
from starlette.responses import JSONResponse, Response, StreamingResponse
from starlette.routing import Route

from ..errors import UsageError
from ..inflight import INDEX_NAME, streaming_times
from ..output import strictjson
from .analyst import AnalysisFailed, Analyst

__all__ = [
    "DETAIL_BYTES",
    "INDEX_NAME",
    "LiveFolder",
    "analyse_apart",
    "list_exchanges",
    "live_routes",
    "streaming_times",
]

DETAIL_BYTES = 4 * 1024 * 1024
"""The most of a capture the Live view analyses (its records, timeline and raw bytes)."""

_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,200}$")
_INDEX_TAIL = 4 * 1024 * 1024  # what is read of an index met for the first time (its end)
_LISTED = 500  # exchanges listed
_KEPT = 1000  # finished exchanges remembered (the newest by name, which starts with the time)
_SESSIONS = 4  # exchanges kept opened (one per page, a few pages)
_BLOCK = 1024 * 1024


def _line_end(fp: BinaryIO, at: int) -> int:
    """The end (just past its newline) of the last whole line before byte ``at``."""
    pos = at
    while pos > 0:
        start = max(0, pos - 65536)
        fp.seek(start)
        block = fp.read(pos - start)
        cut = block.rfind(b"\n")
        if cut >= 0:
            return start + cut + 1
        pos = start
    return 0


def _last_line(fp: BinaryIO, size: int) -> bytes:
    start = _line_end(fp, max(0, size - 1)) if size else 0
    fp.seek(start)
    return bytes(fp.read(min(size - start, 65536)))


class _Opened:
    """One exchange opened in the page: its last analysis, and when it was made."""

    def __init__(self) -> None:
        self.answer: bytes | None = None  # (its JSON)
        self.cut = -1  # the capture bytes the answer is about
        self.version = 0
        self.took = 0.0
        self.at = 0.0


class LiveFolder:
    """What the Live view knows of one record folder, kept between refreshes.

    Its methods do file I/O: call them from a worker thread (the routes do).

    Args:
        directory: the proxy's ``--record`` folder.
    """

    def __init__(self, directory: Path) -> None:
        self.directory = directory
        self._lock = threading.Lock()  # (the list's state)
        self._analysing = threading.Lock()  # (the opened exchanges' analyses)
        self._index_at = -1  # where the index was read up to (-1: never read)
        self._index_id: tuple[int, int] | None = None
        self._done: dict[str, dict[str, Any]] = {}
        self._dir_mtime = -1
        self._newest: list[str] = []
        self._heads: dict[str, dict[str, Any]] = {}
        self._opened: OrderedDict[tuple[str, str, str], _Opened] = OrderedDict()

    # -- the index, read incrementally ------------------------------------------------------

    def _read_index(self) -> None:
        path = self.directory / INDEX_NAME
        try:
            with path.open("rb") as fp:
                st = os.fstat(fp.fileno())
                ident = (st.st_dev, st.st_ino)
                if ident != self._index_id or st.st_size < self._index_at:
                    self._index_id, self._index_at = ident, -1  # a new file: start over
                    self._done.clear()
                start = self._index_at
                if start < 0:
                    start = max(0, st.st_size - _INDEX_TAIL)
                    if start:
                        start = _line_end(fp, start)  # (from a whole line)
                if st.st_size <= start:
                    self._index_at = start
                    return
                end = _line_end(fp, st.st_size)
                fp.seek(start)
                data = fp.read(max(0, end - start))
        except OSError:
            return
        self._index_at = start + len(data)
        for line in data.splitlines():
            try:
                obj = orjson.loads(line)
            except orjson.JSONDecodeError:
                continue  # a line being written, or not the proxy's
            if isinstance(obj, dict) and isinstance(obj.get("name"), str):
                self._done[obj["name"]] = obj
        if len(self._done) > 2 * _KEPT:
            keep = set(heapq.nlargest(_KEPT, self._done))
            self._done = {k: v for k, v in self._done.items() if k in keep}

    # -- the folder, scanned again only when a capture was added ------------------------------

    def _scan(self) -> None:
        try:
            mtime = os.stat(self.directory).st_mtime_ns
        except OSError:
            self._newest = []
            return
        if mtime == self._dir_mtime:
            return
        self._dir_mtime = mtime
        names: list[str] = []
        try:
            with os.scandir(self.directory) as entries:
                # (regular files only: a FIFO or a device would block whoever opens it)
                names.extend(
                    e.name[:-7] for e in entries if e.name.endswith(".ssecap") and e.is_file()
                )
        except OSError:
            pass
        self._newest = heapq.nlargest(2 * _LISTED, names)
        keep = set(self._newest)
        self._heads = {k: v for k, v in self._heads.items() if k in keep}

    def _in_flight(self, name: str) -> dict[str, Any] | None:
        path = self.directory / f"{name}.ssecap"
        found = _regular_stat(path)
        if found is None:
            return None
        size, mtime = found
        head = self._heads.get(name)
        if head is None:
            head = _head(path)
            if head.get("complete"):
                self._heads[name] = head
        return {
            "name": name,
            "capture": str(path),
            "method": head.get("method"),
            "path": head.get("path"),
            "status": head.get("status"),
            "verdict": None,
            "live": True,
            "capture_bytes": size,
            **streaming_times(name, mtime),
        }

    def listing(self) -> list[dict[str, Any]]:
        """The exchanges, newest first: finished ones (``live``: false) from the index,
        and those still in flight (a capture with no index line yet) with their size."""
        with self._lock:
            self._read_index()
            self._scan()
            items = [{**e, "live": False} for e in self._done.values()]
            for name in self._newest:
                if name not in self._done:
                    entry = self._in_flight(name)
                    if entry is not None:
                        items.append(entry)
        return heapq.nlargest(_LISTED, items, key=lambda e: str(e["name"]))

    # -- one exchange, analysed ---------------------------------------------------------------

    def inspect(self, name: str, provider: str, framing: str, have: int | None) -> bytes:
        """The page's analysis of exchange ``name`` (``analyse`` of its capture), as JSON,
        with a ``live`` part: the capture's size (``capture_bytes``), how much of it the
        analysis covers (``analysed_bytes``), whether it has ended (``ended``), whether
        the answer is the last one (``final``), the proxy's index line for it once it
        has ended (``whole``), and the analysis' ``version``.

        The analysis runs in a process of its own (:func:`analyse_apart`). With ``have``
        the version the page already shows, an unchanged analysis is not sent again
        (``{"unchanged": true, "live": …}``).

        Raises:
            FileNotFoundError: for an exchange with no capture.
            UsageError: for an unknown provider or framing name.
        """
        path = self.directory / f"{name}.ssecap"
        if _regular_size(path) is None:
            raise FileNotFoundError(path)
        with self._lock:
            self._read_index()
            whole = self._done.get(name)
            key = (name, provider, framing)
            opened = self._opened.pop(key, None) or _Opened()
            self._opened[key] = opened
            while len(self._opened) > _SESSIONS:
                self._opened.popitem(last=False)
        with self._analysing:
            with path.open("rb") as fp:
                st = os.fstat(fp.fileno())
                size = st.st_size
                ended = whole is not None or _ended(fp, size)
                cut = _line_end(fp, min(size, DETAIL_BYTES))
            if cut != opened.cut and self._due(opened, ended, cut):
                started = time.monotonic()
                opened.answer = analyse_apart(str(path), cut, provider, framing)
                opened.took = time.monotonic() - started
                opened.at = time.monotonic()
                opened.cut = cut
                opened.version += 1
            answer = opened.answer
        live = {
            "name": name,
            "capture_bytes": size,
            "analysed_bytes": max(0, opened.cut),
            "ended": ended,
            # nothing will change any more: it ended, and the analysis covers all it will
            "final": ended and opened.cut == cut,
            "whole": whole,
            "version": opened.version,
            # in flight: how long it has run and since its last data (no verdict yet)
            "streaming": None if ended else streaming_times(name, st.st_mtime),
        }
        meta = strictjson.dumps(live, default=str).encode("utf-8")
        if answer is None or have == opened.version:
            unchanged = b"true" if answer is not None else b"false"
            return b'{"unchanged":' + unchanged + b',"live":' + meta + b"}"
        return answer[:-1] + b',"unchanged":false,"live":' + meta + b"}"

    @staticmethod
    def _due(opened: _Opened, ended: bool, cut: int) -> bool:
        """Whether to analyse again: the first time, once more at the end, and otherwise no
        more often than its cost allows (a quarter of the time at most)."""
        if opened.answer is None or (ended and cut != opened.cut):
            return True
        return time.monotonic() - opened.at >= max(1.0, 4 * opened.took)


def _regular_size(path: Path) -> int | None:
    """The size of a regular file (``None`` for anything else, or nothing)."""
    found = _regular_stat(path)
    return None if found is None else found[0]


def _regular_stat(path: Path) -> tuple[int, float] | None:
    """The size and last write time of a regular file (``None`` for anything else)."""
    try:
        st = os.stat(path)
    except OSError:
        return None
    return (st.st_size, st.st_mtime) if stat.S_ISREG(st.st_mode) else None


def _ended(fp: BinaryIO, size: int) -> bool:
    line = _last_line(fp, size).strip()
    if not line.startswith(b'{"end"'):
        return False
    try:
        return "end" in orjson.loads(line)
    except orjson.JSONDecodeError:
        return False


def _head(path: Path) -> dict[str, Any]:
    """What an in-flight capture's header line says (method, path, status)."""
    try:
        with path.open("rb") as fp:
            first = fp.readline(1 << 20)
    except OSError:
        return {}
    try:
        head = orjson.loads(first)
    except orjson.JSONDecodeError:
        return {}
    req = head.get("request") if isinstance(head, dict) else None
    resp = head.get("response") if isinstance(head, dict) else None
    url = str(req.get("url", "")) if isinstance(req, dict) else ""
    return {
        "complete": first.endswith(b"\n"),
        "method": req.get("method") if isinstance(req, dict) else None,
        "path": re.sub(r"^[a-z]+://[^/]*", "", url) or "/",
        "status": resp.get("status") if isinstance(resp, dict) else None,
    }


def list_exchanges(directory: Path) -> list[dict[str, Any]]:
    """The exchanges of a record folder, newest first (in flight ones with ``live``)."""
    return LiveFolder(directory).listing()


_ANALYST = Analyst()


def analyse_apart(path: str, cut: int, provider: str, framing: str) -> bytes:
    """The JSON analysis of the first ``cut`` bytes of a capture, made in a process of
    its own (:class:`~ssescope.web.analyst.Analyst`, one for the whole process)."""
    return _ANALYST.run(path, cut, provider, framing)


def _not_found(name: str) -> JSONResponse:
    return JSONResponse({"error": f"no exchange named {name!r}"}, status_code=404)


def live_routes(directory: Path | None) -> list[Route]:
    """The Live view's routes over ``directory`` (``None``: the view says how to start one)."""
    folder = LiveFolder(directory) if directory is not None else None
    # one worker thread for the list and the captures, one for the analyses (so that a
    # long analysis never holds the list back); made in the event loop, on first use
    limiters: dict[str, anyio.CapacityLimiter] = {}
    warmed: list[bool] = []

    async def run(job: Any, *args: Any, lane: str = "list") -> Any:
        if lane not in limiters:
            limiters[lane] = anyio.CapacityLimiter(1)
        return await to_thread.run_sync(job, *args, limiter=limiters[lane])

    async def listing(_request: Request) -> Response:
        if folder is None:
            return JSONResponse({"dir": None, "exchanges": []})
        if not warmed:  # (the page lists before it opens: the analyses' process starts)
            warmed.append(True)
            await run(_ANALYST.warm)
        exchanges = await run(folder.listing)
        body = strictjson.dumps({"dir": str(folder.directory), "exchanges": exchanges}, default=str)
        return Response(body.encode("utf-8"), media_type="application/json")

    async def inspect(request: Request) -> Response:
        name = request.path_params["name"]
        if folder is None or not _NAME.match(name):
            return _not_found(name)
        provider = request.query_params.get("provider", "auto") or "auto"
        framing = request.query_params.get("framing", "auto") or "auto"
        raw = request.query_params.get("have", "")
        have = int(raw) if raw.isascii() and raw.isdigit() else None

        try:
            body = await run(folder.inspect, name, provider, framing, have, lane="inspect")
        except FileNotFoundError:
            return _not_found(name)
        except UsageError as exc:
            return JSONResponse({"error": str(exc)}, status_code=400)
        except AnalysisFailed as exc:  # the engine must not take the page down with it
            return JSONResponse(
                {"error": f"The engine failed on this exchange: {exc}"}, status_code=500
            )
        return Response(body, media_type="application/json")

    async def capture(request: Request) -> Response:
        name = request.path_params["name"]
        if folder is None or not _NAME.match(name):
            return _not_found(name)
        path = folder.directory / f"{name}.ssecap"
        raw = request.query_params.get("offset", "")
        offset = int(raw) if raw.isascii() and raw.isdigit() else 0

        def open_whole_lines() -> tuple[Any, int]:
            if _regular_size(path) is None:
                raise FileNotFoundError(path)
            fp = path.open("rb")
            # a capture being written may end in a half line: whole lines only
            end = _line_end(fp, os.fstat(fp.fileno()).st_size)
            fp.seek(min(offset, end))
            return fp, end

        try:
            fp, end = await run(open_whole_lines)
        except OSError:
            return _not_found(name)

        async def pieces() -> AsyncIterator[bytes]:
            try:
                left = end - fp.tell()
                while left > 0:
                    piece: bytes = await to_thread.run_sync(fp.read, min(_BLOCK, left))
                    if not piece:
                        return
                    left -= len(piece)
                    yield piece
            finally:
                fp.close()

        return StreamingResponse(pieces(), media_type="application/x-ndjson")

    return [
        Route("/api/live", listing),
        Route("/api/live/{name}/inspect", inspect),
        Route("/api/live/{name}", capture),
    ]
