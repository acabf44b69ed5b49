"""The official SDKs through the proxy to ``ssescope serve``, with delays and every fault.

The client must receive exactly the bytes the upstream sent, with the same timing, and
each capture must inspect to the verdict of what the upstream sent.
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anthropic
import httpx
import openai
import orjson
import pytest

import ssescope
from ssescope.proxy import ProxyThread
from ssescope.serve.app import ServerThread

pytestmark = pytest.mark.network

OPENAI_KEY = "sk-proj-TESTKEY0penai0000000000001"
ANTHROPIC_KEY = "sk-ant-api03-TESTKEYanthropic000000002"

# fault → the verdict of the capture (the same as inspecting what the upstream sent)
FAULTS = {
    "": "completed",
    "cut@record:4": "truncated",
    "stall@record:3:0.3": "completed",
    "error@record:4": "failed",
    "http-error:429": "failed",
    # the SDKs raise on the garbled record and hang up: the capture says so
    "garble@record:3": "cancelled",
    "split-utf8": "completed",
}


def tee_transport(http: Any) -> Any:
    """A transport of the ``http`` module (httpx, or the fork an SDK bundles) that keeps
    every raw body chunk the SDK receives, with its arrival time."""

    class Tee(http.SyncByteStream):
        def __init__(self, inner: Any, sink: list[tuple[float, bytes]]) -> None:
            self.inner = inner
            self.sink = sink

        def __iter__(self) -> Iterator[bytes]:
            for chunk in self.inner:
                self.sink.append((time.monotonic(), chunk))
                yield chunk

        def close(self) -> None:
            self.inner.close()

    class TeeTransport(http.HTTPTransport):
        def __init__(self) -> None:
            super().__init__()
            self.chunks: list[tuple[float, bytes]] = []
            self.http = http

        def handle_request(self, request: Any) -> Any:
            response = super().handle_request(request)
            response.stream = Tee(response.stream, self.chunks)
            return response

        @property
        def body(self) -> bytes:
            return b"".join(c for _, c in self.chunks)

        @property
        def spread(self) -> float:
            return self.chunks[-1][0] - self.chunks[0][0] if self.chunks else 0.0

    return TeeTransport()


def _openai(base: str, fault: str, transport: Any) -> None:
    client = openai.OpenAI(
        base_url=base + "/openai_chat/v1",
        api_key=OPENAI_KEY,
        max_retries=0,
        http_client=transport.http.Client(transport=transport),
    )
    with client:
        _openai_run(client, fault)


def _openai_run(client: openai.OpenAI, fault: str) -> None:
    try:
        stream = client.chat.completions.create(
            model="gpt-4o-mini",
            messages=[{"role": "user", "content": "hi"}],
            stream=True,
            stream_options={"include_usage": True},
            extra_query={"fault": fault} if fault else None,
        )
        for _ in stream:
            pass
    except (openai.APIError, ValueError):
        pass  # error frames, HTTP errors and garbled JSON make the SDK raise: expected


def _anthropic(base: str, fault: str, transport: Any) -> None:
    client = anthropic.Anthropic(
        base_url=base + "/anthropic",
        api_key=ANTHROPIC_KEY,
        max_retries=0,
        http_client=transport.http.Client(transport=transport),
    )
    with client:
        _anthropic_run(client, fault)


def _anthropic_run(client: anthropic.Anthropic, fault: str) -> None:
    try:
        with client.messages.stream(
            model="claude-3-5-haiku-latest",
            max_tokens=64,
            messages=[{"role": "user", "content": "hi"}],
            extra_query={"fault": fault} if fault else None,
        ) as stream:
            for _ in stream.text_stream:
                pass
    except (anthropic.APIError, ValueError):
        pass


CLIENTS = {"openai": _openai, "anthropic": _anthropic}
HTTP = {"openai": httpx, "anthropic": getattr(anthropic._base_client, "httpx2", httpx)}


@pytest.fixture(scope="module")
def recording(
    replay: ServerThread, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[tuple[ProxyThread, Path]]:
    folder = tmp_path_factory.mktemp("captures")
    with ProxyThread(replay.url, record=folder) as proxy:
        yield proxy, folder


def _timing(direct: Any, through: Any, times: list[float], fault: str) -> str | None:
    """What is wrong with the timing, or ``None``."""
    recorded = times[-1] - times[0]
    where = (
        f"spread direct {direct.spread:.3f} s, through {through.spread:.3f} s, "
        f"recorded {recorded:.3f} s over {len(times)} chunks"
    )
    # the arrival spread through the proxy stays close to direct (a buffering proxy would
    # collapse it), the client received the chunks when the proxy did, and the upstream's
    # pauses (20 ms between records, 0.3 s for the stall) are all in the capture
    if abs(through.spread - direct.spread) > 0.05 + 0.25 * direct.spread:
        return where
    if abs(through.spread - recorded) > 0.05 + 0.2 * recorded:
        return where
    if recorded < 0.8 * 0.02 * (len(times) - 1):
        return where
    if fault.startswith("stall") and max(b - a for a, b in itertools.pairwise(times)) < 0.3:
        return where
    return None


@pytest.mark.parametrize("fault", list(FAULTS))
@pytest.mark.parametrize("sdk", list(CLIENTS))
def test_the_sdk_gets_the_upstream_bytes_and_the_capture_its_verdict(
    sdk: str, fault: str, replay: ServerThread, recording: tuple[ProxyThread, Path]
) -> None:
    proxy, _folder = recording
    # Every attempt checks bytes and verdicts; timing is compared on a loaded shared
    # machine (servers, proxy and clients in one process), so one clean attempt in
    # three is required rather than every one.
    problems: list[str] = []
    for _attempt in range(3):
        direct, through = tee_transport(HTTP[sdk]), tee_transport(HTTP[sdk])
        before = {ex.seq for ex in proxy.registry.finished()}
        CLIENTS[sdk](replay.url, fault, direct)
        CLIENTS[sdk](proxy.url, fault, through)
        proxy.flush()
        times = _check(sdk, fault, proxy, before, direct, through)
        problem = _timing(direct, through, times, fault)
        if problem is None:
            return
        problems.append(problem)
    pytest.fail("the timing did not survive: " + "; ".join(problems))


def _check(
    sdk: str, fault: str, proxy: ProxyThread, before: set[int], direct: Any, through: Any
) -> list[float]:
    assert through.body == direct.body
    assert direct.body, "the upstream sent nothing"
    [ex] = [ex for ex in proxy.registry.finished() if ex.seq not in before]
    assert ex.capture is not None
    report = ssescope.inspect(ex.capture)
    assert report.status == FAULTS[fault] == ex.verdict
    if FAULTS[fault] == "cancelled":
        assert ex.end == "cancelled"
        assert "json.invalid" in ex.diagnostics
    elif not fault.startswith("http-error"):
        assert report.status == ssescope.inspect(direct.body).status
        assert report.provider == ("openai-chat" if sdk == "openai" else "anthropic")
    else:
        assert ex.status == 429 and report.http_status == 429
    body = ssescope.read_path(ex.capture)
    assert b"".join(c.data for c in body.chunks) == direct.body
    times = [float(c.time) for c in body.chunks if c.time is not None]
    assert len(times) == len(body.chunks) and times == sorted(times)
    assert ex.model in ("gpt-4o-mini", "claude-3-5-haiku-latest")
    header = orjson.loads(Path(ex.capture).read_bytes().splitlines()[0])
    assert header["request"]["body"]["model"] == ex.model
    if sdk == "openai":
        assert header["request"]["body"]["stream_options"] == {"include_usage": True}
    return times


def test_no_api_key_is_written_anywhere(recording: tuple[ProxyThread, Path]) -> None:
    proxy, folder = recording
    for sdk, run in CLIENTS.items():
        run(proxy.url, "", tee_transport(HTTP[sdk]))
        assert sdk
    proxy.flush()
    files = list(folder.iterdir())
    assert any(f.suffix == ".ssecap" for f in files)
    assert any(f.name == "index.jsonl" for f in files)
    for f in files:
        data = f.read_bytes()
        for key in (OPENAI_KEY, ANTHROPIC_KEY, OPENAI_KEY[8:24], ANTHROPIC_KEY[10:26]):
            assert key.encode() not in data, f"{key!r} in {f.name}"
    text = "\n".join(f.read_text() for f in files if f.suffix == ".ssecap")
    assert '"authorization","[redacted sha256:' in text
