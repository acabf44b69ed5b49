"""The next framing target: ssescope's SSEParser against eventsource-parser in Node.

Run by hand, when Node.js is installed (it is not part of the test suite)::

    npm install --prefix bench/node          # eventsource-parser, pinned in package.json
    PYTHONPATH=src python bench/node_parser.py       # the pure core
    pip install . && python bench/node_parser.py     # the compiled core (and the pure one)

The workloads are bench/framing.py's (OpenAI-like and Anthropic-like bodies at 64 B and
1 KiB chunks). Node frames each body the way a ``fetch()`` reader feeds it: a streaming
``TextDecoder`` per chunk, then ``parser.feed``. Both sides are timed in wall-clock
milliseconds around the framing loop only (Node's start-up and the file read are outside
it; Node runs three rounds per turn, so that its best has a warm JIT), the best of several
turns, the two runtimes taking turns, and both must find the same number of events. The comparison is of MB/s of body framed.
"""

from __future__ import annotations

import argparse
import json
import platform
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from cores import pure_core

import ssescope
from framing import anthropic_like, chunked, openai_like
from ssescope.framing import SSEEvent, SSEParser

NODE_DIR = Path(__file__).resolve().parent / "node"
PURE = pure_core()


def frame_python(parser_type: type[SSEParser], chunks: list[bytes]) -> tuple[float, int, int]:
    """(milliseconds, events, data characters) of one framing of ``chunks``."""
    parser = parser_type()
    start = time.perf_counter()
    out = []
    for chunk in chunks:
        out += parser.feed(chunk)
    out += parser.close()
    ms = (time.perf_counter() - start) * 1000
    events = [r for r in out if isinstance(r, SSEEvent) or type(r).__name__ == "SSEEvent"]
    return ms, len(events), sum(len(e.data) for e in events)  # type: ignore[attr-defined]


def frame_node(body_file: Path, size: int, rounds: int) -> list[tuple[float, int, int]]:
    """Each round's (milliseconds, events, data characters) from eventsource-parser."""
    done = subprocess.run(
        ["node", str(NODE_DIR / "framing.mjs"), str(body_file), str(size), str(rounds)],
        capture_output=True,
        text=True,
        check=True,
    )
    rows = [json.loads(line) for line in done.stdout.splitlines()]
    return [(r["ms"], r["events"], r["data"]) for r in rows]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--events", type=int, default=20_000, help="events per body")
    parser.add_argument("--rounds", type=int, default=5, help="turns of each runtime")
    args = parser.parse_args()
    node = shutil.which("node")
    if node is None or not (NODE_DIR / "node_modules" / "eventsource-parser").is_dir():
        sys.exit("needs node and `npm install --prefix bench/node` (eventsource-parser)")
    done = subprocess.run([node, "--version"], capture_output=True, text=True, check=True)
    version = done.stdout.strip()
    print(
        f"Python {platform.python_version()}, Node {version}, ssescope core: {ssescope.CORE}; "
        f"best of {args.rounds} rounds, wall ms around the framing loop"
    )
    print()
    print("| workload | chunk | parser | best ms | MB/s | vs eventsource-parser |")
    print("|---|---:|---|---:|---:|---:|")
    contenders: list[tuple[str, type[SSEParser]]] = [(f"ssescope ({ssescope.CORE})", SSEParser)]
    if PURE is not None:
        contenders.append(("ssescope (pure)", PURE.framing.SSEParser))
    with tempfile.TemporaryDirectory() as tmp:
        for name, make in (("openai", openai_like), ("anthropic", anthropic_like)):
            body = make(args.events)
            body_file = Path(tmp) / f"{name}.sse"
            body_file.write_bytes(body)
            mb = len(body) / 1e6
            for size in (64, 1024):
                chunks = chunked(body, size)
                best: dict[str, float] = {}
                found: dict[str, int] = {}
                for _ in range(args.rounds):
                    # three rounds in one process: the best has a warm JIT
                    ms, events, _ = min(frame_node(body_file, size, 3))
                    best["eventsource-parser"] = min(best.get("eventsource-parser", ms), ms)
                    found["eventsource-parser"] = events
                    for label, parser_type in contenders:
                        ms, events, _ = frame_python(parser_type, chunks)
                        best[label] = min(best.get(label, ms), ms)
                        found[label] = events
                if len(set(found.values())) != 1:
                    sys.exit(f"the parsers disagree on {name} at {size} B: {found}")
                node_ms = best["eventsource-parser"]
                for label, ms in best.items():
                    ratio = "1.00×" if label == "eventsource-parser" else f"{node_ms / ms:.2f}×"
                    print(
                        f"| {name} | {size} B | {label} | {ms:.1f} | {mb / ms * 1000:.0f} | {ratio} |"
                    )


if __name__ == "__main__":
    main()
