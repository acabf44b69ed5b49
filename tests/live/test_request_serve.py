"""End to end over loopback: ``ssescope serve`` answers, ``ssescope request`` gives the verdict."""

from __future__ import annotations

import asyncio
import io
import itertools
import json
import os
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from tests.lateness import Lateness

import ssescope
from ssescope.cli.request_cmd import request_command
from ssescope.containers import read_path
from ssescope.serve.app import ReplayOptions, ServerThread, load_captures, make_app

pytestmark = pytest.mark.network

ANTHROPIC_TEXT = "Bonjour à tous 🎉."
CHAT_TEXT = "Hello, wörld — café 🚀!"
FIXTURES = Path(__file__).parent.parent / "fixtures" / "live"


def request(server: ServerThread, path: str, *args: str) -> tuple[int, dict[str, Any], str]:
    """Run ``request --json`` against the server; return exit code, Report, stderr."""
    runner = CliRunner()
    result = runner.invoke(
        request_command, [server.url + path, "-d", "{}", "--json", *args], catch_exceptions=False
    )
    return result.exit_code, json.loads(result.stdout), result.stderr


@pytest.mark.parametrize(
    ("capture", "text"), [("anthropic", ANTHROPIC_TEXT), ("openai_chat", CHAT_TEXT)]
)
def test_a_clean_replay_completes_with_the_whole_text(
    server: ServerThread, capture: str, text: str
) -> None:
    code, report, _ = request(server, f"/{capture}/v1")
    assert code == 0
    assert report["status"] == "completed"
    assert report["outputs"][0]["text"] == text
    assert report["http_status"] == 200
    assert report["source"]["container"] == "http"
    timing = report["timing"]
    assert None not in (timing["first_byte_s"], timing["first_event_s"], timing["first_content_s"])


def test_the_capture_can_be_picked_with_a_query_parameter(server: ServerThread) -> None:
    code, report, _ = request(server, "/v1/chat/completions?capture=openai_chat")
    assert (code, report["outputs"][0]["text"]) == (0, CHAT_TEXT)


@pytest.mark.parametrize("fault", ["cut@record:5", "cut@600"])
def test_a_cut_stream_is_truncated_with_the_text_so_far(server: ServerThread, fault: str) -> None:
    code, report, _ = request(server, f"/anthropic/?fault={fault}")
    assert code == 3
    assert report["status"] == "truncated"
    assert ANTHROPIC_TEXT.startswith(report["outputs"][0]["text"])
    assert report["outputs"][0]["text"]


def test_a_stall_is_aborted_under_stall_with_exit_7(server: ServerThread) -> None:
    code, report, _ = request(server, "/anthropic/?fault=stall@record:5:20", "--stall", "0.3")
    assert code == 7
    assert report["status"] == "truncated"
    assert report["outputs"][0]["text"] == "Bonjour à"
    stalls = [d for d in report["diagnostics"] if d["code"] == "timing.stall"]
    # reported once, by the client; the abort itself shows in the status and the exit code
    assert [(d["severity"], d["form"]) for d in stalls] == [("warning", "aborted")]


def test_a_short_stall_below_the_threshold_still_completes(server: ServerThread) -> None:
    code, report, _ = request(server, "/anthropic/?fault=stall@record:5:0.6", "--stall", "5")
    assert code == 0
    assert report["timing"]["max_gap_s"] >= 0.1
    assert "timing.stall" not in [d["code"] for d in report["diagnostics"]]


def test_garbled_record_is_reported_there_and_the_rest_assembled(server: ServerThread) -> None:
    code, report, _ = request(server, "/openai_chat/?fault=garble@record:3")
    invalid = [d for d in report["diagnostics"] if d["code"] == "json.invalid"]
    assert [d["record"] for d in invalid] == [3]
    assert report["outputs"][0]["text"] == CHAT_TEXT.replace(" wörld", "")
    assert report["status"] == "completed"
    assert code == 0


@pytest.mark.parametrize("capture", ["anthropic", "openai_chat"])
def test_a_mid_stream_error_fails_with_the_providers_error(
    server: ServerThread, capture: str
) -> None:
    code, report, _ = request(server, f"/{capture}/?fault=error@record:4")
    assert code == 4
    assert report["status"] == "failed"
    assert report["error"] is not None


@pytest.mark.parametrize("fault", ["split-utf8", "crlf", "cr"])
@pytest.mark.parametrize("capture", ["anthropic", "openai_chat"])
def test_wire_level_faults_give_the_same_report_as_a_clean_stream(
    server: ServerThread, capture: str, fault: str
) -> None:
    _, clean, _ = request(server, f"/{capture}/")
    code, faulty, _ = request(server, f"/{capture}/?fault={fault}")
    assert code == 0
    for key in ("status", "outputs", "usage", "records", "provider"):
        assert faulty[key] == clean[key]


def test_dropped_blank_lines_are_diagnosed(server: ServerThread) -> None:
    code, report, _ = request(server, "/openai_chat/?fault=drop-blank-lines")
    assert code != 0
    assert report["status"] != "completed"
    assert report["diagnostics"]


def test_a_missing_done_is_truncated_or_diagnosed(server: ServerThread) -> None:
    code, report, _ = request(server, "/openai_chat/?fault=no-done")
    codes = [d["code"] for d in report["diagnostics"]]
    assert report["outputs"][0]["text"] == CHAT_TEXT
    assert code != 0 or codes


@pytest.mark.parametrize("status", ["429", "529"])
def test_an_http_error_shows_the_providers_error_and_exits_4(
    server: ServerThread, status: str
) -> None:
    code, report, _ = request(server, f"/anthropic/?fault=http-error:{status}")
    assert code == 4
    assert report["status"] == "failed"
    assert report["http_status"] == int(status)
    assert report["error"]["type"] in ("overloaded_error", "api_error")


def test_the_terminal_view_prints_text_and_a_verdict(server: ServerThread) -> None:
    result = CliRunner().invoke(request_command, [server.url + "/anthropic/", "-d", "{}"])
    assert result.exit_code == 0
    assert result.stdout.strip() == ANTHROPIC_TEXT
    assert "completed" in result.stderr


def test_secret_headers_never_reach_the_screen(server: ServerThread) -> None:
    result = CliRunner().invoke(
        request_command,
        [
            server.url + "/anthropic/?key=sekrit-query",
            "-d",
            "{}",
            "-H",
            "x-api-key: sekrit-header",
            "-H",
            "Authorization: Bearer sekrit-bearer",
        ],
    )
    assert result.exit_code == 0
    assert "sekrit" not in result.stdout + result.stderr


@pytest.mark.parametrize(
    "args",
    [["-H", "no colon"], ["--provider", "nope"], ["--stall", "-1"], ["-d", "@/nonexistent.json"]],
)
def test_bad_arguments_are_usage_errors(args: list[str]) -> None:
    result = CliRunner().invoke(request_command, ["http://127.0.0.1:9/", *args])
    assert result.exit_code == 2


def test_an_unreachable_server_is_an_internal_error_exit_1() -> None:
    result = CliRunner().invoke(request_command, ["http://127.0.0.1:9/"])
    assert result.exit_code == 1
    assert "request failed" in result.stderr


def test_save_writes_a_capture_without_secrets_that_replays_identically(
    server: ServerThread, tmp_path: Path
) -> None:
    cap = tmp_path / "reply.ssecap"
    result = CliRunner().invoke(
        request_command,
        [
            server.url + "/openai_chat/v1/chat/completions?key=sekrit-query",
            "-d",
            '{"stream": true}',
            "-H",
            "Authorization: Bearer sekrit-bearer",
            "-H",
            "api-key: sekrit-azure",
            "--save",
            str(cap),
        ],
    )
    assert result.exit_code == 0
    saved = cap.read_bytes()
    assert b"sekrit" not in saved
    body = read_path(cap)
    assert body.status == 200
    assert b"".join(c.data for c in body.chunks) == (FIXTURES / "openai_chat.sse").read_bytes()
    assert all(c.time is not None for c in body.chunks)
    app = make_app(load_captures(cap), ReplayOptions(delay="original"), log=io.StringIO())
    with ServerThread(app) as replay:
        code, report, _ = request(replay, "/anything")
    assert (code, report["outputs"][0]["text"]) == (0, CHAT_TEXT)


def test_interrupting_keeps_what_arrived_and_exits_130(
    server: ServerThread, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from ssescope.sources import _live

    original = _live.LiveCore.feed
    calls = 0

    def interrupt_on_third_chunk(self: _live.LiveCore, data: bytes) -> list[Any]:
        nonlocal calls
        calls += 1
        if calls == 3:
            raise KeyboardInterrupt
        return original(self, data)

    monkeypatch.setattr(_live.LiveCore, "feed", interrupt_on_third_chunk)
    cap = tmp_path / "cut.ssecap"
    code, report, _ = request(server, "/anthropic/", "--save", str(cap))
    assert code == 130
    assert report["status"] == "cancelled"
    assert read_path(cap).end == "cancelled"


def test_a_server_that_stays_open_after_the_terminal_marker_is_closed_and_reported() -> None:
    body = (FIXTURES / "anthropic.sse").read_bytes()

    async def app(scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            return
        await send(
            {
                "type": "http.response.start",
                "status": 200,
                "headers": [(b"content-type", b"text/event-stream")],
            }
        )
        await send({"type": "http.response.body", "body": body, "more_body": True})
        await asyncio.sleep(30)

    with ServerThread(app) as hanging:
        code, report, _ = request(hanging, "/", "--stall", "0.3")
    assert code == 0
    assert report["status"] == "completed"
    codes = [d["code"] for d in report["diagnostics"]]
    assert "stream.open-after-finish" in codes
    assert "timing.stall" not in codes  # the silence after the end is not a stall


def test_ctrl_c_prints_what_arrived_and_exits_130(server: ServerThread, tmp_path: Path) -> None:
    # Ctrl-C raises KeyboardInterrupt even when this run inherited SIGINT ignored (a
    # background job of a non-interactive shell does, and Python then keeps it ignored)
    script = (
        "import signal, sys\n"
        "signal.signal(signal.SIGINT, signal.default_int_handler)\n"
        "from ssescope.cli.request_cmd import request_command\n"
        "request_command(sys.argv[1:])\n"
    )
    cap = tmp_path / "partial.ssecap"
    url = server.url + "/anthropic/?fault=stall@record:6:30"
    proc = subprocess.Popen(
        [sys.executable, "-c", script, url, "-d", "{}", "--save", str(cap)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env={**os.environ, "PYTHONPATH": str(Path(ssescope.__file__).parent.parent)},
    )
    assert proc.stdout is not None
    # records 3-5 arrive before the stall in front of record 6; interrupt once they did
    try:
        first = proc.stdout.read(len("Bonjour à tous".encode()))
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=20)
    finally:
        if proc.poll() is None:  # a failed run leaves no process behind for later tests
            proc.kill()
            proc.communicate()
    assert proc.returncode == 130
    assert (first + out).decode().strip() == "Bonjour à tous"
    assert "cancelled" in err.decode()
    assert read_path(cap).end == "cancelled"


def test_a_saved_capture_replays_with_its_chunks_and_timing_and_inspects_like_the_live_run(
    tmp_path: Path,
) -> None:
    source = FIXTURES / "openai_chat.sse"
    app = make_app(load_captures(source), ReplayOptions(chunk="96", delay="80"), log=io.StringIO())
    first = tmp_path / "first.ssecap"
    with ServerThread(app) as server:
        code, live, _ = request(server, "/v1/chat/completions", "--save", str(first))
    assert code == 0
    # inspect of the capture is the live Report (same bytes, same chunks, same times)
    offline = ssescope.inspect(first).to_dict()
    for key in ("status", "outputs", "usage", "error", "records", "diagnostics", "timing"):
        assert offline[key] == live[key], key

    replay = make_app(
        load_captures(first), ReplayOptions(chunk="original", delay="original"), log=io.StringIO()
    )
    a = read_path(first).chunks
    gaps_a = [y.time - x.time for x, y in itertools.pairwise(a)]  # type: ignore[operator]
    assert len(gaps_a) >= 5
    # Bytes, chunk boundaries and outputs are checked on every replay. The gaps between
    # chunks are measured on a shared machine (server and client in one process), where one
    # late wake-up can stretch a gap: one replay in three must keep every gap within 40 ms,
    # plus what the machine's wake-ups were late by during that replay, at both ends of a
    # gap (the server's send and the client's read).
    late: list[str] = []
    for attempt in range(3):
        second = tmp_path / f"second-{attempt}.ssecap"
        with Lateness() as lateness, ServerThread(replay) as server:
            code, again, _ = request(server, "/v1/chat/completions", "--save", str(second))
        noise = 2 * lateness.worst
        assert code == 0
        assert again["outputs"] == live["outputs"]
        b = read_path(second).chunks
        # the original chunk boundaries come back exactly ...
        assert [c.data for c in b] == [c.data for c in a]
        # ... and so do the gaps between chunks, within scheduling noise
        gaps_b = [y.time - x.time for x, y in itertools.pairwise(b)]  # type: ignore[operator]
        worst = max(abs(ga - gb) for ga, gb in zip(gaps_a, gaps_b, strict=True))
        total = abs(sum(gaps_b) - sum(gaps_a))
        if worst < 0.04 + noise and total < 0.1 * sum(gaps_a) + 0.04 + noise:
            return
        late.append(
            f"worst gap off by {worst * 1000:.0f} ms, total by {total * 1000:.0f} ms, "
            f"with wake-ups up to {lateness.worst * 1000:.0f} ms late"
        )
    pytest.fail("the replay lost the original timing: " + "; ".join(late))
