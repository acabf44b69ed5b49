"""``ssescope scan`` gives each stream's schema mismatches when its input keeps the request."""

from __future__ import annotations

import shutil
from pathlib import Path

import pyarrow.parquet as pq
import pytest

from ssescope.cli import main

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "toolschema"


def test_the_schema_mismatches_column_counts_the_calls_that_break_their_schema(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    for name in (
        "chat-strict-mismatch.ssecap",
        "chat-matching.ssecap",
        "responses-not-offered.ssecap",
    ):
        shutil.copy(FIXTURES / name, corpus / name)
    # the same stream without its request: nothing to check it against
    bare = (FIXTURES / "chat-strict-mismatch.ssecap").read_bytes()
    (corpus / "bare.ssecap").write_bytes(bare.replace(b'"tools"', b'"no_tools"', 1))
    out = tmp_path / "rows.parquet"
    assert main(["scan", str(corpus), "--out", str(out), "--jobs", "1"]) == 0
    capsys.readouterr()
    rows = {Path(r["source"]).name: r for r in pq.read_table(out).to_pylist()}
    assert {name: row["schema_mismatches"] for name, row in rows.items()} == {
        "chat-strict-mismatch.ssecap": 1,  # one call, two rules broken
        "chat-matching.ssecap": 0,
        "responses-not-offered.ssecap": 1,
        "bare.ssecap": None,
    }
    assert "tool.schema-mismatch" in rows["chat-strict-mismatch.ssecap"]["diagnostics"]
