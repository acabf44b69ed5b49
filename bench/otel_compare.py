"""The same streams, the same SDK, three exporters: what each one's spans say.

The openai and anthropic SDKs read streams from ``ssescope serve`` (the live fixtures,
20 ms between records) with each fault and each way an app ends a stream
(``otel_scenarios.py``), and the spans are compared:

* ssescope through ``proxy --otel`` (the SDK pointed at the proxy);
* ssescope in process, through ``ssescope.http_client(on_report=OtelReporter())``, when
  this tree has the transport;
* OpenInference's instrumentation of each SDK (openinference-instrumentation-openai and
  -anthropic, in a venv of its own made from ``bench/openinference-requirements.txt``:
  ``SSESCOPE_OPENINFERENCE_PYTHON`` names its interpreter), run against the same server
  in the same run.

    python -m venv /tmp/oi && /tmp/oi/bin/pip install -r bench/openinference-requirements.txt
    PYTHONPATH=src SSESCOPE_OPENINFERENCE_PYTHON=/tmp/oi/bin/python \\
        python bench/otel_compare.py            # prints a Markdown table

Loopback only; about a minute.
"""

from __future__ import annotations

import gc
import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from opentelemetry.sdk.metrics import MeterProvider
from opentelemetry.sdk.metrics.export import InMemoryMetricReader
from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

import ssescope
from ssescope.otel import OtelReporter
from ssescope.otel.proxy import exchange_hook
from ssescope.proxy import ProxyThread
from ssescope.serve.app import ReplayOptions, ServerThread, load_captures, make_app

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import otel_scenarios  # noqa: E402

LIVE = HERE.parent / "tests" / "fixtures" / "live"
FAULTS = (
    "",
    "cut@record:4",
    "stall@record:3:0.3",
    "error@record:4",
    "http-error:429",
    "garble@record:3",
    "split-utf8",
)
PATHS = {"openai": "/openai_chat/v1", "anthropic": "/anthropic"}
SCENARIOS = [
    (sdk, fault, ending)
    for sdk in otel_scenarios.SDKS
    for fault, ending in [(fault, "end") for fault in FAULTS]
    + [
        ("stall@record:3:2" if ending == "timeout" else "", ending)
        for ending in otel_scenarios.ENDINGS
        if ending != "end"
    ]
]


class Quiet:
    def write(self, text: str) -> int:
        return len(text)

    def flush(self) -> None:
        pass


def _sink() -> tuple[TracerProvider, MeterProvider, InMemorySpanExporter]:
    spans = InMemorySpanExporter()
    tracer_provider = TracerProvider()
    tracer_provider.add_span_processor(SimpleSpanProcessor(spans))
    return tracer_provider, MeterProvider(metric_readers=[InMemoryMetricReader()]), spans


def _ours(spans: InMemorySpanExporter) -> dict[str, Any]:
    found = list(spans.get_finished_spans())
    out: dict[str, Any] = {"spans": len(found)}
    if found:
        attrs = dict(found[-1].attributes or {})
        out["verdict"] = attrs.get("ssescope.verdict")
        out["ttfc"] = attrs.get("gen_ai.response.time_to_first_chunk")
        out["error_type"] = attrs.get("error.type")
        out["finish"] = list(attrs.get("gen_ai.response.finish_reasons", ()))  # type: ignore[arg-type]
    return out


def through_proxy(serve: ServerThread) -> list[dict[str, Any]]:
    tracer_provider, meter_provider, spans = _sink()
    hook = exchange_hook(OtelReporter(tracer_provider, meter_provider))
    rows = []
    with ProxyThread(serve.url, finish_grace=0.3, on_report=hook) as proxy:
        for sdk, fault, ending in SCENARIOS:
            spans.clear()
            seen = otel_scenarios.run(ending, proxy.url + PATHS[sdk], fault, sdk=sdk)
            proxy.flush()
            rows.append({"app": seen, **_ours(spans)})
    return rows


def in_process(serve: ServerThread) -> list[dict[str, Any]] | None:
    make = getattr(ssescope, "http_client", None)
    make_async = getattr(ssescope, "async_http_client", None)
    if make is None or make_async is None:
        return None
    tracer_provider, meter_provider, spans = _sink()
    reporter = OtelReporter(tracer_provider, meter_provider)
    rows = []
    for sdk, fault, ending in SCENARIOS:
        spans.clear()
        seen = otel_scenarios.run(
            ending,
            serve.url + PATHS[sdk],
            fault,
            sdk=sdk,
            http_client=make(on_report=reporter),
            async_client=make_async(on_report=reporter),
        )
        gc.collect()
        time.sleep(0.3)
        rows.append({"app": seen, **_ours(spans)})
    return rows


def openinference(serve: ServerThread) -> list[dict[str, Any]] | None:
    python = os.environ.get("SSESCOPE_OPENINFERENCE_PYTHON")
    if not python:
        return None
    args = [python, str(HERE / "otel_openinference.py"), serve.url]
    for sdk, fault, ending in SCENARIOS:
        args += [sdk, fault, ending]
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    done = subprocess.run(args, capture_output=True, text=True, env=env, timeout=600, check=True)
    return [json.loads(line) for line in done.stdout.splitlines() if line.startswith("{")]


def _cell(row: dict[str, Any] | None) -> str:
    if row is None:
        return "(not run)"
    if not row["spans"]:
        return "**no span**"
    ttfc = "-" if row.get("ttfc") is None else f"{row['ttfc']:.3f}s"
    return f"{row['spans']}: {row['verdict']}, ttfc {ttfc}, {row['error_type'] or 'no error.type'}"


def _theirs(row: dict[str, Any]) -> str:
    spans = row["spans"]
    if not spans:
        return "**no span**"
    span = spans[-1]
    said = f"{len(spans)}: {span['status']}"
    if span.get("description"):
        said += f" ({str(span['description'])[:40]})"
    said += f", {span['output_chars']} chars out"
    if "llm.token_count.completion" in span:
        said += f", {span['llm.token_count.completion']} completion tokens"
    return said


def main() -> None:
    app = make_app(load_captures(LIVE), ReplayOptions(chunk="original", delay="20"), log=Quiet())
    with ServerThread(app) as serve:
        proxied = through_proxy(serve)
        inproc = in_process(serve)
        theirs = openinference(serve)
    print(
        "| SDK | fault | ending | app saw | ssescope (proxy --otel) | ssescope (transport) "
        "| OpenInference |"
    )
    print("|---|---|---|---|---|---|---|")
    for i, (sdk, fault, ending) in enumerate(SCENARIOS):
        mine = _cell(inproc[i]) if inproc is not None else "(no transport here)"
        other = (
            _theirs(theirs[i]) if theirs is not None else "(SSESCOPE_OPENINFERENCE_PYTHON not set)"
        )
        print(
            f"| {sdk} | {fault or 'none'} | {ending} | {proxied[i]['app']} "
            f"| {_cell(proxied[i])} | {mine} | {other} |"
        )


if __name__ == "__main__":
    main()
