"""Entry points: detect the container (or take the one given) and read it."""

from __future__ import annotations

import os
from collections.abc import Callable

import orjson

from .. import codes
from ..diagnostics import diagnostic
from ..errors import UsageError
from ._body import CONTAINERS, RAW_LOST, Body, Chunk, ContainerName
from .capture import read_capture, read_capture_all
from .curltrace import read_curl_trace
from .detect import detect_container
from .har import read_har, read_har_all
from .httpdump import read_http
from .jsonl import read_jsonl, read_jsonl_all
from .ws_forms import is_ws_message, read_ws_jsonl

__all__ = ["read_all", "read_container", "read_path", "read_raw"]


def read_raw(data: bytes) -> Body:
    """The body is the input itself: one chunk, no times, no headers."""
    chunks = [Chunk(data, None)] if data else []
    return Body(chunks, "raw", lost=list(RAW_LOST))


def _ws_log(data: bytes) -> bool:
    start = data[3:] if data.startswith(b"\xef\xbb\xbf") else data
    start = start.lstrip(b" \t\r\n")
    nl = start.find(b"\n")
    first = start if nl < 0 else start[:nl]
    try:
        return is_ws_message(orjson.loads(first))
    except orjson.JSONDecodeError:
        return False


def _jsonl_all(data: bytes) -> list[Body]:
    return read_ws_jsonl(data) if _ws_log(data) else read_jsonl_all(data)


def _jsonl(data: bytes) -> Body:
    if not _ws_log(data):
        return read_jsonl(data)
    bodies = read_ws_jsonl(data)
    if len(bodies) > 1:
        bodies[0].diagnostics.append(diagnostic(codes.WEBSOCKET_MULTIPLE_RESPONSES, n=len(bodies)))
    return bodies[0]


_READERS: dict[str, Callable[[bytes], Body]] = {
    "raw": read_raw,
    "http": read_http,
    "curl-trace": read_curl_trace,
    "har": read_har,
    "ssecap": read_capture,
    "jsonl": _jsonl,
}


_READ_ALL: dict[str, Callable[[bytes], list[Body]]] = {
    "har": read_har_all,
    "jsonl": _jsonl_all,
    "ssecap": read_capture_all,
}


def _choose(data: bytes, container: str) -> tuple[ContainerName, str]:
    if container == "auto":
        return detect_container(data)
    if container not in CONTAINERS:
        raise UsageError(
            f"unknown container {container!r}; expected auto or one of {', '.join(CONTAINERS)}"
        )
    return container, "given by the caller"


def _guarded(reader: Callable[[bytes], list[Body]], data: bytes, name: ContainerName) -> list[Body]:
    try:
        return reader(data)
    except Exception as exc:  # a reader bug must not lose the user's input
        body = read_raw(data)
        body.diagnostics.append(
            diagnostic(
                codes.CONTAINER_READ_FAILED,
                name=name,
                error_type=type(exc).__name__,
                error=str(exc),
            )
        )
        return [body]


def read_container(data: bytes, *, container: str = "auto") -> Body:
    """Unwrap ``data`` into the response body and what its container knew.

    Args:
        data: the whole input (a file's bytes, stdin, a paste).
        container: ``"auto"`` (detect, see :func:`detect_container`) or one of
            :data:`CONTAINERS`.

    Returns:
        The :class:`Body`. For a HAR with several streamed responses, the first (with
        the info ``har.multiple-entries``), and for a JSONL log holding several streams
        the first (with ``jsonl.multiple-streams``); :func:`read_all` returns them all.

    Raises:
        UsageError: for an unknown ``container`` name. Bad input never raises.
    """
    name, rule = _choose(data, container)
    reader = _READERS[name]
    body = _guarded(lambda d: [reader(d)], data, name)[0]
    body.rule = rule
    return body


def read_all(data: bytes, *, container: str = "auto") -> list[Body]:
    """Like :func:`read_container`, but every stream of a HAR or a JSONL log (in file order).

    Raises:
        UsageError: for an unknown ``container`` name.
    """
    name, rule = _choose(data, container)
    if name in _READ_ALL:
        bodies = _guarded(_READ_ALL[name], data, name)
    else:
        reader = _READERS[name]
        bodies = _guarded(lambda d: [reader(d)], data, name)
    for body in bodies:
        body.rule = rule
    return bodies


def read_path(path: str | os.PathLike[str], *, container: str = "auto") -> Body:
    """Read the file at ``path`` with :func:`read_container`.

    Raises:
        OSError: if the file cannot be read.
        UsageError: for an unknown ``container`` name.
    """
    with open(path, "rb") as fp:
        return read_container(fp.read(), container=container)
