"""Every ``--json`` and ``--jsonl`` output writes bidi and C1 controls as JSON escapes.

JSON's own escaping leaves DEL, the C1 controls and the bidirectional overrides raw; the
strict writer (:mod:`ssescope.output.strictjson`) escapes them. Each command that takes one of
those options runs here on input that carries U+202E and U+009B into its output; the
output must hold their escapes and never the raw characters. A command that gains such an
option without a case here fails :func:`test_every_json_option_has_a_case`.
"""

from __future__ import annotations

import io
import json
import os
import threading
from collections.abc import Callable, Iterator
from datetime import datetime, timezone
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import click
import pytest
from click.testing import CliRunner
from tests.cli.cli_helpers import run

from ssescope.cli import app
from ssescope.cli.request_cmd import request_command
from ssescope.examples import Example
from ssescope.proxy.display import LineWriter
from ssescope.proxy.exchange import Exchange

BIDI = "\u202e"
C1 = "\x9b"
EVIL = f"{BIDI}x{C1}y"
RAW = (BIDI, C1)
ESCAPED = ("\\u202e", "\\u009b")


def _stream(text: str = "hello") -> str:
    def chunk(delta: dict[str, object], finish: str | None = None) -> str:
        body = {
            "id": "chatcmpl-1",
            "object": "chat.completion.chunk",
            "model": f"gpt-{EVIL}",
            "choices": [{"index": 0, "delta": delta, "finish_reason": finish}],
        }
        return f"data: {json.dumps(body)}\n\n"

    return (
        chunk({"role": "assistant", "content": f"{text} {EVIL}"})
        + chunk({}, "stop")
        + "data: [DONE]\n\n"
    )


def _file(tmp_path: Path, name: str = "evil.sse") -> Path:
    path = tmp_path / name
    path.write_text(_stream(), encoding="utf-8")
    return path


def _capture(tmp_path: Path) -> Path:
    """A JSONL log of two streams: ``inspect`` reads it as a capture with two entries."""
    lines = [
        json.dumps({"ts": 1.0, "request_id": rid, "chunk": json.loads(chunk[6:])})
        for rid in ("one", "two")
        for chunk in _stream(rid).split("\n\n")
        if chunk.startswith("data: {")
    ]
    path = tmp_path / "log.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


class _Handler(BaseHTTPRequestHandler):
    def do_POST(self) -> None:
        self.rfile.read(int(self.headers.get("Content-Length") or 0))
        body = _stream().encode()
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format: str, *args: object) -> None:
        pass


@pytest.fixture
def server() -> Iterator[str]:
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}/v1/chat/completions"
    httpd.shutdown()
    httpd.server_close()


def _inspect(tmp_path: Path, _: pytest.MonkeyPatch) -> str:
    return run("inspect", "--json", str(_file(tmp_path))).out


def _inspect_entries(tmp_path: Path, _: pytest.MonkeyPatch) -> str:
    out = run("inspect", "--json", str(_capture(tmp_path))).out
    assert len(json.loads(out)) == 2
    return out


def _replay(tmp_path: Path, _: pytest.MonkeyPatch) -> str:
    return run("replay", "--json", "--random", "1", str(_file(tmp_path, f"{EVIL}.sse"))).out


def _check(tmp_path: Path, _: pytest.MonkeyPatch) -> str:
    expected = tmp_path / "expected.txt"
    expected.write_text(f"other {EVIL}", encoding="utf-8")
    return run("check", "--json", str(_file(tmp_path)), "--against", str(expected)).out


def _examples(_: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    listed = [Example(name=f"n{EVIL}", filename=f"f{EVIL}.sse", description=f"d{EVIL}")]
    monkeypatch.setattr(app, "list_examples", lambda: listed)
    return run("examples", "--json").out


def _records(tmp_path: Path, _: pytest.MonkeyPatch) -> str:
    return run("records", "--jsonl", str(_file(tmp_path))).out


def _frames(tmp_path: Path, _: pytest.MonkeyPatch) -> str:
    return run("frames", "--jsonl", str(_file(tmp_path))).out


def _scan(tmp_path: Path, _: pytest.MonkeyPatch) -> str:
    folder = tmp_path / "corpus"
    folder.mkdir()
    _file(folder)
    out = tmp_path / "rows.parquet"
    return run("scan", str(folder), "--out", str(out), "--json", "--jobs", "1").out


def _conform(tmp_path: Path, _: pytest.MonkeyPatch) -> str:
    """A failed check's evidence names the exchange (its file) and quotes the stream."""
    path = tmp_path / f"e{EVIL}.sse"
    path.write_text(_stream().replace("data: [DONE]\n\n", ""), encoding="utf-8")
    return run("conform", "--json", str(path)).out


def _proxy(_: Path, __: pytest.MonkeyPatch) -> str:
    """``proxy --json`` prints each finished exchange through :class:`LineWriter`."""
    ex = Exchange(
        seq=1,
        method="POST",
        path=f"/v1/{EVIL}",
        upstream="http://127.0.0.1:9",
        started=datetime.now(timezone.utc),
        model=f"gpt-{EVIL}",
    )
    out = io.StringIO()
    LineWriter(json=True, out=out)(ex)
    return out.getvalue()


def _export_otel(tmp_path: Path, _: pytest.MonkeyPatch) -> str:
    """Each stream's line names its capture; nothing listens at the endpoint (exit 1)."""
    pytest.importorskip("opentelemetry.sdk")
    result = run(
        "export-otel",
        "--json",
        "--endpoint",
        "http://127.0.0.1:9",
        str(_file(tmp_path)),
        process=True,
        # the exporter gives up on the closed port after 1 s instead of retrying for 10 s
        env={**os.environ, "OTEL_EXPORTER_OTLP_TIMEOUT": "1"},
    )
    assert result.code == 1
    return result.out


CASES: dict[str, Callable[[Path, pytest.MonkeyPatch], str]] = {
    "inspect --json": _inspect,
    "inspect --json (several entries)": _inspect_entries,
    "replay --json": _replay,
    "check --json": _check,
    "examples --json": _examples,
    "records --jsonl": _records,
    "frames --jsonl": _frames,
    "scan --json": _scan,
    "proxy --json": _proxy,
    "conform --json": _conform,
    "export-otel --json": _export_otel,
}


def _json_options(group: click.Group) -> set[str]:
    found = set()
    for name, command in group.commands.items():
        if isinstance(command, click.Group):
            found |= {f"{name} {option}" for option in _json_options(command)}
        for param in command.params:
            for opt in param.opts:
                if opt in ("--json", "--jsonl"):
                    found.add(f"{name} {opt}")
    return found


def test_every_json_option_has_a_case() -> None:
    covered = {case.split(" (")[0] for case in CASES} | {"request --json"}
    assert _json_options(app.cli) == covered


@pytest.mark.parametrize("case", sorted(CASES))
def test_json_output_escapes_bidi_and_c1_controls(
    case: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = CASES[case](tmp_path, monkeypatch)
    assert out.strip(), f"{case} printed nothing"
    for raw, escaped in zip(RAW, ESCAPED, strict=True):
        assert raw not in out, f"{case} printed {raw!r} raw"
        assert escaped in out, f"{case} did not print {escaped}"
    for line in out.splitlines() if case.endswith("--jsonl") or case == "proxy --json" else [out]:
        json.loads(line)


@pytest.mark.network
def test_request_json_output_escapes_bidi_and_c1_controls(server: str) -> None:
    result = CliRunner().invoke(request_command, [server, "-d", "{}", "--json"])
    assert result.exit_code == 0, result.output
    out = result.stdout
    for raw, escaped in zip(RAW, ESCAPED, strict=True):
        assert raw not in out and escaped in out
    assert json.loads(out)["model"] == f"gpt-{EVIL}"
