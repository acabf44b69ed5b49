"""Redaction of a Report: content replaced by its length and a sha256 prefix, in its JSON.

Content is found from the data, never by reading prose: the assembled outputs' fields,
the provider's error message, and the diagnostic arguments that the registry
(:mod:`ssescope.codes`) marks as content. A diagnostic's message is then rendered again
from its template with those arguments replaced, so how a message happens to quote a
value does not matter.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from ..diagnostics import render
from .catalog import CODES

__all__ = ["redact_diagnostic", "redact_report", "redacted"]


class _Marker(str):
    """A redaction marker: its ``repr`` is itself, so a message quotes it without quotes."""

    __slots__ = ()

    def __repr__(self) -> str:
        return str(self)


def redacted(value: str) -> str:
    """Return ``[redacted N chars sha256:xxxxxxxxxxxx]`` for a non-empty string."""
    if not value:
        return value
    digest = hashlib.sha256(value.encode("utf-8", "surrogatepass")).hexdigest()[:12]
    return f"[redacted {len(value)} chars sha256:{digest}]"


def _text(value: Any) -> str:
    if isinstance(value, str):
        return value
    return json.dumps(value, sort_keys=True, ensure_ascii=False, default=str)


def _redact_json(value: Any) -> Any:
    if value is None:
        return None
    return redacted(_text(value))


def _redact_output(out: dict[str, Any]) -> None:
    for key in ("text", "reasoning", "refusal"):
        out[key] = redacted(out.get(key) or "")
    for call in out.get("tool_calls", []):
        call["arguments"] = redacted(call.get("arguments") or "")
        call["input"] = None
    out["citations"] = [_redact_json(c) for c in out.get("citations", [])]
    out["server_tool_results"] = [_redact_json(c) for c in out.get("server_tool_results", [])]
    audio = out.get("audio")
    if audio:
        audio["transcript"] = redacted(audio.get("transcript") or "")


def _redact_error(response: dict[str, Any]) -> None:
    """The provider's error message, wherever the response shows it (its ``error`` and the
    ``status_reason`` some providers build from it)."""
    error = response.get("error")
    if not error or error.get("message") is None:
        return
    message = _text(error["message"])
    error["message"] = redacted(message)
    reason = response.get("status_reason")
    if message and isinstance(reason, str) and message in reason:
        response["status_reason"] = reason.replace(message, error["message"])


def _redact_sections(data: dict[str, Any]) -> None:
    """The agent sections' content: the task's message and ask texts, the artifacts' text
    and data parts (and a file's name and URI), the notifications' summaries."""
    task = data.get("task")
    if isinstance(task, dict):
        for entry in (*task.get("messages", []), *task.get("asks", [])):
            if isinstance(entry.get("text"), str):
                entry["text"] = redacted(entry["text"])
    for artifact in data.get("artifacts", []):
        artifact["text"] = redacted(artifact.get("text") or "")
        for part in artifact.get("parts", []):
            if part.get("kind") == "text":
                part["text"] = redacted(part.get("text") or "")
            elif part.get("kind") == "data":
                part["data"] = _redact_json(part.get("data"))
            elif part.get("kind") == "file":
                for key in ("name", "uri"):
                    if isinstance(part.get(key), str):
                        part[key] = redacted(part[key])
    for note in data.get("notifications", []):
        note["summary"] = redacted(note.get("summary") or "")


def redact_diagnostic(diag: dict[str, Any]) -> dict[str, Any]:
    """Redact one diagnostic's JSON form in place (and return it).

    The arguments its code marks as content become length + hash and the message is
    rendered again from the template; ``raw`` is dropped. A diagnostic whose arguments are
    unknown (an unregistered code, or one built by hand with only a message) has its whole
    message replaced by length + hash.
    """
    diag.pop("raw", None)
    spec = CODES.get(diag.get("code", ""))
    args = diag.get("args")
    message = diag.get("message") or ""
    if spec is None or not isinstance(args, dict):
        diag["message"] = redacted(message)
        return diag
    shown = dict(args)
    for name in spec.content:
        if name in args and args[name] is not None:
            args[name] = redacted(_text(args[name]))
            shown[name] = _Marker(args[name])
    try:
        diag["message"] = render(spec.template(diag.get("form")), shown, diag.get("record"))
    except (KeyError, ValueError, TypeError, IndexError):
        diag["message"] = redacted(message)
    return diag


def redact_report(data: dict[str, Any]) -> dict[str, Any]:
    """Redact a Report dict in place (and return it).

    Text, reasoning, refusal, tool arguments (``input`` becomes ``null``), citations,
    server tool results, audio transcripts, the shared state's value, the agent sections'
    content (task messages and asks, artifact parts, notification summaries) and the
    provider's error message become
    length + hash; so do the content arguments of each diagnostic, whose message is
    rendered again from them (see :func:`redact_diagnostic`).
    """
    for out in data.get("outputs", []):
        _redact_output(out)
    _redact_error(data)
    state = data.get("state")
    if isinstance(state, dict) and "value" in state:
        state["value"] = _redact_json(state["value"])
    _redact_sections(data)
    for resp in data.get("responses", []):
        for out in resp.get("outputs", []):
            _redact_output(out)
        _redact_error(resp)
    for diag in data.get("diagnostics", []):
        redact_diagnostic(diag)
    return data
