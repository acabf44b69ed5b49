"""The fixture serves every bundled example with every fault and quirk that applies to it,
and the real openai and anthropic SDKs read it.

For each case, either the SDK builds a final object and ``assert_assembled`` finds it
agrees with the stream, or the SDK raises and the stream is one ssescope also judges
broken (an HTTP error, a gzip header it cannot decode, or a Report that is not a clean
completion). Examples no SDK here reads are checked byte for byte over plain HTTP.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import anthropic
import httpx
import openai
import pytest

import ssescope
from ssescope.errors import UsageError
from ssescope.examples import list_examples
from ssescope.serve.quirks import PRESETS
from ssescope.testing import ServedURL, SSEScopeServer, assert_assembled

pytestmark = pytest.mark.network

SDK_READS = {
    "openai-chat-tool-call": "chat",
    "broken-bad-json-record": "chat",
    "broken-crlf-keepalive": "chat",
    "broken-openai-cut-mid-tool-call": "chat",
    "openai-responses-reasoning": "responses",
    "anthropic-thinking-tool-use": "anthropic",
    "broken-anthropic-overloaded": "anthropic",
}
FAULTS = [
    "cut@record:3",
    "stall@record:2:0.01",
    "drop-blank-lines",
    "crlf",
    "cr",
    "split-utf8",
    "garble@record:3",
    "error@record:3",
    "no-done",
    "http-error:500",
]
# durations kept short: the behaviour is the same, the suite stays fast
QUIRKS = [p.name + ("@0.05" if p.seconds is not None else "") for p in PRESETS]
HTTP_LEVEL = {"gzip-header-on-plain-body"}
# What the anthropic SDK does with arguments sent twice: it parses the first object and
# drops the rest, where the stream's arguments are the two objects concatenated.
DIVERGES = {("anthropic-thinking-tool-use", "duplicate-tool-args")}


@pytest.fixture(scope="module")
def clients(ssescope_server: SSEScopeServer) -> Iterator[dict[str, Any]]:
    """One client of each SDK (and plain httpx), pointed at each URL in turn."""
    base = ssescope_server.base
    made: dict[str, Any] = {
        "openai": openai.OpenAI(base_url=base, api_key="test", max_retries=0),
        "anthropic": anthropic.Anthropic(base_url=base, api_key="test", max_retries=0),
        "http": httpx.Client(timeout=10),
    }
    yield made
    for client in made.values():
        client.close()


def read_with_sdk(kind: str, clients: dict[str, Any], url: str) -> Any:
    """What the SDK's own stream helper builds."""
    if kind == "anthropic":
        client = clients["anthropic"]
        client.base_url = url
        with client.messages.stream(
            model="m", max_tokens=64, messages=[{"role": "user", "content": "hi"}]
        ) as stream:
            for _ in stream:
                pass
            return stream.get_final_message()
    client = clients["openai"]
    client.base_url = url
    if kind == "responses":
        with client.responses.stream(model="m", input="hi") as stream:
            for _ in stream:
                pass
            return stream.get_final_response()
    with client.chat.completions.stream(
        model="m", messages=[{"role": "user", "content": "hi"}]
    ) as stream:
        for _ in stream:
            pass
        return stream.get_final_completion()


def served(server: SSEScopeServer, example: str) -> Iterator[tuple[str, ServedURL]]:
    """Every fault and quirk that applies to the example, as a served URL."""
    yield "none", server.url(example)
    for spec in FAULTS:
        url = fitted(server, example, fault=spec)
        if url is not None:
            yield spec, url
    for spec in QUIRKS:
        url = fitted(server, example, quirk=spec)
        if url is not None:
            yield spec, url


def fitted(server: SSEScopeServer, example: str, **spec: str) -> ServedURL | None:
    """The URL serving the example with the fault or quirk, or ``None`` if it does not fit.

    A fault past a short stream's last record is refused, as a quirk that does not apply is.
    """
    try:
        return server.url(example, **spec)
    except UsageError:
        return None


def judged_broken(url: ServedURL) -> bool:
    report = ssescope.inspect(iter([url.body]))
    return report.status != "completed" or any(
        d.severity in ("warning", "error") for d in report.diagnostics
    )


@pytest.mark.parametrize("example", sorted(SDK_READS))
def test_the_sdks_read_every_fault_and_quirk_as_ssescope_judges_it(
    example: str, ssescope_server: SSEScopeServer, clients: dict[str, Any]
) -> None:
    problems: list[str] = []
    cases = list(served(ssescope_server, example))
    for spec, url in cases:
        try:
            result = read_with_sdk(SDK_READS[example], clients, url)
        except (openai.APIStatusError, anthropic.APIStatusError) as exc:
            if url.status is not None and exc.status_code != url.status:
                problems.append(f"{spec}: status {exc.status_code}, served {url.status}")
            elif url.status is None and not judged_broken(url):
                problems.append(f"{spec}: the SDK raised {exc!r} on a clean stream")
            continue
        except Exception as exc:
            if spec.split("@")[0] not in HTTP_LEVEL and not judged_broken(url):
                problems.append(f"{spec}: the SDK raised {exc!r} on a clean stream")
            continue
        if url.status is not None:
            problems.append(f"{spec}: the SDK read a {url.status} answer as a stream")
            continue
        if (example, spec) in DIVERGES:
            with pytest.raises(AssertionError, match=r"tool_calls\[0\]\.arguments"):
                assert_assembled(url, result)
            continue
        try:
            assert_assembled(url, result)
        except AssertionError as exc:
            problems.append(f"{spec}: {exc}")
    assert len(cases) >= len(FAULTS) + 8
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("example", sorted({e.name for e in list_examples()} - set(SDK_READS)))
def test_every_other_example_is_served_byte_for_byte_with_every_fault_and_quirk(
    example: str, ssescope_server: SSEScopeServer, clients: dict[str, Any]
) -> None:
    http: httpx.Client = clients["http"]
    count = 0
    for spec, url in served(ssescope_server, example):
        with http.stream("POST", url + "/any/path", content=b"{}") as response:
            raw = b"".join(response.iter_raw())  # undecoded: a gzip header is a lie here
        assert response.status_code == (url.status or 200), spec
        assert raw == url.body, spec
        if spec == "gzip-header-on-plain-body":
            assert response.headers["content-encoding"] == "gzip"
        count += 1
    assert count >= len(FAULTS)
