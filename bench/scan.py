"""Corpus scan benchmark: ``ssescope scan`` against ``inspect`` in a loop, and its memory.

Run by hand (not part of the test suite)::

    pip install -e '.[scan]'
    PYTHONPATH=src python bench/scan.py              # about three minutes on 2 cores
    PYTHONPATH=src python bench/scan.py --quick      # 2,000 / 20,000 streams

It generates small streams (seeded, never recorded: OpenAI-like and Anthropic-like SSE,
some completed, some cut, some with an error frame), writes them as Parquet tables of
bodies and as a directory of files, and measures:

* the floor: ``ssescope.inspect(body)`` in a loop in one process (bodies already in
  memory), µs per stream;
* ``scan`` of the table with ``--jobs 1`` (in process) and ``--jobs 2`` (a process pool),
  wall time, streams/s, MB/s, and µs per stream over the loop's;
* ``scan`` of the directory of files (DuckDB ``read_blob``) with ``--jobs 2``;
* peak memory (max RSS of the scanning process, and of its largest worker) scanning the
  small and the 10× larger table, each in a fresh process.

It prints Markdown tables for docs/performance.md.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq

_CHAT = (
    'data: {{"id":"c{i}","object":"chat.completion.chunk","model":"{model}","choices":'
    '[{{"index":0,"delta":{{"content":"{text}"}},"finish_reason":null}}]}}\n\n'
)
_CHAT_END = (
    'data: {{"id":"c{i}","object":"chat.completion.chunk","model":"{model}","choices":'
    '[{{"index":0,"delta":{{}},"finish_reason":"stop"}}],"usage":{{"prompt_tokens":12,'
    '"completion_tokens":{n},"total_tokens":{t}}}}}\n\ndata: [DONE]\n\n'
)
_ANTHROPIC_START = (
    'event: message_start\ndata: {{"type":"message_start","message":{{"id":"m{i}","type":'
    '"message","role":"assistant","model":"claude-x","content":[],"usage":{{"input_tokens":9,'
    '"output_tokens":1}}}}}}\n\nevent: content_block_start\ndata: {{"type":"content_block_start",'
    '"index":0,"content_block":{{"type":"text","text":""}}}}\n\n'
)
_ANTHROPIC_DELTA = (
    'event: content_block_delta\ndata: {{"type":"content_block_delta","index":0,"delta":'
    '{{"type":"text_delta","text":"{text}"}}}}\n\n'
)
_ANTHROPIC_END = (
    'event: content_block_stop\ndata: {{"type":"content_block_stop","index":0}}\n\n'
    'event: message_delta\ndata: {{"type":"message_delta","delta":{{"stop_reason":"end_turn"}},'
    '"usage":{{"output_tokens":{n}}}}}\n\nevent: message_stop\ndata: {{"type":"message_stop"}}\n\n'
)
_WORDS = [
    "the",
    "quick",
    "brown",
    "fox",
    "jumps",
    "over",
    "a",
    "lazy",
    "dog",
    "while",
    "streams",
    "are",
    "cut",
]


def make_stream(i: int, rng: random.Random) -> bytes:
    """One small generated stream (about 1-3 KB)."""
    n = rng.randrange(4, 16)
    words = [rng.choice(_WORDS) + " " for _ in range(n)]
    if rng.random() < 0.6:
        model = rng.choice(["gpt-a", "gpt-b", "gpt-c"])
        body = "".join(_CHAT.format(i=i, model=model, text=w) for w in words)
        body += _CHAT_END.format(i=i, model=model, n=n, t=n + 12)
    else:
        body = _ANTHROPIC_START.format(i=i)
        body += "".join(_ANTHROPIC_DELTA.format(text=w) for w in words)
        body += _ANTHROPIC_END.format(n=n)
    data = body.encode()
    roll = rng.random()
    if roll < 0.15:  # cut by a proxy
        data = data[: rng.randrange(1, len(data))]
    elif roll < 0.18:  # an error frame
        data += b'data: {"error":{"message":"overloaded","type":"overloaded_error"}}\n\n'
    return data


def make_table(path: Path, count: int, seed: int = 13) -> int:
    """A Parquet table of ``count`` generated bodies (written in slices); its byte size."""
    rng = random.Random(seed)
    total = 0
    writer = None
    for start in range(0, count, 10_000):
        bodies = [make_stream(i, rng) for i in range(start, min(count, start + 10_000))]
        total += sum(len(b) for b in bodies)
        table = pa.table(
            {
                "request_id": pa.array(range(start, start + len(bodies)), pa.int64()),
                "body": pa.array(bodies, pa.binary()),
            }
        )
        if writer is None:
            writer = pq.ParquetWriter(path, table.schema)
        writer.write_table(table)
    assert writer is not None
    writer.close()
    return total


_LOOP = """
import json, sys, time
import pyarrow.parquet as pq
import ssescope
bodies = pq.read_table(sys.argv[1], columns=["body"]).column("body").to_pylist()
start, cpu = time.perf_counter(), time.process_time()
for body in bodies:
    ssescope.inspect(body)
print(json.dumps({"seconds": time.perf_counter() - start, "cpu": time.process_time() - cpu}))
"""


def loop_seconds(path: Path) -> dict[str, Any]:
    """The floor: inspect every body of the table in a loop, in a fresh process (bodies
    already in memory), wall and CPU seconds."""
    out = subprocess.run(
        [sys.executable, "-c", _LOOP, str(path)], capture_output=True, text=True, check=True
    ).stdout
    result: dict[str, Any] = json.loads(out.strip().splitlines()[-1])
    return result


_RUN = """
import json, os, sys, threading, time
from ssescope.scan import scan

def rss_kb(pid):
    try:
        with open(f"/proc/{pid}/status") as fp:
            for line in fp:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0

def tree():
    parents = {}
    for name in os.listdir("/proc"):
        if name.isdigit():
            try:
                with open(f"/proc/{name}/stat") as fp:
                    parents[int(name)] = int(fp.read().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                pass
    found, todo = [], [os.getpid()]
    while todo:
        pid = todo.pop()
        found.append(pid)
        todo.extend(p for p, parent in parents.items() if parent == pid)
    return found

def cpu_s(pid):
    try:
        with open(f"/proc/{pid}/stat") as fp:
            fields = fp.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, IndexError, ValueError):
        return 0.0

peak = {"self": 0, "worker": 0, "total": 0}
cpu = {}
stop = threading.Event()
def sample():
    while not stop.is_set():
        pids = tree()
        sizes = {pid: rss_kb(pid) for pid in pids}
        for pid in pids:
            if pid != os.getpid():
                cpu[pid] = max(cpu.get(pid, 0.0), cpu_s(pid))
        me = sizes.pop(os.getpid(), 0)
        peak["self"] = max(peak["self"], me)
        peak["worker"] = max([peak["worker"], *sizes.values()])
        peak["total"] = max(peak["total"], me + sum(sizes.values()))
        time.sleep(0.05)

args = json.loads(sys.argv[1])
thread = threading.Thread(target=sample, daemon=True)
thread.start()
start = time.perf_counter()
result = scan(args["paths"], jobs=args["jobs"], body=args.get("body"))
seconds = time.perf_counter() - start
stop.set()
thread.join()
print(json.dumps({
    "seconds": seconds,
    "rows": result.rows,
    "rss_mb": peak["self"] / 1024,
    "worker_rss_mb": peak["worker"] / 1024,
    "total_rss_mb": peak["total"] / 1024,
    "cpu_main_s": cpu_s(os.getpid()),
    "cpu_workers_s": sorted((c for c in cpu.values() if c > 0.5), reverse=True),
}))
"""


def run_scan(paths: list[str], jobs: int, body: str | None = None) -> dict[str, Any]:
    """One scan in a fresh process (so peak memory is its own)."""
    arg = json.dumps({"paths": paths, "jobs": jobs, "body": body})
    out = subprocess.run(
        [sys.executable, "-c", _RUN, arg], capture_output=True, text=True, check=True
    ).stdout
    result: dict[str, Any] = json.loads(out.strip().splitlines()[-1])
    return result


def best(run: Callable[[], dict[str, Any]], repeat: int) -> dict[str, Any]:
    """The fastest of ``repeat`` runs."""
    return min((run() for _ in range(repeat)), key=lambda r: r["seconds"])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="2,000 and 20,000 streams")
    parser.add_argument("--repeat", type=int, default=3, help="best of N timed runs")
    args = parser.parse_args()
    small, large = (2_000, 20_000) if args.quick else (10_000, 100_000)
    with tempfile.TemporaryDirectory(prefix="ssescope-bench-scan-") as tmp:
        root = Path(tmp)
        small_table, large_table = root / "small.parquet", root / "large.parquet"
        small_bytes = make_table(small_table, small)
        make_table(large_table, large)
        files = root / "files"
        files.mkdir()
        rng = random.Random(7)
        file_count = small // 2
        file_bytes = 0
        for i in range(file_count):
            data = make_stream(i, rng)
            file_bytes += len(data)
            (files / f"{i:06d}.sse").write_bytes(data)

        loop_run = best(lambda: loop_seconds(small_table), args.repeat)
        loop, loop_cpu = loop_run["seconds"], loop_run["cpu"]
        loop_large = loop_seconds(large_table)
        one = best(lambda: run_scan([str(small_table)], 1), args.repeat)
        two = best(lambda: run_scan([str(small_table)], 2), args.repeat)
        file_two = best(lambda: run_scan([str(files)], 2), args.repeat)
        one_large = run_scan([str(large_table)], 1)
        two_large = run_scan([str(large_table)], 2)

    mb = small_bytes / 1e6
    per_loop = loop / small
    print(f"Python {sys.version.split()[0]}, {os.cpu_count()} CPUs, best of {args.repeat}\n")
    print(f"{small:,} generated streams, {mb:.1f} MB in a Parquet table\n")
    print("| run | seconds | streams/s | MB/s | µs/stream | vs loop |")
    print("|---|---:|---:|---:|---:|---:|")
    rows = [
        ("`inspect` loop, one process (floor)", loop),
        ("`scan --jobs 1` (table)", one["seconds"]),
        ("`scan --jobs 2` (table)", two["seconds"]),
    ]
    for name, seconds in rows:
        print(
            f"| {name} | {seconds:.2f} | {small / seconds:,.0f} | {mb / seconds:.1f} | "
            f"{seconds / small * 1e6:.0f} | {seconds / loop:.2f}× |"
        )
    seconds = file_two["seconds"]
    print(
        f"| `scan --jobs 2` ({file_count:,} files, `read_blob`) | {seconds:.2f} | "
        f"{file_count / seconds:,.0f} | {file_bytes / 1e6 / seconds:.1f} | "
        f"{seconds / file_count * 1e6:.0f} | |"
    )
    extra = large - small
    marginal_one = (one_large["seconds"] - one["seconds"]) / extra
    marginal_two = (two_large["seconds"] - two["seconds"]) / extra
    print(
        f"\n{large:,} streams: `--jobs 1` {one_large['seconds']:.1f} s, `--jobs 2` {two_large['seconds']:.1f} s\n"
    )
    print("| per stream (the fixed start-up and summary cost taken out) | µs | vs loop |")
    print("|---|---:|---:|")
    print(f"| `inspect` loop | {per_loop * 1e6:.0f} | 1.00× |")
    print(
        f"| `scan --jobs 1`, marginal | {marginal_one * 1e6:.0f} | {marginal_one / per_loop:.2f}× |"
    )
    print(
        f"| `scan --jobs 2`, marginal | {marginal_two * 1e6:.0f} | {marginal_two / per_loop:.2f}× |"
    )
    cpu_one = (one_large["cpu_main_s"] - one["cpu_main_s"]) / extra
    cpu_loop = (loop_large["cpu"] - loop_cpu) / extra
    print(f"| CPU: `inspect` loop, marginal | {cpu_loop * 1e6:.0f} | 1.00× |")
    print(f"| CPU: `scan --jobs 1`, marginal | {cpu_one * 1e6:.0f} | {cpu_one / cpu_loop:.2f}× |")
    print(
        f"\n{large:,} streams: `inspect` loop {loop_large['seconds']:.1f} s wall, {loop_large['cpu']:.1f} s CPU; "
        f"`scan --jobs 1` {one_large['seconds']:.1f} s wall, {one_large['cpu_main_s']:.1f} s CPU "
        f"({one_large['seconds'] / loop_large['seconds']:.2f}× the loop's wall time)"
    )
    split = two_large["cpu_workers_s"]
    if split:
        bound = one_large["cpu_main_s"] / max([two_large["cpu_main_s"], *split])
        print(
            f"\nCPU split at {large:,} streams with `--jobs 2`: workers {', '.join(f'{c:.1f}' for c in split)} s, "
            f"scanning process {two_large['cpu_main_s']:.1f} s; jobs 1 CPU over the busiest process of jobs 2: {bound:.2f}×"
        )
    print(
        f"\n`--jobs 2` over `--jobs 1`: {one['seconds'] / two['seconds']:.2f}× at {small:,} streams, "
        f"{one_large['seconds'] / two_large['seconds']:.2f}× at {large:,}\n"
    )
    print("| streams | jobs | CPU s, scanning process | CPU s, each worker |")
    print("|---:|---:|---:|---|")
    for count, jobs, m in (
        (small, 1, one),
        (large, 1, one_large),
        (small, 2, two),
        (large, 2, two_large),
    ):
        workers = ", ".join(f"{c:.1f}" for c in m["cpu_workers_s"]) or "-"
        print(f"| {count:,} | {jobs} | {m['cpu_main_s']:.1f} | {workers} |")
    with open("/proc/loadavg") as fp:
        print(f"\nload average during the run (1, 5, 15 min): {' '.join(fp.read().split()[:3])}\n")
    print("| streams | jobs | peak RSS, scanning process | largest worker | all processes |")
    print("|---:|---:|---:|---:|---:|")
    for count, jobs, m in (
        (small, 1, one),
        (large, 1, one_large),
        (small, 2, two),
        (large, 2, two_large),
    ):
        print(
            f"| {count:,} | {jobs} | {m['rss_mb']:.0f} MB | {m['worker_rss_mb']:.0f} MB | {m['total_rss_mb']:.0f} MB |"
        )


if __name__ == "__main__":
    main()
