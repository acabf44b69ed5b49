"""Assembly speed on A2A and MCP streams against an Anthropic stream of the same text.

Run by hand (not part of the test suite)::

    python bench/jsonrpc_events.py [--events 20000] [--repeat 5]

Generated SSE bodies carry the same text in the same number of pieces: an Anthropic Messages
stream (one delta a word), an A2A 0.x task whose one artifact arrives in ``append`` chunks
(one word a chunk, with a working status-update carrying a message every 50th chunk, as the
Report's task and artifacts sections fold them), the same in the 1.0 shape, and an MCP
``tools/call`` answered after one progress notification a word (the Report's
notifications; its reply is the result's text). ``ssescope.inspect`` assembles each,
interleaved round after round (best round kept, in CPU time: on a shared machine wall time
swings by 2x from run to run); the script prints MB/s and each stream's time per byte over
Anthropic's, and checks the assembled texts and sections.
"""

from __future__ import annotations

import argparse
import json
import time

import ssescope


def _sse(objs: list[dict[str, object]], named: str | None = None) -> bytes:
    head = f"event: {named}\n" if named else ""
    return "".join(f"{head}data: {json.dumps(o, separators=(',', ':'))}\n\n" for o in objs).encode()


def anthropic(words: list[str]) -> bytes:
    """An Anthropic Messages stream of one text block, one delta a word."""
    out = [
        f"event: message_start\ndata: {json.dumps({'type': 'message_start', 'message': {'id': 'msg_1', 'type': 'message', 'role': 'assistant', 'model': 'claude', 'content': [], 'usage': {'input_tokens': 5}}})}\n\n",
        'event: content_block_start\ndata: {"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}\n\n',
    ]
    for w in words:
        delta = {
            "type": "content_block_delta",
            "index": 0,
            "delta": {"type": "text_delta", "text": w},
        }
        out.append(
            f"event: content_block_delta\ndata: {json.dumps(delta, separators=(',', ':'))}\n\n"
        )
    out.append('event: content_block_stop\ndata: {"type":"content_block_stop","index":0}\n\n')
    stop = {
        "type": "message_delta",
        "delta": {"stop_reason": "end_turn"},
        "usage": {"output_tokens": len(words)},
    }
    out.append(f"event: message_delta\ndata: {json.dumps(stop)}\n\n")
    out.append('event: message_stop\ndata: {"type":"message_stop"}\n\n')
    return "".join(out).encode()


def _rpc(result: dict[str, object]) -> dict[str, object]:
    return {"id": 1, "jsonrpc": "2.0", "result": result}


def a2a(words: list[str], v10: bool) -> bytes:
    """An A2A task whose artifact is streamed a word a chunk, a status message every 50."""
    ids = {"taskId": "task-1", "contextId": "ctx-1"}

    def status(state: str, text: str | None = None) -> dict[str, object]:
        st: dict[str, object] = {"state": f"TASK_STATE_{state.upper()}" if v10 else state}
        if text is not None:
            role = "ROLE_AGENT" if v10 else "agent"
            parts = [{"text": text}] if v10 else [{"kind": "text", "text": text}]
            st["message"] = {"messageId": "m", "role": role, "parts": parts}
        body = {**ids, "status": st}
        return _rpc(
            {"statusUpdate": body}
            if v10
            else {"kind": "status-update", **body, "final": state == "completed"}
        )

    task = {
        "id": "task-1",
        "contextId": "ctx-1",
        "status": {"state": "TASK_STATE_SUBMITTED" if v10 else "submitted"},
    }
    objs = [_rpc({"task": task} if v10 else {"kind": "task", **task})]
    for i, w in enumerate(words):
        if i % 50 == 0:
            objs.append(status("working", f"step {i}"))
        part = {"text": w} if v10 else {"kind": "text", "text": w}
        chunk: dict[str, object] = {**ids, "artifact": {"artifactId": "art-1", "parts": [part]}}
        if i:
            chunk["append"] = True
        if i == len(words) - 1:
            chunk["lastChunk"] = True
        objs.append(
            _rpc({"artifactUpdate": chunk} if v10 else {"kind": "artifact-update", **chunk})
        )
    objs.append(status("completed"))
    return _sse(objs)


def mcp(words: list[str]) -> bytes:
    """A tools/call answered after one progress notification a word."""
    objs: list[dict[str, object]] = [
        {
            "jsonrpc": "2.0",
            "method": "notifications/progress",
            "params": {"progressToken": "p", "progress": i + 1, "total": len(words), "message": w},
        }
        for i, w in enumerate(words)
    ]
    objs.append(
        {
            "jsonrpc": "2.0",
            "id": 1,
            "result": {"content": [{"type": "text", "text": "".join(words)}]},
        }
    )
    return _sse(objs, named="message")


def main() -> None:
    """Time the bodies and print the table."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--events", type=int, default=20000)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    words = [f" word{i % 97}" for i in range(args.events)]
    bodies = {
        "anthropic": anthropic(words),
        "a2a 0.x": a2a(words, v10=False),
        "a2a 1.0": a2a(words, v10=True),
        "mcp": mcp(words),
    }
    best = dict.fromkeys(bodies, float("inf"))
    for _ in range(args.repeat):
        for name, body in bodies.items():
            start = time.process_time()
            report = ssescope.inspect(body)
            best[name] = min(best[name], time.process_time() - start)
            assert report.status == "completed", (name, report.status)
            assert report.outputs[0].text == "".join(words), name
            if name.startswith("a2a"):
                assert report.artifacts[0].text == "".join(words) and report.artifacts[0].complete
                assert (
                    report.task is not None and len(report.task.messages) == (len(words) + 49) // 50
                )
            if name == "mcp":
                assert len(report.notifications) == len(words)
    base = best["anthropic"] / len(bodies["anthropic"])
    print(f"core {ssescope.CORE}, {args.events} pieces, best of {args.repeat}")
    print("| stream | bytes | s | MB/s | per piece (µs) | time per byte / Anthropic's |")
    print("|---|---|---|---|---|---|")
    for name, body in bodies.items():
        t = best[name]
        print(
            f"| {name} | {len(body):,} | {t:.3f} | {len(body) / t / 1e6:.1f} | "
            f"{t / args.events * 1e6:.1f} | {t / len(body) / base:.2f}x |"
        )


if __name__ == "__main__":
    main()
