"""The judge feeds the engine a batch of chunks at a time: its Report is the one a feed
per chunk gives, with the request's credentials searched for across chunk and batch
boundaries (a batch in which one is found goes in at its last chunk's time)."""

from __future__ import annotations

import itertools
import json
import threading
import time

import pytest

from ssescope.sourceinfo import RequestSummary, SourceInfo
from ssescope.transport import judge as judge_module
from ssescope.transport.judge import JudgeOptions, StreamJudge

SECRET = "sk-test-0123456789abcdef"


def _chunks(echo: bool) -> list[bytes]:
    """An OpenAI chat stream of 600 chunks; every 7th ends in the start of the key, and
    so does chunk 255, the last of the first batch; with ``echo`` the key itself comes
    back there instead, split over chunks 255 and 256."""
    base = {"id": "c", "object": "chat.completion.chunk", "model": "m"}
    out = []
    for i in range(600):
        text = f"w{i} " + ("sk-te" if i % 7 == 0 or i == 255 else "")
        if i == 255 and echo:
            text = "echo " + SECRET
        delta = {"index": 0, "delta": {"content": text}, "finish_reason": None}
        out.append(f"data: {json.dumps({**base, 'choices': [delta]})}\n\n".encode())
    # the chunks that end with the start of the key (held back until the next one)
    for i in range(0, 599, 7):
        if not (echo and i == 255):
            split = out[i].index(b"sk-te") + 5
            out[i], out[i + 1] = out[i][:split], out[i][split:] + out[i + 1]
    if echo:
        split = out[255].index(b"0123")
        out[255], out[256] = out[255][:split], out[255][split:] + out[256]
    else:
        split = out[255].index(b"sk-te") + 5  # (the last chunk of the first batch)
        out[255], out[256] = out[255][:split], out[255][split:] + out[256]
    last = {"index": 0, "delta": {}, "finish_reason": "stop"}
    out.append(f"data: {json.dumps({**base, 'choices': [last]})}\n\ndata: [DONE]\n\n".encode())
    return out


def _report(
    monkeypatch: pytest.MonkeyPatch, batch: int, secrets: list[str], echo: bool = False
) -> dict[str, object]:
    # a clock that ticks 10 ms a call, for this thread only: ``_time`` is the time module,
    # and a thread another test left running (a server's, Ray's) reads it too
    clock = itertools.count()
    here = threading.get_ident()
    real = time.monotonic

    def monotonic() -> float:
        return next(clock) * 0.01 if threading.get_ident() == here else real()

    monkeypatch.setattr(judge_module._time, "monotonic", monotonic)
    monkeypatch.setattr(judge_module, "BATCH_CHUNKS", batch)
    summary = RequestSummary(method="POST", url="http://127.0.0.1/v1", model="m", started=0.0)
    judge = StreamJudge(
        JudgeOptions(sinks=()),
        SourceInfo(container="http", status=200),
        0.0,
        lambda: summary,
        secrets=secrets,
    )
    for chunk in _chunks(echo):
        judge.chunk(chunk)
    judge.end("eof")
    assert judge.report is not None
    return judge.report.to_dict()


@pytest.mark.parametrize("secrets", [[SECRET], []], ids=["searched", "no-credentials"])
def test_a_batch_a_time_gives_the_report_of_a_feed_per_chunk(
    monkeypatch: pytest.MonkeyPatch, secrets: list[str]
) -> None:
    batched = _report(monkeypatch, 256, secrets)
    assert _report(monkeypatch, 1, secrets) == batched
    assert batched["status"] == "completed"
    assert "w7 sk-tew8 " in json.dumps(batched)  # (a start of the key held back, let go)


def test_a_key_echoed_across_a_batch_boundary_is_scrubbed(monkeypatch: pytest.MonkeyPatch) -> None:
    report = _report(monkeypatch, 256, [SECRET], echo=True)
    assert SECRET not in json.dumps(report)
    assert "http.secret-echoed" in {d["code"] for d in report["diagnostics"]}  # type: ignore[attr-defined]
    assert _report(monkeypatch, 256, [], echo=True)["status"] == "completed"
