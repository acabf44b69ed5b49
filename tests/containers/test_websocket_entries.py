"""Every response of every WebSocket connection is reachable, and ``inspect --entry``,
``inspect_all``, ``scan`` rows and the Reports' ``entry`` number them alike (a HAR
entry's connection holding several responses: ``N.M``). The captures are the constructed
Realtime fixtures (``tests/fixtures/realtime``)."""

from __future__ import annotations

import json
from pathlib import Path

import pyarrow as pa
import pytest
from tests.cli.cli_helpers import run

import ssescope
from ssescope.scan import scan, scan_batch

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "realtime"
HAR = FIXTURES / "devtools-websocket.har"
CAPTURE = FIXTURES / "tool-call-then-text.ssecap"


def _labels(reports: list[ssescope.Report]) -> list[str]:
    out = []
    for report in reports:
        entry = report.to_dict()["entry"]
        out.append(f"{entry['index']}" + (f".{entry['response']}" if "response" in entry else ""))
    return out


def test_each_response_of_a_har_websocket_entry_has_its_own_label() -> None:
    reports = ssescope.inspect_all(HAR.read_bytes())
    assert _labels(reports) == ["0.0", "0.1", "2"]
    assert [r.text for r in reports] == ["Hello.", "Hello again.", "Hi"]
    assert [r.provider for r in reports] == ["realtime", "realtime", "openai-chat"]


@pytest.mark.parametrize(
    ("wanted", "text"), [("0.1", "Hello again."), ("0.0", "Hello."), (0, "Hello."), (2, "Hi")]
)
def test_inspect_entry_reaches_every_response(wanted: int | str, text: str) -> None:
    assert ssescope.inspect(HAR.read_bytes(), entry=wanted).text == text


def test_an_entry_that_is_not_there_names_the_labels() -> None:
    with pytest.raises(ssescope.UsageError, match=r"the entries 0\.0, 0\.1, 2"):
        ssescope.inspect(HAR.read_bytes(), entry="0.2")
    with pytest.raises(ssescope.UsageError, match="inspect_all"):
        ssescope.inspect(HAR.read_bytes())


def test_the_cli_takes_n_dot_m_and_refuses_what_is_not_an_entry() -> None:
    result = run("inspect", "--json", "--entry", "0.1", str(HAR))
    assert result.code == 0, result.err
    data = json.loads(result.out)
    assert (data["entry"]["index"], data["entry"]["response"]) == (0, 1)
    assert data["outputs"][0]["text"] == "Hello again."
    bad = run("inspect", "--json", "--entry", "x.1", str(HAR))
    assert bad.code == 2
    assert "give N, or N.M" in bad.err
    listing = run("inspect", "--pretty", "--no-color", str(HAR))
    assert "#0.0" in listing.out and "#0.1" in listing.out and "#2 " in listing.out


def test_scan_rows_number_the_streams_as_inspect_does() -> None:
    batch = pa.RecordBatch.from_pydict({"body": [HAR.read_bytes(), CAPTURE.read_bytes()]})
    rows = scan_batch(batch).to_pylist()
    got = [(r["entry"], r["response"], r["transport"], r["status"]) for r in rows]
    assert got == [
        (0, 0, "websocket", "completed"),
        (0, 1, "websocket", "completed"),
        (2, None, "sse", "completed"),
        (0, None, "websocket", "completed"),
        (1, None, "websocket", "completed"),
    ]
    for row, report in zip(rows[:3], ssescope.inspect_all(HAR.read_bytes()), strict=True):
        entry = report.to_dict()["entry"]
        assert (row["entry"], row["response"]) == (entry["index"], entry.get("response"))


def test_a_local_scan_of_websocket_captures_gives_one_row_per_response(tmp_path: Path) -> None:
    out = tmp_path / "rows.jsonl"
    scan([str(FIXTURES)], out=out, engine="local", jobs=1)
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    by_file: dict[str, list[tuple[object, ...]]] = {}
    for row in rows:
        name = Path(row["source"]).name
        by_file.setdefault(name, []).append((row["entry"], row["transport"], row["status"]))
    assert sorted(by_file["voice-barge-in.ssecap"]) == [
        (0, "websocket", "completed"),
        (1, "websocket", "cancelled"),
    ]
    assert by_file["closed-mid-response.ssecap"] == [(None, "websocket", "truncated")]
    assert by_file["failed-server-error.jsonl"] == [(None, "ndjson", "failed")]


def test_a_jsonl_log_of_messages_is_scanned_one_row_per_response() -> None:
    messages = []
    for line in CAPTURE.read_text().splitlines()[1:]:
        obj = json.loads(line)
        if "close" in obj:
            messages.append({"close": obj["close"]})
        else:
            kind = obj["dir"]
            messages.append({"type": kind, "time": obj["t"], "opcode": 1, "data": obj["data"]})
    body = "".join(json.dumps(m) + "\n" for m in messages).encode()
    rows = scan_batch(pa.RecordBatch.from_pydict({"body": [body]})).to_pylist()
    got = [(r["container"], r["transport"], r["entry"], r["status"]) for r in rows]
    assert got == [("jsonl", "websocket", 0, "completed"), ("jsonl", "websocket", 1, "completed")]
    assert [r.text for r in ssescope.inspect_all(body)] == ["", "It is 18 °C in Paris."]


def test_a_server_created_response_is_found_with_its_keys_sorted() -> None:
    from ssescope.testing import websocket_reports

    def created(rid: str) -> str:
        resp = {"object": "realtime.response", "id": rid, "instructions": "x" * 600}
        return json.dumps(
            {"type": "response.created", "event_id": rid, "response": resp}, sort_keys=True
        )

    def done(rid: str) -> str:
        resp = {"object": "realtime.response", "id": rid, "status": "completed", "output": []}
        return json.dumps(
            {"type": "response.done", "event_id": rid + "d", "response": resp}, sort_keys=True
        )

    messages = [("receive", created("r1")), ("receive", done("r1"))]
    messages += [("receive", created("r2")), ("receive", done("r2"))]
    reports = websocket_reports(messages)  # type: ignore[arg-type]
    assert [(r.response.id, r.status) for r in reports] == [
        ("r1", "completed"),
        ("r2", "completed"),
    ]


def test_the_response_splitter_says_where_each_response_begins() -> None:
    from ssescope.containers.websocket import ResponseSplitter

    create = b'{"type":"response.create"}'
    created = b'{"type":"response.created","response":{"id":"r"}}'
    delta = b'{"type":"response.output_text.delta","delta":"x"}'
    steps = [
        ("receive", b'{"type":"session.created"}', False),
        ("send", create, False),  # the first request: the current stream's
        ("receive", created, False),  # its answer
        ("receive", delta, False),
        ("receive", created, True),  # the server's own next response (turn detection)
        ("send", create, True),  # a request once that one has its response
        ("send", create, True),  # another while the last is unanswered
        ("receive", created, False),  # the answer to it
        ("send", b'{"type":"response.cancel"}', False),
    ]
    splitter = ResponseSplitter()
    got = [splitter.starts(d, "text", data) for d, data, _ in steps]  # type: ignore[arg-type]
    assert got == [want for _, _, want in steps]
    assert splitter.starts("receive", "binary", created) is False


def test_the_scan_command_has_a_transport_column_and_groups_by_it(tmp_path: Path) -> None:
    out = tmp_path / "rows.jsonl"
    result = run(
        "scan", str(FIXTURES), "--jobs", "1", "--group-by", "transport", "--out", str(out), "--json"
    )
    assert result.out, result.err
    summary = json.loads(result.out)
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    by_transport: dict[str, int] = {}
    for row in rows:
        by_transport[row["transport"]] = by_transport.get(row["transport"], 0) + 1
    assert by_transport["websocket"] == 8  # each response of the six WebSocket captures
    groups = {g["transport"]: g["streams"] for g in summary["by"]["transport"]}
    assert groups == by_transport
    voice = [r for r in rows if Path(r["source"]).name == "voice-barge-in.ssecap"]
    assert sorted((r["entry"], r["transport"], r["status"]) for r in voice) == [
        (0, "websocket", "completed"),
        (1, "websocket", "cancelled"),
    ]
