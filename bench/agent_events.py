"""Assembly speed on Gemini Interactions and AG-UI streams against Anthropic streams of the
same size.

Run by hand (not part of the test suite)::

    python bench/agent_events.py [--events 20000] [--repeat 5]

Three generated SSE bodies, each of about the same number of bytes, carry the same text in
the same number of deltas: an Anthropic Messages stream, a Gemini Interactions stream
(``event:`` named, step generation) and an AG-UI run. ``ssescope.inspect`` assembles each,
interleaved round after round (best round kept); the script prints MB/s and each agent
protocol's time per byte over Anthropic's, and checks that all three assembled one text.
"""

from __future__ import annotations

import argparse
import json
import time

import ssescope


def _sse(events: list[tuple[str | None, dict[str, object]]]) -> bytes:
    out = []
    for name, obj in events:
        head = f"event: {name}\n" if name else ""
        out.append(f"{head}data: {json.dumps(obj, separators=(',', ':'))}\n\n")
    return "".join(out).encode()


def anthropic(words: list[str]) -> bytes:
    """An Anthropic Messages stream of one text block, one delta a word."""
    ev: list[tuple[str | None, dict[str, object]]] = [
        (
            "message_start",
            {
                "type": "message_start",
                "message": {
                    "id": "msg_1",
                    "type": "message",
                    "role": "assistant",
                    "model": "claude",
                    "content": [],
                    "usage": {"input_tokens": 5},
                },
            },
        ),
        (
            "content_block_start",
            {
                "type": "content_block_start",
                "index": 0,
                "content_block": {"type": "text", "text": ""},
            },
        ),
    ]
    ev += [
        (
            "content_block_delta",
            {"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": w}},
        )
        for w in words
    ]
    ev += [
        ("content_block_stop", {"type": "content_block_stop", "index": 0}),
        (
            "message_delta",
            {
                "type": "message_delta",
                "delta": {"stop_reason": "end_turn"},
                "usage": {"output_tokens": len(words)},
            },
        ),
        ("message_stop", {"type": "message_stop"}),
    ]
    return _sse(ev)


def interactions(words: list[str]) -> bytes:
    """A Gemini Interactions stream (step generation) of one model_output step."""
    ev: list[tuple[str | None, dict[str, object]]] = [
        (
            "interaction.created",
            {
                "interaction": {"id": "v1_a", "status": "in_progress"},
                "event_type": "interaction.created",
            },
        ),
        ("step.start", {"index": 0, "step": {"type": "model_output"}, "event_type": "step.start"}),
    ]
    ev += [
        (
            "step.delta",
            {"index": 0, "delta": {"type": "text", "text": w}, "event_type": "step.delta"},
        )
        for w in words
    ]
    ev += [
        ("step.stop", {"index": 0, "event_type": "step.stop"}),
        (
            "interaction.completed",
            {
                "interaction": {
                    "id": "v1_a",
                    "status": "completed",
                    "usage": {"total_input_tokens": 5, "total_output_tokens": len(words)},
                },
                "event_type": "interaction.completed",
            },
        ),
    ]
    return _sse(ev)


def ag_ui(words: list[str]) -> bytes:
    """An AG-UI run of one text message (no event names, as AG-UI encoders write)."""
    ev: list[tuple[str | None, dict[str, object]]] = [
        (None, {"type": "RUN_STARTED", "threadId": "thread_1", "runId": "run_1"}),
        (None, {"type": "TEXT_MESSAGE_START", "messageId": "msg_1", "role": "assistant"}),
    ]
    ev += [
        (None, {"type": "TEXT_MESSAGE_CONTENT", "messageId": "msg_1", "delta": w}) for w in words
    ]
    ev += [
        (None, {"type": "TEXT_MESSAGE_END", "messageId": "msg_1"}),
        (None, {"type": "RUN_FINISHED", "threadId": "thread_1", "runId": "run_1"}),
    ]
    return _sse(ev)


def main() -> None:
    """Time the three bodies and print the table."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--events", type=int, default=20000)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    words = [f" word{i % 97}" for i in range(args.events)]
    bodies = {
        "anthropic": anthropic(words),
        "gemini-interactions": interactions(words),
        "ag-ui": ag_ui(words),
    }
    best = dict.fromkeys(bodies, float("inf"))
    texts = set()
    for _ in range(args.repeat):
        for name, body in bodies.items():
            start = time.perf_counter()
            report = ssescope.inspect(body)
            best[name] = min(best[name], time.perf_counter() - start)
            assert report.status == "completed", (name, report.status)
            texts.add(report.outputs[0].text)
    assert len(texts) == 1, "the three bodies assembled different texts"
    base = best["anthropic"] / len(bodies["anthropic"])
    print(f"core {ssescope.CORE}, {args.events} deltas, best of {args.repeat}")
    print("| stream | bytes | s | MB/s | time per byte / Anthropic's |")
    print("|---|---|---|---|---|")
    for name, body in bodies.items():
        t = best[name]
        print(
            f"| {name} | {len(body)} | {t:.3f} | {len(body) / t / 1e6:.1f} | "
            f"{t / len(body) / base:.2f}x |"
        )


if __name__ == "__main__":
    main()
