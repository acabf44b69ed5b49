"""A2A parts and messages in the general form of the Report's sections.

0.x tags a part by ``kind`` (``text`` / ``data`` / ``file``, a file holding ``name``,
``mimeType`` and ``uri`` or base64 ``bytes``); 1.0 gives the content key alone (``text``,
``data``, ``url`` or base64 ``raw``) beside ``filename`` and ``mediaType``. Both become
``{"kind": "text", "text"}``, ``{"kind": "data", "data"}`` or ``{"kind": "file", "name",
"mime_type", "uri", "bytes"}`` (``bytes``: the decoded size of inline content, which is
never kept).
"""

from __future__ import annotations

from ...events import JSON
from ...framing.records import DataRecord
from .._base import AdapterOutput, compact_json, diag, str_or_none
from . import codes

__all__ = ["message_fields", "normalise_parts", "parts_and_text", "text_of"]


def _b64_size(data: str) -> int:
    """The byte count base64 ``data`` decodes to (whitespace and padding left out)."""
    n = len("".join(data.split()).rstrip("="))
    return (n * 3) // 4


def _file(name: JSON, mime: JSON, uri: JSON, raw: JSON) -> dict[str, JSON]:
    return {
        "kind": "file",
        "name": str_or_none(name),
        "mime_type": str_or_none(mime),
        "uri": str_or_none(uri),
        "bytes": _b64_size(raw) if isinstance(raw, str) else None,
    }


def _part(part: dict[str, JSON]) -> dict[str, JSON] | None:
    """One part in the general form, or ``None`` for a part of no known shape."""
    kind = part.get("kind")
    text = part.get("text")
    if type(text) is str and (kind is None or kind == "text"):
        return {"kind": "text", "text": text}
    if kind in ("data", None) and "data" in part:
        return {"kind": "data", "data": part["data"]}
    file = part.get("file")
    if kind == "file" and isinstance(file, dict):  # 0.x
        return _file(file.get("name"), file.get("mimeType"), file.get("uri"), file.get("bytes"))
    if kind is None and ("url" in part or "raw" in part):  # 1.0
        return _file(part.get("filename"), part.get("mediaType"), part.get("url"), part.get("raw"))
    return None


def parts_and_text(
    parts: JSON, record: DataRecord, out: list[AdapterOutput]
) -> tuple[list[JSON], str]:
    """The parts of an artifact or message in the general form, and their text parts
    joined; a part of no known shape is reported (``a2a.unknown-part``) and skipped."""
    found: list[JSON] = []
    texts: list[str] = []
    if not isinstance(parts, list):
        return found, ""
    for part in parts:
        general = _part(part) if isinstance(part, dict) else None
        if general is None:
            out.append(diag(codes.UNKNOWN_PART, record, obj=part))
            continue
        found.append(general)
        text = general.get("text")
        if isinstance(text, str):
            texts.append(text)
    return found, texts[0] if len(texts) == 1 else "".join(texts)


def normalise_parts(parts: JSON, record: DataRecord, out: list[AdapterOutput]) -> list[JSON]:
    """The parts of an artifact or message in the general form (see :func:`parts_and_text`)."""
    return parts_and_text(parts, record, out)[0]


def text_of(parts: list[JSON]) -> str:
    """What general-form ``parts`` say as text: their text parts joined, or, with none, their
    data parts as compact JSON."""
    texts: list[str] = []
    data: list[str] = []
    for part in parts:
        if not isinstance(part, dict):
            continue
        text = part.get("text")
        if part.get("kind") == "text" and isinstance(text, str):
            texts.append(text)
        elif part.get("kind") == "data":
            data.append(compact_json(part.get("data")))
    return "".join(texts) if texts else " ".join(data)


def _role(raw: JSON) -> str | None:
    """``ROLE_AGENT`` (1.0) → ``agent`` (0.x)."""
    if not isinstance(raw, str):
        return None
    return raw[len("ROLE_") :].lower() if raw.startswith("ROLE_") else raw


def message_fields(
    message: JSON, record: DataRecord, out: list[AdapterOutput]
) -> tuple[str, str | None] | None:
    """A message's text (:func:`text_of` its parts) and its sender (``agent``, ``user``);
    ``None`` when ``message`` is no object."""
    if not isinstance(message, dict):
        return None
    parts = normalise_parts(message.get("parts"), record, out)
    return text_of(parts), _role(message.get("role"))
