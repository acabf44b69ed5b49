"""What checking tool calls against the request's schema costs.

Run by hand (not part of the test suite)::

    PYTHONPATH=src python bench/tool_schema.py [--calls 2000] [--repeat 5]

1. One generated OpenAI Chat stream holding ``--calls`` tool calls (one a choice's turn,
   arguments in three deltas each), assembled by ``ssescope.inspect`` without a request,
   with the request (its tool's schema checked, every call matching), with the request in
   strict mode, and with a request the calls break (two mismatches each). Interleaved
   round after round, the best round kept; prints the time per call and the overhead over
   the run without a request.
2. ``validate_tool_call`` on one openai-SDK-shaped dict call: microseconds per call (what
   an agent pays before it runs a call).
3. Reading the tools of a 1 MB request body (a long chat history): ``request_tools``
   against ``json.loads`` and ``orjson.loads`` of the same bytes.
"""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Callable
from typing import Any

import orjson

import ssescope
from ssescope.toolschema.request import request_tools

SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "city": {"type": "string"},
        "unit": {"type": "string", "enum": ["celsius", "fahrenheit"]},
        "days": {"type": "integer", "minimum": 1},
    },
    "required": ["city", "unit", "days"],
    "additionalProperties": False,
}


def request(strict: bool = False, schema: dict[str, Any] = SCHEMA) -> dict[str, Any]:
    """A Chat request declaring get_weather."""
    function = {"name": "get_weather", "parameters": schema, "strict": strict}
    return {"model": "m", "stream": True, "tools": [{"type": "function", "function": function}]}


def stream(calls: int) -> bytes:
    """An OpenAI Chat stream with ``calls`` parallel tool calls, then [DONE]."""
    out = []
    for i in range(calls):
        pieces = ['{"city": "Paris', '", "unit": "celsius", ', f'"days": {i % 7 + 1}}}']
        for j, piece in enumerate(pieces):
            call: dict[str, Any] = {"index": i, "function": {"arguments": piece}}
            if j == 0:
                call.update(id=f"call_{i}", type="function")
                call["function"]["name"] = "get_weather"
            delta = {"tool_calls": [call]}
            chunk = {"id": "c", "choices": [{"index": 0, "delta": delta, "finish_reason": None}]}
            out.append(f"data: {json.dumps(chunk)}\n\n")
    end = {"id": "c", "choices": [{"index": 0, "delta": {}, "finish_reason": "tool_calls"}]}
    out += [f"data: {json.dumps(end)}\n\n", "data: [DONE]\n\n"]
    return "".join(out).encode()


def best(fn: Callable[[], object], repeat: int) -> float:
    """The best of ``repeat`` CPU times of ``fn``."""
    times = []
    for _ in range(repeat):
        start = time.process_time()
        fn()
        times.append(time.process_time() - start)
    return min(times)


def _times(fn: Callable[[], object], n: int) -> None:
    """Call ``fn`` ``n`` times, keeping no result alive (a kept 1 MB parse costs its memory)."""
    for _ in range(n):
        fn()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=2000)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    body = stream(args.calls)
    # the calls send days as an integer and a known unit; this schema wants neither
    broken = {**SCHEMA, "properties": {**SCHEMA["properties"], "days": {"type": "string"}}}
    broken["properties"]["unit"] = {"enum": ["kelvin"]}
    cases: dict[str, dict[str, Any] | None] = {
        "no request": None,
        "request, calls match": request(),
        "request, strict": request(strict=True),
        "request, 2 mismatches a call": request(schema=broken),
    }
    ssescope.inspect(body, request=request())  # (jsonschema imported before timing)
    found: dict[str, list[float]] = {name: [] for name in cases}
    for _ in range(args.repeat):  # interleaved: shared-machine noise hits every case alike
        for name, req in cases.items():
            found[name].append(best(lambda r=req: ssescope.inspect(body, request=r), 1))
    base = min(found["no request"])
    print(f"### inspect, {args.calls} tool calls, {len(body) / 1e6:.2f} MB\n")
    print("| case | ms | µs per call | over no request |")
    print("|---|---:|---:|---:|")
    for name, times in found.items():
        t = min(times)
        per = t / args.calls * 1e6
        print(f"| {name} | {t * 1000:.1f} | {per:.1f} | {t / base:.2f}x |")
    report = ssescope.inspect(body, request=broken and request(schema=broken))
    mismatches = sum(1 for d in report.diagnostics if d.code == "tool.schema-mismatch")
    print(f"\n(the broken request gave {mismatches} tool.schema-mismatch diagnostics)\n")

    call = {
        "id": "call_1",
        "function": {
            "name": "get_weather",
            "arguments": '{"city": "Paris", "unit": "celsius", "days": 3}',
        },
    }
    req = request()
    n = 2000
    ssescope.validate_tool_call(call, req)
    t = best(lambda: [ssescope.validate_tool_call(call, req) for _ in range(n)], args.repeat)
    print(f"validate_tool_call: {t / n * 1e6:.1f} µs per call (request read each time)\n")

    history = {
        **request(),
        "messages": [{"role": "user", "content": "x" * 1000}] * 1000,
    }
    raw = json.dumps(history).encode()
    reps = 20
    rows = {
        "request_tools(bytes)": lambda: request_tools(raw),
        "json.loads": lambda: json.loads(raw),
        "orjson.loads": lambda: orjson.loads(raw),
    }
    print(f"### reading the tools of a {len(raw) / 1e6:.2f} MB request body\n")
    print("| reader | ms |")
    print("|---|---:|")
    for name, fn in rows.items():
        t = best(lambda f=fn: _times(f, reps), args.repeat) / reps
        print(f"| {name} | {t * 1000:.2f} |")


if __name__ == "__main__":
    main()
