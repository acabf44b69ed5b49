"""Gemini candidates and their parts: text, thoughts, media, executable code."""

from __future__ import annotations

from ... import codes as shared
from ...diagnostics import quote
from ...events import (
    JSON,
    Audio,
    Finish,
    ReasoningDelta,
    ReasoningMeta,
    ServerToolResult,
    TextDelta,
    ToolCall,
    Unknown,
)
from ...framing.records import DataRecord
from .._base import AdapterOutput, compact_json, diag, nonempty_str, str_or_none
from . import codes
from .maps import finish_status, map_finish_reason
from .state import _PART_META_KEYS, _Response
from .tools import function_call


def _id_of(value: object) -> str | None:
    """The string ``id`` of a JSON object, if it has one."""
    return str_or_none(value.get("id")) if isinstance(value, dict) else None


def candidate(
    resp: _Response, cand: dict[str, JSON], record: DataRecord, out: list[AdapterOutput]
) -> int | None:
    """Map one candidate; return its index if it finished in this chunk."""
    rec = record.index
    idx = cand.get("index", 0)
    output = idx if isinstance(idx, int) and not isinstance(idx, bool) and idx >= 0 else 0
    if output not in resp.finished:
        resp.finished[output] = None
    content = cand.get("content")
    if isinstance(content, dict):
        parts = content.get("parts")
        if isinstance(parts, list):
            for part in parts:
                if isinstance(part, dict):
                    _part(resp, part, output, record, out)
    citations = cand.get("citationMetadata")
    if isinstance(citations, dict):
        items = citations.get("citations", citations.get("citationSources"))
        if isinstance(items, list):
            for item in items:
                resp.citation(output, item, rec, out)
    grounding = cand.get("groundingMetadata")
    if isinstance(grounding, dict) and grounding:
        resp.citation(output, {"groundingMetadata": grounding}, rec, out)
    raw = cand.get("finishReason")
    if not isinstance(raw, str) or not raw:
        return None
    open_call = resp.calls.open(output)
    if open_call is not None:
        resp.calls.abandon(output, f"its candidate finished ({raw})", record.start, rec, out)
    reason, status = map_finish_reason(raw), finish_status(raw)
    if open_call is not None and status == "completed":
        # a natural stop while the call said more would come: the reply is cut short
        status = "incomplete"
        out.append(
            diag(
                shared.STREAM_CONTRADICTORY_TERMINAL,
                record,
                form="open-call",
                what=f"candidate {output}",
                reason=raw,
                name=open_call.name,
                status=status,
            )
        )
    out.append(Finish(rec, output, reason, raw))
    if status == "failed":
        message = cand.get("finishMessage")
        extra = f": {quote(message, 200)}" if isinstance(message, str) else ""
        out.append(diag(codes.TOOL_CALL_FAILED, record, output=output, raw_text=raw, extra=extra))
    if resp.finished.get(output) is None:
        resp.finished[output] = status
        resp.raw_finish[output] = raw
    return output


def _part(
    resp: _Response,
    part: dict[str, JSON],
    output: int,
    record: DataRecord,
    out: list[AdapterOutput],
) -> None:
    rec = record.index
    text = part.get("text")
    if isinstance(text, str):
        if text:
            if part.get("thought") is True:
                out.append(ReasoningDelta(rec, output, text, None, "summary"))
            else:
                out.append(TextDelta(rec, output, text))
    elif "functionCall" in part:
        call = part["functionCall"]
        if isinstance(call, dict):
            function_call(resp.calls, call, output, record, out)
        else:
            out.append(diag(codes.INVALID_FUNCTION_CALL, record, call=call))
    elif "executableCode" in part:
        code = part["executableCode"]
        out.append(
            ToolCall(
                rec,
                output,
                resp.calls.take_index(output),
                _id_of(code),
                "code_execution",
                compact_json(code),
                "server",
            )
        )
    elif "codeExecutionResult" in part:
        result = part["codeExecutionResult"]
        out.append(ServerToolResult(rec, output, _id_of(result), "code_execution_result", result))
    elif "inlineData" in part or "fileData" in part:
        _media(part, output, record, out)
    elif "functionResponse" in part:
        pass  # a tool result echoed in the content: nothing for the reply
    else:
        unknown = [k for k in part if k not in _PART_META_KEYS]
        if unknown:
            out.append(Unknown(rec, "part." + unknown[0], part))
    if signature := nonempty_str(part.get("thoughtSignature")):
        out.append(ReasoningMeta(rec, output, None, signature))


def _media(
    part: dict[str, JSON], output: int, record: DataRecord, out: list[AdapterOutput]
) -> None:
    inline = part.get("inlineData")
    if isinstance(inline, dict):
        mime = inline.get("mimeType")
        mime = mime if isinstance(mime, str) else None
        data = inline.get("data")
        data = data if isinstance(data, str) else ""
        if mime is not None and mime.startswith("audio/"):
            out.append(Audio(record.index, output, data, None, mime))
            return
        size = len(data) * 3 // 4 - data[-2:].count("=")
        out.append(
            diag(
                codes.INLINE_DATA,
                record,
                form="inline",
                output=output,
                mime=mime,
                max=max(size, 0),
            )
        )
        return
    file_data = part.get("fileData")
    if isinstance(file_data, dict):
        mime = file_data.get("mimeType")
        uri = file_data.get("fileUri")
        out.append(diag(codes.INLINE_DATA, record, form="file", output=output, mime=mime, uri=uri))
