"""Streams of every provider with a given secret in every field that carries content.

Each builder takes ``secret(tag)`` (the secret for one field) and returns the body; the
fields are: text, reasoning, refusal, tool arguments, citations, an invalid record and the
provider's error message (where the protocol has them), plus a snapshot that disagrees
with its deltas where the protocol sends snapshots.
The agent protocols carry theirs in the Report's sections too: an A2A task's messages, what
it asks for and its artifacts' parts, MCP's notifications.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

Secret = Callable[[str], str]


def _sse(*objs: Any, events: bool = False) -> bytes:
    out = []
    for obj in objs:
        if isinstance(obj, str):
            out.append(obj)
            continue
        if events:
            out.append(f"event: {obj['type']}\n")
        out.append(f"data: {json.dumps(obj, ensure_ascii=False)}\n\n")
    return "".join(out).encode("utf-8")


def _lines(*objs: Any) -> bytes:
    return "".join(
        (o if isinstance(o, str) else json.dumps(o, ensure_ascii=False)) + "\n" for o in objs
    ).encode("utf-8")


def _broken(s: Secret) -> str:
    return '{"broken": "' + s("invalid").replace('"', "'") + '", '


def openai_chat(s: Secret) -> bytes:
    def chunk(delta: dict[str, Any], **extra: Any) -> dict[str, Any]:
        choice = {"index": 0, "delta": delta, "finish_reason": extra.pop("finish", None)}
        return {"id": "c1", "object": "chat.completion.chunk", "choices": [choice], **extra}

    return _sse(
        chunk({"role": "assistant", "content": s("text")}, citations=[s("citation")]),
        chunk({"reasoning_content": s("reasoning")}),
        chunk({"refusal": s("refusal")}),
        chunk(
            {
                "tool_calls": [
                    {
                        "index": 0,
                        "id": "call_1",
                        "type": "function",
                        "function": {"name": "f", "arguments": s("arguments")},
                    }
                ]
            }
        ),
        f"data: {_broken(s)}\n\n",
        chunk({}, finish="stop"),
        {"error": {"message": s("error"), "type": "server_error"}},
        "data: [DONE]\n\n",
    )


def openai_responses(s: Secret) -> bytes:
    base = {"item_id": "msg_1", "output_index": 1, "content_index": 0}
    return _sse(
        {"type": "response.created", "response": {"id": "resp_1", "status": "in_progress"}},
        {
            "type": "response.output_item.added",
            "output_index": 0,
            "item": {"id": "rs_1", "type": "reasoning", "summary": []},
        },
        {
            "type": "response.reasoning_summary_text.delta",
            "item_id": "rs_1",
            "output_index": 0,
            "summary_index": 0,
            "delta": s("reasoning"),
        },
        {
            "type": "response.output_item.added",
            "output_index": 1,
            "item": {"id": "msg_1", "type": "message", "role": "assistant", "content": []},
        },
        {"type": "response.output_text.delta", **base, "delta": s("text")},
        {"type": "response.output_text.done", **base, "text": s("snapshot")},
        {
            "type": "response.output_text.annotation.added",
            **base,
            "annotation_index": 0,
            "annotation": {
                "type": "url_citation",
                "url": s("citation"),
                "title": "t",
                "start_index": 0,
                "end_index": 1,
            },
        },
        {"type": "response.refusal.delta", **base, "content_index": 1, "delta": s("refusal")},
        {
            "type": "response.output_item.added",
            "output_index": 2,
            "item": {
                "id": "fc_1",
                "type": "function_call",
                "call_id": "call_1",
                "name": "f",
                "arguments": "",
            },
        },
        {
            "type": "response.function_call_arguments.delta",
            "item_id": "fc_1",
            "output_index": 2,
            "delta": s("arguments"),
        },
        f"event: response.output_text.delta\ndata: {_broken(s)}\n\n",
        {"type": "error", "code": "server_error", "message": s("error")},
        events=True,
    )


def anthropic(s: Secret) -> bytes:
    def delta(index: int, d: dict[str, Any]) -> dict[str, Any]:
        return {"type": "content_block_delta", "index": index, "delta": d}

    def start(index: int, block: dict[str, Any]) -> dict[str, Any]:
        return {"type": "content_block_start", "index": index, "content_block": block}

    return _sse(
        {
            "type": "message_start",
            "message": {
                "id": "msg_1",
                "type": "message",
                "role": "assistant",
                "content": [],
                "usage": {"input_tokens": 1, "output_tokens": 1},
            },
        },
        start(0, {"type": "thinking", "thinking": ""}),
        delta(0, {"type": "thinking_delta", "thinking": s("reasoning")}),
        {"type": "content_block_stop", "index": 0},
        start(1, {"type": "text", "text": ""}),
        delta(1, {"type": "text_delta", "text": s("text")}),
        delta(
            1,
            {
                "type": "citations_delta",
                "citation": {
                    "type": "web_search_result_location",
                    "url": s("citation"),
                    "cited_text": s("cited"),
                },
            },
        ),
        {"type": "content_block_stop", "index": 1},
        start(2, {"type": "tool_use", "id": "toolu_1", "name": "f", "input": {}}),
        delta(2, {"type": "input_json_delta", "partial_json": s("arguments")}),
        {"type": "content_block_stop", "index": 2},
        f"event: content_block_delta\ndata: {_broken(s)}\n\n",
        {"type": "error", "error": {"type": "overloaded_error", "message": s("error")}},
        events=True,
    )


def gemini(s: Secret) -> bytes:
    def cand(parts: list[dict[str, Any]], **extra: Any) -> dict[str, Any]:
        return {"candidates": [{"content": {"parts": parts, "role": "model"}, "index": 0, **extra}]}

    return _sse(
        cand([{"text": s("reasoning"), "thought": True}]),
        cand([{"text": s("text")}]),
        cand([{"functionCall": {"name": "f", "args": {"q": s("arguments")}}}]),
        cand([], citationMetadata={"citationSources": [{"uri": s("citation")}]}),
        f"data: {_broken(s)}\n\n",
        {"error": {"code": 500, "message": s("error"), "status": "INTERNAL"}},
    )


def ollama(s: Secret) -> bytes:
    def msg(**m: Any) -> dict[str, Any]:
        return {"model": "m", "message": {"role": "assistant", "content": "", **m}, "done": False}

    return _lines(
        msg(thinking=s("reasoning")),
        msg(content=s("text")),
        msg(tool_calls=[{"function": {"name": "f", "arguments": {"q": s("arguments")}}}]),
        _broken(s),
        {"error": s("error")},
    )


def cohere(s: Secret) -> bytes:
    return _sse(
        {"type": "message-start", "id": "c1", "delta": {"message": {"role": "assistant"}}},
        {
            "type": "content-start",
            "index": 0,
            "delta": {"message": {"content": {"type": "thinking", "thinking": ""}}},
        },
        {
            "type": "content-delta",
            "index": 0,
            "delta": {"message": {"content": {"thinking": s("reasoning")}}},
        },
        {"type": "content-end", "index": 0},
        {
            "type": "content-start",
            "index": 1,
            "delta": {"message": {"content": {"type": "text", "text": ""}}},
        },
        {
            "type": "content-delta",
            "index": 1,
            "delta": {"message": {"content": {"text": s("text")}}},
        },
        {"type": "content-end", "index": 1},
        {"type": "tool-plan-delta", "delta": {"message": {"tool_plan": s("plan")}}},
        {
            "type": "tool-call-start",
            "index": 0,
            "delta": {
                "message": {
                    "tool_calls": {
                        "id": "t1",
                        "type": "function",
                        "function": {"name": "f", "arguments": ""},
                    }
                }
            },
        },
        {
            "type": "tool-call-delta",
            "index": 0,
            "delta": {"message": {"tool_calls": {"function": {"arguments": s("arguments")}}}},
        },
        {"type": "tool-call-end", "index": 0},
        {
            "type": "citation-start",
            "index": 0,
            "delta": {
                "message": {
                    "citations": {"start": 0, "end": 1, "text": s("citation"), "sources": []}
                }
            },
        },
        f"event: content-delta\ndata: {_broken(s)}\n\n",
        {"type": "message-end", "delta": {"finish_reason": "ERROR", "error": s("error")}},
        events=True,
    )


def bedrock(s: Secret) -> bytes:
    def delta(index: int, d: dict[str, Any]) -> dict[str, Any]:
        return {"contentBlockDelta": {"delta": d, "contentBlockIndex": index}}

    return _lines(
        {"messageStart": {"role": "assistant"}},
        delta(0, {"reasoningContent": {"text": s("reasoning")}}),
        delta(1, {"text": s("text")}),
        {
            "contentBlockStart": {
                "start": {"toolUse": {"toolUseId": "t1", "name": "f"}},
                "contentBlockIndex": 2,
            }
        },
        delta(2, {"toolUse": {"input": s("arguments")}}),
        delta(3, {"citation": {"location": {"web": {"url": s("citation")}}, "title": "t"}}),
        _broken(s),
        {"internalServerException": {"message": s("error")}},
    )


def vercel_ui(s: Secret) -> bytes:
    return _sse(
        {"type": "start", "messageId": "m1"},
        {"type": "reasoning-start", "id": "r0"},
        {"type": "reasoning-delta", "id": "r0", "delta": s("reasoning")},
        {"type": "reasoning-end", "id": "r0"},
        {"type": "text-start", "id": "t0"},
        {"type": "text-delta", "id": "t0", "delta": s("text")},
        {"type": "text-end", "id": "t0"},
        {"type": "tool-input-start", "toolCallId": "c1", "toolName": "f"},
        {"type": "tool-input-delta", "toolCallId": "c1", "inputTextDelta": s("arguments")},
        {"type": "source-url", "sourceId": "s1", "url": s("citation")},
        f"data: {_broken(s)}\n\n",
        {"type": "error", "errorText": s("error")},
        "data: [DONE]\n\n",
    )


def _rpc(result: Any) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "id": 1, "result": result}


def a2a(s: Secret) -> bytes:
    def status(state: str, text: str) -> dict[str, Any]:
        message = {"kind": "message", "role": "agent", "parts": [{"kind": "text", "text": text}]}
        return _rpc(
            {"kind": "status-update", "taskId": "t", "status": {"state": state, "message": message}}
        )

    parts = [
        {"kind": "text", "text": s("text")},
        {"kind": "data", "data": {"k": s("data")}},
        {"kind": "file", "file": {"name": s("file"), "uri": "https://x/f"}},
        {"kind": "video", "v": s("part")},
    ]
    return _sse(
        _rpc({"kind": "task", "id": "t", "contextId": "c", "status": {"state": "submitted"}}),
        status("working", s("message")),
        _rpc(
            {
                "kind": "artifact-update",
                "taskId": "t",
                "artifact": {"artifactId": "a", "parts": parts},
            }
        ),
        f"data: {_broken(s)}\n\n",
        status("input-required", s("ask")),
        {"jsonrpc": "2.0", "id": 1, "error": {"code": -32603, "message": s("error")}},
    )


def mcp(s: Secret) -> bytes:
    return _sse(
        {
            "jsonrpc": "2.0",
            "method": "notifications/progress",
            "params": {"progress": 1, "total": 2, "message": s("progress")},
        },
        {
            "jsonrpc": "2.0",
            "method": "notifications/message",
            "params": {"level": "info", "data": s("log")},
        },
        {
            "jsonrpc": "2.0",
            "id": "s1",
            "method": "elicitation/create",
            "params": {"message": s("request")},
        },
        f"data: {_broken(s)}\n\n",
        {"jsonrpc": "2.0", "id": 1, "result": {"content": [{"type": "text", "text": s("text")}]}},
    )


BUILDERS: dict[str, Callable[[Secret], bytes]] = {
    "openai-chat": openai_chat,
    "openai-responses": openai_responses,
    "anthropic": anthropic,
    "gemini": gemini,
    "ollama": ollama,
    "cohere": cohere,
    "bedrock": bedrock,
    "vercel-ui": vercel_ui,
    "a2a": a2a,
    "mcp": mcp,
}
"""The provider name (``--provider``) and the builder of its stream."""
