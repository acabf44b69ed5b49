from __future__ import annotations

from pathlib import Path

import pytest

from ssescope.containers import detect_container

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "containers"


@pytest.mark.parametrize(
    ("name", "container"),
    [
        ("anthropic-split-utf8.ssecap", "ssecap"),
        ("interrupted.ssecap", "ssecap"),
        ("chrome-base64.har", "har"),
        ("chrome-eventsource-messages.har", "har"),
        ("trace-ascii.txt", "curl-trace"),
        ("trace-ascii-time.txt", "curl-trace"),
        ("trace-hex-time.txt", "curl-trace"),
        ("curl-i-100-continue.http", "http"),
        ("openai-sdk-dump.jsonl", "jsonl"),
    ],
)
def test_each_fixture_is_detected_as_its_container(name, container):
    found, rule = detect_container((FIXTURES / name).read_bytes())
    assert found == container
    assert rule


@pytest.mark.parametrize(
    ("head", "container"),
    [
        (b'{"ssescope": "capture", "version": 1, "request": null', "ssecap"),
        (b'{"ssescope":1}\n', "ssecap"),
        (b'\n\n  {\n  "log": {\n    "version": "1.2",', "har"),
        (b'\xef\xbb\xbf{"log":{"entries":[]}}', "har"),
        (b"== Info:   Trying 127.0.0.1:8080...\n", "curl-trace"),
        (b"01:02:03.456789 == Info: Connected\n", "curl-trace"),
        (b"01:02:03.456789 [0-0] == Info: Connected\n", "curl-trace"),
        (b"=> Send header, 87 bytes (0x57)\n", "curl-trace"),
        (b"<= Recv data, 12 bytes (0xc)\n", "curl-trace"),
        (b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n", "http"),
        (b"HTTP/2 200 \r\ncontent-type: text/event-stream\r\n", "http"),
        (b"HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\n", "http"),
        (b'{"ts": 1.5, "chunk": {"id": "x"}}\n', "jsonl"),
        (b'{"chunk": "data: hi\\n\\n"}\n', "jsonl"),
        (b'data: {"choices": []}\n\n', "raw"),
        (b'{"id": "chatcmpl-1", "object": "chat.completion.chunk"}\n', "raw"),
        (b'[{"candidates": []}]', "raw"),
        (b"\x00\x00\x00\x3e\x00\x00\x00\x20\xff\xfe", "raw"),
        (b"", "raw"),
        (b"   \n\n", "raw"),
    ],
)
def test_detection_rules_decide_from_the_first_line(head, container):
    assert detect_container(head)[0] == container


def test_a_capture_header_cut_before_its_end_is_still_recognised():
    head = b'{"ssescope":"capture","version":1,"request":{"method":"POST","url":"https://exa'
    assert detect_container(head)[0] == "ssecap"


def test_an_ndjson_body_with_a_log_field_later_is_not_a_har():
    assert detect_container(b'{"model": "llama3", "log": {}}\n')[0] == "raw"
