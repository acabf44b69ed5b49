"""`ssescope frames` against `ssescope inspect` on one long generated stream.

Writes a seeded OpenAI-like stream of N records (default 50 000) to a temporary file and
runs, each in a fresh process, ``inspect --json``, ``frames`` (the table, into a file),
``frames --jsonl`` and ``frames | head -n 20``. Prints a Markdown table of the wall time
and the CPU time (user + system, best of --repeat runs), and the peak resident memory
(``ru_maxrss`` of the child). ``frames`` is the former name of ``records``, so the same
script measures older versions.

    PYTHONPATH=src python bench/frames.py
    PYTHONPATH=src python bench/frames.py --records 200000 --repeat 3
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
from pathlib import Path


def openai_stream(n: int, seed: int = 1) -> bytes:
    """An OpenAI Chat Completions stream of ``n`` records: text deltas, finish, [DONE]."""
    rng = random.Random(seed)
    words = ["the", "stream", "of", "tokens", "arrives", "in", "small", "pieces", " ", "\n"]
    head = {"id": "chatcmpl-bench", "object": "chat.completion.chunk", "created": 1}
    lines = []
    for i in range(n - 2):
        delta = {"content": rng.choice(words) + " "} if i else {"role": "assistant"}
        chunk = {**head, "model": "gpt-4o", "choices": [{"index": 0, "delta": delta}]}
        lines.append(b"data: " + json.dumps(chunk).encode() + b"\n\n")
    last = {**head, "model": "gpt-4o", "choices": [{"index": 0, "delta": {}}]}
    last["choices"][0]["finish_reason"] = "stop"  # type: ignore[index]
    lines.append(b"data: " + json.dumps(last).encode() + b"\n\n")
    lines.append(b"data: [DONE]\n\n")
    return b"".join(lines)


def main(argv: list[str] | None = None) -> None:
    """Generate the stream, time the commands, print the table."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--records", type=int, default=50_000)
    parser.add_argument("--repeat", type=int, default=3, help="runs per command (best kept)")
    args = parser.parse_args(argv)
    env = dict(os.environ)
    env.setdefault("PYTHONPATH", str(Path(__file__).resolve().parents[1] / "src"))
    exe = f"{sys.executable} -m ssescope"
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "big.sse"
        path.write_bytes(openai_stream(args.records))
        size = path.stat().st_size
        print(f"{args.records:,} records, {size / 1e6:.1f} MB, python {sys.version.split()[0]}\n")
        print("| command | wall s (best) | CPU s (best) | peak RSS MiB |")
        print("|---|---:|---:|---:|")
        for label, cmd in (
            ("inspect --json", f"{exe} inspect --json {path}"),
            ("frames (table, to a file)", f"{exe} frames {path} > {tmp}/out.txt"),
            ("frames --jsonl", f"{exe} frames --jsonl {path} > {tmp}/out.jsonl"),
            ("frames \\| head -n 20", f"{exe} frames {path} | head -n 20"),
        ):
            # each child's peak is measured alone: ru_maxrss of children is a running max,
            # so every command runs in its own measuring process
            probe = (
                "import resource,subprocess,sys,time;"
                "t=time.perf_counter();"
                "subprocess.run(sys.argv[1],shell=True,stdout=subprocess.DEVNULL);"
                "r=resource.getrusage(resource.RUSAGE_CHILDREN);"
                "print(time.perf_counter()-t,r.ru_maxrss//1024,r.ru_utime+r.ru_stime)"
            )
            best = cpu = float("inf")
            peak = 0
            for _ in range(args.repeat):
                out = subprocess.run(
                    [sys.executable, "-c", probe, cmd],
                    env=env,
                    capture_output=True,
                    text=True,
                    check=True,
                ).stdout.split()
                best = min(best, float(out[0]))
                peak = max(peak, int(out[1]))
                cpu = min(cpu, float(out[2]))
            print(f"| `{label}` | {best:.2f} | {cpu:.2f} | {peak} |")


if __name__ == "__main__":
    main()
