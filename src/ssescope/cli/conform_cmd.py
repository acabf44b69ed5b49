"""``ssescope conform CAPTURES...``: the conformance battery over recorded exchanges."""

from __future__ import annotations

import sys

import click
from rich.console import Console
from rich.table import Table
from rich.text import Text

from ..conform import ConformResult, exchanges_of, run_checks
from ..output import strictjson
from ..output.visible import visible
from . import exitcodes
from ._input import want_color
from ._pipe import reader_may_leave

__all__ = ["conform_command", "conform_exit_code", "render_result", "result_json"]

_STYLES = {"pass": "green", "fail": "bold red", "skip": "dim"}


def conform_exit_code(result: ConformResult) -> int:
    """0 when every MUST holds, 5 (``MISMATCH``) otherwise."""
    return exitcodes.COMPLETED if result.ok else exitcodes.MISMATCH


def result_json(result: ConformResult) -> dict[str, object]:
    """The ``--json`` object: the summary, and one entry per check, run or skipped."""
    return {
        "ok": result.ok,
        "exchanges": result.exchanges,
        "failed": {
            "MUST": len(result.failed("MUST")),
            "SHOULD": len(result.failed("SHOULD")),
        },
        "checks": [r.to_dict() for r in result.checks],
    }


def render_result(console: Console, result: ConformResult) -> None:
    """Print the table of checks, the evidence of each failure, and a summary line."""
    table = Table(show_edge=False, pad_edge=False)
    for column in ("check", "level", "result", "rule"):
        table.add_column(column)
    for r in result.checks:
        table.add_row(
            r.check.id,
            r.check.severity,
            Text(r.verdict.upper(), style=_STYLES[r.verdict]),
            r.check.title if r.verdict != "skip" else f"{r.check.title} ({r.reason})",
        )
    console.print(table)
    for r in result.failed():
        console.print(Text(f"\n{r.check.severity} {r.check.id}: {r.check.rule}", style="bold"))
        console.print(Text(f"  source: {r.check.source}"))
        for e in r.evidence:
            where = ", ".join(
                part
                for part in (
                    None if e.record is None else f"record {e.record}",
                    None if e.offset is None else f"offset {e.offset}",
                )
                if part
            )
            console.print(Text(f"  {visible(e.exchange)}{f' ({where})' if where else ''}"))
            console.print(Text(f"    {e.excerpt}"))
    must, should = len(result.failed("MUST")), len(result.failed("SHOULD"))
    summary = (
        f"\n{result.exchanges} exchange(s), {len(result.checks)} checks: "
        f"{must} MUST and {should} SHOULD failed"
    )
    console.print(Text(summary, style="bold green" if result.ok else "bold red"))


@click.command(context_settings={"help_option_names": ["-h", "--help"]})
@click.argument("captures", nargs=-1, required=True, metavar="CAPTURES...")
@click.option("--json", "as_json", is_flag=True, help="Print the result as JSON.")
@click.option("--color/--no-color", default=None, help="Force colour on or off.")
def conform_command(captures: tuple[str, ...], as_json: bool, color: bool | None) -> int:
    """Judge recorded exchanges with the conformance checks.

    CAPTURES are files (.ssecap, HAR, curl -i, raw streams) or folders of them (a proxy's
    record folder). Exit 0 when every MUST check holds, 5 otherwise.
    """
    result = run_checks(exchanges_of(captures))
    with reader_may_leave():
        if as_json:
            strictjson.write(result_json(result), sys.stdout, indent=2)
            sys.stdout.write("\n")
        else:
            console = Console(
                file=sys.stdout,
                force_terminal=want_color(color, sys.stdout),
                width=None if sys.stdout.isatty() else 160,
            )
            render_result(console, result)
    return conform_exit_code(result)
