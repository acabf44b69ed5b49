"""Open the listening socket of a server command, or fail in one line with exit 1."""

from __future__ import annotations

import socket

__all__ = ["SERVE_PORT", "WEB_PORT", "listen"]

SERVE_PORT = 8765
"""The default port of ``ssescope serve``."""
WEB_PORT = 8770
"""The default port of ``ssescope web`` (not ``serve``'s, so both can run at once)."""


def listen(host: str, port: int) -> socket.socket:
    """Bind and listen on ``host:port`` (port 0: a free one).

    Raises:
        OSError: with a one-line message naming the address (the command line prints it
            as ``ssescope: error: …`` and exits 1), e.g. when the port is busy.
    """
    from ..serve.app import bind  # (the serve extra: imported when a server starts)

    try:
        return bind(host, port)
    except OSError as exc:
        reason = exc.strerror or str(exc)
        shown = f"[{host}]" if ":" in host else host
        hint = " (another server is using it; pick another with --port, or 0 for any)"
        busy = exc.errno == 98 or "in use" in reason
        raise OSError(
            exc.errno, f"cannot listen on {shown}:{port}: {reason}{hint if busy else ''}"
        ) from None
