"""The ways an app ends a stream, with the openai and anthropic SDKs: shared by
``otel_compare.py`` and the OpenInference side it runs in a venv of its own (this module
imports only the SDKs and the standard library).

Each scenario makes one streamed request against ``base_url`` (a chat completion, or a
message) and ends it one way: read to the end, ``break``, ``close()``, the stream
garbage-collected unread, a client timeout, an exception in the app's loop, or
``asyncio`` task cancellation.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
from typing import Any

ENDINGS = ("end", "break", "close", "gc", "timeout", "exception", "cancel")
SDKS = ("openai", "anthropic")
MESSAGES = [{"role": "user", "content": "Say hello"}]
KEYS = {
    "openai": "sk-proj-BENCHKEY000000000000000001",
    "anthropic": "sk-ant-api03-BENCHKEY0000000001",
}


class AppError(Exception):
    """What the app's own loop raises in the ``exception`` ending."""


def _client(sdk: str, asynchronous: bool, **kw: Any) -> Any:
    if sdk == "openai":
        import openai

        return (openai.AsyncOpenAI if asynchronous else openai.OpenAI)(api_key=KEYS[sdk], **kw)
    import anthropic

    return (anthropic.AsyncAnthropic if asynchronous else anthropic.Anthropic)(
        api_key=KEYS[sdk], **kw
    )


def _create(sdk: str, client: Any) -> Any:
    if sdk == "openai":
        return client.chat.completions.create(model="gpt-4o-mini", messages=MESSAGES, stream=True)
    return client.messages.create(
        model="claude-sonnet-4-5", max_tokens=64, messages=MESSAGES, stream=True
    )


def run(
    ending: str,
    base_url: str,
    fault: str = "",
    *,
    sdk: str = "openai",
    http_client: Any = None,
    async_client: Any = None,
) -> str:
    """Run one scenario (``fault``: the replay server's ``?fault=``); return what the app
    saw (``"ok"`` or the exception's name)."""
    query = {"fault": fault} if fault else None
    if ending == "cancel":
        return asyncio.run(_cancel(sdk, base_url, query, async_client))
    timeout = 0.5 if ending == "timeout" else 30.0
    client = _client(
        sdk,
        False,
        base_url=base_url,
        timeout=timeout,
        max_retries=0,
        http_client=http_client,
        default_query=query,
    )
    seen = "ok"
    try:
        stream = _create(sdk, client)
        if ending == "gc":
            del stream
            gc.collect()
            return seen
        for n, _event in enumerate(stream, 1):
            if n == 2 and ending == "break":
                break
            if n == 2 and ending == "close":
                stream.close()
                break
            if n == 2 and ending == "exception":
                raise AppError("the app failed mid-stream")
        del stream
        gc.collect()
    except Exception as exc:
        seen = type(exc).__name__
    finally:
        client.close()
    return seen


async def _cancel(sdk: str, base_url: str, query: dict[str, str] | None, async_client: Any) -> str:
    client = _client(
        sdk, True, base_url=base_url, max_retries=0, http_client=async_client, default_query=query
    )
    started = asyncio.Event()

    async def consume() -> None:
        stream = await _create(sdk, client)
        async for _event in stream:
            started.set()
            await asyncio.sleep(0)

    task = asyncio.create_task(consume())
    await asyncio.wait_for(started.wait(), 10)
    task.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await task
    await client.close()
    gc.collect()
    return "CancelledError"
