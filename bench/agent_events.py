"""Assembly speed on Gemini Interactions and AG-UI streams against Anthropic streams of the
same size.

Run by hand (not part of the test suite)::

    python bench/agent_events.py [--events 20000] [--repeat 5]

Generated SSE bodies, each of about the same number of bytes, carry the same text in the
same number of deltas: an Anthropic Messages stream, a Gemini Interactions stream
(``event:`` named, step generation), an AG-UI run, and the AG-UI run with a shared state
(a snapshot of 2,000 items, then a JSON Patch after every fourth delta).
``ssescope.inspect`` assembles each, interleaved round after round (best round kept); the
script prints MB/s and each agent stream's time per byte over Anthropic's, and checks that
all of them assembled one text.

On a loaded machine wall-clock times swing by 2x or more from run to run. The CPU work
of one assembly can be counted instead, in instructions, which load does not change::

    valgrind --tool=callgrind --callgrind-out-file=/dev/null \
        python bench/agent_events.py --only ag-ui          # builds the body and assembles it
    valgrind ... python bench/agent_events.py --only ag-ui --build-only   # builds it only

The difference of the two totals is the assembly's; divided by the body's bytes (printed)
it compares with Anthropic's the way the table's time per byte does.
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


def ag_ui_state(words: list[str]) -> bytes:
    """The AG-UI run with a shared state: a snapshot of a 2,000-item list first, then a
    one-operation JSON Patch after every fourth delta (the state is rebuilt as it goes)."""
    items = [{"id": i, "done": False} for i in range(2000)]
    ev: list[tuple[str | None, dict[str, object]]] = [
        (None, {"type": "RUN_STARTED", "threadId": "thread_1", "runId": "run_1"}),
        (None, {"type": "STATE_SNAPSHOT", "snapshot": {"items": items}}),
        (None, {"type": "TEXT_MESSAGE_START", "messageId": "msg_1", "role": "assistant"}),
    ]
    for i, w in enumerate(words):
        ev.append((None, {"type": "TEXT_MESSAGE_CONTENT", "messageId": "msg_1", "delta": w}))
        if i % 4 == 3:
            path = f"/items/{i % 2000}/done"
            delta = [{"op": "replace", "path": path, "value": True}]
            ev.append((None, {"type": "STATE_DELTA", "delta": delta}))
    ev += [
        (None, {"type": "TEXT_MESSAGE_END", "messageId": "msg_1"}),
        (None, {"type": "RUN_FINISHED", "threadId": "thread_1", "runId": "run_1"}),
    ]
    return _sse(ev)


_BUILDERS = {
    "anthropic": anthropic,
    "gemini-interactions": interactions,
    "ag-ui": ag_ui,
    "ag-ui with state": ag_ui_state,
}


def main() -> None:
    """Time the bodies and print the table."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--events", type=int, default=20000)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument(
        "--cpu", action="store_true", help="time by the process's CPU time, not the wall clock"
    )
    parser.add_argument("--only", choices=sorted(_BUILDERS), help="assemble this body once")
    parser.add_argument("--build-only", action="store_true", help="with --only: no assembly")
    args = parser.parse_args()
    words = [f" word{i % 97}" for i in range(args.events)]
    if args.only:
        body = _BUILDERS[args.only](words)
        if not args.build_only:
            ssescope.inspect(body)
        print(f"{args.only}: {len(body)} bytes")
        return
    bodies = {name: build(words) for name, build in _BUILDERS.items()}
    clock = time.process_time if args.cpu else time.perf_counter
    best = dict.fromkeys(bodies, float("inf"))
    texts = set()
    for _ in range(args.repeat):
        for name, body in bodies.items():
            start = clock()
            report = ssescope.inspect(body)
            best[name] = min(best[name], clock() - start)
            assert report.status == "completed", (name, report.status)
            texts.add(report.outputs[0].text)
    assert len(texts) == 1, "the bodies assembled different texts"
    base = best["anthropic"] / len(bodies["anthropic"])
    what = "CPU time" if args.cpu else "wall clock"
    print(f"core {ssescope.CORE}, {args.events} deltas, best of {args.repeat} ({what})")
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
