"""What judging WebSocket messages costs: Realtime and Responses-over-WebSocket messages
fed to the engine one by one, and the memory of one long connection.

    PYTHONPATH=src python bench/websocket.py                 # about a minute
    PYTHONPATH=src python bench/websocket.py --quick

Three parts, each printed as a Markdown table:

* **per message**: the time of one ``Pipeline.feed`` (bounded, as the proxy runs it) per
  server message, for a Realtime voice response (audio deltas of 100 ms, 6,400 base64
  characters, and transcript deltas), a Realtime text response, and a Responses API
  response over WebSocket (text deltas), 20,000 messages each: p50, p90, p99, max and the
  mean. This is the engine's share of what a proxy adds per message; the target for the
  whole proxy is under 1 ms at p50;
* **the container**: the same messages read from a ``.ssecap`` WebSocket capture
  (``split_responses`` and one pipeline per response, ``inspect_all``), per message;
* **memory**: a fresh process judges one connection of 10,000 and of 100,000 Realtime
  voice messages (one ``response.done`` every 200 messages, one pipeline per response, as
  the container splits them), and one single response of that many messages; its peak
  RSS (``VmHWM``) and the size of the Reports it keeps. Flat means the 100k figure is
  the 10k one: the audio is counted and sized, never kept.

The messages are generated (seeded shapes of the documented events), never recorded.
"""

from __future__ import annotations

import argparse
import base64
import json
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import ssescope
from ssescope import Pipeline

AUDIO = base64.b64encode(bytes(4800)).decode()  # 100 ms of 24 kHz pcm16


def _dump(obj: object) -> bytes:
    return json.dumps(obj, separators=(",", ":")).encode()


def realtime(n: int, *, voice: bool = True, per_response: int | None = None) -> Iterator[bytes]:
    """``n`` Realtime server messages: session.created, then responses of
    ``per_response`` messages (one response of all of them when ``None``)."""
    yield _dump({"type": "session.created", "event_id": "e0", "session": {"model": "gpt-realtime"}})
    sent = 1
    r = 0
    while sent < n - 2:
        r += 1
        rid = f"resp_{r}"
        yield _dump(
            {
                "type": "response.created",
                "event_id": f"e{sent}",
                "response": {"object": "realtime.response", "id": rid, "status": "in_progress"},
            }
        )
        sent += 1
        left = n - sent
        budget = left if per_response is None else min(per_response, left)
        where = {"response_id": rid, "item_id": f"i{r}", "output_index": 0, "content_index": 0}
        for k in range(max(0, budget - 1)):
            if voice and k % 2 == 0:
                kind, delta = "response.output_audio.delta", AUDIO
            elif voice:
                kind, delta = "response.output_audio_transcript.delta", "word "
            else:
                kind, delta = "response.output_text.delta", "word "
            yield _dump({"type": kind, "event_id": f"e{sent}", **where, "delta": delta})
            sent += 1
        yield _dump(
            {
                "type": "response.done",
                "event_id": f"e{sent}",
                "response": {
                    "object": "realtime.response",
                    "id": rid,
                    "status": "completed",
                    "output": [],
                    "usage": {"input_tokens": 10, "output_tokens": budget, "total_tokens": budget},
                },
            }
        )
        sent += 1


def responses_ws(n: int) -> Iterator[bytes]:
    """One Responses API response over WebSocket of ``n`` messages."""
    yield _dump({"type": "response.created", "sequence_number": 0, "response": {"id": "r1"}})
    for k in range(1, n - 1):
        yield _dump(
            {
                "type": "response.output_text.delta",
                "sequence_number": k,
                "item_id": "m1",
                "output_index": 0,
                "content_index": 0,
                "delta": "word ",
            }
        )
    yield _dump(
        {
            "type": "response.completed",
            "sequence_number": n - 1,
            "response": {"id": "r1", "status": "completed", "output": []},
        }
    )


def per_message(messages: list[bytes]) -> list[float]:
    """Microseconds of each feed (the message and its line feed, as the container frames
    it) into one bounded pipeline, then the close and the Report."""
    pipeline = Pipeline(bounded=True, collect_events=False)
    times: list[float] = []
    clock = time.perf_counter_ns
    for i, message in enumerate(messages):
        data = message + b"\n"
        t0 = clock()
        pipeline.feed(data, i * 0.01)
        times.append((clock() - t0) / 1000)
    pipeline.close()
    pipeline.report()
    return times


def _quantile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def table_per_message(n: int, rounds: int) -> None:
    workloads = {
        "Realtime voice (audio + transcript deltas)": list(realtime(n)),
        "Realtime text deltas": list(realtime(n, voice=False)),
        "Responses over WebSocket (text deltas)": list(responses_ws(n)),
    }
    print(f"\n### Per message: one bounded pipeline fed message by message ({n:,} messages)\n")
    print("| workload | bytes/message | p50 µs | p90 µs | p99 µs | max µs | mean µs |")
    print("|---|---|---|---|---|---|---|")
    for name, messages in workloads.items():
        best: list[float] | None = None
        for _ in range(rounds):  # the round with the lowest median (load only adds)
            times = per_message(messages)
            if best is None or statistics.median(times) < statistics.median(best):
                best = times
        assert best is not None
        size = sum(map(len, messages)) / len(messages)
        print(
            f"| {name} | {size:,.0f} | {_quantile(best, 0.5):.1f} | {_quantile(best, 0.9):.1f} "
            f"| {_quantile(best, 0.99):.1f} | {max(best):,.0f} | {statistics.fmean(best):.1f} |"
        )


def capture(messages: list[bytes]) -> bytes:
    header = {"ssescope": "capture", "version": 2, "transport": "websocket"}
    lines = [json.dumps(header)]
    lines.append(json.dumps({"t": 0.0, "dir": "send", "data": '{"type":"response.create"}'}))
    for i, message in enumerate(messages):
        lines.append(json.dumps({"t": i * 0.01, "dir": "receive", "data": message.decode()}))
    lines.append(json.dumps({"close": {"code": 1000, "reason": ""}, "t": len(messages) * 0.01}))
    return ("\n".join(lines) + "\n").encode()


def table_container(n: int, rounds: int) -> None:
    workloads = {
        "Realtime voice, a response every 200 messages": list(realtime(n, per_response=200)),
        "Responses over WebSocket, one response": list(responses_ws(n)),
    }
    print(f"\n### The container: `inspect_all` of a `.ssecap` WebSocket capture ({n:,} messages)\n")
    print("| workload | capture MiB | entries | seconds | µs/message |")
    print("|---|---|---|---|---|")
    for name, messages in workloads.items():
        data = capture(messages)
        best = float("inf")
        entries = 0
        for _ in range(rounds):
            t0 = time.process_time()
            entries = len(ssescope.inspect_all(data))
            best = min(best, time.process_time() - t0)
        print(
            f"| {name} | {len(data) / 2**20:.1f} | {entries} | {best:.2f} "
            f"| {best / len(messages) * 1e6:.1f} |"
        )


_CHILD = r"""
import json, sys
sys.path.insert(0, {bench!r})
from websocket import realtime
from ssescope import Pipeline
n, per = int(sys.argv[1]), (None if sys.argv[2] == "one" else int(sys.argv[2]))
kept = []
pipeline = None
for i, message in enumerate(realtime(n, per_response=per)):
    if pipeline is None or b'"response.created"' in message[:40]:
        if pipeline is not None:
            pipeline.close()
            kept.append(pipeline.report().to_dict())
        pipeline = Pipeline(bounded=True, collect_events=False)
    pipeline.feed(message + b"\n", i * 0.01)
pipeline.close()
kept.append(pipeline.report().to_dict())
status = open("/proc/self/status").read()
hwm = next(int(l.split()[1]) for l in status.splitlines() if l.startswith("VmHWM"))
audio = sum(r["outputs"][0]["audio"]["bytes"] for r in kept if r["outputs"] and r["outputs"][0]["audio"])
print(json.dumps({{"hwm_kib": hwm, "reports": len(kept), "report_bytes": len(json.dumps(kept)), "audio_bytes": audio}}))
"""


def table_memory(sizes: list[int]) -> None:
    bench = str(Path(__file__).resolve().parent)
    print("\n### Memory: one connection of Realtime voice messages, judged live\n")
    print("| shape | messages | peak RSS MiB | Reports | Reports' JSON KiB | audio judged MiB |")
    print("|---|---|---|---|---|---|")
    with tempfile.TemporaryDirectory() as tmp:
        script = Path(tmp) / "child.py"
        script.write_text(_CHILD.format(bench=bench))
        for shape, per in (("a response every 200 messages", "200"), ("one response", "one")):
            for n in sizes:
                out = subprocess.run(
                    [sys.executable, str(script), str(n), per],
                    capture_output=True,
                    text=True,
                    check=True,
                ).stdout
                got = json.loads(out)
                print(
                    f"| {shape} | {n:,} | {got['hwm_kib'] / 1024:.1f} | {got['reports']:,} "
                    f"| {got['report_bytes'] / 1024:,.0f} | {got['audio_bytes'] / 2**20:,.0f} |"
                )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="smaller workloads, fewer rounds")
    args = parser.parse_args()
    n, rounds = (5_000, 2) if args.quick else (20_000, 3)
    print(f"ssescope core: {ssescope.CORE}; Python {sys.version.split()[0]}")
    table_per_message(n, rounds)
    table_container(n, rounds)
    table_memory([10_000, 100_000])


if __name__ == "__main__":
    main()
