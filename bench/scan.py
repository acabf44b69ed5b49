"""Corpus scan benchmark: ``ssescope scan`` against ``inspect`` in a loop, and its memory.

Run by hand (not part of the test suite)::

    pip install -e '.[scan]'
    PYTHONPATH=src python bench/scan.py              # each contender 3 times (2 at 100,000)
    PYTHONPATH=src python bench/scan.py --quick      # each contender once (about a minute)

It generates small streams (seeded, never recorded: OpenAI-like and Anthropic-like SSE,
some completed, some cut, some with an error frame), writes 10,000 and 100,000 of them as
Parquet tables of bodies and 5,000 as a directory of files, and measures, each run in a
fresh process and the contenders in turns:

* the floor: ``ssescope.inspect(body)`` in a loop in one process (bodies already in
  memory), wall and CPU time;
* ``scan`` of each table with ``--jobs 1`` (in process) and ``--jobs 2`` (a process pool),
  wall time, streams/s, MB/s, and µs per stream over the loop's;
* ``scan`` of the directory of files (DuckDB ``read_blob``) with ``--jobs 2``;
* CPU time of the scanning process (read inside it), of the fork server and of each worker
  (sampled from outside, every 20 ms), and the number of shards: what the scanning
  process spends per shard;
* peak memory (RSS) of the scanning process, of its largest worker and of all of them.

It prints the three targets first (``--jobs 2`` over ``--jobs 1``; CPU per stream over
the loop's; peak memory at 100,000 streams against 10,000), then Markdown tables for
docs/performance.md.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import subprocess
import sys
import tempfile
import time
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
import json, sys, time
import ssescope.scan.engines.local as local
from ssescope.scan import scan

shards = [0]
plan = local.plan
def counted(*a, **k):
    for shard in plan(*a, **k):
        shards[0] += 1
        yield shard
local.plan = counted

args = json.loads(sys.argv[1])
start, cpu0 = time.perf_counter(), time.process_time()
result = scan(args["paths"], jobs=args["jobs"], body=args.get("body"))
seconds, cpu = time.perf_counter() - start, time.process_time()
print(json.dumps({
    "seconds": seconds, "rows": result.rows, "shards": shards[0],
    "cpu_main_s": cpu, "cpu_scan_s": cpu - cpu0,
}))
"""


def _stat(pid: int) -> tuple[int, float] | None:
    # (parent pid, CPU seconds) from /proc/PID/stat
    try:
        with open(f"/proc/{pid}/stat") as fp:
            fields = fp.read().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return None
    return int(fields[1]), (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _rss_kb(pid: int) -> int:
    try:
        with open(f"/proc/{pid}/status") as fp:
            for line in fp:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


def _is_server(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as fp:
            return b"forkserver" in fp.read()
    except OSError:
        return False


class Monitor:
    """Samples a process tree from outside it (so the sampling costs the measured
    processes nothing): peak RSS of the root, of its largest worker and of all, and the
    CPU seconds of the fork server and of each worker (the largest value seen)."""

    def __init__(self, root: int) -> None:
        """Watch ``root`` and its descendants."""
        self.root = root
        self.parent: dict[int, int] = {}
        self.server: set[int] = set()
        self.cpu: dict[int, float] = {}
        self.peak = {"self": 0, "worker": 0, "total": 0}

    def sample(self) -> None:
        """One sample: new processes found, RSS and CPU of the tree read."""
        for name in os.listdir("/proc"):
            if name.isdigit() and int(name) not in self.parent:
                found = _stat(int(name))
                self.parent[int(name)] = found[0] if found else 0
        tree, todo = [], [self.root]
        while todo:
            pid = todo.pop()
            tree.append(pid)
            todo.extend(p for p, parent in self.parent.items() if parent == pid)
        sizes = {pid: _rss_kb(pid) for pid in tree}
        for pid in tree[1:]:
            found = _stat(pid)
            if found is not None:
                self.cpu[pid] = max(self.cpu.get(pid, 0.0), found[1])
            if self.parent[pid] == self.root and _is_server(pid):
                self.server.add(pid)
        me = sizes.pop(self.root, 0)
        workers = [v for p, v in sizes.items() if p not in self.server]
        self.peak["self"] = max(self.peak["self"], me)
        self.peak["worker"] = max([self.peak["worker"], *workers])
        self.peak["total"] = max(self.peak["total"], me + sum(sizes.values()))


def run_scan(paths: list[str], jobs: int, body: str | None = None) -> dict[str, Any]:
    """One scan in a fresh process (so peak memory is its own): wall and CPU seconds of
    the scanning process (from inside it), of the fork server and of each worker
    (sampled from outside every 20 ms), shards, peak RSS."""
    arg = json.dumps({"paths": paths, "jobs": jobs, "body": body})
    proc = subprocess.Popen([sys.executable, "-c", _RUN, arg], stdout=subprocess.PIPE, text=True)
    monitor = Monitor(proc.pid)
    while proc.poll() is None:
        monitor.sample()
        time.sleep(0.02)
    out = proc.communicate()[0]
    if proc.returncode:
        raise SystemExit(f"the scan failed with exit code {proc.returncode}")
    result: dict[str, Any] = json.loads(out.strip().splitlines()[-1])
    server = sum(c for p, c in monitor.cpu.items() if p in monitor.server)
    workers = [c for p, c in monitor.cpu.items() if p not in monitor.server and c > 0.05]
    result.update(
        rss_mb=monitor.peak["self"] / 1024,
        worker_rss_mb=monitor.peak["worker"] / 1024,
        total_rss_mb=monitor.peak["total"] / 1024,
        cpu_server_s=server,
        cpu_workers_s=sorted(workers, reverse=True),
    )
    return result


def fastest(runs: list[dict[str, Any]]) -> dict[str, Any]:
    """The fastest run by wall time."""
    return min(runs, key=lambda r: r["seconds"])


def interleaved(contenders: dict[str, Callable[[], dict[str, Any]]], repeat: int) -> dict[str, Any]:
    """Each contender ``repeat`` times, in turns (so a change of load hits them all
    alike); the fastest run of each."""
    runs: dict[str, list[dict[str, Any]]] = {name: [] for name in contenders}
    for _ in range(repeat):
        for name, run in contenders.items():
            runs[name].append(run())
    return {name: fastest(found) for name, found in runs.items()}


def _all_cpu(m: dict[str, Any]) -> float:
    return float(m["cpu_main_s"] + m["cpu_server_s"] + sum(m["cpu_workers_s"]))


_SCAN = """
import json, sys
from ssescope.scan import scan
args = json.loads(sys.argv[1])
scan(args["paths"], jobs=args["jobs"])
"""


def instructions(code: str, arg: str) -> int:
    """Instructions executed by ``python -c code arg`` under callgrind (that process only:
    the fork server and the workers it starts run natively)."""
    with tempfile.TemporaryDirectory(prefix="ssescope-bench-cg-") as tmp:
        err = subprocess.run(
            [
                "valgrind",
                "--tool=callgrind",
                f"--callgrind-out-file={tmp}/out",
                sys.executable,
                "-c",
                code,
                arg,
            ],
            capture_output=True,
            text=True,
            check=True,
        ).stderr
    found = re.search(r"Collected : (\d+)", err)
    if found is None:
        raise SystemExit(f"callgrind printed no count:\n{err}")
    return int(found.group(1))


def count_instructions() -> None:
    """Instructions per stream, marginal between 1,000 and 3,000 streams (start-up and
    summary taken out): the loop, ``scan --jobs 1``, and the scanning process alone of
    ``scan --jobs 2``. Insensitive to the load of the machine."""
    small, large = 1_000, 3_000
    with tempfile.TemporaryDirectory(prefix="ssescope-bench-scan-") as tmp:
        tables = {n: Path(tmp) / f"t{n}.parquet" for n in (small, large)}
        for n, path in tables.items():
            make_table(path, n)
        found: dict[str, dict[int, int]] = {"loop": {}, "one": {}, "two": {}}
        for n, path in tables.items():
            found["loop"][n] = instructions(_LOOP, str(path))
            for name, jobs in (("one", 1), ("two", 2)):
                arg = json.dumps({"paths": [str(path)], "jobs": jobs})
                found[name][n] = instructions(_SCAN, arg)
    per = {k: (v[large] - v[small]) / (large - small) for k, v in found.items()}
    print(f"Instructions per stream (callgrind, marginal {small:,} → {large:,} streams)\n")
    print("| process | instructions per stream | vs loop |")
    print("|---|---:|---:|")
    print(f"| `inspect` loop | {per['loop']:,.0f} | 1.00× |")
    print(f"| `scan --jobs 1` | {per['one']:,.0f} | {per['one'] / per['loop']:.2f}× |")
    print(
        f"| `scan --jobs 2`, the scanning process alone | {per['two']:,.0f} | "
        f"{per['two'] / per['loop']:.2f}× |"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="every contender run once")
    parser.add_argument("--repeat", type=int, default=None, help="runs of each contender")
    parser.add_argument(
        "--instructions",
        action="store_true",
        help="count instructions per stream with callgrind instead (a few minutes)",
    )
    args = parser.parse_args()
    if args.instructions:
        count_instructions()
        return
    repeat = args.repeat or (1 if args.quick else 3)
    small, large = 10_000, 100_000
    with tempfile.TemporaryDirectory(prefix="ssescope-bench-scan-") as tmp:
        root = Path(tmp)
        small_table, large_table = root / "small.parquet", root / "large.parquet"
        small_bytes = make_table(small_table, small)
        large_bytes = make_table(large_table, large)
        files = root / "files"
        files.mkdir()
        rng = random.Random(7)
        file_count = small // 2
        file_bytes = 0
        for i in range(file_count):
            data = make_stream(i, rng)
            file_bytes += len(data)
            (files / f"{i:06d}.sse").write_bytes(data)

        s = interleaved(
            {
                "loop": lambda: loop_seconds(small_table),
                "one": lambda: run_scan([str(small_table)], 1),
                "two": lambda: run_scan([str(small_table)], 2),
                "files": lambda: run_scan([str(files)], 2),
            },
            repeat,
        )
        big = interleaved(
            {
                "loop": lambda: loop_seconds(large_table),
                "one": lambda: run_scan([str(large_table)], 1),
                "two": lambda: run_scan([str(large_table)], 2),
            },
            max(1, repeat - 1),
        )
    with open("/proc/loadavg") as fp:
        load = " ".join(fp.read().split()[:3])
    report(s, big, small, large, small_bytes, large_bytes, file_count, file_bytes, repeat, load)


def report(
    s: dict[str, Any],
    big: dict[str, Any],
    small: int,
    large: int,
    small_bytes: int,
    large_bytes: int,
    file_count: int,
    file_bytes: int,
    repeat: int,
    load: str,
) -> None:
    """Print the Markdown tables for docs/performance.md, the three targets first."""
    one, two, one_large, two_large = s["one"], s["two"], big["one"], big["two"]
    loop, loop_large = s["loop"], big["loop"]
    extra = large - small
    cpu_loop = (loop_large["cpu"] - loop["cpu"]) / extra
    cpu_one = (one_large["cpu_main_s"] - one["cpu_main_s"]) / extra
    cpu_two = (_all_cpu(two_large) - _all_cpu(two)) / extra
    speed_small = one["seconds"] / two["seconds"]
    speed_large = one_large["seconds"] / two_large["seconds"]
    busiest = max([two_large["cpu_main_s"], *two_large["cpu_workers_s"]])
    bound = one_large["cpu_main_s"] / busiest
    print(f"Python {sys.version.split()[0]}, {os.cpu_count()} CPUs, best of {repeat}, ", end="")
    print(f"load average at the end (1, 5, 15 min): {load}\n")
    print("## The three targets\n")
    print("| target | measured | met |")
    print("|---|---|---|")
    print(
        f"| 1. `--jobs 2` ≥ 1.6× `--jobs 1` (wall) | {speed_large:.2f}× at {large:,} streams, "
        f"{speed_small:.2f}× at {small:,}; CPU bound {bound:.2f}× (jobs 1 CPU over the busiest "
        f"process of jobs 2) | {'yes' if speed_large >= 1.6 else 'no'} |"
    )
    print(
        f"| 2. CPU per stream ≤ 1.2× the `inspect` loop | `--jobs 1` {cpu_one / cpu_loop:.2f}×, "
        f"`--jobs 2` (all processes) {cpu_two / cpu_loop:.2f}× (marginal, {small:,} → {large:,}) "
        f"| {'yes' if cpu_one / cpu_loop <= 1.2 else 'no'} |"
    )
    grow = max(one_large["rss_mb"] - one["rss_mb"], two_large["rss_mb"] - two["rss_mb"])
    print(
        f"| 3. peak RSS at {large:,} streams ≤ at {small:,} | scanning process "
        f"{one['rss_mb']:.0f} → {one_large['rss_mb']:.0f} MB (jobs 1), "
        f"{two['rss_mb']:.0f} → {two_large['rss_mb']:.0f} MB (jobs 2); largest worker "
        f"{two['worker_rss_mb']:.0f} → {two_large['worker_rss_mb']:.0f} MB "
        f"| {'yes' if grow <= 5 else f'no: +{grow:.0f} MB'} (yes: peaks within 5 MB, the noise of "
        "sampling RSS) |"
    )
    print("\n## Throughput\n")
    print("| run | streams | seconds | streams/s | MB/s | µs/stream | vs loop |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for count, nbytes, floor, rows in (
        (small, small_bytes, loop["seconds"], (("one", one), ("two", two))),
        (large, large_bytes, loop_large["seconds"], (("one", one_large), ("two", two_large))),
    ):
        named = [("`inspect` loop, one process (floor)", floor)]
        named += [
            (f"`scan --jobs {1 if k == 'one' else 2}` (table)", m["seconds"]) for k, m in rows
        ]
        for name, seconds in named:
            print(
                f"| {name} | {count:,} | {seconds:.2f} | {count / seconds:,.0f} | "
                f"{nbytes / 1e6 / seconds:.1f} | {seconds / count * 1e6:.0f} | "
                f"{seconds / floor:.2f}× |"
            )
    seconds = s["files"]["seconds"]
    print(
        f"| `scan --jobs 2` (files, `read_blob`) | {file_count:,} | {seconds:.2f} | "
        f"{file_count / seconds:,.0f} | {file_bytes / 1e6 / seconds:.1f} | "
        f"{seconds / file_count * 1e6:.0f} | |"
    )
    print("\n## CPU per stream (marginal: the start-up and the summary taken out)\n")
    print("| CPU per stream | µs | vs loop |")
    print("|---|---:|---:|")
    print(f"| `inspect` loop | {cpu_loop * 1e6:.0f} | 1.00× |")
    print(f"| `scan --jobs 1` | {cpu_one * 1e6:.0f} | {cpu_one / cpu_loop:.2f}× |")
    print(f"| `scan --jobs 2`, all processes | {cpu_two * 1e6:.0f} | {cpu_two / cpu_loop:.2f}× |")
    print(
        f"\nWhole runs at {large:,} streams: `inspect` loop {loop_large['cpu']:.1f} s CPU; "
        f"`scan --jobs 1` {one_large['cpu_main_s']:.1f} s CPU for the whole process "
        f"(start-up, reading, judging, writing, summary: "
        f"{one_large['cpu_main_s'] / loop_large['cpu']:.2f}× the loop)"
    )
    print("\n## Where the CPU goes with `--jobs 2` (the scanning process should idle)\n")
    print(
        "| streams | jobs | shards | scanning process CPU s | per shard, ms | fork server CPU s "
        "| each worker CPU s | scanning process share |"
    )
    print("|---:|---:|---:|---:|---:|---:|---|---:|")
    for count, jobs, m in (
        (small, 1, one),
        (large, 1, one_large),
        (small, 2, two),
        (large, 2, two_large),
    ):
        workers = ", ".join(f"{c:.2f}" for c in m["cpu_workers_s"]) or "-"
        share = m["cpu_main_s"] / _all_cpu(m)
        print(
            f"| {count:,} | {jobs} | {m['shards']} | {m['cpu_main_s']:.2f} | "
            f"{m['cpu_main_s'] / max(1, m['shards']) * 1e3:.1f} | {m['cpu_server_s']:.2f} | "
            f"{workers} | {share:.0%} |"
        )
    print("\n## Peak memory (RSS, sampled every 20 ms)\n")
    print("| streams | jobs | scanning process | largest worker | all processes |")
    print("|---:|---:|---:|---:|---:|")
    for count, jobs, m in (
        (small, 1, one),
        (large, 1, one_large),
        (small, 2, two),
        (large, 2, two_large),
    ):
        print(
            f"| {count:,} | {jobs} | {m['rss_mb']:.0f} MB | {m['worker_rss_mb']:.0f} MB | "
            f"{m['total_rss_mb']:.0f} MB |"
        )


if __name__ == "__main__":
    main()
