"""The recording proxy against hostile clients, upstreams, disks and Live-view users.

Each scenario starts a fresh ``ssescope proxy`` (so that its peak memory, VmHWM, is that
scenario's) from ``--src`` (default: this checkout), against an upstream in its own
process, and prints one Markdown row: what it measures, and the figures. Run it on two
checkouts to compare them:

    PYTHONPATH=src python bench/proxy_hostile.py                      # this code
    PYTHONPATH=src python bench/proxy_hostile.py --src /other/src     # another version
    PYTHONPATH=src python bench/proxy_hostile.py --only live-open bomb --live-mib 1300

Scenarios (``--only`` picks some):

* ``live-open``: the Live view opens an exchange still streaming whose capture has
  reached ``--live-mib`` MiB, and refreshes it as the page does (every second), while
  another stream goes through the proxy: time per refresh, the other stream's worst
  delay, the proxy's peak memory. The page's flow is the version's own: the capture
  fetched and posted to ``/api/inspect`` (before), or ``/api/live/NAME/inspect``.
* ``live-list``: the Live list over a record folder of ``--past`` finished exchanges:
  time per refresh, and the other stream's worst delay meanwhile.
* ``post``: a ``--post-mib`` MiB request body through the proxy: time, peak memory.
* ``slowloris``: the proxy under ``ulimit -n 1024``; 1,100 connections each send half a
  request line and wait; how long until another client is served.
* ``bomb``: a gzip stream of ``--bomb-mib`` MiB (decoded) in about a megabyte, next to
  another stream: the other stream's worst delay, the proxy's peak memory.
* ``disk``: the proxy under a 64 KiB file-size limit records eight streams, the third
  larger than that: verdicts right, lines printed, lines on stderr.
* ``echo``: an upstream that repeats the key in its 401 body: where the key leaked.
* ``host``: requests with ``Host: evil.example`` and a cross-site ``Origin``: statuses.
* ``markup``: a request path holding rich markup, with the live table on a terminal: was
  an OSC 8 link printed, did the table die.
* ``host-empty``: ``proxy --host ""``: what it says and does.

The other stream's delay is the arrival time of each of its chunks minus the time the
upstream stamped in it (CLOCK_MONOTONIC is one clock for every process on Linux).
"""

from __future__ import annotations

import argparse
import asyncio
import gzip
import json
import os
import pty
import re
import resource
import select
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx

from proxy import free_port, memory  # bench/proxy.py (the script's folder is on the path)

ROOT = Path(__file__).resolve().parents[1]
KEY = "sk-proj-benchEchoedKey0123456789"
_OSC8 = b"\x1b]8;"
_MIB = 1024 * 1024

# -- the upstream (its own process) -------------------------------------------------------


def _chunk(i: int, pad: int, stamp: bool = False) -> bytes:
    extra = f',"stamp":{time.monotonic_ns()}' if stamp else ""
    return (
        f'data: {{"id":"c","object":"chat.completion.chunk","model":"m","choices":[{{"index":0,'
        f'"delta":{{"content":"{i} {"x" * pad}"}},"finish_reason":null}}]{extra}}}\n\n'
    ).encode()


_END = (
    b'data: {"id":"c","object":"chat.completion.chunk","model":"m","choices":[{"index":0,'
    b'"delta":{},"finish_reason":"stop"}]}\n\ndata: [DONE]\n\n'
)


def upstream_main(port: int) -> None:
    import uvicorn
    from starlette.applications import Starlette
    from starlette.requests import Request
    from starlette.responses import Response, StreamingResponse
    from starlette.routing import Route

    async def long(request: Request) -> StreamingResponse:
        # ?mib= as fast as possible, then one chunk a second for ?then= seconds
        mib = float(request.query_params.get("mib", "16"))
        then = float(request.query_params.get("then", "0"))
        n = int(request.query_params.get("n", "150"))  # chunks per piece
        piece = b"".join(_chunk(i, 400) for i in range(n))

        async def body():  # type: ignore[no-untyped-def]
            sent = 0
            while sent < mib * _MIB:
                yield piece
                sent += len(piece)
                await asyncio.sleep(0)
            deadline = time.monotonic() + then
            while time.monotonic() < deadline:
                await asyncio.sleep(1)
                yield _chunk(0, 10)
            yield _END

        return StreamingResponse(body(), media_type="text/event-stream")

    async def tick(request: Request) -> StreamingResponse:
        n = int(request.query_params.get("n", "100"))
        gap = float(request.query_params.get("gap_ms", "20")) / 1000

        async def body():  # type: ignore[no-untyped-def]
            for i in range(n):
                await asyncio.sleep(gap)
                yield _chunk(i, 20, stamp=True)
            yield _END

        return StreamingResponse(body(), media_type="text/event-stream")

    async def sink(request: Request) -> Response:
        size = 0
        async for piece in request.stream():
            size += len(piece)
        return Response(json.dumps({"size": size}), media_type="application/json")

    bombs: dict[float, bytes] = {}

    async def bomb(request: Request) -> Response:
        mib = float(request.query_params.get("mib", "1024"))
        if mib not in bombs:
            event = _chunk(0, 2000)
            raw = event * int(mib * _MIB // len(event)) + _END
            bombs[mib] = gzip.compress(raw, compresslevel=9)
        return Response(
            bombs[mib], media_type="text/event-stream", headers={"content-encoding": "gzip"}
        )

    async def echo_key(request: Request) -> Response:
        key = request.headers.get("authorization", "").removeprefix("Bearer ")
        body = json.dumps(
            {"error": {"type": "invalid_request_error", "message": f"Incorrect API key: {key}"}}
        )
        return Response(body, status_code=401, media_type="application/json")

    async def small(_request: Request) -> Response:
        return Response(b'{"ok":true}', media_type="application/json")

    app = Starlette(
        routes=[
            Route("/{p:path}/long", long, methods=["POST", "GET"]),
            Route("/long", long, methods=["POST", "GET"]),
            Route("/tick", tick, methods=["POST", "GET"]),
            Route("/sink", sink, methods=["POST"]),
            Route("/bomb", bomb, methods=["POST"]),
            Route("/echo-key", echo_key, methods=["POST"]),
            Route("/small", small, methods=["POST", "GET"]),
        ]
    )
    uvicorn.run(app, host="127.0.0.1", port=port, log_level="warning", lifespan="off")


# -- helpers -------------------------------------------------------------------------------


class Proxy:
    """``ssescope proxy`` from ``src``, in its own process."""

    def __init__(
        self,
        src: Path,
        upstream: str,
        *args: str,
        record: Path | None = None,
        web: bool = False,
        preexec: Callable[[], None] | None = None,
        stdout: Any = subprocess.DEVNULL,
    ) -> None:
        self.record = record or Path(tempfile.mkdtemp(prefix="ssescope-hostile-"))
        cmd = [sys.executable, "-m", "ssescope", "proxy", "--upstream", upstream, "--port", "0"]
        cmd += ["--record", str(self.record), *args]
        if web:
            cmd += ["--web", "--web-port", "0"]
        env = {**os.environ, "PYTHONPATH": str(src)}
        self.proc = subprocess.Popen(
            cmd,
            env=env,
            stdout=stdout,
            stderr=subprocess.PIPE,
            text=True,
            preexec_fn=preexec,  # noqa: PLW1509
        )
        assert self.proc.stderr is not None
        first = self.proc.stderr.readline()
        match = re.search(r"(http://\S+) -> ", first)
        if match is None:
            raise RuntimeError(f"the proxy did not start: {first}{self.proc.stderr.read()}")
        self.url = match[1]
        self.web: str | None = None
        if web:
            for _ in range(3):
                line = self.proc.stderr.readline()
                found = re.search(r"web page: (http://\S+)/", line)
                if found:
                    self.web = found[1]
                    break

    def stop(self) -> str:
        """Stop the proxy; return its stderr (its stdout, when piped, is in ``out``)."""
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)
        try:
            out, err = self.proc.communicate(timeout=20)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            out, err = self.proc.communicate()
        self.out = out or ""
        shutil.rmtree(self.record, ignore_errors=True)
        return err or ""


async def _probe_here(url: str, seconds: float, gap_ms: float = 20) -> list[float]:
    n = int(seconds * 1000 / gap_ms)
    out: list[float] = []
    stamp = re.compile(rb'"stamp":(\d+)')
    async with (
        httpx.AsyncClient(timeout=None) as client,
        client.stream("POST", url + f"/tick?n={n}&gap_ms={gap_ms}") as r,
    ):
        async for chunk in r.aiter_raw():
            now = time.monotonic_ns()
            out.extend((now - int(m)) / 1e6 for m in stamp.findall(chunk))
    return out


async def probe(url: str, seconds: float) -> list[float]:
    """The delay (ms) of each chunk of a stream through ``url``, ``seconds`` long, read in
    a process of its own (so that this one's work, parsing a large answer, is not
    counted)."""
    proc = await asyncio.create_subprocess_exec(
        sys.executable, __file__, "--probe", url, str(seconds), stdout=subprocess.PIPE
    )
    out, _ = await proc.communicate()
    return [float(x) for x in json.loads(out)]


def worst(delays: list[float]) -> str:
    return f"{max(delays):.0f} ms" if delays else "no chunk arrived"


def row(name: str, measured: str, figures: str) -> None:
    print(f"| {name} | {measured} | {figures} |", flush=True)


# -- scenarios -----------------------------------------------------------------------------


async def _page_refresh(client: httpx.AsyncClient, web: str, name: str) -> tuple[float, str]:
    """One refresh of an opened exchange, as this version's page does it."""
    started = time.monotonic()
    listing = await client.get(web + "/api/live")
    listing.raise_for_status()
    new = await client.get(web + f"/api/live/{name}/inspect")
    if new.status_code != 404:
        answer = new.json()
        what = f"{new.status_code}, {len(new.content) / _MIB:.1f} MiB answer"
        if "live" in answer:
            what += f", {answer['live']['analysed_bytes'] / _MIB:.0f} MiB of the capture analysed"
        return time.monotonic() - started, what
    capture = await client.get(web + f"/api/live/{name}")
    inspected = await client.post(web + "/api/inspect", content=capture.content)
    what = f"capture {len(capture.content) / _MIB:.0f} MiB, inspect {inspected.status_code}"
    return time.monotonic() - started, what


def live_open(args: argparse.Namespace, upstream: str) -> None:
    proxy = Proxy(args.src, upstream, web=True)
    assert proxy.web is not None
    try:

        async def main() -> tuple[list[float], list[float], str]:
            async with httpx.AsyncClient(timeout=None) as client:
                long = asyncio.ensure_future(
                    client.post(proxy.url + f"/long?mib={args.live_mib}&then=600")
                )
                deadline = time.monotonic() + 600
                cap: Path | None = None
                while time.monotonic() < deadline:
                    caps = sorted(proxy.record.glob("*.ssecap"))
                    if caps and caps[0].stat().st_size >= args.live_mib * _MIB:
                        cap = caps[0]
                        break
                    await asyncio.sleep(0.2)
                assert cap is not None, "the long stream did not grow"
                seconds = args.refreshes + 2
                quiet = await probe(proxy.url, seconds)  # the same, without the Live view
                other = asyncio.ensure_future(probe(proxy.url, seconds))
                await asyncio.sleep(0.5)
                times: list[float] = []
                what = ""
                for _ in range(args.refreshes):
                    took, what = await _page_refresh(client, proxy.web or "", cap.stem)
                    times.append(took)
                    await asyncio.sleep(max(0.0, 1.0 - took))
                delays = await other
                long.cancel()
                return times, delays, quiet, what

        times, delays, quiet, what = asyncio.run(main())
        mem = memory(proxy.proc.pid)
        row(
            f"live-open ({args.live_mib} MiB in flight)",
            "time per refresh; other stream's worst delay (without the Live view); proxy peak RSS",
            f"{min(times):.2f}–{max(times):.2f} s ({what}); {worst(delays)} ({worst(quiet)}); "
            f"{mem['VmHWM']} MiB",
        )
    finally:
        proxy.stop()


def _past_exchanges(folder: Path, n: int) -> None:
    index = []
    body = (_chunk(0, 20) + _END).decode()
    for i in range(n):
        name = f"20260101T000000.{i:06d}Z-{i:04d}-post-v1-chat-completions"
        lines = [
            json.dumps(
                {
                    "ssescope": "capture",
                    "version": 1,
                    "request": {"method": "POST", "url": "http://u/v1/chat/completions"},
                    "response": {"status": 200, "headers": [["content-type", "text/event-stream"]]},
                }
            ),
            json.dumps({"t": 0.1, "data": body}),
            json.dumps({"end": "eof", "t": 0.2}),
        ]
        (folder / f"{name}.ssecap").write_text("\n".join(lines) + "\n")
        index.append(
            json.dumps(
                {
                    "name": name,
                    "capture": str(folder / f"{name}.ssecap"),
                    "method": "POST",
                    "path": "/v1/chat/completions",
                    "status": 200,
                    "provider": "openai-chat",
                    "verdict": "completed",
                    "bytes": len(body),
                }
            )
        )
    (folder / "index.jsonl").write_text("\n".join(index) + "\n")


def live_list(args: argparse.Namespace, upstream: str) -> None:
    folder = Path(tempfile.mkdtemp(prefix="ssescope-hostile-list-"))
    _past_exchanges(folder, args.past)
    proxy = Proxy(args.src, upstream, record=folder, web=True)
    try:

        async def main() -> tuple[list[float], list[float], list[float], int]:
            quiet = await probe(proxy.url, args.refreshes + 1)  # without the list
            async with httpx.AsyncClient(timeout=None) as client:
                other = asyncio.ensure_future(probe(proxy.url, args.refreshes + 1))
                times: list[float] = []
                listed = 0
                for _ in range(args.refreshes):
                    started = time.monotonic()
                    answer = await client.get((proxy.web or "") + "/api/live")
                    times.append(time.monotonic() - started)
                    listed = len(answer.json()["exchanges"])
                    await asyncio.sleep(max(0.0, 1.0 - times[-1]))
                return times, await other, quiet, listed

        times, delays, quiet, listed = asyncio.run(main())
        ms = sorted(t * 1000 for t in times)
        row(
            f"live-list ({args.past:,} past exchanges)",
            "time per refresh (first, then the others); other stream's worst delay (without)",
            f"{ms[0]:.0f}–{ms[-1]:.0f} ms (first {times[0] * 1000:.0f} ms, {listed} listed); "
            f"{worst(delays)} ({worst(quiet)})",
        )
    finally:
        proxy.stop()


def post(args: argparse.Namespace, upstream: str) -> None:
    proxy = Proxy(args.src, upstream)
    try:
        size = args.post_mib * _MIB
        piece = b" " * _MIB

        def body():  # type: ignore[no-untyped-def]
            for _ in range(args.post_mib):
                yield piece

        started = time.monotonic()
        r = httpx.post(
            proxy.url + "/sink",
            content=body(),
            headers={"content-length": str(size), "content-type": "application/json"},
            timeout=None,
        )
        took = time.monotonic() - started
        mem = memory(proxy.proc.pid)
        got = r.json().get("size") if r.status_code == 200 else r.status_code
        row(
            f"post ({args.post_mib} MiB body)",
            "time; upstream got; proxy peak RSS",
            f"{took:.1f} s; {got} bytes; {mem['VmHWM']} MiB",
        )
    finally:
        proxy.stop()


def _files(limit: int) -> Callable[[], None]:
    return lambda: resource.setrlimit(resource.RLIMIT_NOFILE, (limit, limit))


def slowloris(args: argparse.Namespace, upstream: str) -> None:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, min(hard, 4096)), hard))
    proxy = Proxy(args.src, upstream, preexec=_files(1024))
    socks: list[socket.socket] = []
    try:
        port = int(proxy.url.rsplit(":", 1)[1])
        for _ in range(1100):
            s = socket.socket()
            s.settimeout(5)
            try:
                s.connect(("127.0.0.1", port))
                s.sendall(b"POST /v1/chat/completions HTT")
            except OSError:
                s.close()
                continue
            socks.append(s)
        started = time.monotonic()
        served = None
        statuses: list[str] = []
        while time.monotonic() - started < args.slowloris_wait:
            try:
                r = httpx.post(proxy.url + "/small", content=b"{}", timeout=2)
                statuses.append(str(r.status_code))
                if r.status_code == 200:
                    served = time.monotonic() - started
                    break
            except httpx.HTTPError as exc:
                statuses.append(type(exc).__name__)
            time.sleep(0.5)
        seen = ", ".join(sorted(set(statuses)))
        outcome = f"served after {served:.1f} s" if served is not None else "never served"
        row(
            f"slowloris ({len(socks)} half-sent, ulimit -n 1024)",
            f"another client, tried every 0.5 s for {args.slowloris_wait:g} s",
            f"{outcome} (answers seen: {seen})",
        )
    finally:
        for s in socks:
            s.close()
        proxy.stop()


def bomb(args: argparse.Namespace, upstream: str) -> None:
    proxy = Proxy(args.src, upstream)
    try:
        httpx.post(upstream + f"/bomb?mib={args.bomb_mib}", timeout=None)  # (made once)

        async def main() -> tuple[list[float], list[float], int]:
            quiet = await probe(proxy.url, 6)  # the same, without the bomb
            async with httpx.AsyncClient(timeout=None) as client:
                other = asyncio.ensure_future(probe(proxy.url, 6))
                await asyncio.sleep(0.5)
                wire = 0
                async with client.stream("POST", proxy.url + f"/bomb?mib={args.bomb_mib}") as r:
                    async for piece in r.aiter_raw():
                        wire += len(piece)
                return await other, quiet, wire

        delays, quiet, wire = asyncio.run(main())
        time.sleep(1)
        mem = memory(proxy.proc.pid)
        row(
            f"bomb ({args.bomb_mib} MiB in {wire / _MIB:.1f} MiB of gzip)",
            "other stream's worst delay (without the bomb); proxy peak RSS",
            f"{worst(delays)} ({worst(quiet)}); {mem['VmHWM']} MiB",
        )
    finally:
        proxy.stop()


def disk(args: argparse.Namespace, upstream: str) -> None:
    limit = 64 * 1024

    def fsize() -> None:
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

    proxy = Proxy(args.src, upstream, "--json", preexec=fsize, stdout=subprocess.PIPE)
    sizes = [10, 10, 400, 10, 10, 10, 10, 10]  # chunks; the third outgrows 64 KiB
    try:
        for n in sizes:
            httpx.post(proxy.url + f"/long?mib=0.001&n={n}", timeout=60)
        time.sleep(1)
    finally:
        err = proxy.stop()
    lines = [json.loads(x) for x in proxy.out.splitlines() if x.strip()]
    verdicts = [x.get("verdict") for x in lines]
    right = sum(v == "completed" for v in verdicts)
    said = [x for x in err.splitlines() if "Traceback" not in x and x.strip()][1:]
    row(
        "disk (64 KiB file-size limit, 8 streams)",
        "lines printed; verdicts right; stderr lines after start-up",
        f"{len(lines)} of 8; {right} of 8 ({', '.join(str(v) for v in verdicts)}); "
        f"{len(said)}: {said[:1]}",
    )


def echo(args: argparse.Namespace, upstream: str) -> None:
    proxy = Proxy(args.src, upstream, web=True, stdout=subprocess.PIPE)
    try:
        r = httpx.post(proxy.url + "/echo-key", headers={"authorization": f"Bearer {KEY}"})
        time.sleep(1)
        leaks = [f.name for f in proxy.record.iterdir() if KEY in f.read_text()]
        listing = httpx.get((proxy.web or "") + "/api/live").json()["exchanges"]
        served = [
            e["name"]
            for e in listing
            if KEY in httpx.get((proxy.web or "") + "/api/live/" + e["name"]).text
        ]
    finally:
        proxy.stop()
    terminal = KEY in proxy.out
    row(
        "echo (401 body repeating the key)",
        "client got it; files holding it; Live view serving it; terminal",
        f"{KEY in r.text}; {len(leaks)} ({', '.join(sorted(f[-16:] for f in leaks))}); "
        f"{len(served)}; {terminal}",
    )


def host(args: argparse.Namespace, upstream: str) -> None:
    proxy = Proxy(args.src, upstream)
    try:
        evil = httpx.post(proxy.url + "/small", headers={"host": "evil.example"}).status_code
        cross = httpx.post(
            proxy.url + "/small", headers={"origin": "https://evil.example"}
        ).status_code
        fine = httpx.post(proxy.url + "/small").status_code
    finally:
        proxy.stop()
    row(
        "host",
        "Host: evil.example; Origin: https://evil.example; the app",
        f"{evil}; {cross}; {fine}",
    )


def markup(args: argparse.Namespace, upstream: str) -> None:
    master, slave = pty.openpty()
    proxy = Proxy(args.src, upstream, stdout=slave)
    os.close(slave)
    out = b""

    def drain(seconds: float) -> None:
        nonlocal out
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            ready, _, _ = select.select([master], [], [], 0.1)
            if ready:
                try:
                    out += os.read(master, 65536)
                except OSError:
                    return

    try:
        # a link in a stream that lasts 2 s (the table shows it), then a closing tag
        link = "/[link=https://evil.example]click[/link]/long?mib=0.001&n=5&then=2"
        first = httpx.post(proxy.url + link, timeout=30).status_code
        drain(0.5)
        second = httpx.post(proxy.url + "/[/x]/long?mib=0.001&n=5&then=2", timeout=30)
        second = second.status_code
        drain(0.5)
        alive = proxy.proc.poll() is None
    finally:
        err = proxy.stop()
        os.close(master)
    row(
        "markup (paths with [link=…] and [/x], live table on a terminal)",
        "OSC 8 printed; table error; proxy alive; request statuses",
        f"{_OSC8 in out}; {'MarkupError' in err}; {alive}; {first}, {second}",
    )


def host_empty(args: argparse.Namespace, upstream: str) -> None:
    env = {**os.environ, "PYTHONPATH": str(args.src)}
    with socket.socket() as taken:  # (so that a proxy that takes "" cannot start)
        taken.bind(("0.0.0.0", 0))
        taken.listen()
        port = taken.getsockname()[1]
        done = subprocess.run(
            [
                sys.executable,
                "-m",
                "ssescope",
                "proxy",
                "--upstream",
                upstream,
                "--host",
                "",
                "--port",
                str(port),
            ],
            env=env,
            capture_output=True,
            text=True,
            timeout=30,
            check=False,
        )
    said = " ".join(done.stderr.split())[:160]
    row('host-empty (--host "")', "exit code; what it said", f"{done.returncode}; {said}")


SCENARIOS: dict[str, Callable[[argparse.Namespace, str], None]] = {
    "live-open": live_open,
    "live-list": live_list,
    "post": post,
    "slowloris": slowloris,
    "bomb": bomb,
    "disk": disk,
    "echo": echo,
    "host": host,
    "markup": markup,
    "host-empty": host_empty,
}


def _scenario(name: str, args: argparse.Namespace, upstream: str) -> None:
    try:
        SCENARIOS[name](args, upstream)
    except Exception as exc:  # one scenario failing must not hide the others
        row(name, "failed", f"{type(exc).__name__}: {exc}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--src", type=Path, default=ROOT / "src")
    parser.add_argument("--only", nargs="+", choices=sorted(SCENARIOS))
    parser.add_argument("--live-mib", type=int, default=256)
    parser.add_argument("--refreshes", type=int, default=5)
    parser.add_argument("--past", type=int, default=10_000)
    parser.add_argument("--post-mib", type=int, default=1024)
    parser.add_argument("--bomb-mib", type=int, default=1024)
    parser.add_argument("--slowloris-wait", type=float, default=30.0)
    parser.add_argument("--upstream-server", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--probe", nargs=2, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.probe:
        print(json.dumps(asyncio.run(_probe_here(args.probe[0], float(args.probe[1])))))
        return
    if args.upstream_server:
        upstream_main(args.upstream_server)
        return
    args.src = args.src.resolve()
    port = free_port()
    up = subprocess.Popen([sys.executable, __file__, "--upstream-server", str(port)])
    upstream = f"http://127.0.0.1:{port}"
    try:
        for _ in range(200):
            try:
                httpx.get(upstream + "/small", timeout=1)
                break
            except httpx.HTTPError:
                time.sleep(0.05)
        print(
            f"# ssescope proxy, hostile ({args.src}; {os.cpu_count()} CPUs, "
            f"load {os.getloadavg()[0]:.1f})\n"
        )
        print("| scenario | measured | figures |")
        print("|---|---|---|")
        for name in args.only or list(SCENARIOS):
            _scenario(name, args, upstream)
    finally:
        up.terminate()
        up.wait()


if __name__ == "__main__":
    main()
