"""The OpenInference side of ``otel_compare.py``: run in a venv of its own
(``bench/openinference-requirements.txt``), never in the suite's interpreter.

    V/bin/python bench/otel_openinference.py SERVE_URL SDK FAULT ENDING [SDK FAULT ENDING ...]

Prints one JSON line per scenario: what the app saw, and the spans OpenInference's
instrumentation of that SDK exported.
"""

from __future__ import annotations

import gc
import json
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import otel_scenarios
from openinference.instrumentation.anthropic import AnthropicInstrumentor
from openinference.instrumentation.openai import OpenAIInstrumentor
from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import (
    InMemorySpanExporter,
)

PATHS = {"openai": "/openai_chat/v1", "anthropic": "/anthropic"}
SAYS = (
    "llm.model_name",
    "llm.token_count.completion",
    "llm.token_count.prompt",
    "openinference.span.kind",
)


def _spans(exporter: InMemorySpanExporter) -> list[dict[str, Any]]:
    out = []
    for span in exporter.get_finished_spans():
        attrs = dict(span.attributes or {})
        text = "".join(
            str(v)
            for k, v in attrs.items()
            if k.startswith("llm.output_messages") and k.endswith(("content", ".text"))
        )
        out.append(
            {
                "status": span.status.status_code.name,
                "description": span.status.description,
                "output_chars": len(text),
                "events": [e.name for e in span.events],
                **{k: attrs[k] for k in SAYS if k in attrs},
            }
        )
    return out


def main(argv: list[str]) -> None:
    base_url = argv[0]
    exporter = InMemorySpanExporter()
    provider = TracerProvider()
    provider.add_span_processor(SimpleSpanProcessor(exporter))
    OpenAIInstrumentor().instrument(tracer_provider=provider)
    AnthropicInstrumentor().instrument(tracer_provider=provider)
    rest = argv[1:]
    for sdk, fault, ending in zip(rest[::3], rest[1::3], rest[2::3], strict=True):
        exporter.clear()
        seen = otel_scenarios.run(ending, base_url + PATHS[sdk], fault, sdk=sdk)
        gc.collect()
        time.sleep(0.3)  # (a span ended by a finalizer or a late callback)
        provider.force_flush()
        print(
            json.dumps({"fault": fault, "ending": ending, "app": seen, "spans": _spans(exporter)})
        )
        sys.stdout.flush()


if __name__ == "__main__":
    main(sys.argv[1:])
