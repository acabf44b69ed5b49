"""Regenerate every sample output in README.md and docs/, and the SVGs in docs/img/.

Run from the repository root: ``python scripts/render_docs.py`` (``--check`` only reports
the samples that are stale, and exits 1 if any is).

A sample is a fenced block right after a marker line::

    <!-- sample: inspect examples/broken-openai-cut-mid-tool-call.sse; exit -->
    ```text
    $ ssescope inspect examples/broken-openai-cut-mid-tool-call.sse
    …the output…
    ```

The marker holds the arguments of ``ssescope`` as a user types them on a terminal; the
block becomes ``$ ssescope ARGS``, the output (100 columns, no colour; with ``stderr``, what
it wrote on stderr too, after stdout), and with ``exit`` the exit code. ``inspect`` is run with ``--pretty`` (its terminal view). With ``timed``,
durations in the output (``12.3``) are measured ones, so they are not compared.
"""

from __future__ import annotations

import argparse
import io
import os
import re
import shlex
import sys
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

from rich.console import Console

from ssescope.cli import main as cli_main
from ssescope.cli.render import render_report
from ssescope.examples import example_path
from ssescope.pipeline import Pipeline

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "docs" / "img"
SVG_EXAMPLES = ("openai-chat-tool-call", "broken-bad-json-record")
WIDTH = 100
MARKER = re.compile(
    r"^<!-- sample: (?P<spec>.+?) -->\n```(?P<lang>\w*)\n(?P<body>.*?)^```\n", re.M | re.S
)
_TIMED = re.compile(r"\d+\.\d+")
_RULES = re.compile(r"[ ━─┃│┏┓┗┛┡┩└┘┳┻╇┴┬]+")


def pages() -> list[Path]:
    """README.md and every Markdown page under docs/."""
    return [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]


def run(args: list[str]) -> tuple[int, str, str]:
    """Run ``ssescope ARGS`` in this process, from the repository root.

    Returns:
        The exit code, stdout and stderr.
    """
    if args and args[0] == "inspect" and "--json" not in args:
        args = ["inspect", "--pretty", *args[1:]]
    out = io.StringIO()
    err = io.StringIO()
    old = os.environ.get("COLUMNS"), Path.cwd()
    os.environ["COLUMNS"] = str(WIDTH)
    os.chdir(ROOT)
    try:
        with redirect_stdout(out), redirect_stderr(err):
            code = cli_main(args)
    finally:
        if old[0] is None:
            os.environ.pop("COLUMNS", None)
        else:
            os.environ["COLUMNS"] = old[0]
        os.chdir(old[1])
    return code, out.getvalue(), err.getvalue()


def sample(spec: str) -> str:
    """The text of the block for one marker."""
    words = [w.strip() for w in spec.split(";")]
    args = shlex.split(words[0])
    code, output, errors = run(args)
    if "stderr" in words[1:]:
        output += errors
    text = f"$ ssescope {words[0]}\n{output}"
    if not text.endswith("\n"):
        text += "\n"
    if "exit" in words[1:]:
        text += f"$ echo $?\n{code}\n"
    return text


def _comparable(text: str, timed: bool) -> str:
    if not timed:
        return text
    return _RULES.sub(" ", _TIMED.sub("#", text))


def refresh(path: Path, *, check: bool) -> list[str]:
    """Regenerate the samples of one page; return the specs that were stale."""
    original = path.read_text(encoding="utf-8")
    stale: list[str] = []

    def replace(match: re.Match[str]) -> str:
        spec = match.group("spec")
        fresh = sample(spec)
        timed = "timed" in [w.strip() for w in spec.split(";")[1:]]
        if _comparable(fresh, timed) != _comparable(match.group("body"), timed):
            stale.append(spec)
            body = fresh
        else:
            body = match.group("body")
        return f"<!-- sample: {spec} -->\n```{match.group('lang')}\n{body}```\n"

    updated = MARKER.sub(replace, original)
    if not check and updated != original:
        path.write_text(updated, encoding="utf-8")
    return stale


def render_svg(name: str) -> Path:
    """Render ``inspect`` of one bundled example to ``docs/img/inspect-NAME.svg``."""
    pipeline = Pipeline()
    with example_path(name).open("rb") as fp:
        while chunk := fp.read(1 << 16):
            pipeline.feed(chunk)
    pipeline.close()
    console = Console(
        record=True, width=WIDTH, force_terminal=True, color_system="truecolor", file=io.StringIO()
    )
    render_report(console, pipeline.report().to_dict())
    target = OUT / f"inspect-{name}.svg"
    console.save_svg(str(target), title=f"ssescope inspect --example {name}")
    return target


def main(argv: list[str] | None = None) -> int:
    """Regenerate (or, with ``--check``, verify) the samples; regenerate the SVGs."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="report stale samples, change nothing")
    args = parser.parse_args(argv)
    stale = {str(p.relative_to(ROOT)): refresh(p, check=args.check) for p in pages()}
    for page, specs in stale.items():
        for spec in specs:
            print(f"{page}: {'stale' if args.check else 'updated'}: {spec}")
    if args.check:
        return 1 if any(stale.values()) else 0
    OUT.mkdir(parents=True, exist_ok=True)
    for name in SVG_EXAMPLES:
        print(render_svg(name))
    return 0


if __name__ == "__main__":
    sys.exit(main())
