"""``ssescope export-otel``: captures and record folders, over OTLP/HTTP to a receiver."""

from __future__ import annotations

import json
import shutil
import socket
from pathlib import Path

import pytest
from click.testing import CliRunner

from ssescope.cli import cli
from ssescope.otel.facts import parse_time_ns

from .receiver import otlp_receiver

pytestmark = pytest.mark.network

CONTAINERS = Path(__file__).resolve().parent.parent / "fixtures" / "containers"
OK = CONTAINERS / "anthropic-split-utf8.ssecap"
CUT = CONTAINERS / "interrupted.ssecap"


def run(*args: str, env: dict[str, str] | None = None) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, ["export-otel", *args], env=env, catch_exceptions=False)
    return result.exit_code, result.stdout, result.stderr


def test_captures_become_spans_with_the_times_they_recorded() -> None:
    with otlp_receiver() as got:
        code, out, err = run(str(OK), str(CUT), "--endpoint", got.url)
    assert code == 0, err
    assert "sent 2 spans" in err
    assert f"{OK}  completed  first content 0.531s" in out
    by_verdict = {got.attributes(s)["ssescope.verdict"]: s for s in got.spans}
    assert set(by_verdict) == {"completed", "truncated"}
    ok, cut = by_verdict["completed"], by_verdict["truncated"]
    assert got.attributes(ok)["gen_ai.response.time_to_first_chunk"] == 0.5312
    assert ok.kind == 3  # SPAN_KIND_CLIENT
    # the span lasts as long as the capture's stream
    assert ok.end_time_unix_nano - ok.start_time_unix_nano == 950_000_000
    assert got.attributes(cut)["gen_ai.response.finish_reasons"] == ["error"]
    assert got.attributes(cut)["error.type"] == "ssescope.truncated"
    assert cut.status.code == 2  # STATUS_CODE_ERROR
    assert got.resources[0]["service.name"] == "ssescope"
    assert "gen_ai.client.inference.duration" in got.metric_names


def test_a_record_folder_takes_start_method_url_and_model_from_its_index(tmp_path: Path) -> None:
    name = "20261201T041512.123456Z-0001-post-v1-messages"
    shutil.copy(OK, tmp_path / f"{name}.ssecap")
    line = {
        "name": name,
        "time": "2026-12-01T04:15:12.123Z",
        "method": "POST",
        "upstream": "https://api.anthropic.com/v1/messages?key=sk-ant-SECRET0123456789",
        "model": "claude-sonnet-4-5",
        "end": "eof",
    }
    (tmp_path / "index.jsonl").write_text(json.dumps(line) + "\n")
    with otlp_receiver() as got:
        code, out, err = run(str(tmp_path), "--endpoint", got.url, "--json")
    assert code == 0, err
    assert json.loads(out)["model"] == "claude-sonnet-4-5"
    (span,) = got.spans
    attrs = got.attributes(span)
    assert span.name == "chat claude-sonnet-4-5"
    assert attrs["gen_ai.request.model"] == "claude-sonnet-4-5"
    assert attrs["server.address"] == "api.anthropic.com"
    assert span.start_time_unix_nano == parse_time_ns("2026-12-01T04:15:12.123Z")
    assert "SECRET" not in str(span)


def test_the_standard_endpoint_and_headers_variables_work() -> None:
    with otlp_receiver() as got:
        env = {
            "OTEL_EXPORTER_OTLP_ENDPOINT": got.url,
            "OTEL_EXPORTER_OTLP_HEADERS": "x-team=streams",
            "OTEL_SERVICE_NAME": "my-app",
        }
        code, _, err = run(str(OK), "--no-metrics", env=env)
    assert code == 0, err
    assert len(got.spans) == 1
    assert got.headers[0]["x-team"] == "streams"
    assert got.resources[0]["service.name"] == "my-app"
    assert not got.metric_names


def test_har_entries_are_one_span_each_at_their_started_time() -> None:
    with otlp_receiver() as got:
        code, _, err = run(str(CONTAINERS / "devtools-several-streams.har"), "--endpoint", got.url)
    assert code == 0, err
    assert len(got.spans) >= 2
    assert all(s.start_time_unix_nano > 1_700_000_000 * 10**9 for s in got.spans)


def test_an_unreachable_receiver_is_a_clear_failure() -> None:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    env = {"OTEL_EXPORTER_OTLP_TIMEOUT": "1"}
    code, _, err = run(str(OK), "--no-metrics", "--endpoint", f"http://127.0.0.1:{port}", env=env)
    assert code == 1
    assert "1 of 1 spans could not be delivered" in err


def test_a_header_without_a_value_separator_is_a_usage_error() -> None:
    code, _, err = run(str(OK), "--otel-header", "nonsense")
    assert code == 2
    assert "NAME=VALUE" in err
