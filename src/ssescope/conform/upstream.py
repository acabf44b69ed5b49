"""What an ``ssescope serve`` behind the server under test saw: its log of served streams.

``serve`` keeps a short log of the streams it served (:data:`SERVED_PATH`): for each, the
order it arrived in and how it ended (``streaming``, ``complete``, or ``client-closed``
when its client hung up before the end). When the server under test is a gateway in front
of ``serve``, conform reads that log after its own hang-up, to see whether the gateway
closed its upstream connection too.
"""

from __future__ import annotations

import time
from typing import Any

import httpx

from .exchange import UpstreamView

__all__ = ["POLL_S", "SERVED_PATH", "WAIT_CAP_S", "Upstream"]

SERVED_PATH = "/.ssescope/served"
"""Where ``serve`` answers with its log of served streams (JSON)."""
POLL_S = 0.1
"""How often the log is read while waiting."""
WAIT_CAP_S = 10.0
"""The longest wait for the upstream stream to end after a hang-up."""


class Upstream:
    """A reader of one ``serve``'s log."""

    def __init__(self, url: str, timeout: float) -> None:
        self._url = url.rstrip("/") + SERVED_PATH
        self._timeout = timeout

    def _log(self) -> list[dict[str, Any]]:
        try:
            answer = httpx.get(self._url, timeout=self._timeout)
            served = answer.json().get("served", [])
        except (httpx.HTTPError, ValueError, AttributeError):
            return []
        return [e for e in served if isinstance(e, dict) and isinstance(e.get("n"), int)]

    def mark(self) -> int:
        """The number of the last stream served so far (0: none)."""
        return max((e["n"] for e in self._log()), default=0)

    def after_hangup(self, mark: int) -> UpstreamView:
        """Wait (at most :data:`WAIT_CAP_S`) until the streams served after ``mark`` ended,
        and say whether their client closed them before the end."""
        start = time.monotonic()
        wait = min(self._timeout, WAIT_CAP_S)
        while True:
            new = [e for e in self._log() if e["n"] > mark]
            waited = time.monotonic() - start
            if new and all(e.get("state") != "streaming" for e in new):
                closed = all(e.get("state") == "client-closed" for e in new)
                return UpstreamView(True, closed, waited)
            if waited >= wait:
                return UpstreamView(bool(new), False, waited)
            time.sleep(POLL_S)
