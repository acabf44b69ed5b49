"""How much latency the recording proxy adds per chunk, and how much memory it holds.

Three processes on loopback: an upstream that streams OpenAI-like chunks, each stamped
with ``time.monotonic_ns()`` as it is written; ``ssescope proxy`` recording into a
temporary folder; and this client, which stamps each chunk as it arrives. The latency of
a chunk is its arrival time minus its stamp (CLOCK_MONOTONIC is one clock for every
process on Linux). The same streams are read directly from the upstream and through the
proxy; the difference is what the proxy adds.

    PYTHONPATH=src python bench/proxy.py            # a few minutes
    PYTHONPATH=src python bench/proxy.py --quick --long-mib 16

Memory: the proxy's resident size (VmRSS, VmHWM from /proc) after start-up, after the
latency runs, and after each long stream (``--long-mib``, default 16, 64 and 256 MiB, one
after the other through the same proxy), read as fast as loopback allows. Flat figures
from one long stream to the next mean memory does not grow with a stream's length.
``--src DIR`` runs the proxy from another checkout's ``src`` (to compare two versions).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import re
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[1]


# -- the upstream (runs in its own process) ----------------------------------------------


def upstream_main(port: int) -> None:
    import uvicorn
    from starlette.applications import Starlette
    from starlette.requests import Request
    from starlette.responses import StreamingResponse
    from starlette.routing import Route

    async def stream(request: Request) -> StreamingResponse:
        n = int(request.query_params.get("n", "500"))
        gap = float(request.query_params.get("gap_ms", "2")) / 1000
        pad = "x" * int(request.query_params.get("pad", "40"))

        async def body():  # type: ignore[no-untyped-def]
            for i in range(n):
                if gap:
                    await asyncio.sleep(gap)
                stamp = time.monotonic_ns()
                yield (
                    f'data: {{"id":"c","object":"chat.completion.chunk","model":"m",'
                    f'"choices":[{{"index":0,"delta":{{"content":"{i} {pad}"}},"finish_reason":null}}],'
                    f'"stamp":{stamp}}}\n\n'
                ).encode()
            yield (
                b'data: {"id":"c","object":"chat.completion.chunk","model":"m","choices":'
                b'[{"index":0,"delta":{},"finish_reason":"stop"}]}\n\ndata: [DONE]\n\n'
            )

        return StreamingResponse(body(), media_type="text/event-stream")

    app = Starlette(routes=[Route("/v1/chat/completions", stream, methods=["POST"])])
    uvicorn.run(app, host="127.0.0.1", port=port, log_level="warning", lifespan="off")


# -- the client -----------------------------------------------------------------------------

_STAMP = re.compile(rb'"stamp":(\d+)')


async def one_stream(client: httpx.AsyncClient, url: str, n: int, gap_ms: float) -> list[float]:
    """Per-chunk latency (ms) of one stream."""
    out: list[float] = []
    async with client.stream(
        "POST", url + f"/v1/chat/completions?n={n}&gap_ms={gap_ms}", json={"model": "m"}
    ) as r:
        async for chunk in r.aiter_raw():
            now = time.monotonic_ns()
            out.extend((now - int(m)) / 1e6 for m in _STAMP.findall(chunk))
    return out


async def latencies(url: str, streams: int, n: int, gap_ms: float, parallel: int) -> list[float]:
    out: list[float] = []
    async with httpx.AsyncClient(timeout=None) as client:
        for _ in range(max(1, streams // parallel)):
            runs = await asyncio.gather(
                *(one_stream(client, url, n, gap_ms) for _ in range(parallel))
            )
            for r in runs:
                out.extend(r)
    return out


async def long_stream(url: str, mib: int) -> tuple[int, float]:
    n = mib * 1024 * 1024 // 190
    size = 0
    started = time.monotonic()
    async with (
        httpx.AsyncClient(timeout=None) as client,
        client.stream("POST", url + f"/v1/chat/completions?n={n}&gap_ms=0&pad=40", json={}) as r,
    ):
        async for chunk in r.aiter_raw():
            size += len(chunk)
    return size, time.monotonic() - started


def pct(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))]


def memory(pid: int) -> dict[str, int]:
    out = {}
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        key, _, value = line.partition(":")
        if key in ("VmRSS", "VmHWM"):
            out[key] = int(value.split()[0]) // 1024
    return out


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--long-mib", type=int, nargs="+", default=[16, 64, 256])
    parser.add_argument("--src", type=Path, default=ROOT / "src")
    parser.add_argument("--no-latency", action="store_true")
    parser.add_argument("--upstream-server", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.upstream_server:
        upstream_main(args.upstream_server)
        return
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    up_port, px_port = free_port(), free_port()
    up = subprocess.Popen([sys.executable, __file__, "--upstream-server", str(up_port)], env=env)
    env = {**os.environ, "PYTHONPATH": str(args.src.resolve())}
    record = tempfile.mkdtemp(prefix="ssescope-bench-")
    px = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "ssescope",
            "proxy",
            "--upstream",
            f"http://127.0.0.1:{up_port}",
            "--port",
            str(px_port),
            "--record",
            record,
            "--json",
        ],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    up_url, px_url = f"http://127.0.0.1:{up_port}", f"http://127.0.0.1:{px_port}"
    try:
        for url in (up_url, px_url):
            for _ in range(200):
                try:
                    httpx.post(url + "/v1/chat/completions?n=1&gap_ms=0", timeout=1)
                    break
                except httpx.HTTPError:
                    time.sleep(0.05)
        start_mem = memory(px.pid)
        streams, n = (4, 200) if args.quick else (10, 500)
        print(
            f"# ssescope proxy benchmark ({os.cpu_count()} CPUs, load {os.getloadavg()[0]:.1f})\n"
        )
        print(
            "| scenario | chunks | direct p50 | proxy p50 | added p50 | direct p99 | proxy p99 | added p99 |"
        )
        print("|---|---|---|---|---|---|---|---|")
        scenarios = (
            ("1 stream, 2 ms between chunks", 2.0, 1),
            ("1 stream, 20 ms between chunks", 20.0, 1),
            ("5 streams at once, 2 ms", 2.0, 5),
        )
        for label, gap, parallel in () if args.no_latency else scenarios:
            n_here = n // 5 if gap >= 20 else n
            rounds_direct: list[float] = []
            rounds_proxy: list[float] = []
            for _ in range(2):  # alternate so that load shifts hit both
                rounds_direct += asyncio.run(latencies(up_url, streams, n_here, gap, parallel))
                rounds_proxy += asyncio.run(latencies(px_url, streams, n_here, gap, parallel))
            d50, p50 = pct(rounds_direct, 0.5), pct(rounds_proxy, 0.5)
            d99, p99 = pct(rounds_direct, 0.99), pct(rounds_proxy, 0.99)
            print(
                f"| {label} | {len(rounds_proxy)} | {d50:.3f} ms | {p50:.3f} ms | {p50 - d50:.3f} ms "
                f"| {d99:.3f} ms | {p99:.3f} ms | {p99 - d99:.3f} ms |"
            )
        after_latency = memory(px.pid)
        print()
        print(
            f"Proxy memory (MiB): at start RSS {start_mem['VmRSS']}; after the latency runs "
            f"RSS {after_latency['VmRSS']}, peak {after_latency['VmHWM']}\n"
        )
        print("| long stream | through the proxy | direct | proxy RSS after | proxy peak RSS |")
        print("|---|---|---|---|---|")
        for mib in args.long_mib:
            size, secs = asyncio.run(long_stream(px_url, mib))
            time.sleep(1.0)
            after_long = memory(px.pid)
            _direct_size, direct_secs = asyncio.run(long_stream(up_url, mib))
            print(
                f"| {size / 2**20:.1f} MiB | {secs:.2f} s ({size / 2**20 / secs:.1f} MiB/s) "
                f"| {direct_secs:.2f} s | {after_long['VmRSS']} MiB | {after_long['VmHWM']} MiB |"
            )
        captures = sorted(Path(record).glob("*.ssecap"))
        print(
            f"\nCaptures written: {len(captures)}, the last one "
            f"{captures[-1].stat().st_size / 2**20:.1f} MiB"
        )
    finally:
        px.terminate()
        up.terminate()
        px.wait()
        up.wait()
        for f in Path(record).iterdir():
            f.unlink()
        os.rmdir(record)


if __name__ == "__main__":
    main()
