"""``ssescope export-otel CAPTURES|RECORD_DIR``: send captured streams as OpenTelemetry."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from ..errors import UsageError
from ..output import strictjson
from ..output.visible import visible
from . import exitcodes
from .otel_options import header_pairs, load_otel, otel_options

__all__ = ["export_otel_command"]


def _seconds(value: float | None) -> str:
    return "-" if value is None else f"{value:.3f}s"


@click.command("export-otel")
@click.argument("paths", nargs=-1, required=True, type=click.Path(exists=True, path_type=Path))
@click.option(
    "--endpoint",
    metavar="URL",
    default=None,
    help="The OTLP/HTTP receiver's base URL (default: OTEL_EXPORTER_OTLP_ENDPOINT, else http://localhost:4318).",
)
@otel_options
@click.option("--no-metrics", is_flag=True, help="Send the spans only.")
@click.option("--json", "as_json", is_flag=True, help="One JSON line per stream on stdout.")
def export_otel_command(
    paths: tuple[Path, ...],
    endpoint: str | None,
    otel_headers: tuple[str, ...],
    capture_content: bool | None,
    semconv: str | None,
    no_metrics: bool,
    as_json: bool,
) -> None:
    """Send each stream of CAPTURES (.ssecap, HAR, …) or of a RECORD_DIR as one OpenTelemetry
    span (gen_ai.client.inference) and the GenAI client metrics, over OTLP/HTTP.

    The spans keep the times the captures recorded: the request's start, time to first
    content, the length of the stream. Verdicts come from the bytes: a cut stream is an
    error span with finish reason "error". Content stays off the spans unless asked for.
    """
    load_otel()
    from ..otel.export import export_captures
    from ..otel.sources import Captured

    headers = header_pairs(otel_headers)

    def shown(captured: Captured) -> None:
        report = captured.report
        ttfc = report.timing.first_content_s
        if as_json:
            line = {
                "capture": captured.label,
                "verdict": report.status,
                "time_to_first_chunk": ttfc,
                "model": captured.facts.request_model or report.response.model,
            }
            strictjson.write(line, sys.stdout)
        else:
            click.echo(
                f"{visible(captured.label)}  {report.status}  first content {_seconds(ttfc)}"
            )

    try:
        result = export_captures(
            list(paths),
            endpoint=endpoint,
            headers=headers,
            capture_content=capture_content,
            semconv=semconv,  # type: ignore[arg-type]
            metrics=not no_metrics,
            on_stream=shown,
        )
    except UsageError as exc:
        click.echo(f"ssescope export-otel: {exc}", err=True)
        sys.exit(exitcodes.USAGE)
    where = endpoint or "the OTEL_EXPORTER_OTLP_* endpoint"
    if result.spans_failed:
        click.echo(
            f"ssescope export-otel: {result.spans_failed} of {len(result.streams)} spans could "
            f"not be delivered to {where}",
            err=True,
        )
        sys.exit(exitcodes.INTERNAL)
    click.echo(f"sent {result.spans_sent} spans to {where}", err=True)
