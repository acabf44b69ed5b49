"""``ssescope web``: serve the local debugger page on 127.0.0.1."""

from __future__ import annotations

import click

from ._listen import WEB_PORT, listen

__all__ = ["check_host", "web_command"]

_LOOPBACK = ("127.0.0.1", "localhost", "::1")


def check_host(host: str | None) -> tuple[str, str | None]:
    """Return the address to bind and a warning to print (or ``None``).

    Without ``--host`` the server binds 127.0.0.1. A non-loopback address is only accepted
    when given explicitly, and then comes with a warning.
    """
    if host is None:
        return "127.0.0.1", None
    if host in _LOOPBACK:
        return host, None
    return host, (
        f"warning: serving on {host}: anyone who can reach this address can read the streams "
        "you load; the page is meant for 127.0.0.1."
    )


@click.command("web")
@click.option(
    "--port",
    type=click.IntRange(0, 65535),
    default=WEB_PORT,
    show_default=True,
    help="Port to listen on (0: any free port).",
)
@click.option(
    "--host", default=None, help="Address to bind (default 127.0.0.1; anything else is a warning)."
)
@click.option("--open", "open_browser", is_flag=True, help="Open the page in the default browser.")
def web_command(port: int, host: str | None, open_browser: bool) -> None:
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
    allowed = None if host is None or bind in _LOOPBACK else [bind, *_LOOPBACK]
    app = create_app(allowed_hosts=allowed)
    sock = listen(bind, port)  # a busy port: one line, exit 1 (not uvicorn's own error)
    config = uvicorn.Config(app, log_level="warning")
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
