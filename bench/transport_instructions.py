"""The CPU instructions the openai SDK's process executes per stream read from
``ssescope serve``: bare, through ``ssescope.http_client()``, and under OpenInference's
instrumentation, counted by Valgrind's callgrind (Debian's ``valgrind``), side by side in
one run.

    PYTHONPATH=src python bench/transport_instructions.py               # the pure core
    PYTHONPATH=SITE python bench/transport_instructions.py --shape real # the compiled core
    ... --openinference /tmp/oi/bin/python    # the peer, from bench/openinference-requirements.txt
    ... --seeds 1,2,3                         # each mode under three PYTHONHASHSEED values

A count of instructions does not depend on the machine's other load, which makes the
timings of ``transport.py`` swing by more than the transport costs on a shared machine.
Each mode's client runs under callgrind twice, reading the stream once and three times
after a warm-up read; half the difference of the two counts is one stream's cost, with the
start-up, the imports and the warm-up taken out. The server runs in a process of its own,
not under callgrind. Only the client is counted: the SDK's parsing and object building,
httpx's reading of the socket, and whatever is added.

``--shape minimal`` (the default) is ``transport.py``'s stream: chunks with only the
members the SDK needs, the worst case for the transport's share. ``--shape real`` gives
each chunk the members gpt-4o sends (``system_fingerprint``, ``logprobs``,
``service_tier``), as in ``real_streams/openai-chat``.
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from transport import MESSAGES, start_server, write_stream

MODES = ("bare", "transport", "openinference")
_REFS = re.compile(r"I\s+refs:\s+([\d,]+)")


def client(mode: str, reads: int, url: str, peer_site: str | None) -> None:
    """The counted process: one warm-up read, then ``reads`` reads of the stream."""
    import httpx2
    import openai

    import ssescope

    reports: list[ssescope.Report] = []
    http = ssescope.http_client(on_report=reports.append) if mode == "transport" else None
    if mode == "openinference":
        assert peer_site is not None
        sys.path.append(peer_site)  # (after this interpreter's own packages)
        from openinference.instrumentation.openai import OpenAIInstrumentor
        from opentelemetry.sdk.trace import TracerProvider
        from opentelemetry.sdk.trace.export import SimpleSpanProcessor
        from opentelemetry.sdk.trace.export.in_memory_span_exporter import (
            InMemorySpanExporter,
        )

        exporter = InMemorySpanExporter()
        provider = TracerProvider()
        provider.add_span_processor(SimpleSpanProcessor(exporter))
        OpenAIInstrumentor().instrument(tracer_provider=provider)
    sdk = openai.OpenAI(
        base_url=url + "/v1",
        api_key="sk-bench",
        http_client=http or httpx2.Client(),
        max_retries=0,
    )
    for _ in range(reads + 1):
        stream = sdk.chat.completions.create(model="m", messages=MESSAGES, stream=True)  # type: ignore[call-overload]
        for _chunk in stream:
            pass
    if mode == "transport":
        assert [r.status for r in reports] == ["completed"] * (reads + 1), reports
    if mode == "openinference":
        assert len(exporter.get_finished_spans()) == reads + 1


def count(
    mode: str, reads: int, url: str, python: str, peer_site: str | None, seed: str | None = None
) -> int:
    """The instructions of one client process under callgrind (``PYTHONHASHSEED=seed``)."""
    with tempfile.TemporaryDirectory() as tmp:
        cmd = [
            "valgrind",
            "--tool=callgrind",
            f"--callgrind-out-file={tmp}/out",
            python,
            __file__,
            "--client",
            mode,
            str(reads),
            url,
            *([peer_site] if peer_site else []),
        ]
        env = dict(os.environ) if seed is None else {**os.environ, "PYTHONHASHSEED": seed}
        done = subprocess.run(cmd, capture_output=True, text=True, env=env, check=False)
    found = _REFS.search(done.stderr)
    if done.returncode or found is None:
        raise SystemExit(f"{mode}: the client failed:\n{done.stderr[-3000:]}")
    return int(found.group(1).replace(",", ""))


def peer_site_of(python: str) -> str:
    """The site-packages directory of the peer's interpreter."""
    out = subprocess.run(
        [python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        capture_output=True,
        text=True,
        check=True,
    )
    return out.stdout.strip()


def main() -> None:
    if len(sys.argv) > 1 and sys.argv[1] == "--client":
        mode, reads, url = sys.argv[2], int(sys.argv[3]), sys.argv[4]
        client(mode, reads, url, sys.argv[5] if len(sys.argv) > 5 else None)
        return
    parser = argparse.ArgumentParser()
    parser.add_argument("--chunks", type=int, default=4000)
    parser.add_argument("--shape", choices=("minimal", "real"), default="minimal")
    parser.add_argument(
        "--openinference",
        metavar="PYTHON",
        help="an interpreter with openinference-instrumentation-openai and opentelemetry-sdk",
    )
    parser.add_argument(
        "--seeds",
        default="",
        metavar="N,N,...",
        help="count each mode once per PYTHONHASHSEED value (where a process's objects land "
        "moves the count of the same work by 1-1.5 %%) and give the median share too",
    )
    args = parser.parse_args()
    seeds: list[str | None] = [s.strip() for s in args.seeds.split(",") if s.strip()] or [None]
    import ssescope

    peer_site = peer_site_of(args.openinference) if args.openinference else None
    modes = [m for m in MODES if m != "openinference" or peer_site]
    tmp = Path(tempfile.mkdtemp(prefix="ssescope-bench-"))
    path = tmp / "long.sse"
    write_stream(path, args.chunks, args.shape)
    proc, url = start_server(path)
    per_stream: dict[tuple[str, str | None], float] = {}
    try:
        for seed in seeds:
            for mode in modes:
                one = count(mode, 1, url, sys.executable, peer_site, seed)
                three = count(mode, 3, url, sys.executable, peer_site, seed)
                per_stream[mode, seed] = (three - one) / 2
    finally:
        proc.terminate()
        proc.wait()
    print(
        f"\nssescope core: {ssescope.CORE}; {args.chunks} content chunks a stream, "
        f"{args.shape} shape; instructions of the client process per stream (callgrind)\n"
    )
    print("| PYTHONHASHSEED | mode | instructions per stream | per chunk | added |")
    print("|---|---|---:|---:|---:|")
    shares: dict[str, list[float]] = {mode: [] for mode in modes if mode != "bare"}
    for seed in seeds:
        bare = per_stream["bare", seed]
        for mode in modes:
            n = per_stream[mode, seed]
            added = ""
            if mode != "bare":
                shares[mode].append((n / bare - 1) * 100)
                added = f"{shares[mode][-1]:+.2f} %"
            print(
                f"| {seed or 'random'} | {mode} | {n / 1e6:,.1f} M "
                f"| {n / args.chunks / 1e3:,.1f} k | {added} |"
            )
    if len(seeds) > 1:
        for mode, values in shares.items():
            print(
                f"\n{mode}: median {statistics.median(values):+.2f} %, "
                f"from {min(values):+.2f} to {max(values):+.2f} % over {len(values)} seeds"
            )


if __name__ == "__main__":
    main()
