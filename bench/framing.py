"""Framing benchmark: ssescope's SSEParser against the SSE parsers people use.

Run by hand (it is not part of the test suite)::

    pip install httpx-sse sseclient-py openai
    PYTHONPATH=src python bench/framing.py            # full run, pure core
    PYTHONPATH=src python bench/framing.py --quick    # smaller workloads, fewer repeats
    pip install . && python bench/framing.py   # both cores, one run

Workloads are generated (seeded), never recorded:

* ``openai``: chat-completion chunks, ``data: {json}\\n\\n`` and a final ``[DONE]``;
* ``anthropic``: ``event: <type>\\ndata: {json}\\n\\n`` blocks with pings;
* ``stress``: CRLF line ends, multi-line data, comments, ids and one 1 MiB line.

Each is fed at 64 B, 1 KiB and 64 KiB chunks to:

* ``ssescope``: ``SSEParser`` (byte offsets, spans and diagnostics on, as always);
* ``httpx-sse``: its ``SSELineDecoder`` + ``SSEDecoder`` behind an incremental UTF-8
  decoder, which is what ``httpx_sse.EventSource.iter_sse`` does over ``iter_text()``;
* ``openai``: ``openai._streaming.SSEDecoder.iter_bytes``;
* ``sseclient-py``: ``sseclient.SSEClient(chunks).events()``;
* ``naive``: ``buffer.split(b"\\n\\n")`` then ``data:``/``event:`` prefixes: no CR, no
  comments, no offsets, nothing else (the floor).

* ``httpx-sse EventSource``: the same decoders as applications reach them, through
  ``EventSource(httpx.Response(...)).iter_sse()`` (adds httpx's own text decoding).

Every parser's (event, data) sequence is compared with ssescope's; a peer that differs
is reported (the stress workload shows where peers are not spec-exact). Times are CPU
times of this process, the best of several rounds that alternate between the parsers, so
that other load on the machine disturbs them as little as possible.

Two linearity checks follow: one 8 MiB ``data:`` line in 512 B chunks against merely
iterating over the chunks and joining them, and small events in 64 B chunks at 50k and
200k events (the time per event must not grow).
"""

from __future__ import annotations

import argparse
import codecs
import gc
import json
import platform
import random
import sys
import time
from collections.abc import Callable, Iterable

from cores import pure_core

import ssescope
from ssescope.framing import SSEParser

# With the compiled core installed, the pure one runs beside it (bench/cores.py).
PURE = pure_core()

Pairs = list[tuple[str, str]]
Runner = Callable[[list[bytes]], list[object]]

# -- workloads ---------------------------------------------------------------------------

WORDS = (
    "the",
    "quick",
    "brown",
    "fox",
    "jumps",
    "over",
    "a",
    "lazy",
    "dog",
    "while",
    "streaming",
    "tokens",
    "arrive",
    "one",
    "by",
    "one",
    ",",
    "café",
    "naïve",
    "日本語",
    "テキスト",
    "😀",
    '"',
    "quoted",
    "\\",
    "back",
)


def openai_like(n: int, seed: int = 1) -> bytes:
    """Chat-completion chunks as OpenAI sends them."""
    rnd = random.Random(seed)
    out = []
    for k in range(n):
        chunk = {
            "id": "chatcmpl-9x8y7z6w5v4u3t2s1r0q",
            "object": "chat.completion.chunk",
            "created": 1718000000 + k // 50,
            "model": "gpt-4o-2024-08-06",
            "system_fingerprint": "fp_abc123",
            "choices": [
                {
                    "index": 0,
                    "delta": {"content": rnd.choice(WORDS) + " "},
                    "logprobs": None,
                    "finish_reason": None,
                }
            ],
            "usage": None,  # as real chunks carry it (stream_options or not)
        }
        out.append(b"data: " + json.dumps(chunk, separators=(",", ":")).encode() + b"\n\n")
    out.append(b"data: [DONE]\n\n")
    return b"".join(out)


def anthropic_like(n: int, seed: int = 2) -> bytes:
    """Messages-API events: a named event line before each data line, pings between."""
    rnd = random.Random(seed)
    out = [
        b'event: message_start\ndata: {"type":"message_start","message":{"id":"msg_01","role":"assistant"}}\n\n',
        b'event: content_block_start\ndata: {"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}\n\n',
    ]
    for k in range(n):
        if k % 100 == 50:
            out.append(b'event: ping\ndata: {"type": "ping"}\n\n')
        delta = {
            "type": "content_block_delta",
            "index": 0,
            "delta": {"type": "text_delta", "text": rnd.choice(WORDS) + " "},
        }
        out.append(
            b"event: content_block_delta\ndata: "
            + json.dumps(delta, separators=(",", ":"), ensure_ascii=False).encode()
            + b"\n\n"
        )
    out.append(b'event: content_block_stop\ndata: {"type":"content_block_stop","index":0}\n\n')
    out.append(b'event: message_stop\ndata: {"type":"message_stop"}\n\n')
    return b"".join(out)


def stress_mix(n: int, seed: int = 3) -> bytes:
    """CRLF line ends, multi-line data, comments, ids, and one 1 MiB line in the middle."""
    rnd = random.Random(seed)
    out = []
    for k in range(n):
        r = rnd.random()
        word = rnd.choice(WORDS)
        if r < 0.3:
            out.append(f"data: {word}\r\n\r\n".encode())
        elif r < 0.5:
            out.append(f"event: delta\r\ndata: line one {word}\r\ndata: line two\r\n\r\n".encode())
        elif r < 0.6:
            out.append(b": keep-alive\r\n\r\n")
        elif r < 0.8:
            out.append(f"id: {k}\ndata: {word}\n\n".encode())
        else:
            out.append(f"data:{word}\ndata:\ndata: end\n\n".encode())
        if k == n // 2:
            out.append(b"data: " + b"A" * (1 << 20) + b"\r\n\r\n")
    return b"".join(out)


def chunked(body: bytes, size: int) -> list[bytes]:
    """``body`` cut into ``size``-byte chunks."""
    return [body[i : i + size] for i in range(0, len(body), size)]


# -- the parsers -------------------------------------------------------------------------


def run_ssescope(chunks: list[bytes]) -> list[object]:
    """ssescope's SSEParser: every record and diagnostic it produces."""
    parser = SSEParser()
    records: list[object] = []
    for chunk in chunks:
        records += parser.feed(chunk)
    records += parser.close()
    return records


def run_ssescope_pure(chunks: list[bytes]) -> list[object]:
    """The same SSEParser from the pure-Python core, when ``ssescope`` is the compiled one."""
    assert PURE is not None
    parser = PURE.framing.SSEParser()
    records: list[object] = []
    for chunk in chunks:
        records += parser.feed(chunk)
    records += parser.close()
    return records


def run_httpx_sse(chunks: list[bytes]) -> list[object]:
    """httpx-sse's decoders behind an incremental UTF-8 decoder (as over iter_text())."""
    from httpx_sse._decoders import SSEDecoder, SSELineDecoder

    text = codecs.getincrementaldecoder("utf-8")("replace")
    lines = SSELineDecoder()
    sse = SSEDecoder()
    out: list[object] = []
    for chunk in chunks:
        for line in lines.decode(text.decode(chunk)):
            event = sse.decode(line)
            if event is not None:
                out.append(event)
    for line in lines.flush():
        event = sse.decode(line)
        if event is not None:
            out.append(event)
    return out


def run_httpx_sse_eventsource(chunks: list[bytes]) -> list[object]:
    """httpx-sse as applications use it: EventSource.iter_sse over an httpx.Response."""
    import httpx
    from httpx_sse import EventSource

    response = httpx.Response(
        200, headers={"content-type": "text/event-stream"}, content=iter(chunks)
    )
    return list(EventSource(response).iter_sse())


def run_openai(chunks: list[bytes]) -> list[object]:
    """openai._streaming.SSEDecoder.iter_bytes."""
    from openai._streaming import SSEDecoder

    return list(SSEDecoder().iter_bytes(iter(chunks)))


def run_sseclient(chunks: list[bytes]) -> list[object]:
    """sseclient-py's SSEClient over the chunk iterator."""
    import sseclient

    return list(sseclient.SSEClient(iter(chunks)).events())


def run_naive(chunks: list[bytes]) -> list[object]:
    """The floor: split on blank LF lines, read data/event prefixes, nothing else."""
    buf = b""
    out: list[object] = []
    for chunk in chunks:
        buf += chunk
        *blocks, buf = buf.split(b"\n\n")
        for block in blocks:
            event = "message"
            data = []
            for line in block.split(b"\n"):
                if line.startswith(b"data:"):
                    data.append(line[6:] if line[5:6] == b" " else line[5:])
                elif line.startswith(b"event:"):
                    event = line[6:].strip().decode()
            if data:
                out.append((event, b"\n".join(data).decode()))
    return out


def pairs(name: str, events: list[object]) -> Pairs:
    """A parser's output reduced to its (event type, data) sequence."""
    if name == "naive":
        return events  # type: ignore[return-value]
    if name.startswith("ssescope"):
        return [(e.event, e.data) for e in events if getattr(e, "kind", None) == "event"]  # type: ignore[attr-defined]
    return [(e.event or "message", e.data) for e in events]  # type: ignore[attr-defined]


PARSERS: dict[str, Runner] = {
    "ssescope": run_ssescope,
    **({"ssescope pure": run_ssescope_pure} if PURE is not None else {}),
    "httpx-sse": run_httpx_sse,
    "httpx-sse EventSource": run_httpx_sse_eventsource,
    "openai": run_openai,
    "sseclient-py": run_sseclient,
    "naive": run_naive,
}


# What each peer imports, and the package that provides it.
REQUIRES: dict[str, tuple[tuple[str, str | None, str], ...]] = {
    "httpx-sse": (("httpx_sse._decoders", "SSEDecoder", "httpx-sse"),),
    "httpx-sse EventSource": (
        ("httpx", "Response", "httpx"),
        ("httpx_sse", "EventSource", "httpx-sse"),
    ),
    "openai": (("openai._streaming", "SSEDecoder", "openai"),),
    "sseclient-py": (("sseclient", "SSEClient", "sseclient-py"),),
}


def missing_reason(name: str) -> str | None:
    """Why a peer cannot run here (``None`` if it can): the import that fails and its fix."""
    import importlib

    for module, attribute, package in REQUIRES.get(name, ()):
        try:
            loaded = importlib.import_module(module)
        except ImportError:
            return f"{module} is not importable (pip install {package})"
        if attribute is not None and not hasattr(loaded, attribute):
            return f"{module} has no {attribute} (this {package} version is not supported)"
    return None


def available(name: str) -> bool:
    """Whether a peer is installed (in a version this benchmark knows)."""
    return missing_reason(name) is None


# -- measuring ---------------------------------------------------------------------------


def clock() -> float:
    """CPU time of this process: less disturbed than wall time by other load on the machine."""
    return time.process_time()


def best_times(
    fns: dict[str, Callable[[], object]], repeat: int, budget: float = 3.0
) -> dict[str, float]:
    """Best CPU time of each function over ``repeat`` interleaved rounds.

    Rounds alternate between the functions so that a burst of load on the machine hits
    all of them alike; a function whose run exceeds ``budget`` seconds is not rerun.
    """
    best = dict.fromkeys(fns, float("inf"))
    for _ in range(repeat):
        for name, fn in fns.items():
            if best[name] > budget and best[name] != float("inf"):
                continue
            gc.collect()
            t0 = clock()
            fn()
            best[name] = min(best[name], clock() - t0)
    return best


def describe_mismatch(ours: Pairs, theirs: Pairs) -> str:
    """Where two event sequences first differ, and their lengths."""
    for k, (a, b) in enumerate(zip(ours, theirs, strict=False)):
        if a != b:
            return f"no: {len(theirs)} events vs {len(ours)}; first difference at event {k}: {short(b)} instead of {short(a)}"
    return f"no: {len(theirs)} events vs {len(ours)}"


def short(pair: tuple[str, str]) -> str:
    """A pair, shortened for a table."""
    text = repr(pair)
    return text if len(text) < 70 else text[:67] + "..."


def bench_workloads(sizes: Iterable[int], scale: int, repeat: int) -> None:
    """The main table: every parser on every workload and chunk size."""
    workloads = {
        "openai": openai_like(20 * scale),
        "anthropic": anthropic_like(20 * scale),
        "stress": stress_mix(5 * scale),
    }
    names = [name for name in PARSERS if available(name)]
    for name in PARSERS:
        reason = missing_reason(name)
        if reason is not None:
            print(f"(peer {name} skipped: {reason})")
    for wname, body in workloads.items():
        print(f"\n## {wname}: {len(body) / 1e6:.2f} MB")
        for size in sizes:
            chunks = chunked(body, size)
            reference = pairs("ssescope", run_ssescope(chunks))
            print(f"\n### chunks of {size} B ({len(chunks)} chunks, {len(reference)} events)\n")
            print("| parser | time ms | MB/s | events/s | ssescope speed-up | same events |")
            print("|---|---:|---:|---:|---:|---|")
            runners = {
                name: PARSERS[name]
                for name in names
                if not (name == "naive" and wname == "stress")  # it knows no CR
            }
            same = {}
            for name, runner in runners.items():
                result = pairs(name, runner(chunks))
                same[name] = "yes" if result == reference else describe_mismatch(reference, result)
            times = best_times(
                {name: (lambda r=runner, c=chunks: r(c)) for name, runner in runners.items()},
                repeat,
            )
            for name, t in times.items():
                print(
                    f"| {name} | {t * 1e3:.1f} | {len(body) / t / 1e6:.1f} | "
                    f"{len(reference) / t / 1e3:.0f}k | {t / times['ssescope']:.2f}x | {same[name]} |"
                )


def bench_long_line(repeat: int) -> None:
    """One 8 MiB data line in 512 B chunks against iterating and joining the chunks."""
    body = b"data: " + b"x" * (8 << 20) + b"\n\n"
    chunks = chunked(body, 512)

    def iterate_and_join() -> bytes:
        parts = []
        for chunk in chunks:
            parts.append(chunk)  # noqa: PERF402 (the loop is what is measured)
        return b"".join(parts)

    fns: dict[str, Callable[[], object]] = {"iterate + join": iterate_and_join}
    for name in ("ssescope", "httpx-sse", "openai", "sseclient-py"):
        if available(name):
            fns[name] = lambda runner=PARSERS[name]: runner(chunks)
    times = best_times(fns, repeat, budget=1.0)
    print(f"\n## one 8 MiB line in 512 B chunks ({len(chunks)} chunks)\n")
    print("| parser | time ms | x iterate+join |")
    print("|---|---:|---:|")
    for name, t in times.items():
        print(f"| {name} | {t * 1e3:.1f} | {t / times['iterate + join']:.2f} |")


def bench_small_events(repeat: int) -> None:
    """Small events in 64 B chunks at two sizes: linear means equal time per event."""
    print("\n## small events in 64 B chunks (linearity)\n")
    print("| events | time ms | ns per event | ns per event, gc off |")
    print("|---:|---:|---:|---:|")
    for n in (50_000, 200_000):
        body = b"".join(b"data: %d\n\n" % k for k in range(n))
        chunks = chunked(body, 64)
        run = {"ssescope": lambda chunks=chunks: run_ssescope(chunks)}
        t = best_times(run, repeat)["ssescope"]
        gc.disable()
        try:
            t_off = best_times(run, repeat)["ssescope"]
        finally:
            gc.enable()
        print(f"| {n} | {t * 1e3:.1f} | {t / n * 1e9:.0f} | {t_off / n * 1e9:.0f} |")


def main(argv: list[str] | None = None) -> None:
    """Run every benchmark and print Markdown tables."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="smaller workloads, 3 repeats")
    parser.add_argument("--repeat", type=int, default=7, help="runs per measurement (best kept)")
    args = parser.parse_args(argv)
    scale = 250 if args.quick else 1000
    repeat = 3 if args.quick else args.repeat
    print(
        f"# ssescope framing benchmark\n\nPython {sys.version.split()[0]} on {platform.platform()}"
    )
    print(f"processor: {platform.processor() or platform.machine()}; best of {repeat} runs")
    print(f"`ssescope` is the {ssescope.core_label()}", end="")
    print("; `ssescope pure` is the pure-Python core beside it" if PURE is not None else "")
    bench_workloads((64, 1024, 65536), scale, repeat)
    bench_long_line(repeat)
    bench_small_events(repeat)


if __name__ == "__main__":
    main()
