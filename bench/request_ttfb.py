"""First-byte time of ``ssescope request`` on loopback, against curl, on one ``serve``.

Starts ``ssescope serve`` on a free loopback port with a bundled example, then runs, in
alternation, ``ssescope request --json`` (reading ``timing.first_byte_s`` of its Report)
and ``curl -w %{time_starttransfer}`` (when curl is installed). Prints the median and the
best of --runs runs of each, in milliseconds.

    PYTHONPATH=src python bench/request_ttfb.py
    PYTHONPATH=src python bench/request_ttfb.py --runs 30 --example anthropic-thinking-tool-use
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import socket
import statistics
import subprocess
import sys
import time
from pathlib import Path


def free_port() -> int:
    """A free loopback port."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def main(argv: list[str] | None = None) -> None:
    """Serve the example, time the clients, print the table."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--example", default="openai-chat-tool-call")
    args = parser.parse_args(argv)
    env = dict(os.environ)
    env.setdefault("PYTHONPATH", str(Path(__file__).resolve().parents[1] / "src"))
    from ssescope.examples import example_path

    path = example_path(args.example)
    port = free_port()
    server = subprocess.Popen(
        [sys.executable, "-m", "ssescope", "serve", str(path), "--port", str(port)],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        env=env,
    )
    url = f"http://127.0.0.1:{port}/"
    try:
        assert server.stdout is not None
        server.stdout.readline()  # the URL: the server is up
        time.sleep(0.2)
        ours: list[float] = []
        curls: list[float] = []
        curl = shutil.which("curl")
        for _ in range(args.runs):
            out = subprocess.run(
                [sys.executable, "-m", "ssescope", "request", url, "-d", "{}", "--json"],
                capture_output=True,
                env=env,
                check=False,
            ).stdout
            ours.append(json.loads(out)["timing"]["first_byte_s"] * 1000)
            if curl:
                took = subprocess.run(
                    [curl, "-s", "-o", "/dev/null", "-d", "{}", "-w", "%{time_starttransfer}", url],
                    capture_output=True,
                    text=True,
                    check=False,
                ).stdout
                curls.append(float(took) * 1000)
        print(f"{args.runs} runs on loopback, example {args.example}\n")
        print("| client | first byte, median ms | best ms |")
        print("|---|---:|---:|")
        print(f"| `ssescope request` | {statistics.median(ours):.1f} | {min(ours):.1f} |")
        if curls:
            print(f"| `curl` | {statistics.median(curls):.1f} | {min(curls):.1f} |")
    finally:
        server.terminate()
        server.wait(timeout=10)


if __name__ == "__main__":
    main()
