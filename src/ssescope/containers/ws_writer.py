"""Writing the ``.ssecap`` WebSocket form, message by message, as a connection runs.

The form is described in :mod:`ssescope.containers.ws_forms` (which reads it): the header
says ``"version": 2, "transport": "websocket"``, then one line per message with its
time and direction, and a last line with the close frame's code and reason, or
``"dropped"`` when the connection ended with none.
"""

from __future__ import annotations

import base64
from collections.abc import Mapping
from typing import Any, ClassVar

from ..errors import UsageError
from .capture import CaptureWriter, _finite
from .websocket import Direction, Opcode
from .ws_forms import WS_VERSION

__all__ = ["WebSocketCaptureWriter"]


class WebSocketCaptureWriter(CaptureWriter):
    """Write a ``.ssecap`` WebSocket capture (the arguments of :class:`CaptureWriter`;
    the request is the upgrade request, the response status 101 and its headers).

    Each line is flushed as it is written, so a capture of a connection that dies is
    readable up to its last message.
    """

    FORM: ClassVar[Mapping[str, Any]] = {"version": WS_VERSION, "transport": "websocket"}

    def __enter__(self) -> WebSocketCaptureWriter:
        return self

    def write_chunk(self, data: bytes, time: float | None) -> None:  # noqa: ARG002
        """Not part of this form: a WebSocket carries messages (:meth:`write_message`).

        Raises:
            UsageError: always.
        """
        raise UsageError("a WebSocket capture records messages: use write_message()")

    def write_message(
        self, direction: Direction, data: bytes, time: float | None, opcode: Opcode = "text"
    ) -> None:
        """Record one message: who sent it, its bytes, and its time (seconds since the
        connection opened).

        Raises:
            UsageError: after :meth:`close`, or if ``time`` is not a finite number.
        """
        self._check_write("write_message", "a message", time)
        line: dict[str, Any] = {"t": time, "dir": direction}
        if opcode == "text":
            try:
                line["data"] = data.decode("utf-8")
            except UnicodeDecodeError:
                opcode = "binary"  # (a text frame is UTF-8; these bytes are kept as they are)
        if opcode == "binary":
            line["b64"] = base64.b64encode(data).decode("ascii")
        self._line(line)

    def close_connection(
        self,
        code: int | None,
        reason: str = "",
        *,
        dropped: bool = False,
        time: float | None = None,
        extra: Mapping[str, Any] | None = None,
    ) -> None:
        """Write how the connection ended and close the capture (twice does nothing).

        Args:
            code: the close frame's code (``None``: a close frame without one).
            reason: the close frame's reason.
            dropped: the connection ended with no close frame (``code`` is ignored).
            time: when (seconds since the connection opened).
            extra: more keys for the last line (the proxy's figures); readers ignore them.
        """
        if self.closed:
            return
        line: dict[str, Any] = {"close": "dropped" if dropped else {"code": code, "reason": reason}}
        if time is not None and _finite(time):
            line["t"] = time
        line.update({k: v for k, v in (extra or {}).items() if k not in ("close", "t")})
        try:
            self._line(line)
        finally:
            self.close()
