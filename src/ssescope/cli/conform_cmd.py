"""``ssescope conform CAPTURES...``: the conformance battery over recorded exchanges."""

from __future__ import annotations

import io
import os
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import click
from rich.console import Console
from rich.table import Table
from rich.text import Text

from ..aggregate.timing import TimingOptions
from ..conform import PROTOCOLS, ConformResult, Exchange, cases_for, exchanges_of, run_checks
from ..conform.cases import CASE_IDS, KEY_HEADERS
from ..conform.junit import junit_xml
from ..containers.redact import scrub, secret_values
from ..errors import UsageError
from ..output import strictjson
from ..output.visible import visible
from . import exitcodes
from ._input import want_color
from ._pipe import reader_may_leave
from .options import seconds_option

__all__ = ["conform_command", "conform_exit_code", "render_result", "result_json"]

ANTHROPIC_VERSION = "2023-06-01"
"""The ``anthropic-version`` header sent to an Anthropic server unless one is given."""

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
            console.print(Text(f"  {e.where}"))
            console.print(Text(f"    {e.excerpt}"))
    must, should = len(result.failed("MUST")), len(result.failed("SHOULD"))
    summary = (
        f"\n{result.exchanges} exchange(s), {len(result.checks)} checks: "
        f"{must} MUST and {should} SHOULD failed"
    )
    console.print(Text(summary, style="bold green" if result.ok else "bold red"))


def _is_url(target: str) -> bool:
    return target.startswith(("http://", "https://"))


def _env_headers(protocol: str, pairs: tuple[str, ...]) -> list[tuple[str, str]]:
    """The headers whose values come from the environment: the protocol's API key (when
    its variable is set) and each ``--header-env NAME=VAR``."""
    headers: list[tuple[str, str]] = []
    variable, name, prefix = KEY_HEADERS.get(protocol, ("", "", ""))
    if variable and os.environ.get(variable):
        headers.append((name, prefix + os.environ[variable]))
    for pair in pairs:
        header, sep, var = pair.partition("=")
        if not sep or not header.strip() or not var.strip():
            raise click.BadParameter(
                f"expected NAME=VARIABLE, got {visible(pair)!r}", param_hint="--header-env"
            )
        value = os.environ.get(var.strip())
        if value is None:
            raise click.BadParameter(
                f"the environment has no variable {visible(var.strip())!r}",
                param_hint="--header-env",
            )
        headers.append((header.strip(), value))
    if protocol == "anthropic" and not any(h.lower() == "anthropic-version" for h, _ in headers):
        headers.append(("anthropic-version", ANTHROPIC_VERSION))
    return headers


def _exchanges(
    targets: tuple[str, ...], options: dict[str, Any]
) -> tuple[Iterable[Exchange], list[str]]:
    """The exchanges to judge, and the secrets to keep out of every output."""
    urls = [t for t in targets if _is_url(t)]
    if not urls:
        for name in ("protocol", "model", "record", "upstream"):
            if options[name] is not None:
                raise click.UsageError(f"--{name} is for URL mode (conform URL --protocol P)")
        return exchanges_of(targets), []
    if len(targets) != 1:
        raise click.UsageError("give one URL, or capture files and folders (not both)")
    protocol, model = options["protocol"], options["model"]
    if protocol is None:
        raise click.UsageError(f"URL mode needs --protocol ({', '.join(PROTOCOLS)})")
    if model is None:
        raise click.UsageError("URL mode needs --model")
    from ..conform.live import Target, url_exchanges

    headers = _env_headers(protocol, options["header_env"])
    record = options["record"]
    target = Target(
        url=urls[0],
        protocol=protocol,
        headers=tuple(headers),
        timeout=options["timeout"],
        record=None if record is None else Path(record),
        upstream=options["upstream"],
        stall_s=options["stall"],
    )
    try:
        cases = cases_for(protocol, model, options["cases"])
    except UsageError as exc:
        raise click.UsageError(str(exc)) from None
    return url_exchanges(target, cases), secret_values(headers, urls[0])


@click.command(context_settings={"help_option_names": ["-h", "--help"]})
@click.argument("targets", nargs=-1, required=True, metavar="URL | CAPTURES...")
@click.option(
    "--protocol",
    type=click.Choice(list(PROTOCOLS)),
    default=None,
    help="URL mode: the protocol the server speaks.",
)
@click.option("--model", default=None, help="URL mode: the model every request names.")
@click.option(
    "--header-env",
    "header_env",
    multiple=True,
    metavar="NAME=VARIABLE",
    help="URL mode: send header NAME with the value of environment VARIABLE (repeatable; "
    "the protocol's API key variable is read without it). Never shown.",
)
@seconds_option(
    "--timeout", 60.0, "URL mode: seconds to wait for a connection, each read, and content."
)
@seconds_option(
    "--stall",
    TimingOptions().stall_s,
    "URL mode: a silence of SECONDS between records is a stall (timing.no-stall).",
)
@click.option(
    "--case",
    "cases",
    multiple=True,
    type=click.Choice(list(CASE_IDS)),
    help="URL mode: send only this case of the request set (repeatable).",
)
@click.option(
    "--record",
    type=click.Path(file_okay=False),
    default=None,
    help="URL mode: keep each exchange as DIR/CASE.ssecap (credentials redacted).",
)
@click.option(
    "--upstream",
    default=None,
    metavar="URL",
    help="URL mode: the ssescope serve the server forwards to, to see whether a client "
    "hang-up closes the upstream too.",
)
@click.option("--json", "as_json", is_flag=True, help="Print the result as JSON.")
@click.option(
    "--junit",
    type=click.Path(dir_okay=False),
    default=None,
    help="Also write the result as JUnit XML to FILE (one testcase per check).",
)
@click.option("--color/--no-color", default=None, help="Force colour on or off.")
def conform_command(
    targets: tuple[str, ...],
    as_json: bool,
    junit: str | None,
    color: bool | None,
    **options: Any,
) -> int:
    """Judge a server (URL) or recorded exchanges (CAPTURES) with the conformance checks.

    URL mode sends a fixed set of requests to the API base URL (e.g.
    http://localhost:8000/v1) in the --protocol's shape and judges every answer. CAPTURES
    are files (.ssecap, HAR, curl -i, raw streams) or folders of them (a proxy's record
    folder); a capture that keeps its request is also judged on what that request asked
    (usage, a forced tool call, n, the token limit). Exit 0 when every MUST check holds, 5
    otherwise.
    """
    exchanges, secrets = _exchanges(targets, options)
    result = run_checks(exchanges)
    if junit is not None:
        Path(junit).write_text(scrub(junit_xml(result), secrets), encoding="utf-8")
    out = io.StringIO()
    if as_json:
        strictjson.write(result_json(result), out, indent=2)
        out.write("\n")
    else:
        console = Console(
            file=out,
            force_terminal=want_color(color, sys.stdout),
            width=None if sys.stdout.isatty() else 160,
        )
        render_result(console, result)
    with reader_may_leave():
        sys.stdout.write(scrub(out.getvalue(), secrets))
        sys.stdout.flush()
    return conform_exit_code(result)
