"""``ssescope web`` and ``ssescope serve`` against half-sent requests, before and after.

Each server runs from ``--src`` under ``ulimit -n 1024``; 1,100 connections each send
half a request line and wait; the figure is how long until another client gets its page
(or that it never did within ``--timeout`` seconds). Loopback only.

    PYTHONPATH=src python bench/servers_hostile.py                    # this code
    PYTHONPATH=src python bench/servers_hostile.py --src /other/src   # another version
"""

from __future__ import annotations

import argparse
import contextlib
import os
import re
import resource
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "src" / "ssescope" / "examples" / "vercel-ui.sse"


def _files() -> None:
    resource.setrlimit(resource.RLIMIT_NOFILE, (1024, 1024))


def _start(src: Path, command: list[str]) -> tuple[subprocess.Popen[str], str]:
    proc = subprocess.Popen(
        [sys.executable, "-m", "ssescope", *command, "--port", "0"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONPATH": str(src)},
        preexec_fn=_files,  # noqa: PLW1509 (no threads in the child yet)
    )
    stream = proc.stderr if command[0] == "web" else proc.stdout
    assert stream is not None
    while line := stream.readline():
        found = re.search(r"http://127\.0\.0\.1:\d+", line)
        if found:
            return proc, found.group(0)
    raise SystemExit(f"{command[0]} did not start")


def _half_sent(port: int) -> socket.socket | None:
    try:
        sock = socket.create_connection(("127.0.0.1", port), timeout=2)
        sock.sendall(b"GET / HTT")
    except OSError:
        return None
    return sock


def measure(src: Path, command: list[str], attackers: int, timeout: float) -> str:
    proc, url = _start(src, command)
    port = int(url.rsplit(":", 1)[1])
    held: list[socket.socket] = []
    try:
        for _ in range(attackers):
            sock = _half_sent(port)
            if sock is None:
                break
            held.append(sock)
        start = time.monotonic()
        while time.monotonic() - start < timeout:
            with contextlib.suppress(httpx.HTTPError):
                if httpx.get(url + "/", timeout=2).status_code == 200:
                    return f"served after {time.monotonic() - start:.1f} s"
            time.sleep(0.1)
        return f"never served in {timeout:g} s"
    finally:
        for sock in held:
            sock.close()
        proc.terminate()
        proc.communicate(timeout=10)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--src", type=Path, default=ROOT / "src")
    parser.add_argument("--attackers", type=int, default=1100)
    parser.add_argument("--timeout", type=float, default=30.0)
    args = parser.parse_args()
    print(f"source: {args.src}")
    for command in (["web"], ["serve", str(EXAMPLE)]):
        print(f"| `{command[0]}` | {measure(args.src, command, args.attackers, args.timeout)} |")


if __name__ == "__main__":
    main()
