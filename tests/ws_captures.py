"""WebSocket captures written by the tests with the project's own writer: a connection
of two Responses, a session.created before the first (what the serve and request tests
replay)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from ssescope.containers.ws_writer import WebSocketCaptureWriter

__all__ = ["CREATE", "response_events", "write_capture"]

CREATE = json.dumps({"type": "response.create", "model": "gpt-5", "input": "hi"})


def response_events(rid: str, words: list[str]) -> list[str]:
    out: list[dict[str, Any]] = [
        {"type": "response.created", "response": {"id": rid, "status": "in_progress"}}
    ]
    out += [
        {
            "type": "response.output_text.delta",
            "item_id": "m",
            "output_index": 0,
            "content_index": 0,
            "delta": w,
        }
        for w in words
    ]
    out.append(
        {
            "type": "response.completed",
            "response": {"id": rid, "status": "completed", "output": []},
        }
    )
    return [json.dumps(e) for e in out]


def write_capture(path: Path, *, close: tuple[int, str] | None = (1000, "")) -> Path:
    """A connection of two responses, with a session.created before the first, 50 ms
    between the first response's messages."""
    with WebSocketCaptureWriter(
        path,
        request={"method": "GET", "url": "wss://api.example.test/v1/responses", "headers": []},
        response_status=101,
        response_headers=[("Sec-WebSocket-Protocol", "realtime")],
    ) as writer:
        writer.write_message("receive", b'{"type":"session.created"}', 0.0)
        writer.write_message("send", CREATE.encode(), 1.0)
        for i, event in enumerate(response_events("r1", ["A", "B", "C"])):
            writer.write_message("receive", event.encode(), 1.1 + 0.05 * i)
        writer.write_message("send", CREATE.encode(), 2.0)
        for i, event in enumerate(response_events("r2", ["D"])):
            writer.write_message("receive", event.encode(), 2.01 + 0.001 * i)
        if close is not None:
            writer.close_connection(*close, time=3.0, extra={"by": "client"})
    return path
