"""The OpenTelemetry options ``export-otel`` and ``proxy --otel`` share."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import click

from ..otel.names import SEMCONVS

__all__ = ["header_pairs", "load_otel", "otel_options"]

F = TypeVar("F", bound=Callable[..., Any])


def otel_options(f: F) -> F:
    """``--otel-header``, ``--capture-content`` and ``--semconv``."""
    f = click.option(
        "--semconv",
        type=click.Choice(SEMCONVS),
        default=None,
        help="Which GenAI names: latest (default), v1.41 (gen_ai.client.operation.*), both.",
    )(f)
    f = click.option(
        "--capture-content/--no-capture-content",
        default=None,
        help="Put the reply on the spans (default: OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT, else off).",
    )(f)
    return click.option(
        "--otel-header",
        "otel_headers",
        multiple=True,
        metavar="NAME=VALUE",
        help="A header for the OTLP receiver (repeatable; OTEL_EXPORTER_OTLP_HEADERS works too).",
    )(f)


def header_pairs(values: tuple[str, ...]) -> dict[str, str]:
    """``NAME=VALUE`` options as a dict.

    Raises:
        click.BadParameter: for one without ``=``.
    """
    found: dict[str, str] = {}
    for value in values:
        name, sep, rest = value.partition("=")
        if not sep or not name.strip():
            raise click.BadParameter(f"{value!r} is not NAME=VALUE", param_hint="--otel-header")
        found[name.strip()] = rest.strip()
    return found


def load_otel() -> None:
    """Fail with an install hint when the ``otel`` extra is missing.

    Raises:
        click.UsageError: without the OpenTelemetry SDK or its OTLP/HTTP exporter.
    """
    try:
        import opentelemetry.exporter.otlp.proto.http
        import opentelemetry.sdk  # noqa: F401
    except ImportError as exc:  # pragma: no cover - depends on the installed extras
        raise click.UsageError(
            f"OpenTelemetry export needs the SDK and its OTLP exporter ({exc.name} is missing): pip install 'ssescope[otel]'"
        ) from exc
