"""The container layer: unwrap what users have into the response body.

Users rarely hold a bare response body. They have ``curl -i`` output, a curl trace, a
browser HAR export, an ``.ssecap`` capture, or a JSONL dump of SDK chunks. This layer
turns each into a :class:`Body`: the body bytes as they arrived (:class:`Chunk`, with
arrival times when the form has them), the response status and headers, the request
(secrets redacted), what the form cannot give (``lost``) and what was wrong with it
(``diagnostics``)::

    body = read_container(data)          # auto-detects; never raises on bad input
    body.container, body.lost            # "curl-trace", ["exact bytes"]
    for chunk in body.chunks:
        framer.feed(chunk.data, chunk.time)

It is also where ``.ssecap`` captures are written (:class:`CaptureWriter`) and where the
redaction functions live (:func:`redact_headers`, :func:`redact_url`).
"""

from __future__ import annotations

from . import _body
from ._body import *  # noqa: F403 (the Body and its vocabulary: _body.__all__)
from .capture import END_REASONS, CaptureWriter, EndReason, read_capture
from .curltrace import read_curl_trace
from .detect import DETECT_BYTES, detect_container
from .har import STREAM_TYPES, read_har, read_har_all
from .httpdump import read_http
from .jsonl import read_jsonl, read_jsonl_all
from .read import read_all, read_container, read_path, read_raw
from .redact import REDACTED, SECRET_HEADERS, SECRET_QUERY_KEYS, redact_headers, redact_url

__all__ = [
    "DETECT_BYTES",
    "END_REASONS",
    "REDACTED",
    "SECRET_HEADERS",
    "SECRET_QUERY_KEYS",
    "STREAM_TYPES",
    "CaptureWriter",
    "EndReason",
    "detect_container",
    "read_all",
    "read_capture",
    "read_container",
    "read_curl_trace",
    "read_har",
    "read_har_all",
    "read_http",
    "read_jsonl",
    "read_jsonl_all",
    "read_path",
    "read_raw",
    "redact_headers",
    "redact_url",
]
__all__ += _body.__all__
