"""Terminal-view benchmark: time to lay out the human view of a long reply.

Run by hand (not part of the test suite)::

    PYTHONPATH=src python bench/terminal_view.py [--sizes 2,8,20] [--repeat 3]

For each size (in MB of reply text) and each shape of text (one unbroken run, prose, one
short line after another) it renders the human view of a Report holding that text, into
an in-memory 100-column console, folded (the default) and whole (``--full``), and prints
the best wall time of ``--repeat`` runs and the time per MB. A linear view keeps the
time per MB flat as the size grows.
"""

from __future__ import annotations

import argparse
import io
import time
from collections.abc import Callable

from rich.console import Console

from ssescope.cli.render import render_report

SHAPES: dict[str, Callable[[int], str]] = {
    "unbroken": lambda n: "a" * n,
    "prose": lambda n: ("lorem ipsum dolor sit amet " * (n // 27 + 1))[:n],
    "lines": lambda n: ("a short line\n" * (n // 13 + 1))[:n],
}


def _report(text: str) -> dict[str, object]:
    return {
        "provider": "openai-chat",
        "framing": "sse",
        "source": {"container": "raw", "bytes": len(text), "lost": []},
        "status": "completed",
        "status_reason": "[DONE]",
        "records": {"total": 3, "invalid": 0, "unknown": 0},
        "http_status": None,
        "outputs": [{"index": 0, "text": text, "tool_calls": [], "finish_reason": "stop"}],
        "usage": None,
        "error": None,
        "diagnostics": [],
        "timing": {},
    }


def _time(text: str, full: bool, repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        console = Console(file=io.StringIO(), width=100, no_color=True, soft_wrap=False)
        start = time.perf_counter()
        render_report(console, _report(text), full=full)
        best = min(best, time.perf_counter() - start)
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sizes", default="2,8,20", help="reply sizes in MB, comma-separated")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    sizes = [float(s) for s in args.sizes.split(",")]
    print(f"{'shape':10} {'MB':>6} {'folded s':>10} {'full s':>10} {'full s/MB':>10}")
    for shape, make in SHAPES.items():
        for mb in sizes:
            text = make(int(mb * 1_000_000))
            folded = _time(text, False, args.repeat)
            whole = _time(text, True, args.repeat)
            print(f"{shape:10} {mb:6g} {folded:10.3f} {whole:10.2f} {whole / mb:10.2f}")


if __name__ == "__main__":
    main()
