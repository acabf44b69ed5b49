"""``--redact``: replace content by its length and a sha256 prefix, in the Report's JSON."""

from __future__ import annotations

import hashlib
import json
import re
from typing import Any

__all__ = ["redact_report", "redacted"]

_QUOTED = re.compile(r"'(?:[^'\\]|\\.)*(?:'|…)")


def redacted(value: str) -> str:
    """Return ``[redacted N chars sha256:xxxxxxxxxxxx]`` for a non-empty string."""
    if not value:
        return value
    digest = hashlib.sha256(value.encode("utf-8", "surrogatepass")).hexdigest()[:12]
    return f"[redacted {len(value)} chars sha256:{digest}]"


def _redact_json(value: Any) -> Any:
    if value is None:
        return None
    return redacted(json.dumps(value, sort_keys=True, ensure_ascii=False))


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


def redact_report(data: dict[str, Any]) -> dict[str, Any]:
    """Redact a Report dict in place (and return it).

    Text, reasoning, refusal, tool arguments (``input`` becomes ``null``), citations,
    server tool results and audio transcripts become length + hash; quoted values inside
    diagnostic messages become length + hash too, and ``raw`` is dropped.
    """
    for out in data.get("outputs", []):
        _redact_output(out)
    for resp in data.get("responses", []):
        for out in resp.get("outputs", []):
            _redact_output(out)
    for diag in data.get("diagnostics", []):
        diag["message"] = _QUOTED.sub(lambda m: redacted(m.group(0)[1:-1]), diag["message"])
        diag.pop("raw", None)
    return data
