"""The plugin as a user meets it: the fixture, the chunkings, the judge, auto-loading."""

from __future__ import annotations

import json
from pathlib import Path

import httpx
import pytest

from ssescope.errors import UsageError
from ssescope.testing import CHUNKINGS, SSEScopeServer, assert_assembled, chunkings

pytestmark = pytest.mark.network


def chat_stream(*parts: str, finish: str = "stop") -> bytes:
    """A Chat Completions stream whose content arrives in ``parts``."""
    chunk = {"id": "c1", "object": "chat.completion.chunk", "created": 1, "model": "m"}
    events = [{**chunk, "choices": [{"index": 0, "delta": {"role": "assistant", "content": ""}}]}]
    events += [{**chunk, "choices": [{"index": 0, "delta": {"content": p}}]} for p in parts]
    events.append({**chunk, "choices": [{"index": 0, "delta": {}, "finish_reason": finish}]})
    lines = [f"data: {json.dumps(e, ensure_ascii=False)}\n\n" for e in events]
    return ("".join(lines) + "data: [DONE]\n\n").encode()


STREAM = chat_stream("Crème brûlée ", "für 4 — ", "☕ 🍮")


def naive_text(url: str) -> dict[str, object]:
    """A client with a classic bug: it decodes each network read on its own."""
    text, finish = "", None
    buffer = ""
    with httpx.stream("POST", url + "/chat/completions", json={}) as response:
        for raw in response.iter_raw():
            buffer += raw.decode("utf-8", errors="replace")
            *lines, buffer = buffer.split("\n")
            for line in lines:
                if line.startswith("data: {"):
                    choice = json.loads(line[6:])["choices"][0]
                    text += choice["delta"].get("content") or ""
                    finish = choice.get("finish_reason") or finish
    return {"text": text, "finish_reason": finish}


def careful_text(url: str) -> dict[str, object]:
    """The same client, decoding the bytes incrementally."""
    import openai  # imported by the tests that drive it, not at collection

    client = openai.OpenAI(base_url=url, api_key="test", max_retries=0)
    with client.chat.completions.stream(model="m", messages=[]) as stream:
        for _ in stream:
            pass
        final = stream.get_final_completion()
    client.close()
    return {"text": final.choices[0].message.content, "finish_reason": "stop"}


def test_every_chunking_of_the_same_stream_is_assembled_alike_by_a_careful_client(
    ssescope_server: SSEScopeServer, ssescope_chunking: str
) -> None:
    url = ssescope_server.url(STREAM, chunk=ssescope_chunking)
    report = assert_assembled(url, careful_text(url))
    assert report.text == "Crème brûlée für 4 — ☕ 🍮"


@pytest.mark.ssescope_chunkings("1", "split-utf8")
def test_the_judge_catches_a_client_that_breaks_characters_split_across_reads(
    ssescope_server: SSEScopeServer, ssescope_chunking: str
) -> None:
    url = ssescope_server.url(STREAM, chunk=ssescope_chunking)
    with pytest.raises(AssertionError) as info:
        assert_assembled(url, naive_text(url))
    message = str(info.value)
    assert message.startswith("the client's result (expected fields) differs from the stream")
    assert "outputs[0].text: the result has" in message
    assert "+Crème brûlée für 4 — ☕ 🍮" in message


def test_the_same_wrong_client_passes_when_the_stream_arrives_whole(
    ssescope_server: SSEScopeServer,
) -> None:
    url = ssescope_server.url(STREAM, chunk="whole")
    assert_assembled(url, naive_text(url))


def test_the_judge_names_every_differing_field_of_an_sdk_object(
    ssescope_server: SSEScopeServer,
) -> None:
    url = ssescope_server.url("openai-chat-tool-call", quirk="duplicate-tool-args")
    import openai  # imported by the tests that drive it, not at collection

    client = openai.OpenAI(base_url=url, api_key="test", max_retries=0)
    with client.chat.completions.stream(model="m", messages=[]) as stream:
        for _ in stream:
            pass
        final = stream.get_final_completion()
    # a client that "repairs" the doubled arguments and reports a different reason
    assert final.choices[0].message.tool_calls is not None
    final.choices[0].message.tool_calls[0].function.arguments = '{"city": "Lyon"}'
    final.choices[0].finish_reason = "stop"
    with pytest.raises(AssertionError) as info:
        assert_assembled(url, final)
    lines = str(info.value).splitlines()
    assert lines[0].startswith("the client's result (an openai ChatCompletion) differs")
    assert any(line.startswith("  outputs[0].tool_calls[0].arguments") for line in lines)
    assert any(
        line.startswith("  outputs[0].finish_reason: the result has 'stop'") for line in lines
    )


def test_the_judge_reads_a_path_bytes_or_an_example_name(tmp_path: Path) -> None:
    path = tmp_path / "s.sse"
    path.write_bytes(STREAM)
    expected = {"text": "Crème brûlée für 4 — ☕ 🍮"}
    for source in (path, str(path), STREAM):
        assert assert_assembled(source, expected).status == "completed"
    assert_assembled("openai-chat-tool-call", {"finish_reason": "tool_calls"})
    with pytest.raises(UsageError, match="no example named 'nope'"):
        assert_assembled("nope", expected)


async def test_an_async_sdk_client_reads_the_fixture_too(ssescope_server: SSEScopeServer) -> None:
    url = ssescope_server.url("anthropic-thinking-tool-use", chunk="random:7", delay=1)
    import anthropic

    client = anthropic.AsyncAnthropic(base_url=url, api_key="test", max_retries=0)
    async with client.messages.stream(
        model="m", max_tokens=64, messages=[{"role": "user", "content": "hi"}]
    ) as stream:
        async for _ in stream:
            pass
        message = await stream.get_final_message()
    await client.close()
    assert assert_assembled(url, message).status == "completed"


def test_url_serves_under_a_path_of_its_own_and_logs_each_request(
    ssescope_server: SSEScopeServer,
) -> None:
    one = ssescope_server.url("ollama-chat", path="/api")
    two = ssescope_server.url("ollama-chat", fault="cut@40")
    assert one != two and one.endswith("/api") and one.startswith("http://127.0.0.1:")
    assert httpx.post(one + "/chat").content == one.body
    assert httpx.post(two).content == two.body == one.body[:40]
    assert any(" faults=cut@40 " in line for line in ssescope_server.requests)


def test_bad_arguments_are_refused_when_the_url_is_made(ssescope_server: SSEScopeServer) -> None:
    with pytest.raises(UsageError, match="unknown fault"):
        ssescope_server.url("ollama-chat", fault="explode")
    with pytest.raises(UsageError, match="does not apply to ollama streams"):
        ssescope_server.url("ollama-chat", quirk="no-assistant-role")
    for fault in ("cut@record:99", "garble@record:50"):  # would serve the stream unharmed
        with pytest.raises(UsageError, match=r"does not fit this stream: it has \d+ record"):
            ssescope_server.url("ollama-chat", fault=fault)
    with pytest.raises(UsageError, match="bad chunking"):
        ssescope_server.url("ollama-chat", chunk="sideways")
    with pytest.raises(UsageError, match="no such file"):
        ssescope_server.url("no/such/file.sse")


def test_the_default_chunkings_cover_whole_one_byte_seeds_and_utf8() -> None:
    assert CHUNKINGS == ("whole", "1", "random:1", "random:2", "random:3", "split-utf8")
    assert chunkings([9]) == ["whole", "1", "random:9", "split-utf8"]


def test_the_server_stops_cleanly_and_frees_its_port() -> None:
    with SSEScopeServer() as server:
        url = server.url("ollama-chat")
        assert httpx.post(url).status_code == 200
        thread = server._thread._thread
    assert not thread.is_alive()
    with pytest.raises(httpx.ConnectError):
        httpx.post(url)
