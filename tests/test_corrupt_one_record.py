"""One broken record never swallows the stream: the rest reads as if it were simply gone.

Every real stream is framed anew in each framing (SSE, NDJSON, a JSON array, and the AWS
event-stream for Bedrock), and one of its records is corrupted: cut short, a brace
dropped, or text inserted. The other records must be framed exactly as before, the broken
one must be kept as one bad record with a diagnostic, and the Report must be the Report
of the stream without that record: same framing, provider, outputs, usage, status and
error. That holds for the first record too, which is the one framing and provider
detection read.

A body whose first line starts with ``:`` is SSE (that line is a comment), so text
inserted in front of the first NDJSON record does not start with one.

In a JSON array the elements are delimited by their brackets, so a cut element or a
dropped brace moves every boundary after it; there the corruption is text inserted inside
the element, which leaves the brackets as they were.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

import ssescope
from ssescope import Pipeline
from ssescope.framing.eventstream import encode_message
from ssescope.framing.records import JSONRecord, SSEEvent
from ssescope.pipeline import INVALID_CODES

ROOT = Path(__file__).resolve().parents[1]
STREAMS = Path(os.environ.get("SSESCOPE_REAL_STREAMS", ROOT.parent / "shared" / "real_streams"))
SUFFIXES = {".sse", ".jsonl", ".ndjson", ".json", ".bin"}


@dataclass(frozen=True)
class Rec:
    """A record to frame: its SSE event name (if any) and its JSON text (one line)."""

    event: str | None
    data: str


def _records(path: Path) -> tuple[str, list[Rec]]:
    """The provider and the JSON records of a real stream, as it is read today."""
    pipeline = Pipeline(keep_records=True)
    pipeline.feed(path.read_bytes())
    pipeline.close()
    provider = pipeline.report().provider
    out = []
    for record in pipeline.records:
        if not isinstance(record, SSEEvent | JSONRecord):
            continue
        try:
            value = json.loads(record.data)
        except ValueError:
            continue  # [DONE] and the like: no JSON record to frame elsewhere
        if not isinstance(value, dict):
            continue
        event = record.event if isinstance(record, SSEEvent) and record.event != "message" else None
        data = record.data if "\n" not in record.data else json.dumps(value)
        out.append(Rec(event, data))
    return provider, out


def _cases() -> list[Any]:
    if not (STREAMS / "EXPECTED.json").is_file():
        return [
            pytest.param(
                "absent",
                "sse",
                marks=pytest.mark.skip(reason=f"the real streams are not at {STREAMS}"),
            )
        ]
    cases = []
    for path in sorted(STREAMS.rglob("*")):
        if path.suffix not in SUFFIXES:
            continue
        provider, records = _records(path)
        if len(records) < 2:
            continue
        name = str(path.relative_to(STREAMS))
        framings = ["sse", "ndjson", "json-array"]
        if provider == "bedrock":
            framings.append("aws-eventstream")
        cases += [pytest.param(name, f, id=f"{name}-{f}") for f in framings]
    return cases


_CACHE: dict[str, tuple[str, list[Rec]]] = {}


def _stream(name: str) -> tuple[str, list[Rec]]:
    if name not in _CACHE:
        _CACHE[name] = _records(STREAMS / name)
    return _CACHE[name]


def _frame(framing: str, records: list[Rec]) -> bytes:
    if framing == "sse":
        return "".join(
            (f"event: {r.event}\n" if r.event else "") + f"data: {r.data}\n\n" for r in records
        ).encode()
    if framing == "ndjson":
        return "".join(f"{r.data}\n" for r in records).encode()
    if framing == "json-array":
        return ("[" + ",\n".join(r.data for r in records) + "]\n").encode()
    return b"".join(_event_message(r.data) for r in records)


def _event_message(data: str) -> bytes:
    """A decoded Bedrock event (``{"<type>": payload}``) as an AWS event-stream message."""
    key, payload = _event_parts(data)
    return encode_message(
        {
            ":message-type": "event",
            ":event-type": key.strip('"'),
            ":content-type": "application/json",
        },
        payload.encode(),
    )


GARBAGE = st.text(alphabet=st.sampled_from(list('@#x%"}{,] :')), min_size=1, max_size=4)
SOFT_GARBAGE = st.text(alphabet=st.sampled_from(list("@#x%:")), min_size=1, max_size=4)


@st.composite
def _corrupt(draw: st.DrawFn, data: str, framing: str) -> str:
    """``data`` broken one way: cut short, a brace dropped or text inserted."""
    ways = ["insert"] if framing == "json-array" else ["truncate", "drop-brace", "insert"]
    way = draw(st.sampled_from(ways))
    if way == "truncate":
        return data[: draw(st.integers(1, len(data) - 1))]
    if way == "drop-brace":
        braces = [i for i, c in enumerate(data) if c in "{}"]
        i = draw(st.sampled_from(braces))
        return data[:i] + data[i + 1 :]
    if framing == "json-array":  # inside the element, outside its strings: no bracket moved
        at = draw(st.sampled_from(_outside_strings(data)))
        return data[:at] + draw(SOFT_GARBAGE) + data[at:]
    at = draw(st.integers(0, len(data)))
    return data[:at] + draw(GARBAGE) + data[at:]


def _outside_strings(data: str) -> list[int]:
    """The positions strictly inside ``data`` that are not inside one of its strings."""
    found = []
    in_string = escape = False
    for i, c in enumerate(data):
        if i > 0 and not in_string:
            found.append(i)
        if escape:
            escape = False
        elif in_string and c == "\\":
            escape = True
        elif c == '"':
            in_string = not in_string
    return found


def _still_json(text: str) -> bool:
    try:
        json.loads(text)
    except ValueError:
        return False
    return True


def _event_parts(data: str) -> tuple[str, str]:
    """A decoded Bedrock event ``{"<type>": payload}`` as its quoted type and payload."""
    key, _, payload = data.partition(":")
    return key[1:], payload[:-1]


def _summary(report: ssescope.Report) -> dict[str, Any]:
    d = report.to_dict()
    keep = ("framing", "provider", "status", "id", "model", "outputs", "usage", "error")
    out = {k: d[k] for k in keep}
    out["responses"] = [{k: r.get(k) for k in keep if k in r} for r in d.get("responses", [])]
    return out


def _shift(value: Any, k: int) -> Any:
    """``value`` with every ``record`` index from ``k`` on moved one up: where the records of
    the stream without record ``k`` sit in the stream that has it."""
    if isinstance(value, dict):
        return {
            key: (v + 1 if key == "record" and isinstance(v, int) and v >= k else _shift(v, k))
            for key, v in value.items()
        }
    if isinstance(value, list):
        return [_shift(v, k) for v in value]
    return value


def _framed(body: bytes) -> tuple[list[str], Pipeline]:
    pipeline = Pipeline(keep_records=True)
    pipeline.feed(body)
    pipeline.close()
    data = [r.data for r in pipeline.records if isinstance(r, SSEEvent | JSONRecord)]
    return data, pipeline


@pytest.mark.parametrize(("name", "framing"), _cases())
@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_one_corrupted_record_leaves_every_other_record_as_it_was(
    name: str, framing: str, data: st.DataObject
) -> None:
    _, records = _stream(name)
    k = data.draw(st.integers(0, len(records) - 1), label="record")
    if framing == "aws-eventstream":  # the frame stays whole: its JSON payload breaks
        key, payload = _event_parts(records[k].data)
        broken = data.draw(_corrupt(payload, framing), label="corrupted payload")
        assume(not _still_json(broken) and broken.strip())
        broken = f"{{{key}:{broken}}}"
    else:
        broken = data.draw(_corrupt(records[k].data, framing), label="corrupted")
        assume(not _still_json(broken) and broken.strip())
        # a body whose first line starts with ":" is SSE (a comment line), whatever follows
        assume(not (framing == "ndjson" and k == 0 and broken.lstrip().startswith(":")))
    corrupted = [*records[:k], Rec(records[k].event, broken), *records[k + 1 :]]
    without = [*records[:k], *records[k + 1 :]]

    got, pipeline = _framed(_frame(framing, corrupted))
    want, _ = _framed(_frame(framing, without))
    # every other record framed exactly as before, the broken one kept in its place
    assert [*got[:k], *got[k + 1 :]] == want
    assert len(got) == len(records)
    report = pipeline.report()
    flagged = {d.record for d in report.diagnostics if d.code in INVALID_CODES}
    assert k in flagged, [d.code for d in report.diagnostics]
    # and the Report is the Report of the stream without it
    reference = ssescope.inspect(_frame(framing, without))
    assert _summary(report) == _shift(_summary(reference), k)
    assert report.records.invalid == reference.records.invalid + 1


def test_a_broken_first_ndjson_line_is_one_bad_record_and_the_rest_is_read() -> None:
    lines = [
        '{"model":"llama3","created_at":"t","message":{"role":"assistant","content":"He"},"done":false',
        '{"model":"llama3","created_at":"t","message":{"role":"assistant","content":"llo"},"done":false}',
        '{"model":"llama3","created_at":"t","message":{"role":"assistant","content":""},"done":true,"done_reason":"stop"}',
    ]
    body = ("\n".join(lines) + "\n").encode()
    report = ssescope.inspect(body)
    assert (report.framing, report.provider, report.status) == ("ndjson", "ollama", "completed")
    assert report.outputs[0].text == "llo"
    bad = [d for d in report.diagnostics if d.code == "json.invalid"]
    assert [(d.record, d.offset) for d in bad] == [(0, 0)]
    assert report.records.total == 3
    assert report.records.invalid == 1
    # the same bytes as SSE read the same
    sse = "".join(f"data: {line}\n\n" for line in lines).encode()
    assert ssescope.inspect(sse).outputs[0].text == "llo"
