"""``ssescope serve FILE|DIR``: replay captured streams over HTTP, with faults."""

from __future__ import annotations

import sys
from typing import Any

import click

from ..errors import UsageError
from ..output.visible import visible
from ._listen import SERVE_PORT, listen
from ._types import PORT, positive
from .options import allow_host_option, connection_limit_options, host_option
from .web_cmd import allowed_hosts, check_host

__all__ = ["serve_command"]


@click.command("serve")
@click.argument("path", type=click.Path(exists=True), required=False)
@host_option
@click.option(
    "--port", type=PORT, default=SERVE_PORT, show_default=True, help="Port (0: a free one)."
)
@allow_host_option
@click.option(
    "--chunk",
    default="original",
    show_default=True,
    help="Chunking: N bytes, random:SEED, or original (the capture's chunks, else records).",
)
@click.option(
    "--delay",
    default="0",
    show_default=True,
    help="Milliseconds between chunks, or original (the capture's timing).",
)
@click.option(
    "--speed",
    type=float,
    callback=positive,
    default=1.0,
    show_default=True,
    help="Divide waits by X.",
)
@click.option(
    "--fault",
    "faults",
    multiple=True,
    help="cut@BYTE, cut@record:N, stall@record:N:SECONDS, drop-blank-lines, crlf, cr, "
    "split-utf8, garble@record:N, error@record:N, no-done, http-error:STATUS; over a "
    "WebSocket also close@record:N:CODE, drop@record:N (repeatable).",
)
@click.option(
    "--quirk",
    "quirks",
    multiple=True,
    metavar="NAME[@SECONDS]",
    help="Replay the stream the way a real server or gateway got it wrong (repeatable; "
    "--list-quirks lists them).",
)
@click.option("--list-quirks", is_flag=True, help="Print the quirk presets and exit.")
@connection_limit_options
def serve_command(
    path: str | None,
    host: str | None,
    port: int,
    extra_hosts: tuple[str, ...],
    chunk: str,
    delay: str,
    speed: float,
    faults: tuple[str, ...],
    quirks: tuple[str, ...],
    list_quirks: bool,
    header_timeout: float,
    max_connections: int | None,
) -> None:
    """Serve the captured stream(s) at PATH to any GET or POST, and over a WebSocket.

    A directory serves each capture by name: /NAME/... or ?capture=NAME. ?fault=SPEC adds
    a fault to one request, ?quirk=NAME a quirk preset. A WebSocket client (ws://) gets
    the next recorded response for each response.create it sends. The URL is printed on
    stdout; requests are logged on stderr.
    """
    from ..serve.quirks import PRESETS, apply_quirks, parse_quirk

    if list_quirks:
        labels = [p.name + ("@SECONDS" if p.seconds is not None else "") for p in PRESETS]
        width = max(len(n) for n in labels)
        for name, preset in zip(labels, PRESETS, strict=True):
            default = f"; default {preset.seconds:g} s" if preset.seconds is not None else ""
            where = ", ".join(preset.applies_to)
            click.echo(f"{name:<{width}}  {preset.summary} [{where}{default}]")
        return
    if path is None:
        raise click.UsageError("missing argument 'PATH'")
    import uvicorn

    from ..serve.app import ReplayOptions, load_captures, make_app
    from ..serve.faults import FaultPlan, parse_fault, schedule

    try:
        captures = load_captures(path)
        parsed = [parse_fault(f) for f in faults]
        presets = [parse_quirk(q) for q in quirks]
        schedule(FaultPlan(b""), chunk=chunk, delay=delay, speed=speed)  # validate early
        _check_fits(captures, presets, lambda cap, q: apply_quirks(cap.body, q))
        _check_fits(captures, parsed, lambda cap, f: _faults_fit(cap, f, presets))
    except UsageError as exc:
        raise click.UsageError(str(exc)) from None
    address, warning = check_host(host, "the captures it serves")
    if warning:
        print(warning, file=sys.stderr, flush=True)
    options = ReplayOptions(chunk=chunk, delay=delay, speed=speed, faults=parsed, quirks=presets)
    hosts = allowed_hosts(host, address, extra_hosts)
    app = make_app(captures, options, allowed_hosts=hosts)
    sock = listen(address, port)  # a busy port: one line, exit 1
    bound = sock.getsockname()[1]
    shown = f"[{address}]" if ":" in address else address
    click.echo(f"http://{shown}:{bound}/")
    sys.stdout.flush()
    names = ", ".join(sorted(captures))
    print(f"serving {len(captures)} capture(s): {visible(names)}", file=sys.stderr, flush=True)
    from ..proxy.connections import ServerLimits, uvicorn_limits

    limits = ServerLimits(header_timeout=header_timeout, max_connections=max_connections)
    config = uvicorn.Config(
        app,
        log_level="warning",
        lifespan="off",
        timeout_graceful_shutdown=1,
        **uvicorn_limits(limits),
    )
    server = uvicorn.Server(config)
    try:
        server.run(sockets=[sock])
    except KeyboardInterrupt:
        pass
    finally:
        sock.close()


def _faults_fit(cap: Any, faults: list[Any], presets: list[Any]) -> None:
    """Whether ``faults`` fit the capture as HTTP serves it (faults apply to the quirked
    body) or as a WebSocket replays it; the reason of the way it is meant for, if not."""
    from ..serve.faults import apply_faults
    from ..serve.quirks import apply_quirks
    from ..serve.ws_app import socket_script
    from ..serve.ws_script import check_socket_faults

    try:
        check_socket_faults(faults, socket_script(cap).turns)
    except UsageError as socket_exc:
        try:
            apply_faults(apply_quirks(cap.body, presets).body, faults)
        except UsageError as http_exc:
            raise (socket_exc if cap.socket is not None else http_exc) from None


def _check_fits(captures: dict[str, Any], specs: list[Any], apply: Any) -> None:
    """Refuse quirks or faults that fit none of the captures (with the first one's reason)."""
    if not specs:
        return
    first: UsageError | None = None
    for cap in captures.values():
        try:
            apply(cap, specs)
        except UsageError as exc:  # noqa: PERF203 - one try per capture, at startup
            first = first or exc
        else:
            return
    if first is not None:
        raise first
