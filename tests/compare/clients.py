"""Final results built by the real client SDKs from the real captured bytes.

Each SDK talks to an httpx ``MockTransport`` that answers its request with the capture,
and its own stream accumulator builds the final object (openai's
``get_final_completion()`` / ``get_final_response()``, anthropic's
``get_final_message()``). The Gemini SDK parses every streamed chunk itself and has no
accumulator: the chunks are merged here the way a client does (texts appended per
candidate, calls collected, the last finish reason and usage kept) into one
``GenerateContentResponse`` of the SDK's own types.
"""

from __future__ import annotations

import importlib
import json
import os
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parents[2]
STREAMS = Path(os.environ.get("SSESCOPE_REAL_STREAMS", ROOT.parent / "shared" / "real_streams"))


def stream_bytes(name: str) -> bytes:
    """The capture as the wire carried it (JSONL captures are replayed as the README says)."""
    path = STREAMS / name
    if path.suffix == ".sse":
        return path.read_bytes()
    lines = [line for line in path.read_text().splitlines() if line.strip()]
    provider = name.split("/", maxsplit=1)[0]
    if provider.endswith("responses") or provider == "anthropic":
        events = [f"event: {json.loads(line)['type']}\ndata: {line}\n\n" for line in lines]
        return "".join(events).encode()
    if provider == "gemini":
        return "".join(f"data: {line}\r\n\r\n" for line in lines).encode()
    return ("".join(f"data: {line}\n\n" for line in lines) + "data: [DONE]\n\n").encode()


def _http(body: bytes, lib: Any = httpx) -> Any:
    """An HTTP client of ``lib`` (httpx, or the httpx2 fork newer anthropic SDKs use)
    whose every request is answered with ``body``."""

    def answer(request: Any) -> Any:
        return lib.Response(200, headers={"content-type": "text/event-stream"}, content=body)

    return lib.Client(transport=lib.MockTransport(answer))


def openai_chat_completion(name: str) -> Any:
    """The ``ChatCompletion`` the openai SDK's stream helper builds from the capture."""
    import openai

    client = openai.OpenAI(
        api_key="test", base_url="http://127.0.0.1/v1", http_client=_http(stream_bytes(name))
    )
    with client.chat.completions.stream(
        model="m", messages=[{"role": "user", "content": "hi"}]
    ) as stream:
        for _ in stream:
            pass
        return stream.get_final_completion()


def openai_response(name: str) -> Any:
    """The Responses ``Response`` the openai SDK's stream helper builds from the capture."""
    import openai

    client = openai.OpenAI(
        api_key="test", base_url="http://127.0.0.1/v1", http_client=_http(stream_bytes(name))
    )
    with client.responses.stream(model="m", input="hi") as stream:
        for _ in stream:
            pass
        return stream.get_final_response()


def anthropic_message(name: str) -> Any:
    """The ``Message`` the anthropic SDK's stream helper builds from the capture."""
    import anthropic

    body = stream_bytes(name)
    try:
        client = anthropic.Anthropic(
            api_key="test", base_url="http://127.0.0.1", http_client=_http(body)
        )
    except TypeError:  # an SDK built on the httpx2 fork takes only its clients
        lib = importlib.import_module("httpx2")
        client = anthropic.Anthropic(
            api_key="test", base_url="http://127.0.0.1", http_client=_http(body, lib)
        )
    with client.messages.stream(
        model="m", max_tokens=10, messages=[{"role": "user", "content": "hi"}]
    ) as stream:
        for _ in stream:
            pass
        return stream.get_final_message()


def gemini_response(name: str) -> Any:
    """One ``GenerateContentResponse`` merged from the chunks the Gemini SDK streams."""
    from google import genai
    from google.genai import types

    client = genai.Client(
        api_key="test",
        http_options=types.HttpOptions(
            base_url="http://127.0.0.1", httpx_client=_http(stream_bytes(name))
        ),
    )
    chunks = list(client.models.generate_content_stream(model="m", contents="hi"))
    parts: dict[int, list[Any]] = {}
    finish: dict[int, Any] = {}
    for chunk in chunks:
        for candidate in chunk.candidates or []:
            index = candidate.index or 0
            merged = parts.setdefault(index, [])
            for part in (candidate.content.parts if candidate.content else None) or []:
                last = merged[-1] if merged else None
                if (
                    part.text is not None
                    and last is not None
                    and last.text is not None
                    and bool(last.thought) == bool(part.thought)
                ):
                    merged[-1] = types.Part(text=last.text + part.text, thought=last.thought)
                elif part.text or part.function_call:
                    merged.append(part)
            if candidate.finish_reason is not None:
                finish[index] = candidate.finish_reason
    return types.GenerateContentResponse(
        candidates=[
            types.Candidate(
                index=index,
                content=types.Content(role="model", parts=merged),
                finish_reason=finish.get(index),
            )
            for index, merged in sorted(parts.items())
        ],
        usage_metadata=chunks[-1].usage_metadata,
        response_id=chunks[-1].response_id,
    )
