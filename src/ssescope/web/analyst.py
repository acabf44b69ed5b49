"""A process of its own for the Live view's analyses.

Analysing (and encoding) megabytes of a capture holds the interpreter lock for long
stretches; in the proxy's process that would hold up the event loop that forwards its
streams. :class:`Analyst` therefore hands each analysis to one child process
(running :func:`main`, started on first use and kept), which reads the
capture itself and answers with the JSON; the proxy's process only waits for the bytes
(a pipe read, which releases the lock). A plain child process, not ``multiprocessing``:
that would import the parent's main script again in the child.

The protocol, one job at a time: a JSON line ``{"path", "cut", "provider", "framing"}``
on the child's stdin; on its stdout one status byte (0: JSON, 1: a usage error, 2: a
failure), eight bytes of length (big-endian) and that many bytes.
"""

from __future__ import annotations

import atexit
import contextlib
import json
import struct
import subprocess
import sys
import threading
from typing import IO

import orjson

from ..errors import UsageError
from ..output import strictjson
from .analysis import analyse

__all__ = ["AnalysisFailed", "Analyst", "analysed", "main"]

_HEAD = struct.Struct(">BQ")
_CHILD = "from ssescope.web.analyst import main; main()"


def analysed(path: str, cut: int, provider: str, framing: str) -> bytes:
    """The JSON of ``analyse`` of the first ``cut`` bytes of the capture at ``path``."""
    with open(path, "rb") as fp:
        data = fp.read(cut)
    answer = analyse(data, provider=provider, framing=framing)
    return strictjson.dumps(answer, default=str).encode("utf-8")


class AnalysisFailed(Exception):
    """The analysis process failed on a capture (its message says how)."""


class Analyst:
    """The child process, and the one job it runs at a time."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._proc: subprocess.Popen[bytes] | None = None

    def _start(self) -> subprocess.Popen[bytes]:
        # the child gets this process's module path, so it imports this very ssescope
        code = "import json, sys; sys.path[:] = json.loads(sys.argv[1]); " + _CHILD
        proc = subprocess.Popen(
            [sys.executable, "-c", code, json.dumps(sys.path)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
        )
        atexit.register(_stop, proc)
        return proc

    def _running(self) -> subprocess.Popen[bytes]:
        # the child, started (again, when it died: the dead one's pipes are closed first)
        if self._proc is not None and self._proc.poll() is not None:
            _stop(self._proc)
            self._proc = None
        if self._proc is None:
            self._proc = self._start()
        return self._proc

    def warm(self) -> None:
        """Start the child process now (it takes a second), so the first analysis does not
        wait for it. Never raises: :meth:`run` reports a process that cannot start."""
        with self._lock, contextlib.suppress(OSError):
            self._running()

    def run(self, path: str, cut: int, provider: str, framing: str) -> bytes:
        """The JSON analysis (see :func:`analysed`), made in the child process.

        Raises:
            UsageError: for an unknown provider or framing name.
            AnalysisFailed: when the analysis failed, or the process could not run it.
        """
        job = orjson.dumps({"path": path, "cut": cut, "provider": provider, "framing": framing})
        with self._lock:
            for attempt in (1, 2):  # a child that died (killed) is started again, once
                try:
                    proc = self._running()
                except OSError as exc:
                    raise AnalysisFailed(f"cannot start the analysis process: {exc}") from exc
                assert proc.stdin is not None and proc.stdout is not None
                try:
                    proc.stdin.write(job + b"\n")
                    proc.stdin.flush()
                    status, body = _answer(proc.stdout)
                except (OSError, EOFError):
                    _stop(proc)
                    self._proc = None
                    if attempt == 2:
                        raise AnalysisFailed("the analysis process stopped") from None
                    continue
                if status == 1:
                    raise UsageError(body.decode("utf-8", "replace"))
                if status == 2:
                    raise AnalysisFailed(body.decode("utf-8", "replace"))
                return body
        raise AnalysisFailed("the analysis process stopped")  # (not reached)


def _answer(stdout: IO[bytes]) -> tuple[int, bytes]:
    head = stdout.read(_HEAD.size)
    if len(head) < _HEAD.size:
        raise EOFError
    status, size = _HEAD.unpack(head)
    body = stdout.read(size)
    if len(body) < size:
        raise EOFError
    return status, body


def _stop(proc: subprocess.Popen[bytes]) -> None:
    # the child ends at the end of its input; its pipes are closed here whatever it did,
    # not left to the garbage collector (a ResourceWarning at the interpreter's exit)
    try:
        if proc.stdin is not None:
            proc.stdin.close()
        proc.wait(2)
    except (OSError, subprocess.TimeoutExpired):
        proc.kill()
        with contextlib.suppress(subprocess.TimeoutExpired):
            proc.wait(2)
    finally:
        if proc.stdout is not None:
            proc.stdout.close()


def main() -> None:
    """The child: run the jobs read on stdin, one at a time, until stdin ends."""
    out = sys.stdout.buffer
    for line in sys.stdin.buffer:
        try:
            job = orjson.loads(line)
            status, body = 0, analysed(job["path"], job["cut"], job["provider"], job["framing"])
        except UsageError as exc:
            status, body = 1, str(exc).encode("utf-8")
        except Exception as exc:  # reported to the page, and the next job runs
            status, body = 2, f"{type(exc).__name__}: {exc}".encode()
        out.write(_HEAD.pack(status, len(body)) + body)
        out.flush()
