"""``.ssecap`` captures: the lossless record of one streamed HTTP exchange.

JSON Lines, UTF-8. The first line is the header::

    {"ssescope": "capture", "version": 1,
     "request": {"method": "POST", "url": "...", "headers": [["Name", "value"], ...]},
     "response": {"status": 200, "headers": [["Name", "value"], ...]}}

then one line per received chunk, ``t`` being seconds since the request started::

    {"t": 0.412, "data": "data: {...}\\n\\n"}     the chunk is valid UTF-8 on its own
    {"t": 0.413, "b64": "8J+Y"}                   it is not (a split character, binary)

and optionally a last line saying how the stream ended::

    {"end": "eof" | "cancelled" | "stalled" | "error", "t": 5.2}

The request may carry its ``body`` (a JSON value, or the text), and the end line more keys
(the proxy writes its idle times there, and ``undecoded``, why the recorded chunks are
still in the response's ``Content-Encoding``); readers ignore keys they do not know.

Headers are lists of pairs so that order and repeated names survive. Secrets are
redacted when written (:mod:`ssescope.containers.redact`), and again when read. Each
line is flushed as it is written, so a capture of a run that dies is still readable up
to its last chunk; a garbled or cut-off line is reported and skipped on reading.
"""

from __future__ import annotations

import base64
import binascii
import math
import os
from collections.abc import Iterable, Mapping
from typing import IO, Any, ClassVar, TypeAlias

import orjson

from .. import codes
from ..diagnostics import Diagnostic, diagnostic
from ..errors import UsageError
from ..framing import BOM
from ..rpcrequest import request_ids
from ..sourceinfo import END_REASONS, EndReason
from ._body import LOST_TIMING, Body, Chunk, RequestInfo
from ._httpbody import check_status
from .redact import redact_header_bytes, redact_headers, redact_url
from .request_tools import request_tools
from .ws_forms import WS_VERSION, read_ws_capture

__all__ = [
    "END_REASONS",
    "CaptureWriter",
    "EndReason",
    "Headers",
    "read_capture",
    "read_capture_all",
]

Headers: TypeAlias = "Iterable[tuple[str, str]] | Mapping[str, str]"
"""Headers as ``(name, value)`` pairs or a mapping."""

VERSION = 1


def _finite(t: object) -> bool:
    return isinstance(t, (int, float)) and not isinstance(t, bool) and math.isfinite(t)


class CaptureWriter:
    """Write a ``.ssecap`` capture, chunk by chunk, as a stream is received.

    Args:
        fp_or_path: a binary file object (left open by :meth:`close`) or a path (opened
            for writing, truncated, and closed by :meth:`close`).
        request: ``{"method", "url", "headers"}`` and optionally ``"body"`` (the request
            body as a JSON value, or text); the URL and headers are redacted.
        response_status: the response status code.
        response_headers: the response headers (redacted).

    The header line is written at once. Use as a context manager to close on exit (an
    exception then records ``{"end": "error"}``).
    """

    FORM: ClassVar[Mapping[str, Any]] = {"version": VERSION}
    """The header keys that say which form of capture this is."""

    def __init__(
        self,
        fp_or_path: IO[bytes] | str | os.PathLike[str],
        *,
        request: Mapping[str, Any] | None = None,
        response_status: int | None = None,
        response_headers: Headers | None = None,
    ) -> None:
        if isinstance(fp_or_path, (str, os.PathLike)):
            self._fp: IO[bytes] = open(fp_or_path, "wb")  # noqa: SIM115 (closed by close())
            self._owned = True
        else:
            self._fp = fp_or_path
            self._owned = False
        self._closed = False
        self._last: float | None = None
        req: dict[str, Any] | None = None
        if request is not None:
            req = {
                "method": str(request.get("method", "")),
                "url": redact_url(str(request.get("url", ""))),
                "headers": [list(p) for p in redact_headers(request.get("headers") or [])],
            }
            if request.get("body") is not None:
                req["body"] = request["body"]
        header = {
            "ssescope": "capture",
            **self.FORM,
            "request": req,
            "response": {
                "status": response_status,
                "headers": [list(p) for p in redact_headers(response_headers or [])],
            },
        }
        self._line(header)

    @property
    def closed(self) -> bool:
        """Whether :meth:`close` was called."""
        return self._closed

    def _check_write(self, method: str, what: str, time: float | None) -> None:
        """Refuse ``method`` (a write of ``what``) after :meth:`close`, or at a ``time``
        that is not a finite number."""
        if self._closed:
            raise UsageError(f"{method}() called after close()")
        if time is not None and not _finite(time):
            raise UsageError(f"{what}'s time must be a finite number of seconds, not {time!r}")

    def _line(self, obj: dict[str, Any]) -> None:
        self._fp.write(orjson.dumps(obj) + b"\n")
        self._fp.flush()

    def write_chunk(self, data: bytes, time: float | None) -> None:
        """Record one received chunk and its time (seconds since the request started).

        ``time`` is ``None`` only for a body whose arrival times were never measured
        (it is written as ``null``, and read back as "timing lost").

        Raises:
            UsageError: after :meth:`close`, or if ``time`` is not a finite number.
        """
        self._check_write("write_chunk", "a chunk", time)
        try:
            line: dict[str, Any] = {"t": time, "data": data.decode("utf-8")}
        except UnicodeDecodeError:
            line = {"t": time, "b64": base64.b64encode(data).decode("ascii")}
        if time is not None:
            self._last = float(time)
        self._line(line)

    def close(
        self,
        end: EndReason | None = None,
        time: float | None = None,
        *,
        extra: Mapping[str, Any] | None = None,
    ) -> None:
        """Finish the capture, recording how the stream ended if ``end`` is given.

        ``time`` defaults to the last chunk's time; ``extra`` adds keys to the end line
        (the proxy's idle times). Closing twice does nothing.

        Raises:
            UsageError: for an unknown ``end`` or a non-finite ``time``.
        """
        if self._closed:
            return
        if end is not None and end not in END_REASONS:
            raise UsageError(f"unknown end {end!r}; expected one of {', '.join(END_REASONS)}")
        if time is not None and not _finite(time):
            raise UsageError(f"the end time must be a finite number of seconds, not {time!r}")
        self._closed = True
        try:
            if end is not None:
                line: dict[str, Any] = {"end": end}
                t = time if time is not None else self._last
                if t is not None:
                    line["t"] = t
                if extra:
                    line.update({k: v for k, v in extra.items() if k not in ("end", "t")})
                self._line(line)
        finally:
            if self._owned:
                self._fp.close()

    def __enter__(self) -> CaptureWriter:
        return self

    def __exit__(self, exc_type: object, exc: object, tb: object) -> None:
        self.close("error" if exc_type is not None else None)


def _headers(value: object) -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    if isinstance(value, list):
        out.extend(
            (str(item[0]), str(item[1]))
            for item in value
            if isinstance(item, list) and len(item) == 2
        )
    elif isinstance(value, dict):
        out.extend((str(k), str(v)) for k, v in value.items())
    return out


def read_capture_all(data: bytes) -> list[Body]:
    """Read a ``.ssecap`` capture: one body, or one per response of a WebSocket capture
    (:mod:`ssescope.containers.ws_forms`). Never raises."""
    body, ws_lines = _read(data)
    if ws_lines is None:
        return [body]
    return read_ws_capture(ws_lines, body)


def read_capture(data: bytes) -> Body:
    """Read a ``.ssecap`` capture: the exact chunks and times it recorded.

    For a WebSocket capture of several responses, the first, with the info
    ``websocket.multiple-responses``. Never raises: a garbled or cut-off line becomes a
    diagnostic and the rest is read.
    """
    bodies = read_capture_all(data)
    if len(bodies) > 1:
        bodies[0].diagnostics.append(diagnostic(codes.WEBSOCKET_MULTIPLE_RESPONSES, n=len(bodies)))
    return bodies[0]


def _read(data: bytes) -> tuple[Body, list[tuple[int, dict[str, Any]]] | None]:
    diags: list[Diagnostic] = []
    chunks: list[Chunk] = []
    body = Body(chunks, "ssecap", diagnostics=diags)
    pos = 3 if data.startswith(BOM) else 0
    n = len(data)
    lineno = 0
    header_seen = False
    after_end = False
    ws_lines: list[tuple[int, dict[str, Any]]] | None = None
    while pos < n:
        end = data.find(b"\n", pos)
        complete = end >= 0
        if not complete:
            end = n
        raw = data[pos:end]
        at = pos
        pos = end + 1
        lineno += 1
        if not raw.strip():
            continue
        try:
            obj = orjson.loads(raw)
        except orjson.JSONDecodeError as exc:
            obj = None
            reason = str(exc)
        else:
            reason = "not a JSON object"
        if not header_seen:
            header_seen = True
            if isinstance(obj, dict) and obj.get("ssescope") in ("capture", 1):
                _header(obj, body, at)
                if obj.get("transport") == "websocket":
                    ws_lines = []
                continue
            diags.append(
                diagnostic(
                    codes.SSECAP_INVALID_HEADER,
                    at,
                    reason=reason if obj is None else "no ssescope key",
                    raw_text=redact_header_bytes(raw),  # (the request's headers)
                )
            )
            if not isinstance(obj, dict) or not ({"t", "data", "b64"} & obj.keys()):
                continue
        if not isinstance(obj, dict):
            diags.append(_bad_line(lineno, raw, at, reason, complete))
            continue
        if ws_lines is not None:
            ws_lines.append((at, obj))
            continue
        if after_end:
            after_end = False  # reported once
            diags.append(diagnostic(codes.SSECAP_DATA_AFTER_END, at, lineno=lineno))
        if "end" in obj:
            body.end = str(obj["end"])
            if isinstance(obj.get("undecoded"), str):
                # the proxy's recorder could not decode the body: its chunks are as received
                diags.append(
                    diagnostic(
                        codes.HTTP_CONTENT_ENCODING_UNSUPPORTED,
                        at,
                        form="recorder",
                        why=obj["undecoded"],
                    )
                )
            if _finite(obj.get("t")):
                body.timing["total_s"] = float(obj["t"])
            after_end = True
            continue
        t = obj.get("t")
        time = float(t) if isinstance(t, (int, float)) and _finite(t) else None
        if "data" in obj and isinstance(obj["data"], str):
            piece = obj["data"].encode("utf-8", "surrogatepass")
        elif "b64" in obj and isinstance(obj["b64"], str):
            try:
                piece = base64.b64decode(obj["b64"], validate=True)
            except (binascii.Error, ValueError) as exc:
                diags.append(_bad_line(lineno, raw, at, f"bad base64: {exc}", complete))
                continue
        else:
            diags.append(_bad_line(lineno, raw, at, "no 'data' or 'b64' string", complete))
            continue
        if time is None and t is None and "t" in obj:
            # "t": null is how a capture of a body without arrival times (a pasted
            # stream exported by the web page) says "not measured"; nothing is wrong.
            if LOST_TIMING not in body.lost:
                body.lost.append(LOST_TIMING)
        elif time is None:
            diags.append(diagnostic(codes.SSECAP_MISSING_TIME, at, lineno=lineno, time=t))
        chunks.append(Chunk(piece, time))
    body.diagnostics.extend(check_status(body.status, "", None))
    if chunks and chunks[0].time is not None:
        body.timing["first_byte_s"] = chunks[0].time
    if "total_s" not in body.timing and chunks and chunks[-1].time is not None:
        body.timing["total_s"] = chunks[-1].time
    return body, ws_lines


def _header(obj: dict[str, Any], body: Body, at: int) -> None:
    version = obj.get("version")
    if version != (WS_VERSION if obj.get("transport") == "websocket" else VERSION):
        body.diagnostics.append(
            diagnostic(codes.SSECAP_UNKNOWN_VERSION, at, version=version, version2=VERSION)
        )
    req = obj.get("request")
    if isinstance(req, dict):
        body.request = RequestInfo(
            method=str(req.get("method", "")),
            url=redact_url(str(req.get("url", ""))),
            headers=redact_headers(_headers(req.get("headers"))),
        )
        body.tools = request_tools(req.get("body"), body.request["headers"])
        body.request_body = req.get("body")
        body.request_ids = request_ids(req.get("body"))
    resp = obj.get("response")
    if isinstance(resp, dict):
        status = resp.get("status")
        body.status = status if isinstance(status, int) and not isinstance(status, bool) else None
        body.headers = redact_headers(_headers(resp.get("headers")))


def _bad_line(lineno: int, raw: bytes, at: int, reason: str, complete: bool) -> Diagnostic:
    if not complete:
        return diagnostic(
            codes.SSECAP_TRUNCATED_LINE, at, lineno=lineno, reason=reason, raw_text=raw
        )
    return diagnostic(codes.SSECAP_INVALID_LINE, at, lineno=lineno, reason=reason, raw_text=raw)
