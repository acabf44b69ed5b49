"""The openai SDK reading a long stream from ``ssescope serve``: bare, with the transport,
with the transport exporting each stream through ``ssescope.otel.OtelReporter`` (spans
and metrics to the OpenTelemetry SDK's in-memory exporters), and with OpenInference's
instrumentation, side by side in one run.

    pip install openinference-instrumentation-openai opentelemetry-sdk   # the peer
    PYTHONPATH=src python bench/transport.py                  # 4000 chunks, 7 rounds
    PYTHONPATH=SITE python bench/transport.py --chunks 20000  # the compiled core

The server runs in a process of its own, so the CPU time measured (``process_time``) is
the client's alone: the SDK's parsing and object building, plus whatever is added. Each
round reads one stream in every mode, in turn, so that other load on the machine falls on
all of them alike; the figures are the best of the rounds (other load on a shared machine
only ever adds), with the medians beside them.

Printed: CPU per stream and per chunk for each mode, what the transport and OpenInference
add over the bare SDK (in % and µs per chunk); the CPU spent inside the transport's own
calls (its read-path hook and the stream's end, measured with the thread's CPU clock: on
a loaded machine the difference of two totals is noisier than this direct figure); the
time each chunk spends in the read-path call (p50, p99, max: the batch feeds fall in the
tail); the added latency of one chunk's step through the app's read loop, the tee's
generator included (in-memory chunks, with and without the transport); and the peak memory of one judged stream at two lengths (what grows is the
assembled text, which a bounded pipeline caps at 1 Mi characters a part).
"""

from __future__ import annotations

import argparse
import gc
import json
import statistics
import subprocess
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path
from typing import Any

import httpx2
import openai

import ssescope
from ssescope.transport import judge as judge_module

MESSAGES = [{"role": "user", "content": "hi"}]


def write_stream(path: Path, chunks: int, shape: str = "minimal") -> None:
    """An OpenAI chat stream of ``chunks`` content deltas, usage and ``[DONE]``.

    ``shape="minimal"``: chunks with only the members the SDK needs. ``"real"``: with the
    members gpt-4o sends as well (``system_fingerprint``, ``service_tier``, ``logprobs``).
    """
    base: dict[str, object] = {
        "id": "chatcmpl-1",
        "object": "chat.completion.chunk",
        "created": 1,
        "model": "m",
    }
    extra: dict[str, object] = {}
    if shape == "real":
        base = {**base, "model": "gpt-4o-2024-08-06", "service_tier": "default"}
        base["system_fingerprint"] = "fp_5050236cbd"
        extra = {"logprobs": None}
    lines = []
    first = {**base, "choices": [{"index": 0, "delta": {"role": "assistant"}, **extra}]}
    lines.append(f"data: {json.dumps(first)}\n\n")
    for i in range(chunks):
        delta = {"index": 0, "delta": {"content": f"word{i % 97} "}, **extra}
        delta["finish_reason"] = None
        lines.append(f"data: {json.dumps({**base, 'choices': [delta]})}\n\n")
    last = {**base, "choices": [{"index": 0, "delta": {}, **extra, "finish_reason": "stop"}]}
    lines.append(f"data: {json.dumps(last)}\n\n")
    usage = {**base, "choices": [], "usage": {"prompt_tokens": 3, "completion_tokens": chunks}}
    lines.append(f"data: {json.dumps(usage)}\n\ndata: [DONE]\n\n")
    path.write_text("".join(lines))


def start_server(path: Path) -> tuple[subprocess.Popen[str], str]:
    proc = subprocess.Popen(
        [sys.executable, "-m", "ssescope", "serve", str(path), "--port", "0"],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    assert proc.stdout is not None
    url = proc.stdout.readline().strip().split()[-1]
    return proc, url.rstrip("/")


def read(client: openai.OpenAI) -> int:
    n = 0
    stream = client.chat.completions.create(model="m", messages=MESSAGES, stream=True)  # type: ignore[call-overload]
    for _ in stream:
        n += 1
    return n


def timed(client: openai.OpenAI) -> tuple[float, float, int]:
    gc.collect()
    cpu, wall = time.process_time(), time.perf_counter()
    n = read(client)
    return time.process_time() - cpu, time.perf_counter() - wall, n


class ChunkTimer:
    """Times the transport's own work: the wall time of every call of its read-path hook
    (``StreamJudge.chunk``), and the CPU of its batch feeds (``StreamJudge._flush``) and
    of the stream's end (``StreamJudge.end``), on the thread's CPU clock (read once a
    batch: on a virtual machine that clock is a system call)."""

    def __init__(self) -> None:
        self.ns: list[int] = []
        self.cpu_ns = 0
        self._saved = {
            name: getattr(judge_module.StreamJudge, name) for name in ("chunk", "_flush", "end")
        }

    def __enter__(self) -> ChunkTimer:
        chunk, flush, end = (self._saved[n] for n in ("chunk", "_flush", "end"))
        ns, clock, cpu = self.ns, time.perf_counter_ns, time.thread_time_ns

        def timed_chunk(judge: Any, data: bytes) -> None:
            t = clock()
            chunk(judge, data)
            ns.append(clock() - t)

        def timed_flush(judge: Any) -> None:
            c = cpu()
            flush(judge)
            self.cpu_ns += cpu() - c

        def timed_end(judge: Any, *args: Any) -> None:
            c = cpu()
            end(judge, *args)
            self.cpu_ns += cpu() - c

        cls = judge_module.StreamJudge
        cls.chunk = timed_chunk  # type: ignore[method-assign]
        cls._flush = timed_flush  # type: ignore[method-assign]
        cls.end = timed_end  # type: ignore[method-assign]
        return self

    def __exit__(self, *exc: object) -> None:
        for name, fn in self._saved.items():
            setattr(judge_module.StreamJudge, name, fn)


def openinference() -> tuple[Any, Any] | None:
    try:
        from openinference.instrumentation.openai import OpenAIInstrumentor
        from opentelemetry.sdk.trace import TracerProvider
        from opentelemetry.sdk.trace.export import SimpleSpanProcessor
        from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter
    except ImportError:
        return None
    exporter = InMemorySpanExporter()
    provider = TracerProvider()
    provider.add_span_processor(SimpleSpanProcessor(exporter))
    return OpenAIInstrumentor(), (provider, exporter)


def otel_reporter() -> tuple[Any, Any] | None:
    """ssescope's OtelReporter into the OpenTelemetry SDK's in-memory exporters."""
    try:
        from opentelemetry.sdk.metrics import MeterProvider
        from opentelemetry.sdk.metrics.export import InMemoryMetricReader
        from opentelemetry.sdk.trace import TracerProvider
        from opentelemetry.sdk.trace.export import SimpleSpanProcessor
        from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

        from ssescope.otel import OtelReporter
    except ImportError:
        return None
    exporter = InMemorySpanExporter()
    provider = TracerProvider()
    provider.add_span_processor(SimpleSpanProcessor(exporter))
    meters = MeterProvider(metric_readers=[InMemoryMetricReader()])
    return OtelReporter(provider, meters), exporter


def read_path_latency(path: Path, rounds: int) -> tuple[list[int], list[int]]:
    """The wall time of each chunk's step through the app's read loop, with the
    transport's byte stream (the tee, its stamping and, every batch, the feed) and
    without it: the same chunks (one per event, as ``serve`` sends them) from an
    in-memory inner stream, so that the network and the SDK are left out."""
    from ssescope.sourceinfo import RequestSummary, SourceInfo
    from ssescope.transport.judge import JudgeOptions, StreamJudge
    from ssescope.transport.streams import sync_tee

    body = path.read_bytes()
    chunks = [event + b"\n\n" for event in body.split(b"\n\n") if event]

    class Inner(httpx2.SyncByteStream):  # type: ignore[misc]
        def __iter__(self) -> Any:
            return iter(chunks)

    source = SourceInfo(container="http", status=200)

    def summary() -> RequestSummary:
        return RequestSummary(method="POST", url="http://127.0.0.1/v1", model="m", started=0.0)

    clock = time.perf_counter_ns
    bare: list[int] = []
    teed: list[int] = []
    for _ in range(rounds):
        for into, judged in ((bare, False), (teed, True)):
            stream: Any = Inner()
            if judged:
                judge = StreamJudge(
                    JudgeOptions(sinks=()), source, time.monotonic(), summary, secrets=["sk-b"]
                )
                stream = sync_tee(stream, judge, "httpx2")
            it = iter(stream)
            t = clock()
            for _chunk in it:
                now = clock()
                into.append(now - t)
                t = now
    return bare, teed


def peak(chunks_path: Path, n: int) -> int:
    """Peak traced memory of reading one stream of ``n`` chunks with the transport."""
    write_stream(chunks_path, n)
    proc, server = start_server(chunks_path)
    try:
        client = openai.OpenAI(
            base_url=server + "/v1", api_key="sk-bench", http_client=ssescope.http_client()
        )
        read(client)  # warm
        gc.collect()
        tracemalloc.start()
        reports: list[ssescope.Report] = []
        client2 = openai.OpenAI(
            base_url=server + "/v1",
            api_key="sk-bench",
            http_client=ssescope.http_client(on_report=reports.append),
        )
        stream = client2.chat.completions.create(model="m", messages=MESSAGES, stream=True)  # type: ignore[call-overload]
        tracemalloc.reset_peak()
        base = tracemalloc.get_traced_memory()[0]
        for _ in stream:
            pass
        top = tracemalloc.get_traced_memory()[1] - base
        tracemalloc.stop()
        assert reports and reports[0].status == "completed", reports
        return top
    finally:
        proc.terminate()
        proc.wait()


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--chunks", type=int, default=4000)
    parser.add_argument("--rounds", type=int, default=7)
    args = parser.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="ssescope-bench-"))
    path = tmp / "long.sse"
    write_stream(path, args.chunks)
    proc, url = start_server(path)
    reports: list[ssescope.Report] = []
    try:
        bare = openai.OpenAI(base_url=url + "/v1", api_key="sk-bench", http_client=httpx2.Client())
        judged = openai.OpenAI(
            base_url=url + "/v1",
            api_key="sk-bench",
            http_client=ssescope.http_client(on_report=reports.append),
        )
        oi = openinference()
        ot = otel_reporter()
        exported = None
        export_ns: list[int] = []

        def export(report: ssescope.Report) -> None:
            assert ot is not None
            start = time.thread_time_ns()
            ot[0](report)
            export_ns.append(time.thread_time_ns() - start)

        if ot is not None:
            exported = openai.OpenAI(
                base_url=url + "/v1",
                api_key="sk-bench",
                http_client=ssescope.http_client(on_report=[reports.append, export]),
            )
        modes = (
            ["bare", "transport"]
            + (["transport+otel"] if exported else [])
            + (["openinference"] if oi else [])
        )
        cpu: dict[str, list[float]] = {m: [] for m in modes}
        wall: dict[str, list[float]] = {m: [] for m in modes}
        for client in (bare, judged, *([exported] if exported else [])):
            read(client)  # warm up connections and imports
        timer = ChunkTimer()
        chunks = 0
        for _ in range(args.rounds):
            for mode in modes:
                if mode == "bare":
                    c, w, chunks = timed(bare)
                elif mode == "transport":
                    with timer:
                        c, w, _n = timed(judged)
                elif mode == "transport+otel":
                    assert exported is not None
                    c, w, _n = timed(exported)
                else:
                    assert oi is not None
                    instrumentor, (provider, _exporter) = oi
                    instrumentor.instrument(tracer_provider=provider)
                    try:
                        c, w, _n = timed(bare)
                    finally:
                        instrumentor.uninstrument()
                cpu[mode].append(c)
                wall[mode].append(w)
        assert all(r.status == "completed" for r in reports), [r.status for r in reports]
        if oi is not None:
            spans = oi[1][1].get_finished_spans()
            print(f"OpenInference exported {len(spans)} spans for {args.rounds} streams")
        if ot is not None:
            spans = ot[1].get_finished_spans()
            print(
                f"OtelReporter exported {len(spans)} spans for {args.rounds} streams; "
                f"its own CPU per stream (span and metrics from the Report): "
                f"best {min(export_ns) / 1e3:.0f} µs, "
                f"median {statistics.median(export_ns) / 1e3:.0f} µs"
            )
    finally:
        proc.terminate()
        proc.wait()
    print(
        f"\nssescope core: {ssescope.CORE}; {chunks} SDK chunks per stream; "
        f"{args.rounds} rounds (best; median in brackets)\n"
    )
    print("| mode | CPU per stream (ms) | CPU per chunk (µs) | added CPU | added per chunk (µs) |")
    print("|---|---:|---:|---:|---:|")
    best_bare, median_bare = min(cpu["bare"]), statistics.median(cpu["bare"])
    for mode in modes:
        b, m = min(cpu[mode]), statistics.median(cpu[mode])
        row = f"| {mode} | {b * 1e3:.1f} ({m * 1e3:.1f}) | {b / chunks * 1e6:.2f} |"
        if mode == "bare":
            print(row + " | |")
            continue
        added = f"{(b / best_bare - 1) * 100:+.1f} % ({(m / median_bare - 1) * 100:+.1f} %)"
        per = f"{(b - best_bare) / chunks * 1e6:+.2f}"
        print(f"{row} {added} | {per} |")
    own = timer.cpu_ns / 1e9 / args.rounds
    print(
        f"\nthe transport's own CPU (its batch feeds and ends; the stamping of each chunk left out): {own * 1e3:.1f} ms per stream, "
        f"{own / chunks * 1e6:.2f} µs per chunk: {own / best_bare * 100:.1f} % of the bare SDK's "
        f"best, {own / median_bare * 100:.1f} % of its median"
    )
    ns = sorted(timer.ns)
    q = statistics.quantiles(ns, n=100)
    print(
        f"\ntransport read-path call per chunk: p50 {q[49] / 1e3:.2f} µs, "
        f"p99 {q[98] / 1e3:.2f} µs, max {ns[-1] / 1e3:.0f} µs ({len(ns)} calls)"
    )
    bare_ns, teed_ns = read_path_latency(path, args.rounds)
    qb = statistics.quantiles(bare_ns, n=100)
    qt = statistics.quantiles(teed_ns, n=100)
    print(
        f"one chunk's step through the read loop (in-memory chunks, {len(teed_ns)} steps): "
        f"bare p50 {qb[49] / 1e3:.2f} µs, p99 {qb[98] / 1e3:.2f} µs; through the transport "
        f"p50 {qt[49] / 1e3:.2f} µs, p99 {qt[98] / 1e3:.2f} µs, max {max(teed_ns) / 1e3:.0f} µs: "
        f"added at p50 {(qt[49] - qb[49]) / 1e3:.2f} µs (target: under 100 µs)"
    )
    small = peak(tmp / "a.sse", args.chunks)
    large = peak(tmp / "b.sse", args.chunks * 5)
    print(
        f"peak memory of one judged stream (client side): {small / 1024:.0f} KiB at "
        f"{args.chunks} chunks, {large / 1024:.0f} KiB at {args.chunks * 5} chunks"
    )


if __name__ == "__main__":
    main()
