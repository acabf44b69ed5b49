"""How late this process's threads wake on a loaded machine, measured while a test runs.

A timing check on a shared machine cannot be more exact than the machine's own wake-ups:
a server's sleep and a client's read each end when the process is next scheduled and holds
the interpreter lock. ``Lateness`` samples that delay on a thread of its own, so that a
check can allow what the machine took and no more: on a quiet machine it is a few
milliseconds during a replay.
"""

from __future__ import annotations

import threading
import time
from types import TracebackType

_NAP = 0.005  # a short sleep, as the replay's between two chunks


class Lateness:
    """A context manager: ``worst`` is the latest wake-up seen while it was open (s)."""

    def __init__(self) -> None:
        self.worst = 0.0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._sample, daemon=True)

    def _sample(self) -> None:
        while not self._stop.is_set():
            start = time.monotonic()
            time.sleep(_NAP)
            self.worst = max(self.worst, time.monotonic() - start - _NAP)

    def __enter__(self) -> Lateness:
        self._thread.start()
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        value: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self._stop.set()
        self._thread.join()
