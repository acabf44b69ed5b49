"""The charts of the scan's HTML report, drawn in HTML and CSS from the summary.

Bars are ``div`` elements sized in percent, so they fit any width (a phone's 390 px as a
desktop's); every bar says its figures in a ``title``, and the rates that are not
``completed`` are written beside it, so a bar is never read by its colour alone.
"""

from __future__ import annotations

from html import escape
from typing import Any

from .summary import STATUSES

__all__ = ["COLORS", "time_chart", "verdict_bars", "where_bars"]

COLORS = {
    "completed": "#2e7d32",
    "incomplete": "#f9a825",
    "failed": "#c62828",
    "truncated": "#6a1b9a",
    "cancelled": "#546e7a",
}
"""The colour of each verdict."""
_SHOWN = 20
_LABELLED = 14  # at most this many columns carry their rate written above them


def _rates(item: dict[str, Any]) -> str:
    # the rates a reader looks for: every verdict but completed that occurs
    found = [
        f'<b class="{s}">{s} {item[f"{s}_rate"]:.1%}</b>'
        for s in STATUSES
        if s != "completed" and item[s]
    ]
    return " · ".join(found) if found else '<b class="completed">all completed</b>'


def _stack(item: dict[str, Any], name: str) -> str:
    segments = []
    for status in STATUSES:
        share = item[f"{status}_rate"]
        if share <= 0:
            continue
        tip = f"{name}: {status} {item[status]:,} of {item['streams']:,} ({share:.1%})"
        segments.append(
            f'<span class="seg {status}" style="width:{share * 100:.3f}%" '
            f'title="{escape(tip)}"></span>'
        )
    return f'<div class="stack">{"".join(segments)}</div>'


def verdict_bars(groups: list[dict[str, Any]], key: str, chart: str, title: str) -> str:
    """Stacked bars of verdict rates, one per group (the largest ``_SHOWN``)."""
    rows = []
    for group in groups[:_SHOWN]:
        name = str(group[key])
        rows.append(
            f'<div class="bar-row"><div class="label"><span class="name">{escape(name)}</span> '
            f'<span class="n">{group["streams"]:,}</span></div>{_stack(group, name)}'
            f'<div class="rates">{_rates(group)}</div></div>'
        )
    more = len(groups) - _SHOWN
    if more > 0:
        rows.append(f'<p class="dim">… {more:,} more</p>')
    return (
        f'<div class="bars" id="chart-{escape(chart)}" role="img" aria-label="{escape(title)}">'
        f"{''.join(rows)}</div>"
    )


def where_bars(places: list[dict[str, Any]]) -> str:
    """Where the broken streams broke: one bar per place, its share of them."""
    if not places:
        return '<p class="dim" id="chart-where-empty">No stream broke.</p>'
    rows = []
    for p in places:
        tip = f"{p['where_broke']}: {p['streams']:,} streams ({p['share']:.1%} of the broken)"
        parts = " · ".join(f"{s} {p[s]:,}" for s in ("failed", "truncated", "cancelled") if p[s])
        rows.append(
            f'<div class="bar-row"><div class="label"><span class="name">'
            f'{escape(str(p["where_broke"]))}</span> <span class="n">{p["streams"]:,}</span></div>'
            f'<div class="stack"><span class="seg where" style="width:{p["share"] * 100:.3f}%" '
            f'title="{escape(tip)}"></span></div>'
            f'<div class="rates">{p["share"]:.1%} of the broken streams · {escape(parts)}</div></div>'
        )
    return f'<div class="bars" id="chart-where" role="img" aria-label="where it broke">{"".join(rows)}</div>'


def _label(start: str, step: str) -> str:
    return start[:10] if step == "day" else f"{start[:10]} {start[11:16]}"


def time_chart(timeline: dict[str, Any] | None) -> str:
    """Columns of the rates that are not ``completed``, per hour or day (stacked by
    verdict, scaled to the worst bucket), the worst bucket named above them."""
    if not timeline or not timeline["buckets"]:
        return '<p class="dim" id="chart-time-empty">No stream carries a start time.</p>'
    buckets = timeline["buckets"]
    step = timeline["step"]
    broken = [1 - b["completed_rate"] for b in buckets]
    peak = (max(broken) or 1.0) * 1.15  # (room above the tallest column for its rate)
    worst = buckets[broken.index(max(broken))]
    columns = []
    for bucket, share in zip(buckets, broken, strict=True):
        label = _label(bucket["start"], step)
        segments = []
        for status in STATUSES:
            if status == "completed" or not bucket[status]:
                continue
            tip = f"{label}: {status} {bucket[status]:,} of {bucket['streams']:,} ({bucket[f'{status}_rate']:.1%})"
            segments.append(
                f'<span class="seg {status}" style="height:{bucket[f"{status}_rate"] / peak * 100:.3f}%" '
                f'title="{escape(tip)}"></span>'
            )
        value = f'<span class="v">{share:.0%}</span>' if len(buckets) <= _LABELLED else ""
        columns.append(
            f'<div class="col" data-start="{escape(bucket["start"])}" '
            f'title="{escape(label)}: {share:.1%} not completed of {bucket["streams"]:,}">'
            f"{value}{''.join(reversed(segments))}</div>"
        )
    first, last = _label(buckets[0]["start"], step), _label(buckets[-1]["start"], step)
    head = (
        f'<p id="time-worst">worst {step}: <b>{escape(_label(worst["start"], step))}</b> · '
        f"{_rates(worst)} of {worst['streams']:,} streams</p>"
    )
    return (
        f'{head}<div class="timechart" id="chart-time" role="img" '
        f'aria-label="rates that are not completed, per {step}">'
        f'<div class="axis">{max(broken):.0%}</div><div class="cols">{"".join(columns)}</div></div>'
        f'<p class="ends"><span>{escape(first)}</span><span>{escape(last)}</span></p>'
    )
