"""``check --against`` a result the real Vercel AI SDK built from the same real stream.

``vercel_sdk/stream_text.mjs`` runs the SDK's ``streamText`` over a capture's bytes (its
provider's fetch answered with them) and prints the result. The SDK and its provider
packages are pinned in ``vercel_sdk/package.json`` and ``package-lock.json``; ``npm ci``
installs them into ``vercel_sdk/node_modules`` (not committed) the first time. Without
``node`` and ``npm`` the tests are skipped, saying so.

The SDK's own conventions (zero-filled and computed usage, reasoning inside output tokens,
generated ids, its finish names) are not differences; what it lost or read otherwise is.
"""

from __future__ import annotations

import fcntl
import json
import shutil
import subprocess
import tempfile
from pathlib import Path
from typing import Any

import pytest
from tests.cli.cli_helpers import run
from tests.compare.clients import STREAMS, stream_bytes

SDK = Path(__file__).parent / "vercel_sdk"

# the tests share one install of the SDK: one worker runs them all (`--dist loadgroup`)
pytestmark = pytest.mark.xdist_group("vercel-sdk")

# The SDK provider package that reads each provider's streams (as an app would use it).
PROVIDERS = {
    "openai-chat": "openai-chat",
    "azure-openai": "azure",
    "deepseek": "deepseek",
    "groq": "groq",
    "alibaba-dashscope": "alibaba",
    "xai": "xai",
    "mistral": "mistral",
    "moonshot": "moonshotai",
    "perplexity": "perplexity",
    "openai-responses": "openai-responses",
    "lmstudio-responses": "open-responses",
    "xai-responses": "xai-responses",
    "anthropic": "anthropic",
    "gemini": "google",
}

# What the SDK really does otherwise, stream by stream (every other stream agrees).
DIFFER = {
    # n=3: the SDK appends the three choices' deltas into one text
    "openai-chat/n3-choices.sse": {"outputs[0].text"},
    # four responses back to back: the SDK folds them into one result
    "openai-responses/reasoning-summary-function-calls-4-turns.jsonl": {
        "outputs[0].reasoning",
        "outputs[0].tool_calls",
        "outputs[0].tool_calls[0]",
        "outputs[0].tool_calls[1]",
        "outputs[0].tool_calls[2]",
        "outputs[0].finish_reason",
    },
    # the body ends without a blank line after message_stop: the SDK drops that event and
    # loses the cut tool call, the finish reason and the usage
    "anthropic/max-tokens-mid-tool-input.sse": {
        "outputs[0].tool_calls",
        "outputs[0].tool_calls[0]",
        "outputs[0].finish_reason",
        "usage.input_tokens",
        "usage.output_tokens",
    },
    "anthropic/text-then-tool-use.sse": {
        "outputs[0].finish_reason",
        "usage.input_tokens",
        "usage.output_tokens",
    },
    # a second message_start inside the first message: the SDK fails the stream
    "anthropic/spliced-message-start.jsonl": {
        "outputs[0].reasoning",
        "outputs[0].tool_calls",
        "outputs[0].tool_calls[0]",
        "outputs[0].tool_calls[1]",
        "outputs[0].finish_reason",
        "usage.input_tokens",
        "usage.output_tokens",
    },
}


def _streams() -> list[str]:
    if not STREAMS.is_dir():
        return []
    return [
        f"{folder}/{path.name}"
        for folder in PROVIDERS
        for path in sorted((STREAMS / folder).iterdir())
    ]


@pytest.fixture(scope="module")
def sdk() -> Path:
    """The SDK's script, its pinned packages installed."""
    node, npm = shutil.which("node"), shutil.which("npm")
    if node is None or npm is None:
        pytest.skip("node and npm are needed to run the Vercel AI SDK (CI has them)")
    # One install per machine: pytest-xdist workers that meet this fixture at once wait for
    # the first (two `npm ci` in one folder remove each other's files).
    with (Path(tempfile.gettempdir()) / "ssescope-vercel-sdk.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not (SDK / "node_modules" / "ai" / "package.json").is_file():
            subprocess.run(
                [npm, "ci", "--no-audit", "--no-fund", "--ignore-scripts"],
                cwd=SDK,
                check=True,
                capture_output=True,
                timeout=600,
            )
    return SDK / "stream_text.mjs"


def stream_text(script: Path, *reads: tuple[str, Path]) -> list[dict[str, Any]]:
    """The results ``streamText`` gives for each ``(provider, body)``: the body read by the
    SDK's provider package. One ``node`` reads them all (loading the SDK is most of a run)."""
    argv = [str(part) for pair in reads for part in pair]
    done = subprocess.run(
        ["node", str(script), *argv], capture_output=True, text=True, check=True, timeout=300
    )
    results = [json.loads(line) for line in done.stdout.splitlines()]
    assert len(results) == len(reads), done.stderr
    return results


@pytest.fixture(scope="module")
def sdk_results(sdk: Path, tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict[str, Any]]:
    """What the SDK built from every real stream, by name (one run of the script)."""
    folder = tmp_path_factory.mktemp("vercel-sdk")
    names = _streams()
    reads = []
    for number, name in enumerate(names):
        wire = folder / f"{number}.sse"
        wire.write_bytes(stream_bytes(name))
        reads.append((PROVIDERS[name.split("/", 1)[0]], wire))
    return dict(zip(names, stream_text(sdk, *reads), strict=True))


def _check(tmp_path: Path, name: str, body: bytes, result: dict[str, Any]) -> tuple[int, Any]:
    wire = tmp_path / "stream.sse"
    wire.write_bytes(body)
    saved = tmp_path / "result.json"
    saved.write_text(json.dumps(result))
    checked = run("check", str(wire), "--against", str(saved), "--json")
    return checked.code, json.loads(checked.out)


@pytest.mark.parametrize("name", _streams())
def test_the_sdk_result_differs_only_where_the_sdk_really_differs(
    sdk_results: dict[str, dict[str, Any]], tmp_path: Path, name: str
) -> None:
    code, data = _check(tmp_path, name, stream_bytes(name), sdk_results[name])
    assert data["shape"] == "vercel-ai-sdk"
    assert {d["path"] for d in data["differences"]} == DIFFER.get(name, set())
    status = data["stream"]["status"]
    broken = {"truncated": 3, "failed": 4}
    expected = broken.get(status, 5 if name in DIFFER else 0)
    assert code == expected, data


def test_the_real_streams_are_all_compared() -> None:
    if not STREAMS.is_dir():
        pytest.skip(f"the real captured streams are not at {STREAMS}")
    names = _streams()
    assert len(names) >= 35
    assert set(DIFFER) <= set(names)


def test_an_unfinished_call_without_argument_bytes_is_not_the_sdks_empty_object(
    sdk: Path, tmp_path: Path
) -> None:
    # OpenAI Chat: the call's first fragment (id, name, arguments ""), then the body ends
    chunk = {
        "id": "chatcmpl-1",
        "object": "chat.completion.chunk",
        "created": 1,
        "model": "gpt-4o",
        "choices": [
            {
                "index": 0,
                "delta": {
                    "role": "assistant",
                    "content": None,
                    "tool_calls": [
                        {
                            "index": 0,
                            "id": "call_1",
                            "type": "function",
                            "function": {"name": "get_weather", "arguments": ""},
                        }
                    ],
                },
                "finish_reason": None,
            }
        ],
    }
    body = f"data: {json.dumps(chunk)}\n\n".encode()
    wire = tmp_path / "cut.sse"
    wire.write_bytes(body)
    [result] = stream_text(sdk, ("openai-chat", wire))
    code, data = _check(tmp_path, "openai-chat/cut.sse", body, result)
    assert code == 3  # the stream itself is truncated
    assert data["stream"]["status"] == "truncated"
    [diff] = data["differences"]
    assert diff["path"] == "outputs[0].tool_calls[0].arguments"
    assert diff["message"] == (
        "the result has {}, but the call never ended in the stream and carried no argument bytes"
    )


def test_the_library_reads_the_sdks_conventions_and_still_sees_real_differences(
    sdk_results: dict[str, dict[str, Any]], tmp_path: Path
) -> None:
    import copy

    import ssescope
    from ssescope.compare import compare_result

    if not STREAMS.is_dir():
        pytest.skip(f"the real captured streams are not at {STREAMS} (set SSESCOPE_REAL_STREAMS)")
    # Gemini: no call ids (the SDK makes them up), STOP with a call (the SDK says
    # tool-calls), outputTokens = candidates + thoughts, cachedInputTokens 0-filled
    name = "gemini/function-call-thought-signature.jsonl"
    wire = tmp_path / "stream.sse"
    wire.write_bytes(stream_bytes(name))
    result = copy.deepcopy(sdk_results[name])  # (changed below)
    report = ssescope.inspect(wire)
    usage = report.usage
    assert usage is not None and usage.output_tokens is not None and usage.reasoning_tokens
    assert result["finishReason"] == "tool-calls" and result["rawFinishReason"] == "STOP"
    assert result["toolCalls"][0]["toolCallId"]
    assert result["usage"]["outputTokens"] == usage.output_tokens + usage.reasoning_tokens
    assert compare_result(result, report) == []
    arguments = report.outputs[0].tool_calls[0].input
    assert isinstance(arguments, dict)
    result["rawFinishReason"] = "MAX_TOKENS"
    result["usage"]["outputTokens"] += 1
    result["toolCalls"][0]["input"] = {}
    assert [d.path for d in compare_result(result, report)] == [
        *[f"outputs[0].tool_calls[0].arguments.{key}" for key in sorted(arguments)],
        "outputs[0].finish_reason",
        "usage.output_tokens",
    ]
