"""Where, when and why, through the CLI: a planted incident that ``--group-by route``
and the time axis make visible, where the broken streams broke, and "open next" items
whose commands open exactly their streams."""

from __future__ import annotations

import json
import shlex
from pathlib import Path
from typing import Any

import pytest
from tests.scan.incident import (
    BAD_DAY,
    BAD_ROUTE,
    DAYS,
    ROUTES,
    TRUNCATED,
    day_rate,
    route_rate,
    write_incident,
)

from ssescope.cli import main

CONTAINERS = Path(__file__).resolve().parents[1] / "fixtures" / "containers"
_CHUNK = (
    '{"id":"c1","object":"chat.completion.chunk","model":"gpt-x","choices":'
    '[{"index":0,"delta":%s,"finish_reason":null}]}'
)
TEXT = "data: " + _CHUNK % '{"content":"Hi"}' + "\n\n"
TOOL = (
    "data: "
    + _CHUNK
    % '{"tool_calls":[{"index":0,"id":"call_1","type":"function","function":{"name":"f","arguments":"{\\"q"}}]}'
    + "\n\n"
)


def capture(chunks: list[tuple[float, str]]) -> str:
    head = {
        "ssescope": "capture",
        "version": 1,
        "request": {"method": "POST", "url": "https://api.example.test/v1/chat", "headers": []},
        "response": {"status": 200, "headers": [["content-type", "text/event-stream"]]},
    }
    lines = [json.dumps(head), *(json.dumps({"t": t, "data": d}) for t, d in chunks)]
    return "\n".join(lines) + "\n"


@pytest.fixture(scope="module")
def incident(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_incident(tmp_path_factory.mktemp("incident"))


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(["scan", *args, "--jobs", "1"])
    out, err = capsys.readouterr()
    return code, out, err


def summary_of(capsys: pytest.CaptureFixture[str], *args: str) -> dict[str, Any]:
    code, out, err = run(capsys, *args, "--json")
    assert code == 0, err
    found: dict[str, Any] = json.loads(out)
    return found


def test_group_by_route_and_the_time_axis_show_the_incident(
    incident: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    summary = summary_of(capsys, str(incident), "--group-by", "route")
    routes = {g["route"]: g for g in summary["by"]["route"]}
    for route in ROUTES:
        assert routes[route]["streams"] == 200
        assert routes[route]["truncated_rate"] == pytest.approx(route_rate(route), abs=1e-6)
    worst = max(ROUTES, key=lambda r: routes[r]["truncated_rate"])
    assert worst == BAD_ROUTE and routes[BAD_ROUTE]["truncated_rate"] == pytest.approx(0.31)
    # the two stream files have no route: they are a group of their own
    assert routes["(none)"]["streams"] == 2
    timeline = summary["timeline"]
    assert timeline["step"] == "day" and timeline["source"] == "started, ts"
    assert [b["start"][:10] for b in timeline["buckets"]] == list(DAYS)
    rates = {b["start"][:10]: b["truncated_rate"] for b in timeline["buckets"]}
    assert rates == pytest.approx({d: day_rate(d) for d in DAYS}, abs=1e-6)
    assert max(rates, key=lambda d: rates[d]) == BAD_DAY
    assert summary["inputs"] == 602 and summary["streams"] == 602


def test_the_terminal_summary_shows_the_incident(
    incident: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = run(capsys, str(incident), "--group-by", "route")
    assert code == 0
    lines = out.splitlines()
    assert lines[0].startswith("602 inputs · 602 responses · ")
    table = lines[lines.index(next(line for line in lines if line.startswith("by route"))) :]
    agent = next(line for line in table if line.strip().startswith(BAD_ROUTE))
    assert agent.split()[1:] == ["200", "69.0%", "31.0%"]
    day = next(line for line in lines if line.strip().startswith(BAD_DAY))
    assert day.split()[1:4] == ["120", "59.2%", "40.8%"]
    assert "per day (600 streams with a start time)" in out
    where = lines[[line.strip() for line in lines].index("where it broke") + 1 :]
    # the planted cuts: every third one mid tool call, the rest (and cut.sse) mid-text
    tool = sum(-(-cut // 3) for cells in TRUNCATED.values() for cut in cells)
    text = sum(sum(cells) for cells in TRUNCATED.values()) - tool + 1
    assert where[1].split()[:2] == ["mid-text", str(text)]
    assert where[2].split()[:2] == ["mid-tool-arguments", str(tool)]


def test_where_it_broke_is_a_breakdown_and_a_column(
    incident: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "rows.jsonl"
    summary = summary_of(capsys, str(incident), "--out", str(out), "--group-by", "where_broke")
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    places = {p["where_broke"]: p for p in summary["where_broke"]}
    assert set(places) == {"mid-text", "mid-tool-arguments"}
    for place, item in places.items():
        assert item["truncated"] == sum(r["where_broke"] == place for r in rows)
    assert all((r["where_broke"] is None) == (r["status"] == "completed") for r in rows)
    by = {g["where_broke"]: g["streams"] for g in summary["by"]["where_broke"]}
    assert by["(none)"] == sum(r["status"] == "completed" for r in rows)


def _reopen(command: str, capsys: pytest.CaptureFixture[str]) -> dict[str, Any]:
    words = shlex.split(command)
    assert words[:2] == ["ssescope", "inspect"]
    main([*words[1:], "--json"])
    report: dict[str, Any] = json.loads(capsys.readouterr().out)
    return report


def test_ten_truncated_streams_are_listed_with_their_keys(
    incident: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    worst = summary_of(capsys, str(incident))["worst"]
    assert [w["status"] for w in worst].count("truncated") == 10
    table = [w for w in worst if w["table_row"] is not None]
    assert len(table) == 10 and all(set(w["keys"]) >= {"request_id", "route", "ts"} for w in table)
    assert all(w["where_broke"] in ("mid-text", "mid-tool-arguments") for w in worst)


def test_every_open_next_command_opens_exactly_its_stream(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    har = json.loads((CONTAINERS / "devtools-several-streams.har").read_text())
    cut = har["log"]["entries"][2]["response"]["content"]
    cut["text"] = cut["text"].split("\n\n")[0] + "\n\n"  # its first event only
    (tmp_path / "devtools.har").write_text(json.dumps(har))
    lines = [{"request_id": f"q{i}", "body": TEXT + (TOOL if i % 2 else "")} for i in range(4)]
    (tmp_path / "log.jsonl").write_text("".join(json.dumps(line) + "\n" for line in lines))
    (tmp_path / "cut.sse").write_text(TEXT)
    out = tmp_path / "rows.jsonl"
    summary = summary_of(capsys, str(tmp_path), "--out", str(out))
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    worst = summary["worst"]
    assert len(worst) == 6  # the cut HAR entry, the cut file, the four lines
    kinds = set()
    for w in worst:
        report = _reopen(w["command"], capsys)
        row = next(
            r
            for r in rows
            if (r["source"], r["table_row"], r["entry"])
            == (w["source"], w["table_row"], w["entry"])
        )
        assert report["status"] == row["status"] == w["status"] == "truncated"
        assert report["source"]["bytes"] == row["bytes"]
        assert [d["code"] for d in report["diagnostics"]] == row["diagnostics"]
        if w["table_row"] is not None:
            kinds.add("row")
            assert w["command"].endswith(f"--row {w['table_row']} --body body")
            assert w["keys"] == {"request_id": f"q{w['table_row']}"}
        elif w["entry"] is not None:
            kinds.add("entry")
            assert w["command"].endswith(f"--entry {w['entry']}")
            assert report["entry"]["index"] == w["entry"] == 2
        else:
            kinds.add("file")
            assert w["command"] == f"ssescope inspect {tmp_path / 'cut.sse'}"
    assert kinds == {"row", "entry", "file"}


def test_an_idle_stream_says_its_silence_and_its_record_time(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "record"
    folder.mkdir()
    (folder / "cut.ssecap").write_text(capture([(0.2, TEXT), (8.6, TOOL)]))
    index = {"name": "x", "capture": "/elsewhere/cut.ssecap", "time": "2026-03-02T09:30:00.000Z"}
    (folder / "index.jsonl").write_text(json.dumps(index) + "\n")
    out = tmp_path / "rows.jsonl"
    code, text, _ = run(capsys, str(folder), "--out", str(out))
    assert code == 0
    row = json.loads(out.read_text())
    assert row["where_broke"] == "mid-tool-arguments"
    assert row["max_content_idle_s"] == pytest.approx(8.4, abs=0.01)
    assert row["started"].startswith("2026-03-02")
    assert "· mid-tool-arguments · idle 8.4 s" in text
    assert f"ssescope inspect {folder / 'cut.ssecap'}" in text
    assert "1 stream went 2.0 s or more without content (1 of them broke)" in text
    summary = summary_of(capsys, str(folder))
    assert summary["idle"] == {"at_least_s": 2.0, "streams": 1, "broken": 1}
    assert summary["timeline"]["step"] == "hour"
    assert summary["timeline"]["buckets"][0]["start"] == "2026-03-02T09:00:00Z"


def test_group_by_a_path_segment(incident: Path, capsys: pytest.CaptureFixture[str]) -> None:
    summary = summary_of(capsys, str(incident), "--group-by", "path[-2]")
    groups = {g["path[-2]"]: g["streams"] for g in summary["by"]["path[-2]"]}
    assert groups == {"gateway": 600, "local": 2}


def test_a_group_or_time_column_that_is_not_there_exits_2(
    incident: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run(capsys, str(incident), "--group-by", "tenant", "--json")
    assert code == 2 and out == ""
    assert "--group-by 'tenant': the rows have no such column" in err and "route" in err
    code, _, err = run(capsys, str(incident), "--time", "when", "--json")
    assert code == 2 and "--time 'when'" in err


def test_time_and_group_by_columns_join_the_keys(
    incident: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    summary = summary_of(
        capsys, str(incident), "--key", "request_id", "--group-by", "route", "--time", "ts"
    )
    assert {g["route"] for g in summary["by"]["route"]} == {*ROUTES, "(none)"}
    assert summary["timeline"]["source"] == "started, ts"


def test_hostile_names_are_shown_never_obeyed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    routes = ["<script>alert(1)</script>", "[/x]", "\x1b[31mred"]
    lines = [{"route": r, "body": TEXT} for r in routes]
    folder = tmp_path / "it's here"
    folder.mkdir()
    (folder / "log.jsonl").write_text("".join(json.dumps(line) + "\n" for line in lines))
    (folder / "a b.sse").write_text(TEXT)
    html = tmp_path / "report.html"
    code, out, _ = run(capsys, str(folder), "--group-by", "route", "--html", str(html))
    assert code == 0
    assert "\x1b" not in out and "\\x1b[31mred" in out and "[/x]" in out
    # the commands are shell-quoted: they open the files whatever their names
    assert f"ssescope inspect {shlex.quote(str(folder / 'a b.sse'))}" in out
    page = html.read_text()
    assert "<script" not in page and "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    summary = summary_of(capsys, str(folder))
    commands = [w["command"] for w in summary["worst"]]
    assert len(commands) == 4
    for command in commands:
        assert _reopen(command, capsys)["status"] == "truncated"


def test_a_har_entry_carries_its_start(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "rows.jsonl"
    har = CONTAINERS / "devtools-several-streams.har"
    summary = summary_of(capsys, str(har), "--out", str(out))
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert [(r["entry"], r["started"][:19].replace(" ", "T")) for r in rows] == [
        (1, "2026-03-01T10:00:01"),
        (2, "2026-03-01T10:00:05"),
        (3, "2026-03-01T10:00:09"),
    ]
    assert summary["timeline"]["step"] == "hour"
    assert summary["timeline"]["buckets"] == [
        {**summary["timeline"]["buckets"][0], "start": "2026-03-01T10:00:00Z", "streams": 3}
    ]


def test_a_table_s_epoch_time_column_is_its_time_axis(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import pyarrow as pa
    import pyarrow.parquet as pq

    day = 86400 * 1000
    base = 1772323200000  # 2026-03-01T00:00:00Z, in milliseconds
    table = pa.table(
        {
            "created_at": pa.array([base, base + day, base + 3 * day], pa.int64()),
            "body": [TEXT, TEXT, TEXT],
        }
    )
    pq.write_table(table, tmp_path / "t.parquet")
    summary = summary_of(capsys, str(tmp_path / "t.parquet"), "--time", "created_at")
    timeline = summary["timeline"]
    assert timeline["step"] == "day" and timeline["source"] == "started, created_at"
    assert [b["start"] for b in timeline["buckets"]] == [
        "2026-03-01T00:00:00Z",
        "2026-03-02T00:00:00Z",
        "2026-03-04T00:00:00Z",
    ]
