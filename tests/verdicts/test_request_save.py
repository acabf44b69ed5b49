"""``ssescope request --save`` keeps the request body, so the capture knows its tools."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

from ssescope.cli.request_cmd import request_command
from ssescope.containers import read_path
from ssescope.serve.app import ReplayOptions, ServerThread, load_captures, make_app

pytestmark = pytest.mark.network

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "live"


class _Null:
    def write(self, text: str) -> int:
        return len(text)

    def flush(self) -> None:
        pass


@pytest.fixture(scope="module")
def server() -> Iterator[ServerThread]:
    app = make_app(load_captures(FIXTURES), ReplayOptions(chunk="original"), log=_Null())
    with ServerThread(app) as running:
        yield running


def test_the_saved_capture_keeps_the_request_body_and_its_tools(
    server: ServerThread, tmp_path: Path
) -> None:
    body = {
        "model": "gpt-test",
        "stream": True,
        "tools": [
            {
                "type": "function",
                "function": {"name": "get_weather", "parameters": {"required": ["city"]}},
            }
        ],
    }
    cap = tmp_path / "run.ssecap"
    result = CliRunner().invoke(
        request_command,
        [server.url + "/openai_chat/v1", "-d", json.dumps(body), "--json", "--save", str(cap)],
        catch_exceptions=False,
    )
    assert result.exit_code == 0
    header = json.loads(cap.read_text(encoding="utf-8").splitlines()[0])
    assert header["request"]["body"] == body
    assert [(t.name, t.required) for t in read_path(cap).tools] == [("get_weather", ("city",))]


def test_a_body_that_is_not_json_is_kept_as_text(server: ServerThread, tmp_path: Path) -> None:
    cap = tmp_path / "run.ssecap"
    CliRunner().invoke(
        request_command,
        [server.url + "/openai_chat/v1", "-d", "plain words", "--json", "--save", str(cap)],
        catch_exceptions=False,
    )
    header = json.loads(cap.read_text(encoding="utf-8").splitlines()[0])
    assert header["request"]["body"] == "plain words"
    assert read_path(cap).tools == ()
