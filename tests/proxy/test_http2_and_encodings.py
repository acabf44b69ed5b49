"""HTTP/2 to the upstream, and the ``br`` and ``zstd`` encodings, for real on loopback.

The upstream is Hypercorn over TLS with a certificate from a throwaway CA (trustme), so
that the proxy's client agrees HTTP/2 with it during the handshake, as it would with a
provider; the app behind it streams an OpenAI chat reply, plain or compressed with
brotli or zstandard chunk by chunk, and says which HTTP version it was asked in.
"""

from __future__ import annotations

import asyncio
import json
import ssl
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any, cast

import brotli
import httpx
import pytest
import trustme
import zstandard
from hypercorn.asyncio import serve
from hypercorn.config import Config

import ssescope
from ssescope.proxy import ProxyThread
from ssescope.serve.app import bind
from ssescope.sources.decode import ContentDecoder

from .upstream import OPENAI

pytestmark = pytest.mark.network

GAP = 0.06  # seconds between two records of the upstream


def _compressor(encoding: str) -> tuple[Any, Any]:
    """``(compress a piece, flush what is pending)`` for a streamed body."""
    if encoding == "br":
        c = brotli.Compressor()
        return c.process, c.flush
    if encoding == "zstd":
        z = zstandard.ZstdCompressor().compressobj()
        return z.compress, lambda: z.flush(zstandard.COMPRESSOBJ_FLUSH_BLOCK)
    return (lambda data: data), (lambda: b"")


async def upstream_app(scope: dict[str, Any], receive: Any, send: Any) -> None:
    """``POST /v1/chat/completions[?encoding=br|zstd]``: the stream, one record per GAP."""
    if scope["type"] != "http":
        return
    while (await receive()).get("more_body"):
        pass
    encoding = scope["query_string"].decode().partition("=")[2]
    compress, flush = _compressor(encoding)
    headers = [
        (b"content-type", b"text/event-stream"),
        (b"x-upstream-http-version", scope["http_version"].encode()),
    ]
    if encoding:
        headers.append((b"content-encoding", encoding.encode()))
    await send({"type": "http.response.start", "status": 200, "headers": headers})
    for piece in OPENAI:
        await asyncio.sleep(GAP)
        data = compress(piece) + flush()
        await send({"type": "http.response.body", "body": data, "more_body": True})
    await send({"type": "http.response.body", "body": b"", "more_body": False})


class TLSUpstream:
    """Hypercorn serving :func:`upstream_app` over TLS (h2 and http/1.1) on loopback."""

    def __init__(self, folder: Path) -> None:
        ca = trustme.CA()
        pem = folder / "upstream.pem"
        ca.issue_cert("127.0.0.1").private_key_and_cert_chain_pem.write_to_path(str(pem))
        self.trust = ssl.create_default_context()
        ca.configure_trust(self.trust)
        self._sock = bind("127.0.0.1", 0)
        self.url = f"https://127.0.0.1:{self._sock.getsockname()[1]}"
        self.config = Config()
        self.config.bind = [f"fd://{self._sock.fileno()}"]
        self.config.certfile = self.config.keyfile = str(pem)
        self.config.alpn_protocols = ["h2", "http/1.1"]
        self.config.accesslog = self.config.errorlog = None
        self.config.graceful_timeout = 1.0
        self._stop: asyncio.Event | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._ready = threading.Event()
        self._thread = threading.Thread(target=self._main, daemon=True)

    def _main(self) -> None:
        async def main() -> None:
            self._stop = asyncio.Event()
            self._loop = asyncio.get_running_loop()
            self._ready.set()
            await serve(cast(Any, upstream_app), self.config, shutdown_trigger=self._stop.wait)

        asyncio.run(main())

    def __enter__(self) -> TLSUpstream:
        self._thread.start()
        self._ready.wait(10)
        return self

    def __exit__(self, *exc: object) -> None:
        if self._loop is not None and self._stop is not None:
            self._loop.call_soon_threadsafe(self._stop.set)
        self._thread.join(10)
        self._sock.detach()  # Hypercorn closed the socket it served on


@pytest.fixture(scope="module")
def tls_upstream(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TLSUpstream]:
    with TLSUpstream(tmp_path_factory.mktemp("tls")) as running:
        yield running


@pytest.fixture
def proxy(tls_upstream: TLSUpstream, tmp_path: Path) -> Iterator[ProxyThread]:
    with ProxyThread(tls_upstream.url, record=tmp_path, verify=tls_upstream.trust) as running:
        yield running


def _read(client: httpx.Client, url: str) -> tuple[httpx.Response, list[tuple[float, bytes]]]:
    """The response and its raw reads, each with its arrival time."""
    with client.stream("POST", url, json={"model": "m", "stream": True}) as r:
        reads = [(time.monotonic(), piece) for piece in r.iter_raw()]
    return r, reads


def test_the_upstream_speaks_http2_and_the_client_gets_http11_with_the_same_bytes(
    tls_upstream: TLSUpstream, proxy: ProxyThread, tmp_path: Path
) -> None:
    with httpx.Client(http2=True, verify=tls_upstream.trust) as direct_client:
        direct, direct_reads = _read(direct_client, tls_upstream.url + "/v1/chat/completions")
    assert direct.http_version == "HTTP/2"
    with httpx.Client() as client:
        through, reads = _read(client, proxy.url + "/v1/chat/completions")
    assert through.http_version == "HTTP/1.1"
    assert through.headers["x-upstream-http-version"] == "2"  # what the upstream was asked in
    body = b"".join(piece for _, piece in reads)
    assert body == b"".join(piece for _, piece in direct_reads) == b"".join(OPENAI)
    # forwarded as it came, not held until the end
    assert reads[-1][0] - reads[0][0] >= (len(OPENAI) - 2) * GAP
    proxy.flush()
    [ex] = proxy.registry.finished()
    assert ex.upstream_http == "HTTP/2"
    [line] = [json.loads(x) for x in (tmp_path / "index.jsonl").read_text().splitlines()]
    assert line["upstream_http"] == "HTTP/2"
    assert line["verdict"] == "completed"
    report = ssescope.inspect(Path(ex.capture or ""))
    assert report.status == "completed" and report.text == "Bonjour le monde"


@pytest.mark.parametrize("encoding", ["br", "zstd"])
def test_br_and_zstd_are_forwarded_untouched_and_recorded_decoded(
    encoding: str, tls_upstream: TLSUpstream, proxy: ProxyThread, tmp_path: Path
) -> None:
    url = f"/v1/chat/completions?encoding={encoding}"
    with httpx.Client(http2=True, verify=tls_upstream.trust) as direct_client:
        _direct, direct_reads = _read(direct_client, tls_upstream.url + url)
    with httpx.Client() as client:
        through, reads = _read(client, proxy.url + url)
    wire = b"".join(piece for _, piece in reads)
    assert wire == b"".join(piece for _, piece in direct_reads)
    assert wire != b"".join(OPENAI)
    assert through.headers["content-encoding"] == encoding
    decoder = ContentDecoder(encoding)
    assert decoder.feed(wire) + decoder.close() == b"".join(OPENAI)
    proxy.flush()
    [ex] = proxy.registry.finished()
    assert ex.verdict == "completed" and ex.wire_bytes == len(wire)
    assert ex.body_bytes == len(b"".join(OPENAI))
    assert "http.content-encoding-unsupported" not in ex.diagnostics
    capture = Path(ex.capture or "")
    body = ssescope.read_path(capture)
    assert b"".join(c.data for c in body.chunks) == b"".join(OPENAI)
    report = ssescope.inspect(capture)
    assert report.status == "completed" and report.text == "Bonjour le monde"


@pytest.mark.parametrize(
    ("encoding", "modules", "package"),
    [("br", ("brotli", "brotlicffi"), "brotli"), ("zstd", ("zstandard",), "zstandard")],
)
def test_without_its_library_an_encoding_is_recorded_as_it_came_and_says_why(
    encoding: str,
    modules: tuple[str, ...],
    package: str,
    tls_upstream: TLSUpstream,
    proxy: ProxyThread,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    for name in modules:  # as if it were not installed: importing it fails
        monkeypatch.setitem(sys.modules, name, None)
    with httpx.Client() as client:
        _through, reads = _read(client, proxy.url + f"/v1/chat/completions?encoding={encoding}")
    wire = b"".join(piece for _, piece in reads)
    proxy.flush()
    [ex] = proxy.registry.finished()
    assert "http.content-encoding-unsupported" in ex.diagnostics
    capture = Path(ex.capture or "")
    assert b"".join(c.data for c in ssescope.read_path(capture).chunks) == wire
    [found] = [
        d
        for d in ssescope.inspect(capture).diagnostics
        if d.code == "http.content-encoding-unsupported"
    ]
    assert f"{encoding} needs the {package} package, which is not installed" in found.message
