"""The scan's HTML report: one self-contained file with inline SVG charts.

Nothing is loaded from elsewhere: no CDN, no script, no font; the charts are SVG drawn
here from the summary.
"""

from __future__ import annotations

import os
from html import escape
from pathlib import Path
from typing import Any

from .summary import STATUSES

__all__ = ["render_html", "write_html"]

_COLORS = {
    "completed": "#2e7d32",
    "incomplete": "#f9a825",
    "failed": "#c62828",
    "truncated": "#6a1b9a",
    "cancelled": "#546e7a",
}
_WIDTH = 640
_LABEL = 220
_ROW = 22

_CSS = """
body{font:14px/1.45 system-ui,sans-serif;margin:2em auto;max-width:980px;color:#222;padding:0 1em}
h1{font-size:1.5em}h2{font-size:1.15em;margin-top:2em}
table{border-collapse:collapse}td,th{padding:2px 10px;text-align:right}
td:first-child,th:first-child{text-align:left}th{border-bottom:1px solid #999}
.legend span{display:inline-block;margin-right:1.2em}
.legend i{display:inline-block;width:.8em;height:.8em;margin-right:.3em}
code{font-size:.92em}.dim{color:#666}
svg text{font:12px system-ui,sans-serif;fill:#222}
"""


def _legend() -> str:
    items = "".join(f'<span><i style="background:{_COLORS[s]}"></i>{s}</span>' for s in STATUSES)
    return f'<p class="legend">{items}</p>'


def _verdict_bars(groups: list[dict[str, Any]], key: str, title: str) -> str:
    groups = groups[:20]
    height = _ROW * len(groups) + 4
    parts = [
        f'<svg id="chart-{key}" role="img" aria-label="{escape(title)}" width="{_WIDTH}" '
        f'height="{height}" viewBox="0 0 {_WIDTH} {height}">'
    ]
    span = _WIDTH - _LABEL - 60
    for i, group in enumerate(groups):
        y = i * _ROW + 2
        name = str(group[key])
        shown = name if len(name) <= 30 else name[:29] + "…"
        parts.append(f'<text x="0" y="{y + 14}">{escape(shown)}</text>')
        x = float(_LABEL)
        for status in STATUSES:
            w = group[f"{status}_rate"] * span
            if w <= 0:
                continue
            tip = f"{name}: {status} {group[status]:,} of {group['streams']:,} ({group[f'{status}_rate']:.1%})"
            parts.append(
                f'<rect class="bar {status}" x="{x:.1f}" y="{y}" width="{w:.1f}" height="{_ROW - 6}" '
                f'fill="{_COLORS[status]}"><title>{escape(tip)}</title></rect>'
            )
            x += w
        parts.append(f'<text x="{_LABEL + span + 6}" y="{y + 14}">{group["streams"]:,}</text>')
    parts.append("</svg>")
    return "".join(parts)


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
    height = _ROW * len(diagnostics) + 4
    span = _WIDTH - _LABEL - 80
    peak = max(d["streams"] for d in diagnostics) or 1
    parts = [
        f'<svg id="chart-diagnostics" role="img" aria-label="top diagnostics" width="{_WIDTH}" '
        f'height="{height}" viewBox="0 0 {_WIDTH} {height}">'
    ]
    for i, d in enumerate(diagnostics):
        y = i * _ROW + 2
        w = d["streams"] / peak * span
        share = d["streams"] / streams if streams else 0.0
        parts.append(f'<text x="0" y="{y + 14}">{escape(d["code"])}</text>')
        parts.append(
            f'<rect class="bar" x="{_LABEL}" y="{y}" width="{w:.1f}" height="{_ROW - 6}" '
            f'fill="#ef6c00"><title>{escape(d["code"])}: {d["streams"]:,} streams</title></rect>'
        )
        parts.append(
            f'<text x="{_LABEL + w + 6:.1f}" y="{y + 14}">{d["streams"]:,} ({share:.1%})</text>'
        )
    parts.append("</svg>")
    return "".join(parts)


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
    return f'<table id="timing">{head}{"".join(rows)}</table>'


def _worst(summary: dict[str, Any]) -> str:
    items = []
    for w in summary["worst"]:
        label = f"{w['entry']}" if w.get("response") is None else f"{w['entry']}.{w['response']}"
        where = w["source"] if w["entry"] is None else f"{w['source']} #{label}"
        codes = ", ".join(w["diagnostics"][:4])
        items.append(
            f'<li><b style="color:{_COLORS.get(w["status"], "#222")}">{escape(w["status"])}</b> '
            f"<code>{escape(str(where))}</code> "
            f'<span class="dim">{escape(w["status_reason"] or "")}'
            f"{' [' + escape(codes) + ']' if codes else ''}</span></li>"
        )
    items.extend(
        f'<li><b style="color:#c62828">not read</b> <code>{escape(str(e["source"]))}</code> '
        f'<span class="dim">{escape(e["error"])}</span></li>'
        for e in summary["errors"]
    )
    return f'<ul id="worst">{"".join(items)}</ul>' if items else ""


def render_html(summary: dict[str, Any], title: str = "ssescope scan") -> str:
    """The report page for a scan summary (:func:`ssescope.scan.summarize`)."""
    streams = summary["streams"]
    verdicts = " · ".join(
        f'<span class="verdict" style="color:{_COLORS[s]}">{s} '
        f"{summary['verdicts'][s]['count']:,} ({summary['verdicts'][s]['rate']:.1%})</span>"
        for s in STATUSES
    )
    errors = f" · {summary['input_errors']:,} inputs not read" if summary["input_errors"] else ""
    return f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">
<title>{escape(title)}</title><style>{_CSS}</style></head>
<body>
<h1>{escape(title)}</h1>
<p id="totals"><b>{streams:,} streams</b> · {summary["bytes"]:,} bytes{errors}</p>
<p id="verdicts">{verdicts}</p>
<h2>Verdicts by model</h2>{_legend()}{_verdict_bars(summary["by_model"], "model", "verdict rates by model")}
<h2>Verdicts by provider</h2>{_verdict_bars(summary["by_provider"], "provider", "verdict rates by provider")}
<h2>Time to first content</h2>{_histogram(summary["ttft_histogram"])}
{_timing_table(summary["timing"])}
<h2>Top diagnostics</h2>{_diagnostic_bars(summary["diagnostics"], streams)}
<h2>Open next</h2>{_worst(summary)}
</body></html>
"""


def write_html(path: str | os.PathLike[str], summary: dict[str, Any]) -> None:
    """Write the report page for ``summary`` to ``path``."""
    Path(path).write_text(render_html(summary), encoding="utf-8")
