"""``ssescope serve FILE|DIR``: replay captured streams over HTTP, with faults."""

from __future__ import annotations

import sys

import click

from ..errors import UsageError
from ._listen import SERVE_PORT, listen

__all__ = ["serve_command"]


@click.command("serve")
@click.argument("path", type=click.Path(exists=True))
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to bind.")
@click.option(
    "--port", type=int, default=SERVE_PORT, show_default=True, help="Port (0: a free one)."
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
@click.option("--speed", type=float, default=1.0, show_default=True, help="Divide waits by X.")
@click.option(
    "--fault",
    "faults",
    multiple=True,
    help="cut@BYTE, cut@record:N, stall@record:N:SECONDS, drop-blank-lines, crlf, cr, "
    "split-utf8, garble@record:N, error@record:N, no-done, http-error:STATUS (repeatable).",
)
def serve_command(
    path: str,
    host: str,
    port: int,
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

    from ..serve.app import ReplayOptions, load_captures, make_app
    from ..serve.faults import FaultPlan, parse_fault, schedule

    try:
        captures = load_captures(path)
        parsed = [parse_fault(f) for f in faults]
        schedule(FaultPlan(b""), chunk=chunk, delay=delay, speed=speed)  # validate early
    except UsageError as exc:
        raise click.UsageError(str(exc)) from None
    if speed <= 0:
        raise click.BadParameter("must be positive", param_hint="--speed")
    options = ReplayOptions(chunk=chunk, delay=delay, speed=speed, faults=parsed)
    app = make_app(captures, options)
    sock = listen(host, port)  # a busy port: one line, exit 1
    bound = sock.getsockname()[1]
    shown = f"[{host}]" if ":" in host else host
    click.echo(f"http://{shown}:{bound}/")
    sys.stdout.flush()
    names = ", ".join(sorted(captures))
    print(f"serving {len(captures)} capture(s): {names}", file=sys.stderr, flush=True)
    config = uvicorn.Config(app, log_level="warning", lifespan="off", timeout_graceful_shutdown=1)
    server = uvicorn.Server(config)
    try:
        server.run(sockets=[sock])
    except KeyboardInterrupt:
        pass
    finally:
        sock.close()
