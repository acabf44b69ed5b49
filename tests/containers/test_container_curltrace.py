from __future__ import annotations

from ssescope.containers import read_container, read_curl_trace
from ssescope.containers.curltrace import guess_line_feeds
from ssescope.framing import Framer, SSEEvent

EVENTS = [
    b'data: {"choices":[{"index":0,"delta":{"role":"assistant","content":""}}]}\n\n',
    'data: {"choices":[{"index":0,"delta":{"content":"Café ok."}}]}\n\n'.encode(),
    b": keep-alive\n\n",
    b'data: {"choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}\n\n',
    b"data: [DONE]\n\n",
]


def _codes(body):
    return [d.code for d in body.diagnostics]


def _events(body):
    framer = Framer()
    out = []
    for chunk in body.chunks:
        out.extend(framer.feed(chunk.data, chunk.time))
    out.extend(framer.close())
    return [r for r in out if isinstance(r, SSEEvent)]


def test_trace_hex_with_trace_time_gives_exact_bytes_times_and_chunks(fixture_bytes):
    body = read_container(fixture_bytes("trace-hex-time.txt"))
    assert body.container == "curl-trace"
    assert [c.data for c in body.chunks] == EVENTS
    times = [c.time for c in body.chunks if c.time is not None]
    assert len(times) == len(body.chunks) and all(0 < t < 5 for t in times)
    assert times == sorted(times)
    assert body.lost == []
    assert body.status == 200
    assert body.content_type == "text/event-stream; charset=utf-8"
    assert 0 < body.timing["first_byte_s"] <= times[0] <= body.timing["total_s"]


def test_the_request_comes_from_send_header_with_secrets_redacted(fixture_bytes):
    body = read_container(fixture_bytes("trace-hex-time.txt"))
    assert body.request is not None
    assert body.request["method"] == "POST"
    assert body.request["url"].endswith("/v1/chat/completions?api_key=[redacted]")
    assert body.request["url"].startswith("http://127.0.0.1:")
    assert ("Authorization", "[redacted]") in body.request["headers"]
    assert ("Set-Cookie", "[redacted]") in body.headers


def test_trace_ascii_with_trace_time_recovers_chunks_line_feeds_and_times(fixture_bytes):
    body = read_container(fixture_bytes("trace-ascii-time.txt"))
    # everything is exact except the two bytes of 'é', which --trace-ascii prints as '..'
    assert [c.data for c in body.chunks] == [e.replace("é".encode(), b"..") for e in EVENTS]
    assert all(c.time is not None for c in body.chunks)
    assert body.lost == ["exact bytes"]
    assert "curl-trace.line-feeds-guessed" in _codes(body)
    assert "curl-trace.unprintable-bytes" in _codes(body)
    assert len(_events(body)) == 4


def test_trace_ascii_without_trace_time_has_chunks_but_no_times(fixture_bytes):
    body = read_container(fixture_bytes("trace-ascii.txt"))
    assert len(body.chunks) == 5
    assert all(c.time is None for c in body.chunks)
    assert body.lost == ["exact bytes", "timing"]
    assert body.timing == {}


def test_trace_ascii_restores_crlf_line_ends_exactly_from_the_offsets(fixture_bytes):
    body = read_container(fixture_bytes("trace-ascii-time-crlf.txt"))
    crlf = [e.replace(b"\n", b"\r\n").replace("é".encode(), b"..") for e in EVENTS]
    assert [c.data for c in body.chunks] == crlf
    assert "curl-trace.line-feeds-guessed" not in _codes(body)


def test_times_are_relative_to_the_first_send_header():
    trace = (
        b"10:00:00.500000 => Send header, 18 bytes (0x12)\n"
        b"0000: GET / HTTP/1.1\n"
        b"0011: \n"
        b"10:00:01.000000 <= Recv header, 17 bytes (0x11)\n"
        b"0000: HTTP/1.1 200 OK\n"
        b"10:00:01.000001 <= Recv header, 2 bytes (0x2)\n"
        b"0000: \n"
        b"10:00:01.250000 <= Recv data, 14 bytes (0xe)\n"
        b"0000: data: hello..\n"
    )
    body = read_curl_trace(trace)
    assert body.chunks[0].time == 0.75
    assert body.chunks[0].data == b"data: hello\n\n"
    assert body.timing == {"first_byte_s": 0.5, "total_s": 0.75}
    assert body.request is not None
    assert body.request["url"] == "/"
    assert body.diagnostics[-1].code == "curl-trace.line-feeds-guessed"


def test_a_trace_running_past_midnight_keeps_times_increasing():
    trace = (
        b"23:59:59.900000 => Send header, 2 bytes (0x2)\n0000: \n"
        b"00:00:00.100000 <= Recv data, 4 bytes (0x4)\n0000: abcd\n"
    )
    body = read_curl_trace(trace)
    assert body.chunks[0].time == 0.2


def test_a_cut_off_trace_reports_the_size_mismatch_and_keeps_what_it_has():
    trace = b"<= Recv data, 100 bytes (0x64)\n0000: data: partial\n"
    body = read_curl_trace(trace)
    assert body.body == b"data: partial"
    assert "curl-trace.size-mismatch" in _codes(body)


def test_only_the_last_exchange_of_a_redirected_trace_is_read():
    trace = (
        b"=> Send header, 2 bytes (0x2)\n0000: GET /old HTTP/1.1\n"
        b"<= Recv header, 2 bytes (0x2)\n0000: HTTP/1.1 301 Moved\n"
        b"<= Recv data, 4 bytes (0x4)\n0000: gone\n"
        b"=> Send header, 2 bytes (0x2)\n0000: GET /new HTTP/1.1\n"
        b"<= Recv header, 2 bytes (0x2)\n0000: HTTP/1.1 200 OK\n"
        b"<= Recv data, 4 bytes (0x4)\n0000: okay\n"
    )
    body = read_curl_trace(trace)
    assert body.status == 200
    assert body.body == b"okay"
    assert "curl-trace.multiple-exchanges" in _codes(body)


def test_a_trace_with_no_response_is_an_error():
    body = read_curl_trace(b"== Info: Could not resolve host: api.example.test\n")
    assert body.chunks == []
    assert "curl-trace.no-response" in _codes(body)


def test_ssl_and_info_events_are_skipped_and_tls_makes_the_url_https():
    trace = (
        b"== Info: SSL connection using TLSv1.3 / TLS_AES_256_GCM_SHA384\n"
        b"=> Send SSL data, 5 bytes (0x5)\n0000: .....\n"
        b"=> Send header, 40 bytes (0x28)\n"
        b"0000: POST /v1/x HTTP/2\n"
        b"0013: Host: api.example.test\n"
        b"0029: \n"
        b"<= Recv header, 13 bytes (0xd)\n0000: HTTP/2 200 \n"
        b"<= Recv SSL data, 5 bytes (0x5)\n0000: .....\n"
        b'<= Recv data, 7 bytes (0x7)\n0000: {"a":1}\n'
    )
    body = read_curl_trace(trace)
    assert body.request is not None
    assert body.request["url"] == "https://api.example.test/v1/x"
    assert body.body == b'{"a":1}'


def test_line_feed_guesses_stop_at_two_and_keep_literal_dots():
    data, count, left = guess_line_feeds(b"data: Hello world.....data: [DONE]..")
    assert data == b"data: Hello world...\n\ndata: [DONE]\n\n"
    assert (count, left) == (4, 1)  # the three dots left might be an unprintable byte run


def test_line_feed_guesses_split_ndjson_lines_and_leave_text_dots():
    data, count, left = guess_line_feeds(b'{"t":"a.b"}.{"t":"Caf.."}.')
    assert data == b'{"t":"a.b"}\n{"t":"Caf.."}\n'
    assert (count, left) == (2, 1)


def test_line_feed_guesses_look_at_the_next_read_for_context():
    data, count, _ = guess_line_feeds(b"event: delta.", after=b"data: {}")
    assert data == b"event: delta\n"
    assert count == 1


def test_a_gzip_body_in_a_trace_ascii_cannot_be_recovered_and_says_so():
    trace = (
        b"<= Recv header, 17 bytes (0x11)\n0000: HTTP/1.1 200 OK\n"
        b"<= Recv header, 24 bytes (0x18)\n0000: Content-Encoding: gzip\n"
        b"<= Recv data, 6 bytes (0x6)\n0000: ......\n"
    )
    body = read_curl_trace(trace)
    assert "http.content-encoding-unsupported" in _codes(body)
