"""An HTTP answer that is not a stream (an error status, a redirect), read into a Report.

``ssescope request`` and ``ssescope conform URL`` both read such an answer this way: at
most :data:`ERROR_BODY_CAP` bytes, credentials the server echoed scrubbed, a redirect
reported (never followed).
"""

from __future__ import annotations

import time
from typing import Any

from .. import codes
from ..aggregate.report import Report
from ..containers.redact import REDACTED, redact_url, scrub
from ..diagnostics import diagnostic

__all__ = ["ERROR_BODY_CAP", "read_answer"]

ERROR_BODY_CAP = 1 << 20
"""The most bytes of an HTTP error (or redirect) body that is read (1 MiB)."""


def _read_capped(response: Any, cap: int) -> tuple[bytes, bool, BaseException | None]:
    """Read at most ``cap`` decoded bytes of a body: (bytes, whether the cap was hit, error)."""
    import httpx

    from .httpx import iter_body

    parts: list[bytes] = []
    size = 0
    try:
        for piece in iter_body(response):
            parts.append(piece)
            size += len(piece)
            if size > cap:
                return b"".join(parts)[:cap], True, None
    except (httpx.DecodingError, httpx.TransportError) as exc:
        return b"".join(parts), False, exc
    return b"".join(parts), False, None


def read_answer(response: Any, live: Any, capture: Any, start: float, secrets: list[str]) -> Report:
    """Read an HTTP error or redirect answer (capped at :data:`ERROR_BODY_CAP`, credentials
    scrubbed) into the Report of ``live`` (a :class:`~ssescope.sources.httpx.LiveStream`),
    teeing it into ``capture`` (if any)."""
    status = response.status_code
    raw, capped, error = _read_capped(response, ERROR_BODY_CAP)
    text = raw.decode("utf-8", "replace")
    cleaned = scrub(text, secrets)
    pipeline = live.pipeline
    if cleaned != text:
        raw = cleaned.encode("utf-8")
        pipeline.add_diagnostic(diagnostic(codes.HTTP_SECRET_ECHOED, 0, replacement=REDACTED))
    if raw:
        elapsed = time.monotonic() - start
        if capture is not None:
            capture.write_chunk(raw, elapsed)
        pipeline.feed(raw, elapsed)
    if capped:
        pipeline.add_diagnostic(
            diagnostic(codes.HTTP_BODY_CAPPED, ERROR_BODY_CAP, status=status, cap=ERROR_BODY_CAP)
        )
    if error is not None:
        live.fail(error)
    location = None
    if status < 400:
        location = redact_url(scrub(response.headers.get("location", ""), secrets))
        pipeline.add_diagnostic(
            diagnostic(
                codes.HTTP_REDIRECT,
                0,
                form="location" if location else "no-location",
                status=status,
                location=location,
            )
        )
    report: Report = live.close("the server did not answer with a stream")
    if location is not None:
        report.response.status = "failed"
        report.response.status_reason = (
            f"the server answered HTTP {status}, a redirect (not followed)"
        )
    return report
