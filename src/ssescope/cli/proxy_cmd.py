"""``ssescope proxy``: a recording reverse proxy; one line per exchange as it ends."""

from __future__ import annotations

import shutil
import sys
import tempfile
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import click

from ..output.visible import visible
from ._listen import WEB_PORT, listen
from .options import (
    FOLDER,
    PROVIDER_CHOICE,
    allow_host_option,
    connection_limit_options,
    host_option,
    idle_threshold_option,
    seconds_option,
    timing_options,
)
from .otel_options import header_pairs, load_otel, otel_options
from .web_cmd import allowed_hosts, check_host

__all__ = ["proxy_command"]

_LOOPBACK = ("127.0.0.1", "localhost", "::1")
_WHO = "what it records, and send requests through it with your app's credentials"


def _url(value: str, what: str) -> str:
    parts = urlsplit(value)
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise click.BadParameter(f"{value!r} is not an http(s) URL", param_hint=what)
    return value.rstrip("/")


def _otel(wanted: bool, endpoint: str | None, headers: tuple[str, ...]) -> tuple[Any, Any] | None:
    """The tracer and meter providers ``--otel`` exports through, or ``None``."""
    if not wanted:
        return None
    if endpoint is not None:
        _url(endpoint, "--otel-endpoint")
    load_otel()
    from ..otel.export import otlp_providers

    return otlp_providers(endpoint, header_pairs(headers))


def _routes(values: tuple[str, ...]) -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    for value in values:
        prefix, eq, url = value.partition("=")
        if not eq or not prefix.startswith("/"):
            raise click.BadParameter(
                f"{value!r} is not PREFIX=URL (for example /v1/messages=https://api.anthropic.com)",
                param_hint="--route",
            )
        out.append((prefix, _url(url, "--route")))
    return out


@click.command("proxy")
@click.option("--upstream", required=True, help="Where requests go (https://api.openai.com).")
@click.option(
    "--route",
    "routes",
    multiple=True,
    metavar="PREFIX=URL",
    help="Send paths starting with PREFIX to URL instead (repeatable; longest prefix wins).",
)
@host_option
@click.option(
    "--port", type=click.IntRange(0, 65535), default=8766, show_default=True, help="Port (0: any)."
)
@allow_host_option
@click.option(
    "--allow-origin",
    "origins",
    multiple=True,
    metavar="ORIGIN",
    help="Let web pages of ORIGIN (http://localhost:3000) send requests through the proxy "
    "(repeatable). Requests from other pages get 403.",
)
@click.option(
    "--record",
    "record",
    type=FOLDER,
    help="Write one .ssecap per exchange and index.jsonl into this folder.",
)
@click.option("--json", "as_json", is_flag=True, help="One JSON line per exchange on stdout.")
@click.option(
    "--redact-content", is_flag=True, help="Hash the text in captures; keep structure and timing."
)
@click.option(
    "--provider",
    type=PROVIDER_CHOICE,
    default="auto",
    show_default=True,
    help="Read every exchange as this provider.",
)
@idle_threshold_option
@seconds_option(
    "--finish-grace", 5.0, "Seconds to wait for the upstream to close after the terminal marker."
)
@connection_limit_options
@seconds_option(
    "--idle-timeout", 60.0, "Seconds to wait for the next piece of a request body (then 408)."
)
@click.option("--web", is_flag=True, help="Also serve the web page, with its Live view.")
@click.option(
    "--otel",
    is_flag=True,
    help="Export each exchange as an OpenTelemetry span and the GenAI metrics (OTLP/HTTP).",
)
@click.option(
    "--otel-endpoint",
    metavar="URL",
    default=None,
    help="The OTLP/HTTP receiver (implies --otel; default: OTEL_EXPORTER_OTLP_ENDPOINT).",
)
@otel_options
@click.option(
    "--web-port",
    type=click.IntRange(0, 65535),
    default=WEB_PORT,
    show_default=True,
    help="Port of the web page with --web.",
)
def proxy_command(
    upstream: str,
    routes: tuple[str, ...],
    host: str | None,
    port: int,
    extra_hosts: tuple[str, ...],
    origins: tuple[str, ...],
    record: Path | None,
    as_json: bool,
    redact_content: bool,
    provider: str,
    idle_threshold: float | None,
    finish_grace: float,
    header_timeout: float,
    idle_timeout: float,
    max_connections: int | None,
    web: bool,
    web_port: int,
    otel: bool,
    otel_endpoint: str | None,
    otel_headers: tuple[str, ...],
    capture_content: bool | None,
    semconv: str | None,
) -> None:
    """Forward every request to UPSTREAM untouched, record and judge each exchange.

    Point an SDK's base URL at the printed address. Streams are forwarded as they arrive,
    never buffered; each exchange prints one line as it ends (time, method, path, status,
    provider, verdict, first-content time, records, bytes, capture). Secrets in headers
    are never written: captures and lines show a short hash instead. WebSocket upgrades
    are relayed message by message, both ways, and judged one response per
    response.create (docs/websocket.md).
    """
    import asyncio

    from rich.console import Console

    from ..proxy import ProxyApp, ProxyOptions, Recorder, Registry, ServerLimits, serve
    from ..proxy.display import LineWriter, LiveDisplay, exchange_summary
    from ..proxy.guard import ProxyGuard

    target = _url(upstream, "--upstream")
    table = _routes(routes)
    exporting = _otel(otel or otel_endpoint is not None, otel_endpoint, otel_headers)
    for origin in origins:
        _url(origin, "--allow-origin")
    address, warning = check_host(host, _WHO)
    if warning:
        click.echo(warning, err=True)
    hosts = allowed_hosts(host, address, extra_hosts) or list(_LOOPBACK)
    sock = listen(address, port)  # a busy port: one line, exit 1
    web_sock = None
    if web:
        try:
            web_sock = listen(address, web_port)
        except OSError:
            sock.close()
            raise
    temporary = None
    if web and record is None:
        temporary = Path(tempfile.mkdtemp(prefix="ssescope-proxy-"))
        record = temporary
    shown = f"[{address}]" if ":" in address else address
    url = f"http://{shown}:{sock.getsockname()[1]}"
    err = Console(stderr=True, highlight=False, soft_wrap=True)

    def note(text: str) -> None:
        # (what the user typed, shown as typed: never read as rich markup)
        err.print(visible(text), markup=False, highlight=False)

    on_report = None
    if exporting is not None:
        from ..otel import OtelReporter
        from ..otel.proxy import exchange_hook

        on_report = exchange_hook(
            OtelReporter(*exporting, capture_content=capture_content, semconv=semconv)  # type: ignore[arg-type]
        )
    registry = Registry()
    recorder = Recorder(
        registry,
        record,
        provider=provider,
        timing=timing_options(idle_threshold),
        redact_content=redact_content,
        say=note,
        on_report=on_report,
    )
    terminal = sys.stdout.isatty() and not as_json
    console = Console(file=sys.stdout, highlight=False, soft_wrap=True)
    shown_folder = None if record is None or temporary else str(record)
    lines = LineWriter(json=as_json, console=console, folder=shown_folder)
    registry.on_finish(lines)

    note(f"ssescope proxy: {url} -> {target}")
    for prefix, routed in table:
        note(f"  {prefix}* -> {routed}")
    if record is not None:
        note(f"  recording into {record}" + (" (removed on exit)" if temporary else ""))
    if exporting is not None:
        note(f"  exporting to {otel_endpoint or 'the OTEL_EXPORTER_OTLP_* endpoint'}")

    def refused(method: str, path: str, status: int, why: str) -> None:
        note(f"ssescope proxy: refused {method} {path} ({status}): {why}")

    web_app = None
    if web_sock is not None:
        from ..web import create_app

        web_hosts = allowed_hosts(host, address, extra_hosts)
        web_app = create_app(allowed_hosts=web_hosts, live_dir=record)
        note(f"  web page: http://{shown}:{web_sock.getsockname()[1]}/")
    app = ProxyApp(ProxyOptions(target, table, finish_grace, idle_timeout), recorder)
    guard = ProxyGuard(hosts, origins, refused)
    limits = ServerLimits(header_timeout=header_timeout, max_connections=max_connections)
    runner = serve(app, sock, web_app=web_app, web_sock=web_sock, guard=guard, limits=limits)
    try:
        try:
            if terminal:
                with LiveDisplay(registry, console, header=url, stderr=sys.stderr.isatty()):
                    asyncio.run(runner)
            else:
                asyncio.run(runner)
        except KeyboardInterrupt:
            pass
        # (however Ctrl-C stopped it: uvicorn's own handler, which makes the run return,
        # or the KeyboardInterrupt it raises again once the servers stopped)
        note(exchange_summary(lines.verdicts, len(registry.active()), shown_folder))
    finally:
        recorder.stop()
        if exporting is not None:
            for provider_ in exporting:
                if provider_ is not None:
                    provider_.shutdown()  # (sends what is still buffered)
        sock.close()
        if web_sock is not None:
            web_sock.close()
        if temporary is not None:
            shutil.rmtree(temporary, ignore_errors=True)
