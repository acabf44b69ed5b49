"""The human view of a Report's agent sections (``task``, ``artifacts``,
``notifications``): a few short lines after the reply, from the Report's JSON form so that
``--redact`` applies."""

from __future__ import annotations

from collections import Counter
from typing import Any

from rich.text import Text

from ..output.visible import visible

__all__ = ["SECTION_CHARS", "agent_lines"]

SECTION_CHARS = 200
"""How much of an ask or a notification summary a line shows (all of it with ``full``)."""
_STATES = 6
"""How many states the task line names before it skips to the last ones."""
_ARTIFACTS = 10
"""How many artifacts get a line of their own; the rest are counted."""


def _cut(text: str, full: bool) -> str:
    if full or len(text) <= SECTION_CHARS:
        return text
    return f"{text[:SECTION_CHARS]}… ({len(text) - SECTION_CHARS:,} more characters)"


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def _task(task: dict[str, Any], full: bool) -> list[Text]:
    states = [str(s["state"]) for s in task.get("states", [])]
    if len(states) > _STATES:
        states = [*states[:2], "…", *states[-(_STATES - 3) :]]
    line = Text("task: ")
    line.append(visible(str(task.get("state"))), style="bold")
    if len(states) > 1:
        line.append(f" ({visible(' → '.join(states))})", style="dim")
    messages = task.get("messages", [])
    if messages:
        line.append(f" · {_plural(len(messages), 'message')}")
    lines = [line]
    for ask in task.get("asks", []):
        asked = Text(f"asks ({visible(str(ask['state']))}): ", style="yellow")
        text = ask.get("text")
        asked.append(
            "(no message)" if text is None else visible(_cut(str(text), full)),
            style="" if text is not None else "dim",
        )
        lines.append(asked)
    return lines


def _artifact(art: dict[str, Any]) -> Text:
    kinds = Counter(str(p.get("kind")) for p in art.get("parts", []))
    line = Text("artifact ")
    line.append(visible(str(art["id"])), style="bold")
    if art.get("name"):
        line.append(f" {visible(repr(str(art['name'])))}")
    what = [f"{n} {kind}" for kind, n in kinds.items()] or ["no parts"]
    line.append(f": {', '.join(what)} · {len(art.get('text') or ''):,} chars")
    line.append(f" · {_plural(int(art.get('chunks') or 0), 'chunk')} · ")
    if art.get("complete"):
        line.append("complete", style="green")
    else:
        line.append("last chunk not seen", style="yellow")
    return line


def _notifications(notes: list[dict[str, Any]], full: bool) -> Text:
    methods = Counter(str(n["method"]) for n in notes)
    line = Text(f"notifications: {len(notes)} (")
    line.append(visible(", ".join(f"{m} ×{n}" for m, n in methods.items())))
    line.append(")")
    last = notes[-1].get("summary")
    if last:
        line.append(" · last: ")
        line.append(visible(_cut(str(last), full)), style="dim")
    return line


def agent_lines(data: dict[str, Any], full: bool) -> list[Text]:
    """The lines that show a Report dict's agent sections (none when it has none)."""
    lines: list[Text] = []
    task = data.get("task")
    if isinstance(task, dict):
        lines += _task(task, full)
    artifacts = data.get("artifacts") or []
    lines += [_artifact(a) for a in artifacts[:_ARTIFACTS]]
    if len(artifacts) > _ARTIFACTS:
        lines.append(Text(f"… and {len(artifacts) - _ARTIFACTS} more artifacts", style="dim"))
    notes = data.get("notifications") or []
    if notes:
        lines.append(_notifications(notes, full))
    return lines
