from __future__ import annotations

import gzip
import zlib

import pytest

from ssescope.containers import read_container, read_http
from ssescope.containers._body import Chunk
from ssescope.containers._httpbody import dechunk

SSE = b'data: {"a":1}\n\ndata: {"b":2}\n\ndata: [DONE]\n\n'


def _chunked(body: bytes, sizes: list[int]) -> bytes:
    out = b""
    i = 0
    for n in sizes:
        out += b"%x\r\n%s\r\n" % (n, body[i : i + n])
        i += n
    return out + b"0\r\n\r\n"


def _codes(body):
    return [d.code for d in body.diagnostics]


def test_curl_i_output_with_100_continue_yields_the_final_response(fixture_bytes):
    body = read_container(fixture_bytes("curl-i-100-continue.http"))
    assert body.container == "http"
    assert body.status == 200
    assert body.content_type == "text/event-stream; charset=utf-8"
    assert body.body.startswith(b'data: {"choices"')
    assert body.body.endswith(b"data: [DONE]\n\n")
    assert "Caf\u00e9".encode() in body.body
    assert ("Set-Cookie", "[redacted]") in body.headers
    assert body.lost == ["timing", "chunk boundaries", "request"]
    assert "http.interim-response-skipped" in _codes(body)
    # curl -i shows the decoded body under a 'Transfer-Encoding: chunked' header
    assert "http.chunked-already-decoded" in _codes(body)


def test_a_raw_socket_dump_with_chunked_encoding_is_decoded():
    raw = (
        b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n"
        b"Transfer-Encoding: chunked\r\n\r\n" + _chunked(SSE, [5, 20, len(SSE) - 25])
    )
    body = read_http(raw)
    assert body.body == SSE
    assert not [d for d in body.diagnostics if d.severity != "info"]


def test_a_chunked_body_cut_off_mid_chunk_is_reported_and_kept():
    raw = b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n" + _chunked(SSE, [len(SSE)])
    body = read_http(raw[:-12])
    assert body.body == SSE[:-5]  # the encoded tail "\r\n0\r\n\r\n" is 7 bytes
    assert "http.chunked-truncated" in _codes(body)


def test_a_chunked_body_with_a_bad_size_line_keeps_the_rest_as_is():
    raw = b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\nzz\r\nmore"
    body = read_http(raw)
    assert body.body == b"hellozz\r\nmore"
    assert "http.chunked-invalid" in _codes(body)


def test_data_after_the_last_chunk_is_reported():
    raw = b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nhi\r\n0\r\n\r\nextra"
    body = read_http(raw)
    assert body.body == b"hi"
    assert "http.data-after-last-chunk" in _codes(body)


@pytest.mark.parametrize("split", range(1, 60))
def test_dechunking_gives_the_same_body_whatever_the_read_boundaries(split):
    encoded = _chunked(SSE, [7, 11, len(SSE) - 18])
    split = min(split, len(encoded) - 1)
    chunks = [Chunk(encoded[:split], 0.1), Chunk(encoded[split:], 0.2)]
    out, diags = dechunk(chunks, 0)
    assert b"".join(c.data for c in out) == SSE
    assert diags == []
    assert all(c.time in (0.1, 0.2) for c in out)


def test_proxy_connection_established_head_is_skipped():
    raw = (
        b"HTTP/1.1 200 Connection established\r\n\r\n"
        b"HTTP/2 200 \r\ncontent-type: text/event-stream\r\n\r\n" + SSE
    )
    body = read_http(raw)
    assert body.status == 200
    assert body.header("Content-Type") == "text/event-stream"
    assert body.body == SSE


def test_lf_only_line_ends_from_a_paste_are_accepted():
    body = read_http(b"HTTP/1.1 200 OK\nContent-Type: text/event-stream\n\n" + SSE)
    assert body.status == 200
    assert body.body == SSE


def test_an_error_status_is_reported():
    raw = b'HTTP/1.1 429 Too Many Requests\r\nContent-Type: application/json\r\n\r\n{"error":{}}'
    body = read_http(raw)
    assert body.status == 429
    assert "http.error-status" in _codes(body)


def test_a_head_without_a_blank_line_has_no_body():
    body = read_http(b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n")
    assert body.chunks == []
    assert "http.headers-unterminated" in _codes(body)


def test_a_body_shorter_than_content_length_is_reported():
    body = read_http(b"HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\n" + SSE)
    assert "http.body-short" in _codes(body)


def test_a_gzip_body_is_decompressed():
    raw = b"HTTP/1.1 200 OK\r\nContent-Encoding: gzip\r\n\r\n" + gzip.compress(SSE)
    body = read_http(raw)
    assert body.body == SSE
    assert "http.content-decoded" in _codes(body)


def test_a_cut_off_deflate_body_keeps_what_was_decompressed():
    raw = b"HTTP/1.1 200 OK\r\nContent-Encoding: deflate\r\n\r\n" + zlib.compress(SSE)[:-6]
    body = read_http(raw)
    assert SSE.startswith(body.body)
    assert "http.content-truncated" in _codes(body)


def test_a_gzip_header_over_an_already_decoded_body_is_left_alone():
    body = read_http(b"HTTP/1.1 200 OK\r\nContent-Encoding: gzip\r\n\r\n" + SSE)
    assert body.body == SSE
    assert body.diagnostics == []


def test_a_brotli_body_is_reported_as_undecodable():
    body = read_http(b"HTTP/1.1 200 OK\r\nContent-Encoding: br\r\n\r\n\x8b\x02\x80\xff\x00\x01")
    assert "http.content-encoding-unsupported" in _codes(body)


def test_forcing_http_on_a_bare_body_reads_it_whole_with_an_error():
    body = read_container(SSE, container="http")
    assert body.body == SSE
    assert "http.no-status-line" in _codes(body)
