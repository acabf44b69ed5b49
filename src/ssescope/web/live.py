"""The web page's Live view: the proxy's exchanges as they arrive, from its record folder.

``ssescope proxy --record DIR`` writes one ``.ssecap`` per exchange as it streams and one
``index.jsonl`` line as each ends. ``GET /api/live`` lists both: finished exchanges from
the index, and exchanges still in flight (a capture with no index line yet) from their
header line and size. ``GET /api/live/{name}`` returns a capture as far as it is written,
so that the page opens an exchange in the normal debugger view even mid-stream.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import orjson
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

__all__ = ["INDEX_NAME", "list_exchanges", "live_routes"]

INDEX_NAME = "index.jsonl"
"""The index file the proxy writes in its record folder."""

_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,200}$")
_INDEX_TAIL = 4 * 1024 * 1024  # the index's last bytes read for the list
_LISTED = 500


def _index(directory: Path) -> list[dict[str, Any]]:
    path = directory / INDEX_NAME
    try:
        with path.open("rb") as fp:
            size = fp.seek(0, 2)
            fp.seek(max(0, size - _INDEX_TAIL))
            data = fp.read()
    except OSError:
        return []
    out: list[dict[str, Any]] = []
    for line in data.splitlines():
        try:
            obj = orjson.loads(line)
        except orjson.JSONDecodeError:
            continue  # a line cut by the tail window, or being written
        if isinstance(obj, dict) and isinstance(obj.get("name"), str):
            out.append(obj)
    return out


def _in_flight(path: Path) -> dict[str, Any] | None:
    try:
        with path.open("rb") as fp:
            first = fp.readline(1 << 20)
            size = fp.seek(0, 2)
    except OSError:
        return None
    try:
        head = orjson.loads(first)
    except orjson.JSONDecodeError:
        head = {}
    req = head.get("request") if isinstance(head, dict) else None
    resp = head.get("response") if isinstance(head, dict) else None
    url = str(req.get("url", "")) if isinstance(req, dict) else ""
    path_part = re.sub(r"^[a-z]+://[^/]*", "", url) or "/"
    return {
        "name": path.stem,
        "capture": str(path),
        "method": req.get("method") if isinstance(req, dict) else None,
        "path": path_part,
        "status": resp.get("status") if isinstance(resp, dict) else None,
        "verdict": None,
        "live": True,
        "capture_bytes": size,
    }


def list_exchanges(directory: Path) -> list[dict[str, Any]]:
    """The exchanges of a record folder, newest first (in flight ones with ``live``)."""
    done = {e["name"]: {**e, "live": False} for e in _index(directory)}
    items = list(done.values())
    try:
        captures = sorted(directory.glob("*.ssecap"), reverse=True)[: _LISTED * 2]
    except OSError:
        captures = []
    for cap in captures:
        if cap.stem not in done:
            entry = _in_flight(cap)
            if entry is not None:
                items.append(entry)
    items.sort(key=lambda e: str(e["name"]), reverse=True)
    return items[:_LISTED]


def live_routes(directory: Path | None) -> list[Route]:
    """The Live view's routes over ``directory`` (``None``: the view says how to start one)."""

    async def listing(_request: Request) -> Response:
        if directory is None:
            return JSONResponse({"dir": None, "exchanges": []})
        return JSONResponse({"dir": str(directory), "exchanges": list_exchanges(directory)})

    async def capture(request: Request) -> Response:
        name = request.path_params["name"]
        if directory is None or not _NAME.match(name):
            return JSONResponse({"error": f"no exchange named {name!r}"}, status_code=404)
        path = directory / f"{name}.ssecap"
        try:
            data = path.read_bytes()
        except OSError:
            return JSONResponse({"error": f"no exchange named {name!r}"}, status_code=404)
        # a capture being written may end in a half line: keep whole lines only
        cut = data.rfind(b"\n")
        return Response(data[: cut + 1] if cut >= 0 else data, media_type="application/x-ndjson")

    return [Route("/api/live", listing), Route("/api/live/{name}", capture)]
