"""``inspect`` of a capture holding several streams (a HAR, a JSONL log): every entry.

On a terminal: one verdict line per entry, then each entry's details; piped or with
``--json``: an array of Reports, each naming its ``entry``. The exit code follows the
worst verdict. ``--entry N`` picks one entry (its ``entry.index``) and prints a single
Report, as for an input holding one stream.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

import click
from rich.console import Console
from rich.rule import Rule
from rich.text import Text

from ..output.visible import visible
from . import exitcodes
from ._feed import Input
from .render import _STATUS_STYLE

__all__ = [
    "entry_index",
    "entry_name",
    "entry_option",
    "entry_title",
    "one_entry",
    "render_entries",
    "select_entry",
    "worst_exit",
]

# Exit codes from the worst verdict to the best (the precedence of docs/cli.md).
_WORST_FIRST = (
    exitcodes.FAILED,
    exitcodes.TRUNCATED,
    exitcodes.INTERRUPTED,
    exitcodes.MISMATCH,
    exitcodes.INCOMPLETE,
    exitcodes.COMPLETED,
)


def entry_index(source: Input, position: int) -> str:
    """The label ``--entry`` selects this input by: its entry's (``3``, or ``3.1`` for
    the second response of a HAR entry's WebSocket connection), else its position."""
    entry = source.info.entry
    return str(position) if entry is None else entry.label


def _selects(source: Input, position: int, wanted: str) -> bool:
    entry = source.info.entry
    return str(position) == wanted if entry is None else entry.selected_by(wanted)


def select_entry(inputs: list[Input], wanted: str) -> Input:
    """Return the input that ``--entry wanted`` names (``N`` or ``N.M``).

    Raises:
        click.BadParameter: naming the entries there are, when none has that label.
    """
    for i, source in enumerate(inputs):
        if _selects(source, i, wanted):
            return source
    there = ", ".join(entry_index(source, i) for i, source in enumerate(inputs))
    plural = "entries" if len(inputs) > 1 else "entry"
    raise click.BadParameter(
        f"there is no entry {wanted}; the input holds the {plural} {there}",
        param_hint="--entry",
    )


class _EntryLabel(click.ParamType):  # type: ignore[type-arg]
    """``N`` or ``N.M`` (response M of entry N's WebSocket connection)."""

    name = "N"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> str:
        text = str(value).strip()
        head, dot, tail = text.partition(".")
        if head.isdigit() and (not dot or tail.isdigit()):
            return f"{int(head)}.{int(tail)}" if dot else str(int(head))
        self.fail(
            f"{value!r} is not an entry: give N, or N.M for response M of entry N", param, ctx
        )


def entry_option(command: Callable[..., Any]) -> Callable[..., Any]:
    """``--entry N``, for the commands that read one stream (a decorator)."""
    return click.option(
        "--entry",
        type=_EntryLabel(),
        metavar="N",
        help=(
            "Of a HAR or JSONL log holding several streams, only entry N (its index); "
            "N.M: response M of entry N's WebSocket connection."
        ),
    )(command)


def one_entry(inputs: list[Input], wanted: str | None) -> Input:
    """The one stream a command reads: entry ``wanted``, or the input's only stream.

    Raises:
        click.BadParameter: no entry has the label ``wanted``.
        click.UsageError: no ``--entry`` was given and the input holds several streams
            (reading the first one silently would hide the others).
    """
    if wanted is not None:
        return select_entry(inputs, wanted)
    if len(inputs) > 1:
        there = ", ".join(entry_index(s, i) for i, s in enumerate(inputs))
        raise click.UsageError(
            f"the input holds {len(inputs)} streams (entries {there}): pick one with --entry N"
        )
    return inputs[0]


def worst_exit(codes: Iterable[int]) -> int:
    """The exit code of the worst verdict among ``codes`` (failed, truncated, cancelled…)."""
    found = set(codes)
    return next((code for code in _WORST_FIRST if code in found), exitcodes.COMPLETED)


def entry_name(position: int, data: dict[str, Any]) -> Text:
    """What names an entry: ``#3 POST https://… 2026-03-01T10:00:09Z``."""
    entry = data.get("entry") or {}
    line = Text()
    label = str(entry.get("index", position))
    if entry.get("response") is not None:
        label += f".{entry['response']}"
    line.append(f"#{label}", style="bold")
    for key in ("method", "url"):
        if entry.get(key):
            line.append(f" {visible(str(entry[key]))}")
    if entry.get("started"):
        line.append(f" {visible(str(entry['started']))}", style="dim")
    return line


def entry_title(position: int, data: dict[str, Any]) -> Text:
    """One line naming an entry and its verdict: ``#3 POST https://… · provider · status``."""
    line = entry_name(position, data)
    line.append(f" · {visible(data['provider'])} · ")
    line.append(visible(data["status"]), style=_STATUS_STYLE.get(data["status"], "bold"))
    if data.get("status_reason"):
        line.append(f" ({visible(data['status_reason'])})", style="dim")
    if data.get("http_status") is not None:
        line.append(f" · HTTP {data['http_status']}")
    return line


def render_entries(
    console: Console,
    reports: list[dict[str, Any]],
    render_one: Callable[[dict[str, Any]], None],
) -> None:
    """Print one verdict line per entry, then each entry's details under a rule.

    Args:
        console: where to print.
        reports: the Report dicts (possibly redacted), in file order.
        render_one: prints one Report dict's details (``render_report`` with the
            chosen sections).
    """
    container = reports[0]["source"]["container"] if reports else "input"
    console.print(Text(f"{len(reports)} streams in this {container}:", style="bold"))
    for i, data in enumerate(reports):
        console.print(Text("  ").append_text(entry_title(i, data)))
    for i, data in enumerate(reports):
        console.print(Rule(entry_name(i, data), align="left"))
        render_one(data)
