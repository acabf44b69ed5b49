"""How much latency the recording proxy adds per WebSocket message, and whether its memory
stays flat over a long connection.

Measured as ``bench/proxy.py`` measures the SSE proxy: three processes on loopback, an
upstream WebSocket server that answers each ``response.create`` with Responses events,
each stamped with ``time.monotonic_ns()`` as it is sent; ``ssescope proxy`` recording
into a temporary folder; and this client (the ``websockets`` library), which stamps each
message as it arrives. A message's latency is its arrival time minus its stamp
(CLOCK_MONOTONIC is one clock for every process on Linux). The same turns are read
directly from the upstream and through the proxy, alternating; the difference is what
the proxy adds.

    PYTHONPATH=src python bench/proxy_ws.py            # about a minute
    PYTHONPATH=src python bench/proxy_ws.py --quick --messages 20000
    PYTHONPATH=src python bench/proxy_ws.py --voice 18000    # a 30-minute voice session

Memory: the proxy's resident size (VmRSS from /proc) while a connection carries
``--messages`` (default 100,000) messages as fast as loopback allows, one response of
that many deltas, sampled after 10 %, 50 % and all of them, then after the close; then
again on a second connection (``--connections``). The recorder's queue holds up to
16 MiB of copies when the messages come faster than it records them (the forwarder
waits beyond), so the figures rise by that much at most and then stay flat: the same
from one connection to the next, and from 10k to 100k messages on the second.

``--voice APPENDS``: instead, Realtime voice connections through the proxy: the client
appends APPENDS chunks of audio (100 ms each, 6,400 base64 characters) as fast as they
go, and the upstream's turn detection answers every 50 with a response (no
``response.create``), which the client reads before it sends the next 50. The
proxy's resident size after 10 %, 50 % and all of them: what the recorder keeps of the
client's audio (its length only) and of each response (a summary) must not grow.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from proxy import free_port, memory, pct  # (bench/proxy.py: the SSE proxy's benchmark)

ROOT = Path(__file__).resolve().parents[1]


# -- the upstream (runs in its own process) ----------------------------------------------


def upstream_main(port: int) -> None:
    import uvicorn
    from starlette.applications import Starlette
    from starlette.routing import WebSocketRoute
    from starlette.websockets import WebSocket, WebSocketDisconnect

    async def endpoint(ws: WebSocket) -> None:
        await ws.accept()
        try:
            while True:
                body = json.loads(await ws.receive_text())
                n, gap = int(body.get("n", 500)), float(body.get("gap_ms", 2)) / 1000
                pad = "x" * int(body.get("pad", 40))
                await ws.send_text(
                    '{"type":"response.created","response":{"id":"r","status":"in_progress"}}'
                )
                for i in range(n):
                    if gap:
                        await asyncio.sleep(gap)
                    await ws.send_text(
                        '{"type":"response.output_text.delta","item_id":"m","output_index":0,'
                        f'"content_index":0,"delta":"{i} {pad}","stamp":{time.monotonic_ns()}}}'
                    )
                await ws.send_text(
                    '{"type":"response.completed","response":{"id":"r","status":"completed"}}'
                )
        except WebSocketDisconnect:
            return

    async def realtime(ws: WebSocket) -> None:
        """A Realtime voice session: the server's turn detection answers every
        ``TURN_APPENDS`` appended audio chunks with a response, no response.create."""
        await ws.accept()
        appended = turn = 0
        try:
            while True:
                await ws.receive_text()
                appended += 1
                if appended % TURN_APPENDS:
                    continue
                turn += 1
                rid = f"resp_{turn}"
                await ws.send_text(
                    '{"type":"response.created","event_id":"e","response":'
                    f'{{"object":"realtime.response","id":"{rid}","status":"in_progress"}}}}'
                )
                for word in ("Sure, ", "here ", "it is."):
                    await ws.send_text(
                        '{"type":"response.output_audio_transcript.delta","event_id":"e",'
                        f'"response_id":"{rid}","item_id":"i","output_index":0,'
                        f'"content_index":0,"delta":"{word}"}}'
                    )
                await ws.send_text(
                    '{"type":"response.done","event_id":"e","response":'
                    f'{{"object":"realtime.response","id":"{rid}","status":"completed"}}}}'
                )
        except WebSocketDisconnect:
            return

    app = Starlette(
        routes=[
            WebSocketRoute("/v1/responses", endpoint),
            WebSocketRoute("/v1/realtime", realtime),
        ]
    )
    uvicorn.run(app, host="127.0.0.1", port=port, log_level="warning", lifespan="off")


# -- the client -----------------------------------------------------------------------------

_STAMP = re.compile(r'"stamp":(\d+)')


def create(n: int, gap_ms: float) -> str:
    return json.dumps({"type": "response.create", "model": "m", "n": n, "gap_ms": gap_ms})


async def turns(url: str, count: int, n: int, gap_ms: float) -> list[float]:
    """Per-message latency (ms) of ``count`` turns on one connection."""
    from websockets.asyncio.client import connect

    out: list[float] = []
    async with connect(url, max_size=None, compression=None) as ws:
        for _ in range(count):
            await ws.send(create(n, gap_ms))
            while True:
                message = await ws.recv()
                now = time.monotonic_ns()
                assert isinstance(message, str)
                found = _STAMP.search(message)
                if found:
                    out.append((now - int(found.group(1))) / 1e6)
                elif '"response.completed"' in message:
                    break
    return out


async def parallel(url: str, connections: int, count: int, n: int, gap_ms: float) -> list[float]:
    runs = await asyncio.gather(*(turns(url, count, n, gap_ms) for _ in range(connections)))
    return [v for r in runs for v in r]


async def long_connection(url: str, n: int, pid: int) -> list[tuple[int, int]]:
    """One response of ``n`` deltas, read as fast as it comes; the proxy's RSS at 10 %,
    50 % and 100 % of it."""
    from websockets.asyncio.client import connect

    marks = {n // 10, n // 2, n}
    samples: list[tuple[int, int]] = []
    seen = 0
    async with connect(url, max_size=None, compression=None) as ws:
        await ws.send(create(n, 0))
        while True:
            message = await ws.recv()
            if '"response.completed"' in str(message):
                break
            seen += 1
            if seen in marks:
                samples.append((seen, memory(pid)["VmRSS"]))
    return samples


TURN_APPENDS = 50  # a response every 5 s of the user's audio
# 100 ms of 24 kHz pcm16 (4,800 bytes) in base64, as a Realtime client appends it
AUDIO = "A" * 6400


async def voice_connection(url: str, appends: int, pid: int) -> list[tuple[int, int]]:
    """``appends`` chunks of audio, a turn's worth at a time as fast as they go, each
    turn's response read before the next turn's audio (as a user waits for the answer);
    the proxy's RSS at 10 %, 50 % and 100 % of them."""
    from websockets.asyncio.client import connect

    marks = {appends // 10, appends // 2, appends}
    samples: list[tuple[int, int]] = []
    message = json.dumps({"type": "input_audio_buffer.append", "audio": AUDIO})
    async with connect(url, max_size=None, compression=None) as ws:
        for k in range(1, appends + 1):
            await ws.send(message)
            if k % TURN_APPENDS == 0:
                while '"response.done"' not in str(await ws.recv()):
                    pass
            if k in marks:
                samples.append((k, memory(pid)["VmRSS"]))
    return samples


def voice(px_url: str, record: str, appends: int, connections: int, pid: int) -> None:
    """The memory table of ``--voice``: Realtime voice connections through the proxy."""
    url = px_url.replace("/v1/responses", "/v1/realtime")
    print(f"Proxy RSS at start {memory(pid)['VmRSS']} MiB\n")
    print("| connection | audio chunks appended so far | proxy RSS |")
    print("|---|---|---|")
    for k in range(1, connections + 1):
        started = time.monotonic()
        samples = asyncio.run(voice_connection(url, appends, pid))
        secs = time.monotonic() - started
        time.sleep(1.0)
        after = memory(pid)
        for seen, rss in samples:
            print(f"| {k} | {seen:,} ({seen / 600:.0f} min of audio) | {rss} MiB |")
        print(
            f"| {k} | after the close, {secs:.1f} s | {after['VmRSS']} MiB "
            f"(peak {after['VmHWM']} MiB) |"
        )
    index = Path(record) / "index.jsonl"
    lines = [json.loads(line) for line in index.read_text().splitlines()] if index.exists() else []
    listed = [x.get("responses") for x in lines if x.get("path") == "/v1/realtime"]
    print(f"\nResponses the proxy listed per voice connection: {listed}")


def _up(url: str) -> bool:
    try:
        asyncio.run(turns(url, 1, 1, 0))
    except OSError:
        return False
    return True


def _wait(url: str) -> None:
    for _ in range(200):
        if _up(url):
            return
        time.sleep(0.05)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--messages", type=int, default=100_000)
    parser.add_argument("--connections", type=int, default=2, help="long connections in a row")
    parser.add_argument("--src", type=Path, default=ROOT / "src")
    parser.add_argument(
        "--voice",
        type=int,
        metavar="APPENDS",
        help="instead: Realtime voice connections of APPENDS audio chunks (100 ms each) "
        "whose responses the server's turn detection creates; the proxy's memory",
    )
    parser.add_argument("--upstream-server", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.upstream_server:
        upstream_main(args.upstream_server)
        return
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    up_port, px_port = free_port(), free_port()
    up = subprocess.Popen([sys.executable, __file__, "--upstream-server", str(up_port)], env=env)
    env = {**os.environ, "PYTHONPATH": str(args.src.resolve())}
    record = tempfile.mkdtemp(prefix="ssescope-bench-ws-")
    px = subprocess.Popen(
        [
            *(sys.executable, "-m", "ssescope", "proxy"),
            *("--upstream", f"http://127.0.0.1:{up_port}", "--port", str(px_port)),
            *("--record", record, "--json"),
        ],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    up_url = f"ws://127.0.0.1:{up_port}/v1/responses"
    px_url = f"ws://127.0.0.1:{px_port}/v1/responses"
    try:
        _wait(up_url)
        _wait(px_url)
        if args.voice:
            voice(px_url, record, args.voice, args.connections, px.pid)
            return
        start_mem = memory(px.pid)
        count, n = (2, 200) if args.quick else (5, 500)
        print(
            f"# ssescope proxy, WebSocket ({os.cpu_count()} CPUs, load {os.getloadavg()[0]:.1f})\n"
        )
        print(
            "| scenario | messages | direct p50 | proxy p50 | added p50 | direct p99 "
            "| proxy p99 | added p99 |"
        )
        print("|---|---|---|---|---|---|---|---|")
        scenarios = (
            ("1 connection, 2 ms between messages", 2.0, 1),
            ("1 connection, 20 ms between messages", 20.0, 1),
            ("5 connections at once, 2 ms", 2.0, 5),
        )
        for label, gap, conns in scenarios:
            n_here = n // 5 if gap >= 20 else n
            direct: list[float] = []
            proxied: list[float] = []
            for _ in range(2):  # alternate so that load shifts hit both
                direct += asyncio.run(parallel(up_url, conns, count, n_here, gap))
                proxied += asyncio.run(parallel(px_url, conns, count, n_here, gap))
            d50, p50 = pct(direct, 0.5), pct(proxied, 0.5)
            d99, p99 = pct(direct, 0.99), pct(proxied, 0.99)
            print(
                f"| {label} | {len(proxied)} | {d50:.3f} ms | {p50:.3f} ms | {p50 - d50:.3f} ms "
                f"| {d99:.3f} ms | {p99:.3f} ms | {p99 - d99:.3f} ms |"
            )
        print(
            f"\nProxy RSS at start {start_mem['VmRSS']} MiB, after the latency runs "
            f"{memory(px.pid)['VmRSS']} MiB\n"
        )
        print("| connection | messages so far | proxy RSS |")
        print("|---|---|---|")
        for k in range(1, args.connections + 1):
            started = time.monotonic()
            samples = asyncio.run(long_connection(px_url, args.messages, px.pid))
            secs = time.monotonic() - started
            time.sleep(1.0)
            after = memory(px.pid)
            for seen, rss in samples:
                print(f"| {k} | {seen:,} | {rss} MiB |")
            print(
                f"| {k} | after the close, {secs:.1f} s ({args.messages / secs:,.0f}/s) "
                f"| {after['VmRSS']} MiB (peak {after['VmHWM']} MiB) |"
            )
        captures = sorted(Path(record).glob("*.ssecap"), key=lambda p: p.stat().st_size)
        print(
            f"Captures written: {len(captures)}, the largest {captures[-1].stat().st_size / 2**20:.1f} MiB"
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
