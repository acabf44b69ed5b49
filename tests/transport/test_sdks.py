"""The real openai and anthropic SDKs, with the transport, against ``ssescope serve``.

Each fault the server injects and each way an app can leave a stream: the transport's
Report must be the one the engine gives for the bytes the SDK read (``inspect`` of the
same answer, fetched again without the transport), or ``cancelled`` with what arrived.
"""

from __future__ import annotations

import asyncio
import gc
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import anthropic
import httpx2
import openai
import pytest
from anthropic.types import MessageParam
from openai.types.chat import ChatCompletionMessageParam

import ssescope
from ssescope.serve.app import ReplayOptions, ServerThread, load_captures, make_app

from .conftest import Null

pytestmark = pytest.mark.network

EXAMPLES = Path(ssescope.__file__).parent / "examples"

FAULTS = [
    "",
    "cut@record:4",
    "error@record:4",
    "no-done",
    "crlf",
    "split-utf8",
    "drop-blank-lines",
    "garble@record:3",
    "http-error:529",
]
OPENAI_PATH = "/openai_chat/v1/chat/completions"
ANTHROPIC_PATH = "/anthropic/v1/messages"
OPENAI_MESSAGES: list[ChatCompletionMessageParam] = [{"role": "user", "content": "hi"}]
ANTHROPIC_MESSAGES: list[MessageParam] = [{"role": "user", "content": "hi"}]


def _served(server: ServerThread, path: str, fault: str) -> ssescope.Report:
    """What the engine says of the answer to ``fault``, fetched without the transport."""
    query = {"fault": fault} if fault else {}
    r = httpx2.post(server.url + path, params=query, json={"stream": True})
    return ssescope.inspect(r.content) if r.status_code < 400 else _error(r)


def _error(r: httpx2.Response) -> ssescope.Report:
    pipeline = ssescope.Pipeline(source=ssescope.SourceInfo(container="http", status=r.status_code))
    return ssescope.feed_chunks(pipeline, [r.content]).report()


def _openai(server: ServerThread, reports: list[ssescope.Report], **kw: Any) -> openai.OpenAI:
    return openai.OpenAI(
        base_url=server.url + "/openai_chat/v1",
        api_key="sk-test-0123456789abcdef",
        max_retries=0,
        http_client=ssescope.http_client(on_report=reports.append, **kw),
    )


def _anthropic(
    server: ServerThread, reports: list[ssescope.Report], **kw: Any
) -> anthropic.Anthropic:
    return anthropic.Anthropic(
        base_url=server.url + "/anthropic",
        api_key="sk-ant-test-0123456789abcdef",
        max_retries=0,
        http_client=ssescope.http_client(on_report=reports.append, **kw),
    )


def _read_openai(client: openai.OpenAI, fault: str) -> None:
    query = {"fault": fault} if fault else {}
    stream = client.chat.completions.create(
        model="gpt-4o-mini", messages=OPENAI_MESSAGES, stream=True, extra_query=query
    )
    for _ in stream:
        pass


def _read_anthropic(client: anthropic.Anthropic, fault: str) -> None:
    query = {"fault": fault} if fault else {}
    with client.messages.stream(
        model="claude-haiku", max_tokens=64, messages=ANTHROPIC_MESSAGES, extra_query=query
    ) as stream:
        for _ in stream.text_stream:
            pass


SDKS: dict[str, tuple[Callable[..., Any], Callable[[Any, str], None], str]] = {
    "openai": (_openai, _read_openai, OPENAI_PATH),
    "anthropic": (_anthropic, _read_anthropic, ANTHROPIC_PATH),
}


@pytest.mark.parametrize("fault", FAULTS)
@pytest.mark.parametrize("sdk", sorted(SDKS))
def test_each_fault_gives_the_verdict_the_engine_gives_the_same_bytes(
    sdk: str, fault: str, server: ServerThread, reports: list[ssescope.Report]
) -> None:
    make, read, path = SDKS[sdk]
    client = make(server, reports)
    try:
        read(client, fault)
    except Exception:  # the SDK's own verdict (APIError, a JSON error); the Report is checked
        pass
    finally:
        client.close()
    expected = _served(server, path, fault)
    assert len(reports) == 1
    report = reports[0]
    if fault.startswith("garble"):
        # the SDK raises on the garbled record and leaves: the app left early
        assert report.status == "cancelled"
        assert expected.status == "completed"
        assert expected.text.startswith(report.text)
        assert "json.invalid" in {d.code for d in report.diagnostics}
        return
    assert report.status == expected.status
    assert report.text == expected.text
    assert {d.code for d in report.diagnostics} >= {
        d.code for d in expected.diagnostics if not d.code.startswith("timing.")
    }
    assert report.request is not None
    assert report.request.model in ("gpt-4o-mini", "claude-haiku")
    assert "sk-" not in str(report.to_dict())


def _openai_stream(client: openai.OpenAI, fault: str = "") -> Any:
    query = {"fault": fault} if fault else {}
    return client.chat.completions.create(
        model="gpt-4o-mini", messages=OPENAI_MESSAGES, stream=True, extra_query=query
    )


def _anthropic_stream(client: anthropic.Anthropic, fault: str = "") -> Any:
    query = {"fault": fault} if fault else {}
    return client.messages.create(
        model="claude-haiku",
        max_tokens=64,
        messages=ANTHROPIC_MESSAGES,
        stream=True,
        extra_query=query,
    )


STREAMS: dict[str, tuple[Callable[..., Any], Callable[..., Any]]] = {
    "openai": (_openai, _openai_stream),
    "anthropic": (_anthropic, _anthropic_stream),
}
STALL = "stall@record:4:3"


def _end_read(client: Any, stream_of: Callable[..., Any]) -> None:
    for _ in stream_of(client):
        pass


def _end_break(client: Any, stream_of: Callable[..., Any]) -> None:
    for i, _ in enumerate(stream_of(client)):
        if i == 1:
            break


def _end_close(client: Any, stream_of: Callable[..., Any]) -> None:
    stream = stream_of(client)
    next(iter(stream))
    stream.close()


def _end_collected(client: Any, stream_of: Callable[..., Any]) -> None:
    stream = stream_of(client)
    next(iter(stream))
    del stream
    gc.collect()


def _end_timeout(client: Any, stream_of: Callable[..., Any]) -> None:
    with pytest.raises((httpx2.ReadTimeout, openai.APIError, anthropic.APIError)):
        for _ in stream_of(client.with_options(timeout=httpx2.Timeout(5.0, read=0.3)), STALL):
            pass


def _end_exception(client: Any, stream_of: Callable[..., Any]) -> None:
    with pytest.raises(ZeroDivisionError), stream_of(client) as stream:
        for _ in stream:
            _ = 1 / 0


ENDINGS: dict[str, tuple[Callable[[Any, Callable[..., Any]], None], str]] = {
    "read to the end": (_end_read, "completed"),
    "break": (_end_break, "cancelled"),
    "close()": (_end_close, "cancelled"),
    "garbage-collected": (_end_collected, "cancelled"),
    "client timeout": (_end_timeout, "cancelled"),
    "exception in the loop": (_end_exception, "cancelled"),
}


@pytest.mark.parametrize("ending", list(ENDINGS))
@pytest.mark.parametrize("sdk", sorted(STREAMS))
def test_each_ending_gives_exactly_one_report(
    sdk: str, ending: str, server: ServerThread, reports: list[ssescope.Report]
) -> None:
    make, stream_of = STREAMS[sdk]
    run, verdict = ENDINGS[ending]
    client = make(server, reports)
    run(client, stream_of)
    gc.collect()
    assert [r.status for r in reports] == [verdict]
    report = reports[0]
    assert report.bytes > 0
    if verdict == "cancelled":
        assert report.records.total >= 1
    if ending == "client timeout":
        reason = report.response.status_reason or ""
        assert reason.startswith("the client hung up after 0."), reason
        assert reason.endswith(" s without data"), reason
    client.close()
    gc.collect()
    assert len(reports) == 1


@pytest.mark.parametrize("sdk", ["openai", "anthropic"])
def test_a_cancelled_task_gives_one_cancelled_report(
    sdk: str, server: ServerThread, reports: list[ssescope.Report]
) -> None:
    async def main() -> None:
        http = ssescope.async_http_client(on_report=reports.append)
        query = {"fault": STALL}
        client: Any
        if sdk == "openai":
            client = openai.AsyncOpenAI(
                base_url=server.url + "/openai_chat/v1", api_key="sk-x", http_client=http
            )
            make = client.chat.completions.create(
                model="m", messages=OPENAI_MESSAGES, stream=True, extra_query=query
            )
        else:
            client = anthropic.AsyncAnthropic(
                base_url=server.url + "/anthropic", api_key="sk-x", http_client=http
            )
            make = client.messages.create(
                model="m", max_tokens=8, messages=ANTHROPIC_MESSAGES, stream=True, extra_query=query
            )
        arrived = asyncio.Event()

        async def read() -> None:
            async for _ in await make:
                arrived.set()

        task = asyncio.create_task(read())
        await arrived.wait()
        await asyncio.sleep(0.1)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        await client.close()

    asyncio.run(main())
    gc.collect()
    assert [r.status for r in reports] == ["cancelled"]
    assert reports[0].records.total >= 1


@pytest.fixture(scope="module")
def examples() -> Iterator[ServerThread]:
    """``ssescope serve`` over the bundled examples (a Gemini stream among them)."""
    app = make_app(load_captures(EXAMPLES), ReplayOptions(), log=Null())
    with ServerThread(app) as running:
        yield running


@pytest.mark.parametrize("leave", [False, True])
def test_the_google_genai_sdk_is_judged_through_the_helper(
    leave: bool, examples: ServerThread, reports: list[ssescope.Report]
) -> None:
    from google import genai
    from google.genai import types

    http = ssescope.http_client(on_report=reports.append)
    options = types.HttpOptions(base_url=examples.url + "/gemini-crlf", httpx_client=http)
    client = genai.Client(api_key="AIza-test-0123456789abcdef", http_options=options)
    text = ""
    for chunk in client.models.generate_content_stream(model="gemini-2.0-flash", contents="hi"):
        text += chunk.text or ""
        if leave:
            break
    gc.collect()
    http.close()
    assert len(reports) == 1
    report = reports[0]
    assert report.provider == "gemini"
    assert report.request is not None
    assert report.request.model == "gemini-2.0-flash"
    if leave:
        assert report.status == "cancelled"
    else:
        assert report.status == "completed"
        assert report.text == text
    assert "AIza-test" not in str(report.to_dict())
