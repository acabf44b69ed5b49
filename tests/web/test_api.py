"""The web server's API, without a browser (Starlette TestClient)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from ssescope.cli.web_cmd import check_host
from ssescope.web import CSP, create_app
from ssescope.web.examples import find_examples

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "web"
COHERE = (FIXTURES / "cohere-tool-call-bad-record.sse").read_bytes()


@pytest.fixture
def client() -> TestClient:
    return TestClient(create_app(examples_dir=FIXTURES), base_url="http://127.0.0.1:8765")


def test_inspect_returns_the_report_every_record_and_the_timeline(client: TestClient) -> None:
    res = client.post("/api/inspect", content=COHERE)
    assert res.status_code == 200
    body = res.json()
    assert body["report"]["provider"] == "cohere"
    assert body["report"]["status"] == "completed"
    frames = body["frames"]
    assert len(frames) == body["report"]["records"]["total"] == 13
    assert frames[9]["state"] == "invalid"
    assert frames[11]["state"] == "unknown"
    assert body["report"]["diagnostics"][frames[9]["diagnostics"][0]]["code"] == "json.invalid"
    assert frames[0]["start"] == 0 and frames[1]["start"] == frames[0]["end"]
    # [record, response, output, field, part, key, op, value]
    args = "".join(c[7] for c in body["timeline"] if c[3] == "tool_calls" and c[5] == "arguments")
    assert json.loads(args) == {"city": "Lyon", "days": 3, "units": "metric"}


def test_a_record_span_points_at_its_bytes_in_the_body(client: TestClient) -> None:
    frames = client.post("/api/inspect", content=COHERE).json()["frames"]
    f = frames[4]
    assert COHERE[f["start"] : f["end"]].startswith(b"event: tool-call-start\n")


def test_an_explicit_provider_and_framing_are_passed_to_the_engine(client: TestClient) -> None:
    res = client.post("/api/inspect?provider=unknown&framing=sse", content=COHERE)
    assert res.json()["report"]["provider"] == "unknown"


def test_an_unknown_provider_name_is_a_400_with_the_engine_message(client: TestClient) -> None:
    res = client.post("/api/inspect?provider=nope", content=COHERE)
    assert res.status_code == 400
    assert "unknown provider 'nope'" in res.json()["error"]


def test_a_body_over_the_limit_is_refused_with_413_and_a_clear_message() -> None:
    small = TestClient(create_app(max_body=1024 * 1024), base_url="http://127.0.0.1")
    res = small.post("/api/inspect", content=b"x" * (1024 * 1024 + 1))
    assert res.status_code == 413
    assert "larger than the 1 MiB" in res.json()["error"]


def test_every_answer_carries_the_strict_content_security_policy(client: TestClient) -> None:
    for res in (client.get("/"), client.get("/static/app.js"), client.get("/api/examples")):
        assert res.headers["content-security-policy"] == CSP
        assert res.headers["x-content-type-options"] == "nosniff"
    assert "default-src 'self'" in CSP
    assert "unsafe-inline" not in CSP


def test_the_page_references_only_its_own_static_files(client: TestClient) -> None:
    html = client.get("/").text
    assert "http://" not in html and "https://" not in html
    assert "<style" not in html and "style=" not in html
    assert '<script type="module" src="/static/app.js"></script>' in html
    for name in ("app.js", "app.css"):
        text = client.get(f"/static/{name}").text
        assert "https://" not in text and "http://" not in text


def test_unknown_static_names_are_404(client: TestClient) -> None:
    assert client.get("/static/../server.py").status_code == 404
    assert client.get("/static/secret.txt").status_code == 404


def test_a_request_naming_another_host_is_refused(client: TestClient) -> None:
    res = client.get("/api/examples", headers={"host": "attacker.example"})
    assert res.status_code == 421


def test_examples_are_listed_and_served_by_name(client: TestClient) -> None:
    names = [e["name"] for e in client.get("/api/examples").json()]
    assert "cohere-tool-call-bad-record" in names
    res = client.get("/api/examples/cohere-tool-call-bad-record")
    assert res.content == COHERE
    assert client.get("/api/examples/nope").status_code == 404


def test_the_bundled_examples_lookup_never_fails() -> None:
    for example in find_examples():
        assert example.path.is_file()


def test_ssecap_export_is_a_capture_header_then_one_line_per_chunk(client: TestClient) -> None:
    res = client.post("/api/ssecap", content=COHERE)
    lines = res.text.splitlines()
    header = json.loads(lines[0])
    assert header["ssescope"] == "capture" and header["version"] == 1
    chunks = [json.loads(line) for line in lines[1:]]
    assert "".join(c["data"] for c in chunks).encode() == COHERE


def test_without_host_the_server_binds_loopback_only() -> None:
    assert check_host(None) == ("127.0.0.1", None)
    assert check_host("::1") == ("::1", None)


def test_a_non_loopback_host_given_explicitly_is_accepted_with_a_warning() -> None:
    bind, warning = check_host("0.0.0.0")
    assert bind == "0.0.0.0"
    assert warning is not None and "warning" in warning


def test_an_exported_capture_inspects_like_the_stream_it_came_from(client: TestClient) -> None:
    capture = client.post("/api/ssecap", content=COHERE).content
    body = client.post("/api/inspect", content=capture).json()
    assert body["container"] == "ssecap"
    assert body["report"]["status"] == "completed"
    assert len(body["frames"]) == 13
    assert body["body_b64"] is not None


def test_report_export_redacts_content_and_keeps_the_rest(client: TestClient) -> None:
    plain = client.post("/api/report", content=COHERE)
    assert plain.headers["content-disposition"] == 'attachment; filename="report.json"'
    assert plain.json() == client.post("/api/inspect", content=COHERE).json()["report"]
    res = client.post("/api/report?redact=1", content=COHERE)
    assert res.status_code == 200
    assert res.headers["content-disposition"] == 'attachment; filename="report.redacted.json"'
    data = res.json()
    assert data["provider"] == "cohere"
    assert data["outputs"][0]["tool_calls"][0]["arguments"].startswith("[redacted 46 chars ")
    invalid = data["diagnostics"][0]
    assert invalid["code"] == "json.invalid"
    assert invalid["args"]["data"].startswith("[redacted ")
    assert invalid["args"]["data"] in invalid["message"]
    assert "raw" not in invalid


FIXTURE_STREAMS = sorted(
    p
    for p in (Path(__file__).resolve().parents[1] / "fixtures").rglob("*")
    if p.suffix in (".sse", ".ndjson", ".jsonl")
)


def test_every_diagnostic_that_names_a_record_is_on_that_records_row() -> None:
    from ssescope.web.analysis import analyse

    checked = 0
    for path in FIXTURE_STREAMS:
        answer = analyse(path.read_bytes())
        on_rows = {j for frame in answer["frames"] for j in frame["diagnostics"]}
        indexes = {frame["index"] for frame in answer["frames"] if frame["kind"] != "tail"}
        for j, diag in enumerate(answer["report"]["diagnostics"]):
            if diag["record"] in indexes:
                assert j in on_rows, (path.name, diag["code"], diag["record"])
                checked += 1
    assert checked > 50  # the check met many findings, end-of-stream ones among them
