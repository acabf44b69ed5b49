"""Memory and time of ``ssescope.inspect`` on hostile inputs (see docs/security.md, Limits).

Run by hand, never by the tests::

    PYTHONPATH=src python bench/limits.py            # about a minute
    PYTHONPATH=src python bench/limits.py --size 64  # containers and lines of 64 MiB

Each case writes its input to a temporary file, inspects the file as the CLI does
(``inspect(path)``), and prints the wall time and the tracemalloc peak (Python
allocations; the input file is not counted, it is read in 64 KiB pieces), with the peak
over the file's size. tracemalloc slows the run down several times: compare times
between runs of this script only.
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time
import tracemalloc
import zlib
from collections.abc import Callable
from pathlib import Path

import ssescope

CHUNK = (
    b'data: {"id":"c","object":"chat.completion.chunk","choices":[{"index":0,'
    b'"delta":{"content":"hello world"}}]}\n\n'
)


def _times(target: int) -> int:
    return max(1, target // len(CHUNK))


def bad_records(mib: int) -> bytes:
    """``data: {bad json`` records: one json.invalid each."""
    line = b"data: {bad json\n\n"
    return line * ((mib << 20) // len(line))


def unterminated_line(mib: int) -> bytes:
    """One ``data:`` line that never ends."""
    return b"data: " + b"x" * (mib << 20)


def gzip_bomb(_mib: int) -> bytes:
    """A ``curl -i`` dump whose 1 MB gzip body inflates to 1 GiB (zeros)."""
    c = zlib.compressobj(9, zlib.DEFLATED, 31)
    block = b"\0" * (1 << 20)
    z = b"".join(c.compress(block) for _ in range(1024)) + c.flush()
    head = b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nContent-Encoding: gzip\r\n\r\n"
    return head + z


def http_dump(mib: int) -> bytes:
    """A ``curl -i`` dump of a plain stream."""
    head = b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n\r\n"
    return head + CHUNK * _times(mib << 20)


def capture(mib: int) -> bytes:
    """An ``.ssecap`` capture, one timed line a chunk."""
    header = {"ssescope": "capture", "version": 1, "request": {"method": "POST", "url": "u"}}
    header["response"] = {"status": 200, "headers": []}
    line = json.dumps({"t": 0.5, "data": CHUNK.decode()}).encode() + b"\n"
    return json.dumps(header).encode() + b"\n" + line * _times(mib << 20)


def har(mib: int) -> bytes:
    """A HAR with the body as one text."""
    content = {"mimeType": "text/event-stream", "text": (CHUNK * _times(mib << 20)).decode()}
    entry = {
        "request": {"method": "POST", "url": "u", "headers": []},
        "response": {"status": 200, "headers": [], "content": content},
    }
    return json.dumps({"log": {"version": "1.2", "entries": [entry]}}).encode()


def deep_arguments(_mib: int) -> bytes:
    """A tool call whose arguments nest 100,000 levels deep."""
    deep = '{"a":' * 100_000 + "1" + "}" * 100_000
    call = {"index": 0, "id": "c", "function": {"name": "f", "arguments": deep}}
    chunk = {"object": "chat.completion.chunk"}
    chunk["choices"] = [{"index": 0, "delta": {"tool_calls": [call]}, "finish_reason": "stop"}]
    return b"data: " + json.dumps(chunk).encode() + b"\n\ndata: [DONE]\n\n"


CASES: list[tuple[str, Callable[[int], bytes], bool]] = [
    ("bad records", bad_records, False),
    ("unterminated line", unterminated_line, True),
    ("gzip bomb (1 GiB)", gzip_bomb, False),
    ("curl -i dump", http_dump, True),
    (".ssecap capture", capture, True),
    ("HAR", har, True),
    ("deep tool arguments", deep_arguments, False),
]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=16, help="MiB for the large cases")
    args = parser.parse_args()
    print("| case | input | time | peak | peak / input | diagnostics |")
    print("|---|---|---|---|---|---|")
    with tempfile.TemporaryDirectory() as tmp:
        for name, make, large in CASES:
            path = Path(tmp) / "input"
            path.write_bytes(make(args.size if large else max(1, args.size // 4)))
            size = path.stat().st_size
            tracemalloc.start()
            start = time.perf_counter()
            report = ssescope.inspect(path)
            text = json.dumps(report.to_dict(), allow_nan=False)
            seconds = time.perf_counter() - start
            peak = tracemalloc.get_traced_memory()[1]
            tracemalloc.stop()
            count = len(json.loads(text)["diagnostics"])
            print(
                f"| {name} | {size / 1e6:.1f} MB | {seconds:.1f} s | {peak / 1e6:.0f} MB "
                f"| {peak / size:.1f}x | {count} |"
            )


if __name__ == "__main__":
    main()
