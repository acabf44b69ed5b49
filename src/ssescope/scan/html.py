"""The scan's HTML report: one self-contained file, readable from 390 px wide up.

Nothing is loaded from elsewhere: no CDN, no script, no font. The charts are HTML and
CSS bars (:mod:`.html_charts`) and one inline SVG histogram; every stream to open next
links to its own section further down the same page, with the command that opens it.
"""

from __future__ import annotations

import os
from html import escape
from pathlib import Path
from typing import Any

from ..silence import silence_note
from .html_charts import COLORS, time_chart, verdict_bars, where_bars
from .summary import STATUSES

__all__ = ["render_html", "write_html"]

_WIDTH = 640

_CSS = """
*{box-sizing:border-box}
body{font:14px/1.45 system-ui,sans-serif;margin:1.5em auto;max-width:980px;color:#222;padding:0 12px}
h1{font-size:1.4em}h2{font-size:1.12em;margin-top:1.8em}
table{border-collapse:collapse}td,th{padding:2px 8px;text-align:right;white-space:nowrap}
td:first-child,th:first-child{text-align:left}th{border-bottom:1px solid #999}
.scroll{overflow-x:auto;max-width:100%}
.legend span{display:inline-block;margin-right:1em}
.legend i{display:inline-block;width:.8em;height:.8em;margin-right:.3em}
code{font-size:.92em;overflow-wrap:anywhere}.dim{color:#666}
.bars{display:grid;gap:6px 12px;grid-template-columns:minmax(0,14em) minmax(0,1fr)}
.bar-row{display:contents}
.label{overflow:hidden;text-overflow:ellipsis;white-space:nowrap}
.label .n{color:#666}
.stack{display:flex;height:16px;background:#eee;border-radius:2px;overflow:hidden;align-self:center}
.rates{grid-column:2;font-size:.9em;margin-top:-4px}
.seg{display:block;height:100%}
.seg.where{background:#ef6c00}
.completed{color:#2e7d32}.incomplete{color:#a07000}.failed{color:#c62828}
.truncated{color:#6a1b9a}.cancelled{color:#546e7a}
.timechart{display:flex;gap:6px;height:160px;align-items:stretch}
.timechart .axis{font-size:.85em;color:#666;min-width:2.5em}
.cols{flex:1;display:flex;align-items:flex-end;gap:2px;border-bottom:1px solid #999;border-left:1px solid #999}
.col{flex:1;display:flex;flex-direction:column;justify-content:flex-end;height:100%;min-width:2px}
.col .seg{width:100%}
.col .v{font-size:.75em;text-align:center;color:#444;line-height:1.4}
.ends{display:flex;justify-content:space-between;margin:2px 0 0 3em;font-size:.85em;color:#666}
svg{max-width:100%;height:auto}
svg text{font:12px system-ui,sans-serif;fill:#222}
#worst li{margin:.3em 0}
.stream{border-top:1px solid #ccc;margin-top:1em;padding-top:.5em}
.stream dl{display:grid;grid-template-columns:max-content minmax(0,1fr);gap:2px 12px;margin:.4em 0}
.stream dt{color:#666}.stream dd{margin:0;overflow-wrap:anywhere}
@media (max-width:600px){
 .bars{grid-template-columns:minmax(0,1fr)}
 .rates{grid-column:1;margin-top:-4px;margin-bottom:4px}
 .label{white-space:normal;overflow-wrap:anywhere}
}
"""
for _status, _color in COLORS.items():
    _CSS += f".seg.{_status}{{background:{_color}}}\n"


def _legend() -> str:
    items = "".join(f'<span><i style="background:{COLORS[s]}"></i>{s}</span>' for s in STATUSES)
    return f'<p class="legend">{items}</p>'


def _histogram(histogram: dict[str, Any] | None) -> str:
    if histogram is None:
        return '<p class="dim" id="chart-ttft-empty">No stream in the corpus has timing.</p>'
    counts: list[int] = histogram["counts"]
    peak = max(counts) or 1
    height, bottom = 180, 20
    bar = (_WIDTH - 40) / len(counts)
    parts = [
        f'<svg id="chart-ttft" role="img" aria-label="time to first content" width="{_WIDTH}" '
        f'height="{height + bottom}" viewBox="0 0 {_WIDTH} {height + bottom}">'
    ]
    for i, count in enumerate(counts):
        h = count / peak * (height - 10)
        low = histogram["start"] + i * histogram["width"]
        tip = f"{low * 1000:.0f}–{(low + histogram['width']) * 1000:.0f} ms: {count:,} streams"
        parts.append(
            f'<rect class="bin" x="{40 + i * bar:.1f}" y="{height - h:.1f}" width="{bar - 2:.1f}" '
            f'height="{h:.1f}" fill="#1565c0"><title>{escape(tip)}</title></rect>'
        )
    end = histogram["start"] + len(counts) * histogram["width"]
    parts.append(f'<text x="40" y="{height + 15}">{histogram["start"] * 1000:.0f} ms</text>')
    parts.append(
        f'<text x="{_WIDTH - 4}" y="{height + 15}" text-anchor="end">{end * 1000:.0f} ms</text>'
    )
    parts.append(f'<text x="0" y="12">{peak:,}</text></svg>')
    return "".join(parts)


def _diagnostic_bars(diagnostics: list[dict[str, Any]], streams: int) -> str:
    if not diagnostics:
        return '<p class="dim">No diagnostics.</p>'
    peak = max(d["streams"] for d in diagnostics) or 1
    rows = []
    for d in diagnostics:
        share = d["streams"] / streams if streams else 0.0
        tip = f"{d['code']}: {d['streams']:,} streams, {d['count']:,} times"
        rows.append(
            f'<div class="bar-row"><div class="label"><span class="name">{escape(d["code"])}</span>'
            f'</div><div class="stack"><span class="seg where bar" '
            f'style="width:{d["streams"] / peak * 100:.3f}%" title="{escape(tip)}"></span></div>'
            f'<div class="rates">{d["streams"]:,} streams ({share:.1%}) · {d["count"]:,} times</div></div>'
        )
    return f'<div class="bars" id="chart-diagnostics" role="img" aria-label="top diagnostics">{"".join(rows)}</div>'


def _timing_table(timing: dict[str, Any]) -> str:
    rows = []
    for name, t in timing.items():
        if not t["streams"]:
            continue
        cells = "".join(f"<td>{t[p] * 1000:.0f} ms</td>" for p in ("p50", "p90", "p99"))
        rows.append(f"<tr><td>{name}</td><td>{t['streams']:,}</td>{cells}</tr>")
    if not rows:
        return ""
    head = "<tr><th></th><th>streams</th><th>p50</th><th>p90</th><th>p99</th></tr>"
    return f'<div class="scroll"><table id="timing">{head}{"".join(rows)}</table></div>'


def _time_table(timeline: dict[str, Any] | None) -> str:
    if not timeline:
        return ""
    head = "".join(f"<th>{s}</th>" for s in STATUSES)
    rows = []
    for b in timeline["buckets"]:
        start = b["start"][:10] if timeline["step"] == "day" else b["start"][:16].replace("T", " ")
        cells = "".join(f"<td>{b[f'{s}_rate']:.1%}</td>" if b[s] else "<td></td>" for s in STATUSES)
        rows.append(f"<tr><td>{escape(start)}</td><td>{b['streams']:,}</td>{cells}</tr>")
    return (
        f'<details><summary>per {timeline["step"]}, as a table</summary><div class="scroll">'
        f'<table id="time-table"><tr><th>{timeline["step"]}</th><th>streams</th>{head}</tr>'
        f"{''.join(rows)}</table></div></details>"
    )


def _where(w: dict[str, Any]) -> str:
    place = [
        f"{label} {w[name]}"
        for name, label in (("table_row", "row"), ("entry", "entry"), ("response", "response"))
        if w.get(name) is not None
    ]
    return " ".join([str(w["source"]), *place])


def _worst(summary: dict[str, Any]) -> str:
    items = []
    for i, w in enumerate(summary["worst"]):
        keys = " ".join(f"{k}={v}" for k, v in w["keys"].items())
        notes = [n for n in (w["where_broke"], _idle(w)) if n]
        items.append(
            f'<li><b class="{escape(w["status"])}">{escape(w["status"])}</b> '
            f'<a href="#stream-{i}"><code>{escape(_where(w))}</code></a> '
            f"{f'<span>{escape(keys)}</span> ' if keys else ''}"
            f'<span class="dim">{escape(" · ".join(notes))}</span></li>'
        )
    items.extend(
        f'<li><b class="failed">not read</b> <code>{escape(str(e["source"]))}</code> '
        f'<span class="dim">{escape(e["error"])}</span></li>'
        for e in summary["errors"]
    )
    return f'<ul id="worst">{"".join(items)}</ul>' if items else '<p class="dim">Nothing.</p>'


def _idle(w: dict[str, Any]) -> str:
    return silence_note(
        w.get("max_content_idle_s"), w.get("max_content_idle_after"), w.get("max_gap_s")
    )


def _idle_line(summary: dict[str, Any]) -> str:
    idle = summary.get("idle")
    if not idle or not idle["streams"]:
        return ""
    return (
        f'<p id="idle">{idle["streams"]:,} streams went {idle["at_least_s"]:.1f} s or more '
        f"without content ({idle['broken']:,} of them broke)</p>"
    )


def _seconds(value: float | None) -> str | None:
    return None if value is None else f"{value:.3f} s"


def _streams(summary: dict[str, Any]) -> str:
    sections = []
    for i, w in enumerate(summary["worst"]):
        fields: list[tuple[str, Any]] = [
            ("verdict", f"{w['status']} ({w['status_reason'] or ''})"),
            ("where it broke", w["where_broke"]),
            ("input", w["source"]),
            ("row", w["table_row"]),
            ("entry", w["entry"]),
            ("response", w["response"]),
            *((str(k), v) for k, v in w["keys"].items()),
            ("started", w.get("started")),
            ("provider · model", f"{w['provider']} · {w['model'] or '(none)'}"),
            ("finish reason", w.get("finish_reason")),
            ("HTTP status", w.get("http_status")),
            ("records · bytes", f"{w.get('records') or 0:,} · {w.get('bytes') or 0:,}"),
            ("tool calls", w.get("tool_calls")),
            ("first content", _seconds(w.get("first_content_s"))),
            ("longest silence without content", _idle(w) or _seconds(w.get("max_content_idle_s"))),
            ("total", _seconds(w.get("total_s"))),
            ("diagnostics", ", ".join(w["diagnostics"]) or None),
        ]
        rows = "".join(
            f"<dt>{escape(name)}</dt><dd>{escape(str(value))}</dd>"
            for name, value in fields
            if value is not None
        )
        sections.append(
            f'<section class="stream" id="stream-{i}"><h3>{escape(_where(w))}</h3>'
            f'<dl>{rows}</dl><p>open it: <code class="command">{escape(w["command"])}</code></p>'
            f'<p><a href="#worst">back to the list</a></p></section>'
        )
    return "".join(sections)


def render_html(summary: dict[str, Any], title: str = "ssescope scan") -> str:
    """The report page for a scan summary (:func:`ssescope.scan.summarize`)."""
    streams = summary["streams"]
    inputs = summary.get("inputs", streams)
    verdicts = " · ".join(
        f'<span class="verdict {s}">{s} '
        f"{summary['verdicts'][s]['count']:,} ({summary['verdicts'][s]['rate']:.1%})</span>"
        for s in STATUSES
    )
    errors = f" · {summary['input_errors']:,} inputs not read" if summary["input_errors"] else ""
    cuts = "".join(
        f"<h2>Verdicts by {escape(spec)}</h2>"
        f"{verdict_bars(groups, spec, f'by-{i}', f'verdict rates by {spec}')}"
        for i, (spec, groups) in enumerate((summary.get("by") or {}).items())
    )
    timeline = summary.get("timeline")
    when = (
        f"<h2>Verdicts per {timeline['step']}</h2>{time_chart(timeline)}{_time_table(timeline)}"
        if timeline
        else ""
    )
    return f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">
<title>{escape(title)}</title><style>{_CSS}</style></head>
<body>
<h1>{escape(title)}</h1>
<p id="totals"><b>{inputs:,} inputs · {streams:,} responses</b> · {summary["bytes"]:,} bytes{errors}</p>
<p id="verdicts">{verdicts}</p>{_idle_line(summary)}
{_legend()}{cuts}{when}
<h2>Where it broke</h2>{where_bars(summary.get("where_broke") or [])}
<h2>Verdicts by model</h2>{verdict_bars(summary["by_model"], "model", "model", "verdict rates by model")}
<h2>Verdicts by provider</h2>{verdict_bars(summary["by_provider"], "provider", "provider", "verdict rates by provider")}
<h2>Time to first content</h2>{_histogram(summary["ttft_histogram"])}
{_timing_table(summary["timing"])}
<h2>Top diagnostics</h2>{_diagnostic_bars(summary["diagnostics"], streams)}
<h2>Open next</h2>{_worst(summary)}
{_streams(summary)}
</body></html>
"""


def write_html(path: str | os.PathLike[str], summary: dict[str, Any]) -> None:
    """Write the report page for ``summary`` to ``path``."""
    Path(path).write_text(render_html(summary), encoding="utf-8")
