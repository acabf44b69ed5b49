"""Helpers of the scan tests: where things are, and what ``inspect`` says of a file."""

from __future__ import annotations

import dataclasses
import os
from pathlib import Path
from typing import Any

import pytest

from ssescope import inspect
from ssescope.containers import read_all
from ssescope.scan import report_row

ROOT = Path(__file__).resolve().parents[2]
CONTAINERS = ROOT / "tests" / "fixtures" / "containers"
_DEFAULT = ROOT.parent / "shared" / "real_streams"
STREAMS = Path(os.environ.get("SSESCOPE_REAL_STREAMS", _DEFAULT))

OPENAI = (
    b'data: {"id":"c1","object":"chat.completion.chunk","model":"gpt-x","choices":'
    b'[{"index":0,"delta":{"content":"Hi"},"finish_reason":null}]}\n\n'
)
"""An OpenAI chat stream's first event: a stream cut after it is ``truncated``."""
DONE = (
    b'data: {"id":"c1","object":"chat.completion.chunk","model":"gpt-x","choices":'
    b'[{"index":0,"delta":{},"finish_reason":"stop"}]}\n\ndata: [DONE]\n\n'
)
"""Its end: ``OPENAI + DONE`` is ``completed``."""

COMPARED = (
    "container",
    "transport",
    "provider",
    "framing",
    "status",
    "status_reason",
    "finish_reason",
    "raw_finish_reason",
    "model",
    "http_status",
    "records",
    "invalid_records",
    "bytes",
    "outputs",
    "tool_calls",
    "invalid_tool_calls",
    "schema_mismatches",
    "diagnostics",
    "errors",
    "warnings",
    "infos",
    "input_tokens",
    "output_tokens",
    "total_tokens",
    "reasoning_tokens",
    "cached_input_tokens",
    "first_byte_s",
    "first_content_s",
    "max_gap_s",
    "total_s",
    "max_content_idle_s",
)
"""The row fields that must equal what ``inspect`` gives."""


def stream_files() -> list[Path]:
    """The real captured streams (not their README and expectations)."""
    if not STREAMS.is_dir():
        pytest.skip(f"real streams not found at {STREAMS} (set SSESCOPE_REAL_STREAMS)")
    return sorted(p for p in STREAMS.rglob("*") if p.is_file() and p.parent != STREAMS)


def expected_rows(path: Path) -> list[dict[str, Any]]:
    """The rows a file should give, straight from ``inspect``: one per HAR entry (each
    entry inspected alone), one per response of a multi-response capture."""
    data = path.read_bytes()
    bodies = read_all(data)
    if len(bodies) > 1:
        from ssescope import Pipeline, feed_chunks

        reports = [feed_chunks(Pipeline(source=b.info()), b.chunks).report() for b in bodies]
    else:
        reports = [inspect(path)]
    rows: list[dict[str, Any]] = []
    for report in reports:
        if len(report.responses) > 1:
            # each response is judged as the Report of that response alone
            rows.extend(
                report_row(dataclasses.replace(report, response=r, responses=[r]))
                for r in report.responses
            )
        else:
            rows.append(report_row(report))
    return rows


def compared(row: dict[str, Any]) -> dict[str, Any]:
    """The fields of a row that must equal ``inspect``'s."""
    return {name: row[name] for name in COMPARED}


def dies_on_some_shards(shard: Any) -> Any:
    """A worker's work (``judge(work=...)``) that kills its process on a shard naming a
    file ``kill-*``, and on one naming ``once-*`` the first time (a marker file beside
    it says it died already)."""
    import signal

    from ssescope.scan.engines.shards import FileShard, connect, judge_shard

    files = shard.files if isinstance(shard, FileShard) else ()
    for file in files:
        name = Path(file).name
        marker = Path(file).with_suffix(".died")
        if name.startswith("kill-") or (name.startswith("once-") and not marker.exists()):
            marker.touch()
            os.kill(os.getpid(), signal.SIGKILL)
    return list(judge_shard(shard, connect(threads=1)))


def interrupted_then_judged(shard: Any) -> Any:
    """A worker's work (``judge(work=...)``) that is sent Ctrl-C's signal, as a terminal
    sends it to every process of its foreground group, and then judges its shard."""
    import signal

    from ssescope.scan.engines.shards import connect, judge_shard

    os.kill(os.getpid(), signal.SIGINT)  # a handler would raise KeyboardInterrupt here
    return list(judge_shard(shard, connect(threads=1)))
