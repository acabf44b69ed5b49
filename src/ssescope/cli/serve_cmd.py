"""``ssescope serve FILE|DIR``: replay captured streams over HTTP, with faults."""

from __future__ import annotations

import sys

import click

from ..errors import UsageError
from ..visible import visible
from ._types import PORT, positive
from .web_cmd import allowed_hosts, check_host

__all__ = ["serve_command"]


@click.command("serve")
@click.argument("path", type=click.Path(exists=True))
@click.option(
    "--host", default=None, help="Address to bind (default 127.0.0.1; anything else is a warning)."
)
@click.option("--port", type=PORT, default=8765, show_default=True, help="Port (0: a free one).")
@click.option(
    "--allow-host",
    "extra_hosts",
    multiple=True,
    metavar="NAME",
    help="Also answer requests whose Host header names NAME (repeatable; e.g. the name a "
    "container uses to reach this machine). Others get 421.",
)
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
    "split-utf8, garble@record:N, error@record:N, no-done, http-error:STATUS (repeatable).",
)
def serve_command(
    path: str,
    host: str | None,
    port: int,
    extra_hosts: tuple[str, ...],
    chunk: str,
    delay: str,
    speed: float,
    faults: tuple[str, ...],
) -> None:
    """Serve the captured stream(s) at PATH to any GET or POST.

    A directory serves each capture by name: /NAME/... or ?capture=NAME. ?fault=SPEC adds
    a fault to one request. The URL is printed on stdout; requests are logged on stderr.
    """
    import uvicorn

    from ..serve.app import ReplayOptions, bind, load_captures, make_app
    from ..serve.faults import FaultPlan, parse_fault, schedule

    try:
        captures = load_captures(path)
        parsed = [parse_fault(f) for f in faults]
        schedule(FaultPlan(b""), chunk=chunk, delay=delay, speed=speed)  # validate early
    except UsageError as exc:
        raise click.UsageError(str(exc)) from None
    address, warning = check_host(host, "the captures it serves")
    if warning:
        print(warning, file=sys.stderr, flush=True)
    options = ReplayOptions(chunk=chunk, delay=delay, speed=speed, faults=parsed)
    hosts = allowed_hosts(host, address, extra_hosts)
    app = make_app(captures, options, allowed_hosts=hosts)
    try:
        sock = bind(address, port)
    except OSError as exc:
        raise click.UsageError(f"cannot listen on {address}:{port}: {exc.strerror}") from None
    bound = sock.getsockname()[1]
    shown = f"[{address}]" if ":" in address else address
    click.echo(f"http://{shown}:{bound}/")
    sys.stdout.flush()
    names = ", ".join(sorted(captures))
    print(f"serving {len(captures)} capture(s): {visible(names)}", file=sys.stderr, flush=True)
    config = uvicorn.Config(app, log_level="warning", lifespan="off", timeout_graceful_shutdown=1)
    server = uvicorn.Server(config)
    try:
        server.run(sockets=[sock])
    except KeyboardInterrupt:
        pass
    finally:
        sock.close()
