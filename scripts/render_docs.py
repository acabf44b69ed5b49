"""Render ``ssescope inspect`` of two bundled examples to SVG for docs/img/.

Run from the repository root: ``python scripts/render_docs.py``.
"""

from __future__ import annotations

import io
from pathlib import Path

from rich.console import Console

from ssescope.cli.redact import redact_report
from ssescope.cli.render import render_report
from ssescope.examples import example_path
from ssescope.pipeline import Pipeline

OUT = Path(__file__).resolve().parents[1] / "docs" / "img"
EXAMPLES = ("openai-chat-tool-call", "broken-bad-json-record")


def render(name: str, provider: str = "auto") -> Path:
    """Render one example and write ``docs/img/inspect-NAME.svg``."""
    pipeline = Pipeline(provider=provider)
    with example_path(name).open("rb") as fp:
        while chunk := fp.read(1 << 16):
            pipeline.feed(chunk)
    pipeline.close()
    console = Console(
        record=True, width=100, force_terminal=True, color_system="truecolor", file=io.StringIO()
    )
    data = pipeline.report().to_dict()
    render_report(console, data)
    _ = redact_report  # the same view is used with --redact
    target = OUT / f"inspect-{name}.svg"
    console.save_svg(str(target), title=f"ssescope inspect --example {name}")
    return target


def main() -> None:
    """Render every example in EXAMPLES, falling back to the generic reader if needed."""
    OUT.mkdir(parents=True, exist_ok=True)
    for name in EXAMPLES:
        try:
            print(render(name))
        except ModuleNotFoundError:  # noqa: PERF203 - two files, clarity first
            print(render(name, provider="unknown"), "(provider adapter not installed)")


if __name__ == "__main__":
    main()
