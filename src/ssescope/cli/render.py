"""The human view of a Report (rich), built from its JSON form so ``--redact`` applies."""

from __future__ import annotations

import json
import re
from collections.abc import Collection
from dataclasses import dataclass
from typing import Any

from rich.console import Console, Group, RenderableType
from rich.panel import Panel
from rich.rule import Rule
from rich.syntax import Syntax
from rich.table import Table
from rich.text import Text

from ..inflight import streaming_text
from ..output.visible import visible
from ..silence import silence_note
from .agent_view import agent_lines
from .textview import FOLD_CHARS, text_block

__all__ = ["SECTIONS", "problem_counts", "render_report"]

SECTIONS = ("text", "reasoning", "tools", "usage", "diagnostics")

_STATUS_STYLE = {
    "completed": "bold green",
    "incomplete": "bold yellow",
    "failed": "bold red",
    "truncated": "bold red",
    "cancelled": "bold magenta",
}
_SEVERITY_STYLE = {"info": "cyan", "warning": "yellow", "error": "bold red"}
_CHAR = re.compile(r"(?:at character|\(char) (\d+)")
_USAGE_KEYS = (
    "input_tokens",
    "output_tokens",
    "total_tokens",
    "reasoning_tokens",
    "cached_input_tokens",
)


def _verdict(data: dict[str, Any]) -> Text:
    records = data["records"]
    line = Text()
    line.append(visible(data["provider"]), style="bold")
    line.append(" · ")
    line.append(visible(data["framing"]))
    if data["source"]["container"] != "raw":
        line.append(f" in {visible(data['source']['container'])}")
    line.append(" · ")
    line.append(visible(data["status"]), style=_STATUS_STYLE.get(data["status"], "bold"))
    line.append(f" ({visible(data['status_reason'] or '')})", style="dim")
    total = records["total"]
    line.append(f" · {total} record{'' if total == 1 else 's'}")
    if records["invalid"]:
        line.append(f", {records['invalid']} invalid", style="red")
    if records["unknown"]:
        line.append(f", {records['unknown']} unknown", style="yellow")
    line.append(f" · {data['source']['bytes']:,} bytes")
    if data.get("http_status") is not None:
        line.append(f" · HTTP {data['http_status']}")
    timing = data.get("timing") or {}
    quiet = silence_note(  # the proxy line's figure, rule and words
        timing.get("max_content_idle_s"),
        timing.get("max_content_idle_after"),
        timing.get("max_gap_s"),
    )
    if quiet:
        line.append(f" · {quiet}", style="yellow")
    problems = problem_counts(data.get("diagnostics", []))
    if problems:
        errors = any(d["severity"] == "error" for d in data.get("diagnostics", []))
        line.append(f" · {problems}", style="bold red" if errors else "yellow")
    return line


def problem_counts(diagnostics: list[dict[str, Any]]) -> str:
    """``"2 errors, 1 warning"`` for the error and warning diagnostics ("" if none)."""
    errors = sum(1 for d in diagnostics if d["severity"] == "error")
    warnings = sum(1 for d in diagnostics if d["severity"] == "warning")
    parts = []
    if errors:
        parts.append(f"{errors} error{'' if errors == 1 else 's'}")
    if warnings:
        parts.append(f"{warnings} warning{'' if warnings == 1 else 's'}")
    return ", ".join(parts)


_SCHEMA_CODES = ("tool.schema-mismatch", "tool.not-offered", "tool.schema-unchecked")


def _schema_notes(diagnostics: list[dict[str, Any]]) -> dict[str, list[Text]]:
    """What the request's tool schemas say of each call, by the call's label."""
    notes: dict[str, list[Text]] = {}
    for d in diagnostics:
        args = d.get("args") or {}
        if d.get("code") not in _SCHEMA_CODES or "label" not in args:
            continue
        if d["code"] == "tool.schema-mismatch":
            note = Text("schema: ", style="bold red")
            note.append(visible(f"{args.get('path')}: {args.get('detail')}"))
            rule = f" (rule {args.get('rule')}{args.get('strict', '')}"
            rule += ", before the cut)" if d.get("form") == "cut" else ")"
            note.append(visible(rule), style="dim")
        elif d["code"] == "tool.not-offered":
            note = Text("not offered: the request declares no tool of this name", "bold red")
        else:
            note = Text("schema not checked: ", style="dim")
            note.append(visible(str(args.get("reason") or "jsonschema is not installed")))
        notes.setdefault(str(args["label"]), []).append(note)
    return notes


def _tool_card(
    call: dict[str, Any], full: bool, notes: dict[str, list[Text]] | None = None
) -> Panel:
    title = Text()
    title.append(visible(call.get("name") or "(no name)"), style="bold")
    if call.get("kind") and call["kind"] != "function":
        title.append(f" [{visible(call['kind'])}]", style="dim")
    subtitle = Text(f"id {visible(call['id'])}" if call.get("id") else "no id")
    parts: list[RenderableType] = []
    args = call.get("arguments") or ""
    pretty = None
    if call.get("input") is not None:
        pretty = json.dumps(call["input"], indent=2, ensure_ascii=False)
    if pretty is not None and len(pretty) <= FOLD_CHARS:
        # JSON escapes C0 controls; visible() catches the C1 and bidirectional ones
        shown = visible(pretty, multiline=True)
        parts.append(Syntax(shown, "json", theme="ansi_dark", background_color="default"))
    elif pretty is not None:
        parts.append(text_block(pretty, full=full))
    elif args:
        parts.append(text_block(args, full=full))
    else:
        parts.append(Text("(no arguments)", style="dim"))
    border = "cyan"
    if call.get("error"):
        border = "red"
        msg = Text("invalid arguments: ", style="bold red")
        msg.append(visible(str(call["error"])))
        match = _CHAR.search(str(call["error"]))
        if match and args:
            pos = int(match.group(1))
            msg.append(f"\n  at char {pos}: ", style="red")
            msg.append(visible(args[max(0, pos - 20) : pos]), style="dim")
            msg.append("⟨here⟩", style="bold red")
            msg.append(visible(args[pos : pos + 20]), style="dim")
        parts.append(msg)
    if not call.get("complete"):
        border = "yellow" if border == "cyan" else border
        parts.append(Text("incomplete: the stream never ended this call", style="bold yellow"))
    label = call.get("id") or (f"#{call['index']}" if call.get("index") is not None else "(no id)")
    mine = (notes or {}).get(str(label), [])
    if any(n.plain.startswith(("schema:", "not offered")) for n in mine):
        border = "red"
    parts.extend(mine)
    return Panel(
        Group(*parts),
        title=title,
        title_align="left",
        subtitle=subtitle,
        subtitle_align="right",
        border_style=border,
    )


@dataclass(frozen=True, slots=True)
class _View:
    """How the human view draws a Report: the sections it shows, whether long texts are
    shown whole, and the schema notes under each tool call (by its label)."""

    only: Collection[str]
    full: bool
    notes: dict[str, list[Text]]


def _output(out: dict[str, Any], view: _View) -> list[RenderableType]:
    parts: list[RenderableType] = []
    if "reasoning" in view.only and out.get("reasoning"):
        parts.append(Text("reasoning", style="bold dim"))
        shown = text_block(out["reasoning"], style="dim italic", full=view.full)
        parts.append(Panel(shown, border_style="dim"))
    if "text" in view.only:
        if out.get("text"):
            parts.append(Text("text", style="bold"))
            parts.append(text_block(out["text"], full=view.full))
        if out.get("deduplicated_text"):
            parts.append(Text("text without the repeated deltas", style="bold yellow"))
            parts.append(text_block(out["deduplicated_text"], full=view.full))
        if out.get("refusal"):
            parts.append(Text("refusal", style="bold red"))
            parts.append(text_block(out["refusal"], style="red", full=view.full))
        for block in out.get("compactions", []):
            parts.append(Text("compaction summary", style="bold dim"))
            summary = block.get("summary")
            parts.append(text_block(summary or "(no summary)", style="dim", full=view.full))
        audio = out.get("audio")
        if audio:
            kind = f" ({visible(str(audio['format']))})" if audio.get("format") else ""
            chunks = audio.get("chunks") or 0
            pieces = f"{chunks:,} chunk{'' if chunks == 1 else 's'}, " if chunks else ""
            parts.append(Text(f"audio: {pieces}{audio['bytes']:,} bytes{kind}"))
            if audio.get("transcript"):
                parts.append(Text("audio transcript", style="bold"))
                parts.append(text_block(audio["transcript"], full=view.full))
    if "tools" in view.only:
        parts.extend(_tool_card(call, view.full, view.notes) for call in out.get("tool_calls", []))
    if "text" in view.only and out.get("citations"):
        parts.append(Text("citations", style="bold"))
        for i, cit in enumerate(out["citations"], 1):
            shown = visible(json.dumps(cit, ensure_ascii=False)[:200])
            parts.append(Text(f"  [{i}] {shown}"))
    if "text" in view.only or "tools" in view.only:
        finish = Text("finish: ", style="bold")
        reason = out.get("finish_reason")
        finish.append(visible(reason or "not reported"), style="" if reason else "yellow")
        if out.get("raw_finish_reason") is not None:
            finish.append(f" (raw: {visible(str(out['raw_finish_reason']))})", style="dim")
        parts.append(finish)
    return parts


def _usage(usage: dict[str, Any] | None) -> RenderableType:
    if usage is None:
        return Text("usage: not reported", style="yellow")
    table = Table(title="usage", title_justify="left", show_header=True, header_style="bold")
    table.add_column("field")
    table.add_column("tokens", justify="right")
    for key in _USAGE_KEYS:
        value = usage.get(key)
        table.add_row(Text(key), "not reported" if value is None else f"{value:,}")
    if usage.get("source"):
        table.caption = Text(f"source: {visible(str(usage['source']))}")
    return table


def _diagnostics(diags: list[dict[str, Any]]) -> RenderableType:
    if not diags:
        return Text("diagnostics: none", style="green")
    table = Table(title="diagnostics", title_justify="left", header_style="bold")
    table.add_column("severity")
    table.add_column("code")
    table.add_column("record", justify="right")
    table.add_column("offset", justify="right")
    table.add_column("message", overflow="fold")
    for d in diags:
        table.add_row(
            Text(visible(d["severity"]), style=_SEVERITY_STYLE.get(d["severity"], "")),
            Text(visible(d["code"])),
            "" if d.get("record") is None else str(d["record"]),
            "" if d.get("offset") is None else str(d["offset"]),
            Text(visible(d["message"])),
        )
    return table


def _response(resp: dict[str, Any], view: _View) -> list[RenderableType]:
    parts: list[RenderableType] = []
    multi = len(resp.get("outputs", [])) > 1
    for out in resp.get("outputs", []):
        if multi:
            parts.append(Rule(Text(f"output {out['index']}"), align="left", style="dim"))
        parts.extend(_output(out, view))
    if not resp.get("outputs") and ("text" in view.only or "tools" in view.only):
        parts.append(Text("(no output)", style="dim"))
    if resp.get("error") and ("text" in view.only or "diagnostics" in view.only):
        err = resp["error"]
        kind = f"{visible(str(err['type']))}: " if err.get("type") else ""
        line = Text(f"provider error: {kind}", style="bold red")
        message = str(err.get("message"))
        if len(message) <= FOLD_CHARS:
            line.append(visible(message, multiline=True))
            parts.append(line)
        else:
            parts += [line, text_block(message, style="bold red", full=view.full)]
    if "usage" in view.only:
        parts.append(_usage(resp.get("usage")))
    return parts


STATE_CHARS = 200
"""How much of the shared state's document the state line shows (all of it with ``full``)."""


def _state(state: dict[str, Any], full: bool) -> Text:
    """One line: how the stream's shared state was built, and the document it ended as."""
    deltas, failed = state["deltas"], state["failed_patches"]
    line = Text("state: ")
    line.append(f"{state['snapshots']} snapshot{'' if state['snapshots'] == 1 else 's'}, ")
    line.append(f"{deltas} patch{'' if deltas == 1 else 'es'}")
    if failed:
        line.append(f" ({failed} did not apply)", style="yellow")
    value = state["value"]
    shown = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
    if not full and len(shown) > STATE_CHARS:
        shown = f"{shown[:STATE_CHARS]}… ({len(shown) - STATE_CHARS:,} more characters)"
    line.append(" · ")
    line.append(visible(shown), style="dim")
    return line


def render_report(
    console: Console,
    data: dict[str, Any],
    only: Collection[str] = SECTIONS,
    *,
    full: bool = False,
    streaming: dict[str, Any] | None = None,
) -> None:
    """Print the human view of a Report dict on ``console``.

    Everything that came from the stream is shown with its control characters made
    visible (:func:`ssescope.output.visible.visible`); a text longer than
    :data:`~ssescope.cli.textview.FOLD_CHARS` characters is cut with a note saying how
    much was left out, unless ``full``.

    Args:
        console: where to print.
        data: ``report.to_dict()`` (possibly redacted).
        only: the sections to show (``SECTIONS`` by default).
        full: show long texts whole instead of folding them.
        streaming: for a capture still being written, its ``{"age_s", "idle_s"}``
            (:func:`ssescope.inflight.in_flight`): it is shown as STREAMING, with its reply
            so far and without a verdict or its error-level findings.
    """
    if streaming is not None:
        line = Text()
        line.append(visible(data["provider"]), style="bold")
        line.append(" · ")
        line.append("STREAMING", style="bold cyan")
        line.append(f" ({streaming_text(streaming)})", style="dim")
        total = data["records"]["total"]
        line.append(f" · {total} record{'' if total == 1 else 's'} so far")
        console.print(line, soft_wrap=True)
    else:
        console.print(_verdict(data), soft_wrap=True)  # one line: the terminal folds it
    responses = data.get("responses")
    view = _View(only, full, _schema_notes(data.get("diagnostics", [])))
    if responses:
        for i, resp in enumerate(responses, 1):
            title = f"response {i} of {len(responses)}"
            if resp.get("id"):
                title += f" · {visible(str(resp['id']))}"
            title += f" · {visible(str(resp['status']))}"
            console.print(Rule(Text(title), align="left"))
            for part in _response(resp, view):
                console.print(part)
    else:
        if data.get("model") or data.get("id"):
            ident = " ".join(str(v) for v in (data.get("model"), data.get("id")) if v)
            console.print(Text(visible(ident), style="dim"))
        for part in _response(data, view):
            console.print(part)
    if "text" in only and data.get("state") is not None:
        console.print(_state(data["state"], full), soft_wrap=True)
    if "text" in only:
        for line in agent_lines(data, full):
            console.print(line, soft_wrap=True)
    if "diagnostics" in only and streaming is not None:
        # not ended: it lacks its end, which is no fault (the errors come when it ends)
        held = [d for d in data.get("diagnostics", []) if d["severity"] != "error"]
        if held:
            console.print(_diagnostics(held))
        console.print(Text("still streaming: findings about its end come when it ends", "dim"))
    elif "diagnostics" in only:
        console.print(_diagnostics(data.get("diagnostics", [])))
    timing = data.get("timing") or {}
    if timing.get("total_s") is not None and streaming is None:
        bits = [
            f"{k[:-2].replace('_', ' ')} {v:.3f}s"
            for k, v in timing.items()
            if k.endswith("_s") and v is not None
        ]
        console.print(Text("timing: " + ", ".join(bits), style="dim"))
