"""End to end: ``export-otel`` into Arize Phoenix, and what Phoenix stored.

Phoenix runs from its own venv (``SSESCOPE_PHOENIX``, made by ``.ci/run`` from
phoenix-requirements.txt), never from the interpreter running the suite.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from datetime import datetime
from pathlib import Path

import pytest
from click.testing import CliRunner

from ssescope.cli import cli

from .phoenix import PHOENIX_ENV, phoenix_server, stored_spans

pytestmark = pytest.mark.network

CONTAINERS = Path(__file__).resolve().parent.parent / "fixtures" / "containers"
OK = CONTAINERS / "anthropic-split-utf8.ssecap"
CUT = CONTAINERS / "interrupted.ssecap"
OVERLOADED = (
    Path(__file__).resolve().parent.parent / "fixtures" / "anthropic" / "overloaded-error.sse"
)


@pytest.fixture(scope="module")
def phoenix(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    executable = os.environ.get(PHOENIX_ENV)
    if not executable:
        pytest.skip(f"{PHOENIX_ENV} is not set (.ci/run makes Phoenix's venv and sets it)")
    with phoenix_server(executable, tmp_path_factory.mktemp("phoenix")) as url:
        yield url


def _ns(text: str) -> int:
    when = datetime.fromisoformat(text)
    return int(when.timestamp()) * 10**9 + when.microsecond * 1000


def test_phoenix_stores_each_stream_with_its_verdict_and_times(phoenix: str) -> None:
    result = CliRunner().invoke(
        cli,
        ["export-otel", str(OK), str(CUT), str(OVERLOADED), "--endpoint", phoenix, "--no-metrics"],
        catch_exceptions=False,
    )
    assert result.exit_code == 0, result.stderr
    assert "sent 3 spans" in result.stderr
    spans = stored_spans(phoenix, want=3)
    by_verdict = {s["attributes"]["ssescope.verdict"]: s for s in spans}
    assert set(by_verdict) == {"completed", "truncated", "failed"}

    ok = by_verdict["completed"]
    assert ok["name"] == "chat"
    assert ok["status_code"] != "ERROR"
    assert ok["attributes"]["gen_ai.response.time_to_first_chunk"] == 0.5312
    assert ok["attributes"]["gen_ai.response.finish_reasons"] == ["stop"]
    assert ok["attributes"]["gen_ai.usage.output_tokens"] == 3
    # the span lasts what the capture's stream lasted (0.95 s of chunk times)
    assert _ns(ok["end_time"]) - _ns(ok["start_time"]) == pytest.approx(950_000_000, abs=1000)

    cut = by_verdict["truncated"]
    assert cut["status_code"] == "ERROR"
    assert cut["status_message"] == "the bytes ended without any terminal marker"
    assert cut["attributes"]["gen_ai.response.finish_reasons"] == ["error"]
    assert cut["attributes"]["error.type"] == "ssescope.truncated"
    assert {e["name"] for e in cut["events"]} == {"ssescope.diagnostic"}

    failed = by_verdict["failed"]
    assert failed["status_code"] == "ERROR"
    assert failed["attributes"]["error.type"] == "overloaded_error"
