"""The ways an app ends a stream, with the openai SDK: shared by ``otel_compare.py`` and the
OpenInference side it runs in Phoenix's venv (this module imports only openai and the
standard library).

Each scenario makes one streamed chat completion against ``base_url`` and ends it one way:
read to the end, ``break``, ``close()``, the stream garbage-collected unread, a client
timeout, an exception in the app's loop, or ``asyncio`` task cancellation.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
from typing import Any

ENDINGS = ("end", "break", "close", "gc", "timeout", "exception", "cancel")
MESSAGES = [{"role": "user", "content": "Say hello"}]
KEY = "sk-proj-BENCHKEY000000000000000001"


class AppError(Exception):
    """What the app's own loop raises in the ``exception`` ending."""


def run(
    ending: str,
    base_url: str,
    fault: str = "",
    *,
    http_client: Any = None,
    async_client: Any = None,
) -> str:
    """Run one scenario (``fault``: the replay server's ``?fault=``); return what the app
    saw (``"ok"`` or the exception's name)."""
    import openai

    query = {"fault": fault} if fault else None
    if ending == "cancel":
        return asyncio.run(_cancel(base_url, query, async_client))
    timeout = 0.5 if ending == "timeout" else 30.0
    client = openai.OpenAI(
        base_url=base_url,
        api_key=KEY,
        timeout=timeout,
        max_retries=0,
        http_client=http_client,
        default_query=query,
    )
    seen = "ok"
    try:
        stream = client.chat.completions.create(
            model="gpt-4o-mini",
            messages=MESSAGES,
            stream=True,  # type: ignore[arg-type]
        )
        if ending == "gc":
            del stream
            gc.collect()
            return seen
        for n, _chunk in enumerate(stream, 1):
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


async def _cancel(base_url: str, query: dict[str, str] | None, async_client: Any) -> str:
    import openai

    client = openai.AsyncOpenAI(
        base_url=base_url,
        api_key=KEY,
        max_retries=0,
        http_client=async_client,
        default_query=query,
    )
    started = asyncio.Event()

    async def consume() -> None:
        stream = await client.chat.completions.create(
            model="gpt-4o-mini",
            messages=MESSAGES,
            stream=True,  # type: ignore[arg-type]
        )
        async for _chunk in stream:
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
