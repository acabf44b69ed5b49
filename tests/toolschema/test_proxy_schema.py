"""The proxy checks a recorded exchange's tool calls against the schema of its request.

``ssescope serve`` replays a call that breaks the schema; the app's request, sent through
the proxy, declares the tool. The proxy's line, its JSON line and its capture all say so.
"""

from __future__ import annotations

import io
import json
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from ssescope import inspect
from ssescope.proxy import ProxyThread
from ssescope.proxy.display import exchange_json, exchange_line
from ssescope.serve.app import ReplayOptions, ServerThread, load_captures, make_app

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "toolschema"

SCHEMA = {
    "type": "object",
    "properties": {
        "city": {"type": "string"},
        "unit": {"type": "string", "enum": ["celsius", "fahrenheit"]},
    },
    "required": ["city", "unit"],
    "additionalProperties": False,
}


def request_body(tools: bool) -> dict[str, Any]:
    """The app's request: streamed, declaring get_weather when ``tools``."""
    body: dict[str, Any] = {
        "model": "gpt-test",
        "stream": True,
        "messages": [{"role": "user", "content": "Weather in Paris?"}],
    }
    if tools:
        function = {"name": "get_weather", "parameters": SCHEMA, "strict": True}
        body["tools"] = [{"type": "function", "function": function}]
    return body


@pytest.fixture(scope="module")
def upstream(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerThread]:
    """``ssescope serve`` replaying a call with an unknown unit and an unknown property."""
    folder = tmp_path_factory.mktemp("served")
    shutil.copy(FIXTURES / "chat-strict-mismatch.ssecap", folder / "weather.ssecap")
    app = make_app(load_captures(folder), ReplayOptions(chunk="original"), log=io.StringIO())
    with ServerThread(app) as running:
        yield running


@pytest.mark.network
def test_the_proxy_line_json_and_capture_name_the_calls_off_schema(
    upstream: ServerThread, tmp_path: Path
) -> None:
    folder = tmp_path / "captures"
    with ProxyThread(upstream.url, record=folder) as proxy:
        for tools in (True, False):
            reply = httpx.post(proxy.url + "/weather/v1/chat/completions", json=request_body(tools))
            assert reply.status_code == 200
        proxy.flush()
        declared, bare = sorted(proxy.registry.finished(), key=lambda ex: ex.seq)
    assert declared.schema_mismatches == 1
    assert "tool.schema-mismatch" in declared.diagnostics
    assert "1 tool call off schema" in exchange_line(declared).plain
    assert json.loads(exchange_json(declared))["schema_mismatches"] == 1
    # the same reply to a request that declared no tool: nothing to check it against
    assert bare.schema_mismatches is None
    assert "off schema" not in exchange_line(bare).plain

    # the capture keeps the request, so inspecting it later finds the same
    assert declared.capture is not None
    report = inspect(declared.capture)
    mismatches = [d for d in report.diagnostics if d.code == "tool.schema-mismatch"]
    assert {(d.args or {})["rule"] for d in mismatches} == {"additionalProperties", "enum"}
