"""Gemini Interactions and AG-UI recordings through the surfaces as they are: ``serve
--quirk``, the pytest plugin's server, the recording proxy in front of ``serve``, ``scan``
on a folder of them and ``check --against``. All of them go through the one engine, so
each must give the verdict the recording's README states."""

from __future__ import annotations

import io
import json
import os
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from tests.cli.cli_helpers import run

import ssescope
from ssescope.cli import main
from ssescope.proxy import ProxyThread
from ssescope.serve.app import ReplayOptions, ServerThread, load_captures, make_app
from ssescope.serve.quirks import parse_quirk
from ssescope.testing import SSEScopeServer

ROOT = Path(__file__).resolve().parents[2]
STREAMS = Path(os.environ.get("SSESCOPE_REAL_STREAMS", ROOT.parent / "shared" / "real_streams"))
AGENT = STREAMS / "agent"

pytestmark = [
    pytest.mark.network,
    pytest.mark.skipif(
        not AGENT.is_dir(),
        reason=f"the real agent streams are not at {AGENT} (set SSESCOPE_REAL_STREAMS)",
    ),
]

# each recording's verdict, as the README of the real agent streams gives it
VERDICTS = {
    "ag-ui/agno-openai-tool-call-result.jsonl": "completed",
    "ag-ui/dotnet-backend-tool-result-text.jsonl": "completed",
    "ag-ui/dotnet-interrupt-input-required.jsonl": "incomplete",
    "ag-ui/dotnet-reasoning-then-text.jsonl": "completed",
    "ag-ui/gemini-raw-tool-then-run-error.jsonl": "failed",
    "ag-ui/vercel-openai-run-error-then-finished.jsonl": "failed",
    "ag-ui/vercel-openai-snake-case-keys.jsonl": "completed",
    "gemini-interactions/legacy-content-thought-text.jsonl": "completed",
    "gemini-interactions/legacy-function-call-requires-action.jsonl": "completed",
    "gemini-interactions/legacy-image-output-edited.jsonl": "completed",
    "gemini-interactions/steps-function-call-requires-action.jsonl": "completed",
    "gemini-interactions/steps-google-search-annotations.jsonl": "completed",
    "gemini-interactions/steps-stateless-empty-id.jsonl": "completed",
    "gemini-interactions/steps-thought-text.jsonl": "completed",
}
AGUI = "ag-ui/dotnet-backend-tool-result-text.jsonl"
INTERACTIONS = "gemini-interactions/steps-thought-text.jsonl"


def as_sse(name: str) -> bytes:
    """The recording as its server sends it: one SSE event a line, the Interactions ones
    with their ``event:`` name."""
    out = []
    for line in (AGENT / name).read_text(encoding="utf-8-sig").splitlines():
        if line:
            kind = json.loads(line).get("event_type")
            out.append((f"event: {kind}\n" if kind else "") + f"data: {line}\n\n")
    return "".join(out).encode()


def stem(name: str) -> str:
    return name.split("/")[1].removesuffix(".jsonl")


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Every recording of both protocols as an ``.sse`` file, in one folder."""
    path = tmp_path_factory.mktemp("agent")
    for name in VERDICTS:
        (path / f"{stem(name)}.sse").write_bytes(as_sse(name))
    return path


@pytest.fixture(scope="module")
def replay(folder: Path) -> Iterator[str]:
    """``ssescope serve`` over the folder, as the command line builds it."""
    app = make_app(load_captures(folder), ReplayOptions(chunk="7"), log=io.StringIO())
    with ServerThread(app) as server:
        yield server.url


def test_serve_replays_each_recording_with_its_verdict(replay: str) -> None:
    for name, verdict in VERDICTS.items():
        body = httpx.post(f"{replay}/{stem(name)}/run").content
        assert body == as_sse(name)
        assert ssescope.inspect(body).status == verdict, name


def test_serve_quirk_run_finished_after_run_error_is_read_as_failed(folder: Path) -> None:
    options = ReplayOptions(quirks=[parse_quirk("run-finished-after-run-error")])
    captures = load_captures(folder / f"{stem(AGUI)}.sse")
    with ServerThread(make_app(captures, options, log=io.StringIO())) as server:
        body = httpx.post(f"{server.url}/agent").content
    report = ssescope.inspect(body)
    assert report.status == "failed"
    assert b'"type":"RUN_ERROR"' in body and body.rstrip().endswith(b"}")
    orders = [d.message for d in report.diagnostics if d.code == "ag-ui.order"]
    assert "RUN_FINISHED after RUN_ERROR: the run stays failed." in orders


def test_serve_quirk_ends_on_content_delta_by_the_query(replay: str) -> None:
    url = f"{replay}/{stem(INTERACTIONS)}/v1beta/interactions?quirk=ends-on-content-delta"
    served = httpx.post(url)
    assert served.status_code == 200
    report = ssescope.inspect(served.content)
    assert report.status == "truncated"
    assert b"interaction.completed" not in served.content
    assert report.text.startswith("I'm doing great")
    assert "gemini-interactions.missing-completed" in [d.code for d in report.diagnostics]


def test_a_quirk_for_the_other_protocol_is_refused_in_one_line(replay: str) -> None:
    refused = httpx.post(f"{replay}/{stem(AGUI)}/run?quirk=ends-on-content-delta")
    assert refused.status_code == 400
    assert refused.text == (
        "quirk 'ends-on-content-delta' does not apply to ag-ui streams "
        "(it applies to: gemini-interactions)\n"
    )


def test_the_pytest_plugins_server_serves_a_recording_and_its_quirk(
    ssescope_server: SSEScopeServer,
) -> None:
    body = as_sse(AGUI)
    plain = httpx.post(ssescope_server.url(body, chunk="random:3")).content
    assert ssescope.inspect(plain).status == "completed"
    quirked = httpx.post(ssescope_server.url(body, quirk="run-finished-after-run-error")).content
    assert ssescope.inspect(quirked).status == "failed"
    cut = httpx.post(ssescope_server.url(as_sse(INTERACTIONS), quirk="ends-on-content-delta"))
    assert ssescope.inspect(cut.content).status == "truncated"


def test_the_proxy_in_front_of_serve_records_and_judges_each_run(
    replay: str, tmp_path: Path
) -> None:
    names = [AGUI, "ag-ui/gemini-raw-tool-then-run-error.jsonl", INTERACTIONS]
    with ProxyThread(replay, record=tmp_path / "captures") as proxy:
        for name in names:
            with httpx.stream("POST", f"{proxy.url}/{stem(name)}/run", json={"x": 1}) as response:
                assert response.read() == as_sse(name)
        proxy.flush()
    index = [
        json.loads(line)
        for line in (tmp_path / "captures" / "index.jsonl").read_text().splitlines()
    ]
    assert [line["verdict"] for line in index] == [VERDICTS[n] for n in names]
    for line, name in zip(index, names, strict=True):
        capture = tmp_path / "captures" / Path(line["capture"]).name
        report = ssescope.inspect_all(capture.read_bytes())[0]
        assert (report.provider, report.status) == (name.split("/")[0], VERDICTS[name])


def test_scan_gives_each_recording_its_verdict(folder: Path, tmp_path: Path) -> None:
    out = tmp_path / "rows.jsonl"
    assert main(["scan", str(folder), "--out", str(out), "--json", "--jobs", "1"]) == 0
    rows = {Path(r["source"]).stem: r for r in map(json.loads, out.read_text().splitlines())}
    assert {k: r["status"] for k, r in rows.items()} == {stem(n): v for n, v in VERDICTS.items()}
    assert {r["provider"] for r in rows.values()} == {"ag-ui", "gemini-interactions"}


def test_check_against_the_text_a_client_built(folder: Path, tmp_path: Path) -> None:
    stream = folder / f"{stem(AGUI)}.sse"
    text = ssescope.inspect(stream.read_bytes()).to_dict()["outputs"]
    built = "".join(o["text"] or "" for o in text)
    assert built.startswith("I found one Italian restaurant in Seattle")
    right = tmp_path / "right.txt"
    right.write_text(built)
    assert run("check", str(stream), "--against", str(right)).code == 0
    wrong = tmp_path / "wrong.txt"
    wrong.write_text(built[:40])
    checked = run("check", str(stream), "--against", str(wrong), "--no-color")
    assert checked.code == 5 and "text differs" in checked.out
    cut = tmp_path / "cut.sse"
    cut.write_bytes(stream.read_bytes()[: len(stream.read_bytes()) // 2])
    assert run("check", str(cut), "--against", str(right)).code == 3
