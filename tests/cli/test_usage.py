"""The command line is scriptable: JSON when piped, one-line errors, stable exit codes."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest
from tests.cli.cli_helpers import EXAMPLES, ROOT, run

import ssescope

CONTRACT_KEYS = {
    "schema",
    "source",
    "framing",
    "provider",
    "status",
    "outputs",
    "usage",
    "error",
    "records",
    "diagnostics",
    "timing",
}
SSE_BODY = b'data: {"hello": 1}\n\ndata: {"hello": 2}\n\n'


def _one_clean_line(err: str) -> None:
    assert "Traceback" not in err
    assert len(err.strip().splitlines()) == 1, err


def test_piped_inspect_prints_exactly_the_report_json() -> None:
    result = run("inspect", "-", "--provider", "unknown", stdin=SSE_BODY)
    data = json.loads(result.out)
    assert set(data) >= CONTRACT_KEYS
    assert data["records"]["total"] == 2
    assert data["source"]["bytes"] == len(SSE_BODY)
    assert result.err == ""


def test_stdin_is_read_without_a_dash_when_piped() -> None:
    result = run("inspect", "--provider", "unknown", stdin=SSE_BODY)
    assert json.loads(result.out)["records"]["data"] == 2


def test_json_flag_gives_the_same_report_as_piping() -> None:
    piped = run("inspect", "--provider", "unknown", stdin=SSE_BODY)
    flagged = run("inspect", "--json", "--provider", "unknown", stdin=SSE_BODY)
    assert json.loads(piped.out) == json.loads(flagged.out)


def test_python_dash_m_with_a_file_is_inspect() -> None:
    path = str(EXAMPLES / "broken-bad-json-record.sse")
    direct = run(path, "--provider", "unknown", dash_m=True)
    sub = run("inspect", path, "--provider", "unknown")
    assert direct.out == sub.out
    assert direct.code == sub.code


def test_the_main_entry_point_runs_commands() -> None:
    result = run("examples", module=False)
    assert result.code == 0
    assert "openai-chat-tool-call" in result.out


def test_a_terminal_on_stdin_without_a_file_prints_help_and_exits_2() -> None:
    primary, replica = os.openpty()
    try:
        env = dict(os.environ)
        env["PYTHONPATH"] = str(ROOT / "src")
        proc = subprocess.run(
            [sys.executable, "-m", "ssescope", "inspect"],
            stdin=replica,
            capture_output=True,
            env=env,
            timeout=60,
            check=False,
        )
    finally:
        os.close(primary)
        os.close(replica)
    assert proc.returncode == 2
    assert b"Usage:" in proc.stderr


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["inspect", "/nonexistent/stream.sse"], "no such file"),
        (["inspect", "."], "is a directory"),
        (["inspect", "--provider", "nope", "-"], "nope"),
        (["inspect", "--framing", "xml", "-"], "xml"),
        (["inspect", "--only", "everything", "-"], "everything"),
        (["inspect", "--fail-on", "sometimes", "-"], "sometimes"),
        (["inspect", "--example", "no-such-example"], "no example named"),
        (["check", "/nonexistent.sse", "--against", "/nonexistent.txt"], "no such file"),
    ],
)
def test_bad_usage_is_one_line_on_stderr_and_exit_2(args: list[str], needle: str) -> None:
    result = run(*args, stdin=SSE_BODY)
    assert result.code == 2
    assert needle in result.err
    assert result.out == ""
    _one_clean_line(result.err)


def test_binary_garbage_gives_the_report_the_library_gives() -> None:
    garbage = b"\x00\x01\x02\xff\xfe" * 100
    result = run("inspect", "-", "--json", stdin=garbage)
    assert result.code == 3  # truncated: no terminal marker in it
    assert result.err == ""
    assert json.loads(result.out) == json.loads(json.dumps(ssescope.inspect(garbage).to_dict()))


def test_json_and_pretty_together_are_a_usage_error() -> None:
    result = run("inspect", "--json", "--pretty", "-", stdin=SSE_BODY)
    assert result.code == 2


def test_pretty_output_is_plain_when_piped_and_coloured_on_request() -> None:
    plain = run("inspect", "--pretty", "--provider", "unknown", stdin=SSE_BODY)
    coloured = run("inspect", "--pretty", "--color", "--provider", "unknown", stdin=SSE_BODY)
    forced = run(
        "inspect", "--pretty", "--provider", "unknown", stdin=SSE_BODY, env={"FORCE_COLOR": "1"}
    )
    no_color = run(
        "inspect",
        "--pretty",
        "--provider",
        "unknown",
        stdin=SSE_BODY,
        env={"FORCE_COLOR": "1", "NO_COLOR": "1"},
    )
    assert "\x1b[" not in plain.out
    assert "\x1b[" in coloured.out
    assert "\x1b[" in forced.out
    assert "\x1b[" not in no_color.out
    assert "unknown · sse · truncated" in plain.out


def test_only_limits_the_human_view_to_the_named_sections() -> None:
    result = run("inspect", "--only", "usage", "--provider", "unknown", stdin=SSE_BODY)
    assert "usage: not reported" in result.out
    assert "diagnostics" not in result.out


def test_a_truncated_stream_exits_3() -> None:
    assert run("inspect", "--provider", "unknown", stdin=SSE_BODY).code == 3


def test_version_is_printed() -> None:
    result = run("--version")
    assert result.code == 0
    assert "ssescope" in result.out
    assert ssescope.core_label() in result.out


def test_examples_lists_every_bundled_file_and_as_json() -> None:
    listed = json.loads(run("examples", "--json").out)
    names = {e["file"] for e in listed}
    assert names == {p.name for p in EXAMPLES.iterdir() if p.suffix != ".py" and p.is_file()}


def test_container_raw_reads_the_input_as_a_bare_body() -> None:
    auto = run("inspect", "--provider", "unknown", stdin=SSE_BODY)
    raw = run("inspect", "--container", "raw", "--provider", "unknown", stdin=SSE_BODY)
    assert json.loads(raw.out) == json.loads(auto.out)
    assert json.loads(raw.out)["source"]["container"] == "raw"


def test_a_missing_optional_dependency_names_the_extra_to_install() -> None:
    code = (
        "import sys; sys.modules['httpx'] = None\n"
        "from ssescope.cli import main\n"
        "sys.exit(main(['request', 'http://127.0.0.1:9/']))\n"
    )
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    proc = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, check=False
    )
    assert proc.returncode == 1
    assert proc.stderr.strip() == (
        "ssescope: error: this command needs httpx, which is not installed: pip install 'ssescope[http]'"
    )


def test_replay_checks_without_the_check_flag() -> None:
    result = run("replay", str(EXAMPLES / "vercel-ui.sse"), "--random", "1")
    assert result.code == 0
    assert "identical in every chunking" in result.out


def test_a_bare_ssescope_prints_its_help_and_exits_0() -> None:
    result = run(module=False)
    assert result.code == 0
    assert "Usage:" in result.out
    assert "inspect" in result.out
