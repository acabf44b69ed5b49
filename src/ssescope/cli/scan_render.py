"""The scan's summary on a terminal: verdicts, the cuts asked for, time, where streams
broke, diagnostics, timing and the streams to open next, each with its command.

Names in it (models, routes, paths, keys) come from the corpus: they go through
:func:`~ssescope.output.visible.visible` and are printed as text, never as markup.
"""

from __future__ import annotations

from typing import Any

from rich.console import Console
from rich.table import Table
from rich.text import Text

from ..output.visible import visible
from ..silence import silence_note

__all__ = ["render_summary"]

_STYLES = {
    "completed": "green",
    "incomplete": "yellow",
    "failed": "red",
    "truncated": "bold red",
    "cancelled": "magenta",
}
_BROKEN = ("failed", "truncated", "cancelled")
_SHOWN = 15
_BAR = 20


def _seconds(value: float | None) -> str:
    if value is None:
        return "-"
    return f"{value * 1000:.0f} ms" if value < 10 else f"{value:.1f} s"


def _bar(share: float) -> str:
    # a bar of block characters: a share read at a glance
    full = round(share * _BAR)
    return "█" * full + "·" * (_BAR - full)


def _groups(console: Console, title: str, key: str, groups: list[dict[str, Any]]) -> None:
    from ..scan.summary import STATUSES

    table = Table(title=title, title_justify="left", header_style="bold", box=None)
    names = [visible(str(g[key])) for g in groups[:_SHOWN]]
    longest = max((len(name) for name in names), default=0)
    table.add_column(key, no_wrap=True, min_width=min(longest, 40))
    table.add_column("streams", justify="right")
    for status in STATUSES:
        table.add_column(status, justify="right", style=_STYLES[status])
    for name, group in zip(names, groups[:_SHOWN], strict=True):
        # a model or provider name is the stream's text: a Text, never rich markup
        cells: list[Text | str] = [Text(name), f"{group['streams']:,}"]
        cells += [f"{group[f'{s}_rate']:.1%}" if group[s] else "" for s in STATUSES]
        table.add_row(*cells)
    if len(groups) > _SHOWN:
        table.add_row(f"… {len(groups) - _SHOWN} more", "")
    console.print(table)
    console.print()


def _timeline(console: Console, timeline: dict[str, Any]) -> None:
    from ..scan.summary import STATUSES

    title = f"per {timeline['step']} ({timeline['streams']:,} streams with a start time)"
    table = Table(title=title, title_justify="left", header_style="bold", box=None)
    table.add_column(timeline["step"], no_wrap=True)
    table.add_column("streams", justify="right")
    for status in STATUSES:
        table.add_column(status, justify="right", style=_STYLES[status])
    table.add_column("not completed", no_wrap=True)
    step = timeline["step"]
    for bucket in timeline["buckets"]:
        start = bucket["start"]
        label = start[:10] if step == "day" else f"{start[:10]} {start[11:16]}"
        cells = [label, f"{bucket['streams']:,}"]
        cells += [f"{bucket[f'{s}_rate']:.1%}" if bucket[s] else "" for s in STATUSES]
        cells.append(_bar(1 - bucket["completed_rate"]))
        table.add_row(*cells)
    console.print(table)
    console.print()


def _where(console: Console, places: list[dict[str, Any]]) -> None:
    table = Table(title="where it broke", title_justify="left", header_style="bold", box=None)
    table.add_column("where", no_wrap=True)
    for name in ("streams", "share", *_BROKEN):
        table.add_column(name, justify="right")
    for p in places:
        cells = [visible(str(p["where_broke"])), f"{p['streams']:,}", f"{p['share']:.1%}"]
        table.add_row(*cells, *(f"{p[s]:,}" if p[s] else "" for s in _BROKEN))
    console.print(table)
    console.print()


def _place(item: dict[str, Any]) -> str:
    """Which stream of its input: ``row 12``, ``entry 3``, ``response 1``."""
    names = (("table_row", "row"), ("entry", "entry"), ("response", "response"))
    return " ".join(f"{label} {item[name]}" for name, label in names if item[name] is not None)


def _open_next(console: Console, worst: list[dict[str, Any]]) -> None:
    console.print(Text("open next", style="bold"))
    for w in worst:
        line = Text(f"  {visible(str(w['status'])):<10} ", style=_STYLES.get(w["status"], ""))
        line.append(visible(str(w["source"])))
        place = _place(w)
        if place:
            line.append(f" {place}")
        keys = " ".join(f"{visible(str(k))}={visible(str(v))}" for k, v in w["keys"].items())
        if keys:
            line.append(f"  {keys}", style="cyan")
        notes = []
        if w["where_broke"]:
            notes.append(visible(str(w["where_broke"])))
        idle = silence_note(
            w["max_content_idle_s"], w.get("max_content_idle_after"), w.get("max_gap_s")
        )
        if idle:
            notes.append(idle)
        if notes:
            line.append(" · " + " · ".join(notes), style="yellow")
        codes = visible(", ".join(w["diagnostics"][:3]))
        reason = visible(str(w["status_reason"]))
        line.append(f"  {reason}" + (f" [{codes}]" if codes else ""), style="dim")
        console.print(line, soft_wrap=True)
        console.print(Text(f"             {visible(w['command'])}", style="dim"), soft_wrap=True)


def _head(console: Console, summary: dict[str, Any]) -> None:
    streams = summary["streams"]
    inputs = summary.get("inputs", streams)
    head = Text(
        f"{inputs:,} input{'' if inputs == 1 else 's'} · {streams:,} "
        f"response{'' if streams == 1 else 's'} · {summary['bytes']:,} bytes",
        style="bold",
    )
    if summary["input_errors"]:
        head.append(f" · {summary['input_errors']:,} inputs not read", style="bold red")
    if summary.get("inputs_cut"):
        head.append(f" · {summary['inputs_cut']:,} judged by their first 64 MiB", style="yellow")
    partial = summary.get("partial")
    if partial:
        total = "" if partial["inputs"] is None else f" of {partial['inputs']:,}"
        head.append(
            f" · interrupted: {partial['inputs_read']:,}{total} inputs read", style="bold red"
        )
    console.print(head)


def render_summary(console: Console, summary: dict[str, Any]) -> None:
    """Print the corpus summary: verdicts, each ``--group-by``, the time axis, where the
    broken streams broke, per provider and model, diagnostics, timing, the streams to
    open next (each with the command that opens it) and the inputs not read."""
    from ..scan.summary import STATUSES

    _head(console, summary)
    streams = summary["streams"]
    verdicts = Text()
    for status in STATUSES:
        v = summary["verdicts"][status]
        verdicts.append(f"{status} {v['count']:,} ({v['rate']:.1%})", style=_STYLES[status])
        verdicts.append("   ")
    console.print(verdicts, soft_wrap=True)
    idle = summary.get("idle")
    if idle and idle["streams"]:
        console.print(
            Text(
                f"{idle['streams']:,} stream{'' if idle['streams'] == 1 else 's'} went "
                f"{idle['at_least_s']:.1f} s or more without content ({idle['broken']:,} of "
                "them broke)",
                style="yellow",
            )
        )
    console.print()
    if streams:
        for spec, groups in (summary.get("by") or {}).items():
            _groups(console, f"by {visible(spec)}", spec, groups)
        if summary.get("timeline"):
            _timeline(console, summary["timeline"])
        if summary.get("where_broke"):
            _where(console, summary["where_broke"])
        _groups(console, "by provider", "provider", summary["by_provider"])
        _groups(console, "by model", "model", summary["by_model"])
    if summary["diagnostics"]:
        table = Table(title="top diagnostics", title_justify="left", header_style="bold", box=None)
        for name, justify in (
            ("code", "left"),
            ("streams", "right"),
            ("share", "right"),
            ("count", "right"),
        ):
            table.add_column(name, justify=justify)  # type: ignore[arg-type]
        for d in summary["diagnostics"]:
            share = d["streams"] / streams if streams else 0
            table.add_row(
                Text(visible(d["code"])), f"{d['streams']:,}", f"{share:.1%}", f"{d['count']:,}"
            )
        console.print(table)
        console.print()
    timed = {k: v for k, v in summary["timing"].items() if v["streams"]}
    if timed:
        table = Table(title="timing", title_justify="left", header_style="bold", box=None)
        for name in ("", "streams", "p50", "p90", "p99"):
            table.add_column(name, justify="left" if not name else "right")
        for name, t in timed.items():
            cells = [name, f"{t['streams']:,}"]
            table.add_row(*cells, *(_seconds(t[p]) for p in ("p50", "p90", "p99")))
        console.print(table)
        console.print()
    if summary["worst"]:
        _open_next(console, summary["worst"])
    for e in summary["errors"]:
        console.print(
            Text(
                f"  not read   {visible(str(e['source']))}: {visible(str(e['error']))}", style="red"
            ),
            soft_wrap=True,
        )
