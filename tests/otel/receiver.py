"""A loopback OTLP/HTTP receiver for tests: it decodes what the SDK's exporters send."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from opentelemetry.proto.collector.metrics.v1.metrics_service_pb2 import (
    ExportMetricsServiceRequest,
    ExportMetricsServiceResponse,
)
from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import (
    ExportTraceServiceRequest,
    ExportTraceServiceResponse,
)
from opentelemetry.proto.common.v1.common_pb2 import AnyValue


def plain(value: AnyValue) -> Any:
    """An OTLP attribute value as a Python value."""
    kind = value.WhichOneof("value")
    if kind == "array_value":
        return [plain(v) for v in value.array_value.values]
    return getattr(value, kind) if kind else None


@dataclass
class Received:
    """What the receiver was sent."""

    spans: list[Any] = field(default_factory=list)
    resources: list[dict[str, Any]] = field(default_factory=list)
    metric_names: set[str] = field(default_factory=set)
    headers: list[dict[str, str]] = field(default_factory=list)
    url: str = ""

    def attributes(self, span: Any) -> dict[str, Any]:
        return {kv.key: plain(kv.value) for kv in span.attributes}


@contextmanager
def otlp_receiver() -> Iterator[Received]:
    """A receiver on a free loopback port, for the length of the block."""
    got = Received()

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
            got.headers.append({k.lower(): v for k, v in self.headers.items()})
            if self.path == "/v1/traces":
                request = ExportTraceServiceRequest.FromString(body)
                for rs in request.resource_spans:
                    got.resources.append({kv.key: plain(kv.value) for kv in rs.resource.attributes})
                    for ss in rs.scope_spans:
                        got.spans.extend(ss.spans)
                answer = ExportTraceServiceResponse().SerializeToString()
            elif self.path == "/v1/metrics":
                metrics = ExportMetricsServiceRequest.FromString(body)
                for rm in metrics.resource_metrics:
                    for sm in rm.scope_metrics:
                        got.metric_names.update(m.name for m in sm.metrics)
                answer = ExportMetricsServiceResponse().SerializeToString()
            else:
                self.send_response(404)
                self.end_headers()
                return
            self.send_response(200)
            self.send_header("Content-Type", "application/x-protobuf")
            self.send_header("Content-Length", str(len(answer)))
            self.end_headers()
            self.wfile.write(answer)

        def log_message(self, *args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    got.url = f"http://127.0.0.1:{server.server_address[1]}"
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield got
    finally:
        server.shutdown()
        server.server_close()
