"""A real server run from a venv of its own (Phoenix, LiteLLM): started on loopback,
waited for until its health URL answers, stopped at the end.

``.ci/run`` builds each such venv, so the server never runs in the interpreter of the
suite; ``PYTHONPATH`` is dropped from its environment for the same reason.
"""

from __future__ import annotations

import socket
import subprocess
import time
import urllib.request
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path

__all__ = ["free_port", "venv_server"]


def free_port() -> int:
    """A loopback port nothing listens on (now)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@contextmanager
def venv_server(
    name: str,
    argv: list[str],
    env: Mapping[str, str],
    workdir: Path,
    health: str,
    *,
    timeout: float,
) -> Iterator[None]:
    """Run ``argv`` in ``workdir`` (its output in ``NAME.log`` there) until ``health``
    answers; stop it on leaving.

    Raises:
        RuntimeError: when it exits first, or does not answer within ``timeout`` seconds.
    """
    clean = dict(env)
    clean.pop("PYTHONPATH", None)  # (its own venv, not this tree)
    log = (workdir / f"{name}.log").open("wb")
    process = subprocess.Popen(argv, env=clean, cwd=workdir, stdout=log, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + timeout
        while True:
            if process.poll() is not None:
                raise RuntimeError(f"{name} exited with {process.returncode}; see {log.name}")
            try:
                with urllib.request.urlopen(health, timeout=2):
                    break
            except OSError:
                if time.monotonic() > deadline:
                    raise RuntimeError(f"{name} did not start in {timeout:.0f} s") from None
                time.sleep(0.5)
        yield
    finally:
        process.terminate()
        try:
            process.wait(15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(5)
        log.close()
