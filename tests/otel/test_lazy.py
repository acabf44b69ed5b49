"""The core never needs the OpenTelemetry SDK: it is imported only when a reporter is made."""

from __future__ import annotations

import subprocess
import sys

CHECK = """
import sys
import ssescope, ssescope.cli, ssescope.otel, ssescope.otel.attributes
loaded = sorted(m for m in sys.modules if m.startswith("opentelemetry"))
assert not loaded, loaded
r = ssescope.inspect(b'data: {"choices":[{"index":0,"delta":{"content":"x"},"finish_reason":"stop"}]}\\n\\ndata: [DONE]\\n\\n')
attrs = ssescope.otel.span_attributes(r, ssescope.otel.ExchangeFacts())
assert attrs["ssescope.verdict"] == "completed", attrs
assert not [m for m in sys.modules if m.startswith("opentelemetry")]
"""


def test_importing_ssescope_and_its_otel_mapping_loads_no_opentelemetry() -> None:
    done = subprocess.run(
        [sys.executable, "-c", CHECK], check=False, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
