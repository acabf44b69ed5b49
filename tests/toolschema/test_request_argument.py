"""The request given to the library: ``inspect(request=)``, the live iterators'
``request=``, and the in-app transport, which reads the app's own request body."""

from __future__ import annotations

import io
import json
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import openai
import pytest
from click.testing import CliRunner

import ssescope
from ssescope.cli.request_cmd import request_command
from ssescope.containers import read_path
from ssescope.serve.app import ReplayOptions, ServerThread, load_captures, make_app
from ssescope.sources.httpx import iter_events

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "toolschema"
CAPTURE = FIXTURES / "chat-strict-mismatch.ssecap"
BODY = read_path(CAPTURE).body  # the stream alone, without its request
REQUEST: dict[str, Any] = json.loads(CAPTURE.read_text(encoding="utf-8").splitlines()[0])[
    "request"
]["body"]


def mismatches(report: ssescope.Report) -> list[str]:
    """The JSON paths of the report's schema mismatches."""
    return sorted(
        str((d.args or {})["path"]) for d in report.diagnostics if d.code == "tool.schema-mismatch"
    )


def test_inspect_checks_a_bare_body_against_the_request_it_is_given() -> None:
    assert mismatches(ssescope.inspect(BODY)) == []
    assert mismatches(ssescope.inspect(BODY, request=REQUEST)) == ["$", "$.unit"]
    assert mismatches(ssescope.inspect(BODY, request=json.dumps(REQUEST))) == ["$", "$.unit"]
    (only,) = ssescope.inspect_all(BODY, request=REQUEST)
    assert mismatches(only) == ["$", "$.unit"]


def test_a_request_given_replaces_the_one_a_capture_keeps() -> None:
    loose = json.loads(json.dumps(REQUEST))
    loose["tools"][0]["function"]["parameters"] = {"type": "object"}
    loose["tools"][0]["function"]["strict"] = False
    assert mismatches(ssescope.inspect(CAPTURE)) == ["$", "$.unit"]
    assert mismatches(ssescope.inspect(CAPTURE, request=loose)) == []


def test_the_live_iterator_checks_against_its_request_argument() -> None:
    client = httpx.Client(
        transport=httpx.MockTransport(lambda _r: httpx.Response(200, content=BODY))
    )
    with client, client.stream("POST", "http://127.0.0.1/v1/chat/completions") as response:
        live = iter_events(response, request=REQUEST)
        for _ in live:
            pass
    assert live.report is not None
    assert mismatches(live.report) == ["$", "$.unit"]


@pytest.fixture(scope="module")
def upstream(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerThread]:
    """``ssescope serve`` replaying the call that breaks the schema."""
    folder = tmp_path_factory.mktemp("served")
    shutil.copy(CAPTURE, folder / "weather.ssecap")
    app = make_app(load_captures(folder), ReplayOptions(chunk="original"), log=io.StringIO())
    with ServerThread(app) as running:
        yield running


@pytest.mark.network
def test_the_transport_checks_the_calls_of_the_openai_sdk_against_its_request(
    upstream: ServerThread,
) -> None:
    reports: list[ssescope.Report] = []
    client = openai.OpenAI(
        base_url=upstream.url + "/weather/v1",
        api_key="sk-test-0123456789abcdef",
        max_retries=0,
        http_client=ssescope.http_client(on_report=reports.append),
    )
    stream = client.chat.completions.create(
        model="gpt-test",
        messages=REQUEST["messages"],
        tools=REQUEST["tools"],
        stream=True,
    )
    for _ in stream:
        pass
    (report,) = reports
    assert mismatches(report) == ["$", "$.unit"]


@pytest.mark.network
def test_ssescope_request_checks_the_calls_against_the_body_it_sends(
    upstream: ServerThread, tmp_path: Path
) -> None:
    saved = tmp_path / "run.ssecap"
    url = upstream.url + "/weather/v1/chat/completions"
    result = CliRunner().invoke(
        request_command, [url, "-d", json.dumps(REQUEST), "--json", "--save", str(saved)]
    )
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    found = sorted(
        d["args"]["path"] for d in data["diagnostics"] if d["code"] == "tool.schema-mismatch"
    )
    assert found == ["$", "$.unit"]
    # and the capture it saved finds the same when inspected later
    assert mismatches(ssescope.inspect(saved)) == ["$", "$.unit"]
