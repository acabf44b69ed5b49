"""The proxy's pure parts: header rules, content decoding, content redaction, names."""

from __future__ import annotations

import gzip
import zlib
from datetime import datetime, timezone
from pathlib import Path

import pytest

import ssescope
from ssescope.containers.redact import redact_headers
from ssescope.proxy import Exchange, Recorder, Registry, capture_name
from ssescope.proxy.headers import (
    forward_headers,
    is_stream,
    redact_pairs,
    request_ids,
    secret_marker,
)
from ssescope.proxy.redact import LineRedactor, redact_value
from ssescope.sources.decode import ContentDecoder

from .upstream import OPENAI


def test_forward_headers_drop_hop_by_hop_and_what_connection_names() -> None:
    pairs = [
        ("Content-Type", "text/event-stream; charset=utf-8"),
        ("Connection", "close, X-Private"),
        ("X-Private", "1"),
        ("Transfer-Encoding", "chunked"),
        ("Keep-Alive", "timeout=5"),
        ("Proxy-Authenticate", "Basic"),
        ("Upgrade", "h2c"),
        ("Trailer", "x"),
        ("TE", "trailers"),
        ("Set-Thing", "a"),
        ("Set-Thing", "b"),
    ]
    assert forward_headers(pairs) == [
        ("Content-Type", "text/event-stream; charset=utf-8"),
        ("Set-Thing", "a"),
        ("Set-Thing", "b"),
    ]
    assert forward_headers([("Host", "x"), ("A", "1")], drop=["host"]) == [("A", "1")]


def test_a_stream_is_decided_from_the_headers_only() -> None:
    assert is_stream([("content-type", "text/event-stream")])
    assert is_stream([("Content-Type", "application/x-ndjson; charset=utf-8")])
    assert is_stream([("content-type", "application/vnd.amazon.eventstream")])
    assert is_stream([("content-type", "application/json"), ("transfer-encoding", "chunked")])
    assert not is_stream([("content-type", "application/json"), ("content-length", "12")])
    assert not is_stream(
        [
            ("content-type", "application/json"),
            ("transfer-encoding", "chunked"),
            ("content-length", "3"),
        ]
    )


def test_secrets_keep_their_presence_and_a_short_hash() -> None:
    pairs = redact_pairs(
        [
            ("Authorization", "Bearer sk-1"),
            ("x-api-key", "sk-1"),
            ("api-key", "k"),
            ("x-goog-api-key", "g"),
            ("OpenAI-Organization", "org-1"),
            ("anthropic-version", "2023-06-01"),
        ]
    )
    assert pairs[0] == ("Authorization", secret_marker("Bearer sk-1"))
    assert pairs[0][1].startswith("[redacted sha256:") and len(pairs[0][1]) == len(
        "[redacted sha256:12345678]"
    )
    assert pairs[1][1] != pairs[0][1]  # two different values tell apart
    assert all("sk-1" not in v for _, v in pairs)
    assert pairs[4][1].startswith("[redacted sha256:")
    assert pairs[5] == ("anthropic-version", "2023-06-01")
    # the capture writer's and reader's own redaction keeps the marker
    assert redact_headers(pairs)[:4] == pairs[:4]
    assert redact_headers([("authorization", "[redacted sha256:zz]")]) == [
        ("authorization", "[redacted]")
    ]


def test_request_ids_are_kept() -> None:
    assert request_ids([("X-Request-Id", "a"), ("request-id", "b"), ("other", "c")]) == {
        "x-request-id": "a",
        "request-id": "b",
    }


def test_every_encoding_decodes_in_any_chunking() -> None:
    import brotli
    import zstandard

    body = b"".join(OPENAI) * 50
    for packed, enc in (
        (gzip.compress(body), "gzip"),
        (zlib.compress(body), "deflate"),
        (zlib.compress(body)[2:-4], "deflate"),  # raw deflate, as some servers send it
        (brotli.compress(body), "br"),
        (zstandard.ZstdCompressor().compress(body), "zstd"),
    ):
        d = ContentDecoder(enc)
        out = b"".join(d.feed(packed[i : i + 7]) for i in range(0, len(packed), 7)) + d.close()
        assert out == body and d.problem is None


def test_a_decompression_bomb_stops_the_recording_at_the_cap() -> None:
    bomb = gzip.compress(b"0" * 10_000_000)  # about 10 KB inflating to 10 MB
    for enc in ("gzip", "deflate"):
        data = bomb if enc == "gzip" else zlib.compress(b"0" * 10_000_000)
        d = ContentDecoder(enc, limit=100_000)
        out = b"".join(d.feed(data[i : i + 1000]) for i in range(0, len(data), 1000))
        out += d.close()
        assert out == b"0" * 100_000  # exactly the cap, never the whole bomb
        assert d.problem is not None and "100,000 bytes" in d.problem
        assert d.feed(b"more") == b""  # the recording stopped; the client got every byte


def test_an_unknown_or_broken_encoding_is_kept_with_a_reason() -> None:
    d = ContentDecoder("compress")
    assert d.feed(b"abc") == b"abc" and "not one ssescope decodes" in (d.problem or "")
    broken = ContentDecoder("gzip")
    assert broken.feed(b"not gzip at all") == b"not gzip at all"
    assert "failed" in (broken.problem or "")
    assert ContentDecoder("identity").feed(b"x") == b"x"


def test_redaction_hashes_content_and_keeps_the_structure() -> None:
    value = {
        "type": "content_block_delta",
        "delta": {"type": "text_delta", "text": "secret"},
        "messages": [{"role": "user", "content": "hello"}],
        "input": {"city": "Lyon", "days": 3},
    }
    out = redact_value(value)
    assert out["type"] == "content_block_delta"
    assert out["delta"]["type"] == "text_delta"
    assert out["delta"]["text"].startswith("sha256:") and out["delta"]["text"].endswith("(6 chars)")
    assert out["messages"][0]["role"] == "user"
    assert out["messages"][0]["content"].startswith("sha256:")
    assert out["input"]["city"].startswith("sha256:") and out["input"]["days"] == 3


def test_the_line_redactor_works_across_chunk_boundaries() -> None:
    body = b"".join(OPENAI)
    r = LineRedactor()
    out = b"".join(r.feed(body[i : i + 5]) for i in range(0, len(body), 5)) + r.close()
    assert b"Bonjour" not in out and b"le monde" not in out
    report = ssescope.inspect(out)
    assert report.status == "completed"
    assert report.records.total == ssescope.inspect(body).records.total


def test_capture_names_sort_by_time() -> None:
    a = Exchange(
        2, "POST", "/v1/chat/completions?x=1", "u", datetime(2026, 1, 2, 3, 4, 5, 6, timezone.utc)
    )
    b = Exchange(10, "GET", "/", "u", datetime(2026, 1, 2, 3, 4, 6, 0, timezone.utc))
    assert capture_name(a) == "20260102T030405.000006Z-0002-post-v1-chat-completions"
    assert capture_name(b) == "20260102T030406.000000Z-0010-get-root"
    assert sorted([capture_name(b), capture_name(a)]) == [capture_name(a), capture_name(b)]


def test_the_live_display_lists_the_streams_in_flight() -> None:
    from rich.console import Console

    from ssescope.proxy import Registry
    from ssescope.proxy.display import LiveDisplay, exchange_line

    registry = Registry()
    console = Console(record=True, width=120, force_terminal=False)
    display = LiveDisplay(registry, console, header="http://127.0.0.1:1")
    console.print(display.render())
    assert "waiting for requests" in console.export_text()
    ex = registry.new("POST", "/v1/chat/completions", "http://u/v1/chat/completions")
    ex.status, ex.provider, ex.wire_bytes, ex.records = 200, "openai-chat", 2048, 7
    console.print(display.render())
    text = console.export_text()
    assert "1 in flight" in text and "POST /v1/chat/completions" in text
    assert "openai-chat" in text and "2.0 KiB" in text
    ex.verdict, ex.first_content_s, ex.capture = "completed", 0.25, "/tmp/x.ssecap"
    registry.finish(ex)
    assert registry.active() == [] and registry.finished() == [ex]
    line = exchange_line(ex).plain
    assert line.endswith(
        "POST /v1/chat/completions 200 openai-chat completed first-content 0.250s · 7 records "
        "· 2.0 KiB /tmp/x.ssecap"
    )


def test_the_exchange_line_fits_the_terminal_and_names_the_capture_in_its_folder() -> None:
    from ssescope.proxy import Registry
    from ssescope.proxy.display import exchange_line, exchange_summary

    folder = "/home/someone/work/project/captures"
    name = "20261201T140210.884113Z-0003-post-v1-chat-completions.ssecap"
    ex = Registry().new("POST", "/v1/chat/completions", "http://u/v1/chat/completions")
    ex.status, ex.provider, ex.wire_bytes, ex.records = 200, "openai-chat", 9310, 57
    ex.verdict, ex.first_content_s, ex.capture = "completed", 0.412, f"{folder}/{name}"
    wide = exchange_line(ex, 200, folder).plain
    assert wide.endswith(f"· 57 records · 9.1 KiB {name}")  # relative to the record folder
    first, second = exchange_line(ex, 120, folder).plain.split("\n")  # the name goes below
    assert first.endswith("· 57 records · 9.1 KiB") and len(first) <= 120
    assert second == f"  ↳ {name}"
    ex.path = "/v1/chat/completions?" + "x=" * 200  # a long path is cut in its middle
    first, second = exchange_line(ex, 120, folder).plain.split("\n")
    assert len(first) <= 120 and "POST /v1/chat/completi…x=x=" in first
    assert "x=x= 200 openai-chat completed" in first
    assert second == f"  ↳ {name}"
    assert exchange_line(ex, None, folder).plain.endswith(name)  # piped: never cut
    counts = {"completed": 9, "truncated": 2, "-": 1}
    assert exchange_summary(counts, 1, "captures") == (
        "ssescope proxy: stopped after 12 exchanges: 9 completed, 2 truncated, 1 -; "
        "1 still in flight; captures in captures"
    )


def test_a_capture_that_cannot_be_opened_stops_the_recording_not_the_judging(
    tmp_path: Path,
) -> None:
    registry = Registry()
    recorder = Recorder(registry, tmp_path)
    ex = registry.new("POST", "/v1/x", "http://u/v1/x")
    ex.status = 200
    ex.response_headers = [("content-type", "text/event-stream")]
    # a capture path that is a directory: opening it fails
    (tmp_path / f"{capture_name(ex)}.ssecap").mkdir()
    recorder.start(ex)
    recorder.chunk(ex, OPENAI[0], 0.1)
    recorder.end(ex, "eof", 0.2)
    recorder.stop()
    assert registry.finished() == [ex] and registry.active() == []
    # still judged (from memory): one chunk of a stream that never ended
    assert ex.verdict == "truncated" and ex.records == 1 and ex.error is None
    assert ex.capture is None and "Is a directory" in (ex.unrecorded or "")
    [line] = recorder.errors
    assert line.startswith("ssescope proxy: recording stopped: cannot write ")
    assert (tmp_path / "index.jsonl").read_text() == ""  # the recording stopped


async def test_the_recorder_queue_is_bounded_and_the_forwarder_waits_for_it() -> None:
    import threading
    import time

    registry = Registry()
    recorder = Recorder(registry, None, limit=4096)
    ex = registry.new("POST", "/v1/x", "http://u/v1/x")
    ex.status = 200
    release = threading.Event()
    recorder.start(ex)

    def stuck() -> None:  # a recorder stuck behind a slow disk
        release.wait(5)

    recorder.call(stuck)
    for i in range(40):
        recorder.chunk(ex, OPENAI[1], 0.01 * i)
    assert recorder.backlog > recorder.limit
    threading.Timer(0.2, release.set).start()
    started = time.monotonic()
    await recorder.wait_below_limit()
    assert time.monotonic() - started >= 0.15
    assert recorder.backlog <= recorder.limit
    recorder.end(ex, "eof", 1.0)
    recorder.stop()
    assert recorder.backlog == 0
    assert ex.records == 40 and ex.verdict == "truncated"


@pytest.mark.parametrize("encoding", ["gzip", "deflate", "br", "zstd"])
def test_a_bomb_decodes_a_bounded_step_at_a_time(encoding: str) -> None:
    import brotli
    import zstandard

    from ssescope.sources.decode import DECODE_STEP

    body = (b'data: {"choices":[{"delta":{"content":"' + b"x" * 1000 + b'"}}]}\n\n') * 8000
    packed = {
        "gzip": gzip.compress,
        "deflate": zlib.compress,
        "br": brotli.compress,
        "zstd": zstandard.ZstdCompressor().compress,
    }[encoding](body)
    assert len(packed) < 25_000  # about 8 MiB from one small chunk
    d = ContentDecoder(encoding)
    sizes = [len(piece) for piece in d.pieces(packed)]
    assert max(sizes) <= DECODE_STEP and len(sizes) >= len(body) // DECODE_STEP
    assert sum(sizes) + len(d.close()) == len(body) and d.problem is None
