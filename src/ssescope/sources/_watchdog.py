"""A thread that wakes a blocking read once a deadline passes (the sync content stall).

A sync client blocks in ``recv`` until the next bytes come, and its read timeout restarts
with every keep-alive, so a read cannot be bounded by the content deadline from the reading
thread. The watchdog sleeps until that deadline (which moves later whenever content
arrives) and then calls ``wake``, which shuts the socket's read side: the blocked read
returns at once, and the reading loop, seeing :attr:`Watchdog.fired`, records a content
stall rather than a broken connection.
"""

from __future__ import annotations

import contextlib
import socket
import threading
from collections.abc import Callable

__all__ = ["Watchdog", "shut_reading"]

_RECHECK_S = 0.5  # the longest sleep before the deadline is read again


class Watchdog:
    """Call ``wake`` once ``now()`` reaches ``deadline()`` (``None``: no deadline now).

    Args:
        deadline: the current deadline, read again after each sleep.
        now: the clock the deadline is on.
        wake: what to do when it passes (called once, from the watchdog's thread).
    """

    def __init__(
        self,
        deadline: Callable[[], float | None],
        now: Callable[[], float],
        wake: Callable[[], None],
    ) -> None:
        self._deadline = deadline
        self._now = now
        self._wake = wake
        self._stop = threading.Event()
        self.fired = False
        """Whether the deadline passed and ``wake`` was called."""
        self._thread = threading.Thread(target=self._run, name="ssescope-stall", daemon=True)

    def start(self) -> None:
        """Start watching."""
        self._thread.start()

    def stop(self) -> None:
        """Stop watching (the stream ended); waits for the thread."""
        self._stop.set()
        if self._thread.is_alive() and self._thread is not threading.current_thread():
            self._thread.join(timeout=2.0)

    def _run(self) -> None:
        while not self._stop.is_set():
            deadline = self._deadline()
            left = _RECHECK_S if deadline is None else deadline - self._now()
            if left <= 0:
                self.fired = True
                self._wake()
                return
            self._stop.wait(min(left, _RECHECK_S))


def shut_reading(sock: socket.socket) -> Callable[[], None]:
    """A ``wake`` that ends the reads of ``sock`` (a blocked ``recv`` returns no bytes)."""

    def wake() -> None:
        with contextlib.suppress(OSError):  # already closed: the read has ended anyway
            sock.shutdown(socket.SHUT_RDWR)

    return wake
