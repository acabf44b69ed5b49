"""``ssescope web``: serve the local debugger page on 127.0.0.1."""

from __future__ import annotations

from pathlib import Path

import click

from ._listen import WEB_PORT, listen
from ._types import PORT
from .options import FOLDER, connection_limit_options, host_option

__all__ = ["allowed_hosts", "check_host", "web_command"]

_LOOPBACK = ("127.0.0.1", "localhost", "::1")


def check_host(host: str | None, serves: str = "the streams you load") -> tuple[str, str | None]:
    """Return the address to bind and a warning to print (or ``None``).

    Without ``--host`` the server binds 127.0.0.1. A non-loopback address is only accepted
    when given explicitly, and then comes with a warning saying who can read ``serves``.

    Raises:
        click.BadParameter: for an empty address, which would bind every interface
            without saying so (``0.0.0.0`` says it).
    """
    if host is None:
        return "127.0.0.1", None
    if not host.strip():
        raise click.BadParameter(
            "an empty address would listen on every interface; give 127.0.0.1 (the "
            "default), or 0.0.0.0 to mean every interface",
            param_hint="--host",
        )
    if host in _LOOPBACK:
        return host, None
    return host, (
        f"warning: serving on {host}: anyone who can reach this address can read {serves}; "
        "the server is meant for 127.0.0.1."
    )


def allowed_hosts(host: str | None, bind: str, extra: tuple[str, ...] = ()) -> list[str] | None:
    """The ``Host`` header names to accept (``None``: the loopback names).

    The loopback names, ``bind`` when it was given and is not one of them, and ``extra``.
    """
    if (host is None or bind in _LOOPBACK) and not extra:
        return None
    own = [] if host is None or bind in _LOOPBACK else [bind]
    return [*own, *_LOOPBACK, *extra]


@click.command("web")
@click.option(
    "--port",
    type=PORT,
    default=WEB_PORT,
    show_default=True,
    help="Port to listen on (0: any free port).",
)
@host_option
@click.option("--open", "open_browser", is_flag=True, help="Open the page in the default browser.")
@click.option(
    "--live",
    "live_dir",
    type=FOLDER,
    help="The --record folder of `ssescope proxy`: the Live view lists its exchanges.",
)
@connection_limit_options
def web_command(
    port: int,
    host: str | None,
    open_browser: bool,
    live_dir: Path | None,
    header_timeout: float,
    max_connections: int | None,
) -> None:
    """Serve the local web debugger: paste, drop or pick a stream and inspect it.

    Nothing leaves the machine: the page loads no fonts, scripts or analytics from
    elsewhere, and parsing happens in this process.
    """
    try:
        import uvicorn

        from ..web import create_app
    except ImportError as exc:  # pragma: no cover - depends on the installed extras
        raise click.UsageError(
            f"the web page needs Starlette and uvicorn ({exc.name} is missing): pip install 'ssescope[serve]'"
        ) from exc
    bind, warning = check_host(host)
    if warning:
        click.echo(warning, err=True)
    app = create_app(allowed_hosts=allowed_hosts(host, bind), live_dir=live_dir)
    sock = listen(bind, port)  # a busy port: one line, exit 1 (not uvicorn's own error)
    from ..proxy.connections import ServerLimits, uvicorn_limits

    limits = ServerLimits(header_timeout=header_timeout, max_connections=max_connections)
    config = uvicorn.Config(app, log_level="warning", **uvicorn_limits(limits))
    server = uvicorn.Server(config)
    shown = f"[{bind}]" if ":" in bind else bind
    url = f"http://{shown}:{sock.getsockname()[1]}/"
    click.echo(f"ssescope web: {url}  (Ctrl-C to stop)", err=True)
    if open_browser:
        import threading
        import webbrowser

        threading.Timer(0.5, webbrowser.open, args=(url,)).start()
    try:
        server.run(sockets=[sock])
    finally:
        sock.close()
