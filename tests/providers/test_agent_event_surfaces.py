"""The CLI's inspect and scan read Gemini Interactions and AG-UI streams through the one
engine: their verdicts, exit codes and diagnostics."""

from __future__ import annotations

from pathlib import Path

import pytest

from ssescope.cli import main

AGUI_FAILED = (
    b'data: {"type":"RUN_STARTED","threadId":"t","runId":"r"}\n\n'
    b'data: {"type":"RUN_ERROR","message":"model call failed"}\n\n'
    b'data: {"type":"RUN_FINISHED","threadId":"t","runId":"r"}\n\n'
)
INTERACTIONS_CUT = (
    b'event: interaction.created\ndata: {"interaction":{"id":"v1_a","status":"in_progress"},'
    b'"event_type":"interaction.created"}\n\n'
    b'event: step.delta\ndata: {"index":0,"delta":{"type":"text","text":"Hel"},'
    b'"event_type":"step.delta"}\n\n'
)
INTERACTIONS_DONE = INTERACTIONS_CUT + (
    b'event: interaction.completed\ndata: {"interaction":{"id":"v1_a","status":"completed"},'
    b'"event_type":"interaction.completed"}\n\n'
)


@pytest.mark.parametrize(
    ("body", "code"), [(INTERACTIONS_DONE, 0), (INTERACTIONS_CUT, 3), (AGUI_FAILED, 4)]
)
def test_inspect_gives_the_verdicts_exit_code(
    tmp_path: Path, body: bytes, code: int, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "stream.sse"
    path.write_bytes(body)
    assert main(["inspect", str(path)]) == code
    capsys.readouterr()


def test_scan_lists_the_agent_streams_verdicts(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    (corpus / "agui-failed.sse").write_bytes(AGUI_FAILED)
    (corpus / "interactions-cut.sse").write_bytes(INTERACTIONS_CUT)
    (corpus / "interactions-done.sse").write_bytes(INTERACTIONS_DONE)
    assert main(["scan", str(corpus), "--jobs", "1"]) == 0
    out = capsys.readouterr().out
    assert "ag-ui.order" in out
    assert "gemini-interactions.missing-completed" in out
    assert "agui-failed.sse" in out and "interactions-cut.sse" in out


AGUI_STATE = (
    b'data: {"type":"RUN_STARTED","threadId":"t","runId":"r"}\n\n'
    b'data: {"type":"STATE_SNAPSHOT","snapshot":{"city":"Lyon"}}\n\n'
    b'data: {"type":"STATE_DELTA","delta":[{"op":"add","path":"/days","value":3}]}\n\n'
    b'data: {"type":"STATE_DELTA","delta":[{"op":"remove","path":"/gone"}]}\n\n'
    b'data: {"type":"RUN_FINISHED","threadId":"t","runId":"r"}\n\n'
)


def test_inspect_shows_the_shared_state_and_redact_hides_its_document(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "state.sse"
    path.write_bytes(AGUI_STATE)
    assert main(["inspect", str(path), "--pretty", "--no-color"]) == 0
    out = capsys.readouterr().out
    assert 'state: 1 snapshot, 2 patches (1 did not apply) · {"city": "Lyon", "days": 3}' in out
    assert main(["inspect", str(path), "--pretty", "--no-color", "--redact"]) == 0
    redacted = capsys.readouterr().out
    assert "state: 1 snapshot, 2 patches (1 did not apply) · [redacted " in redacted
    assert "Lyon" not in redacted
    assert main(["inspect", str(path), "--pretty", "--no-color", "--only", "usage"]) == 0
    assert "state:" not in capsys.readouterr().out
