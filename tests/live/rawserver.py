"""A loopback HTTP server that answers each path with canned raw bytes (hostile answers)."""

from __future__ import annotations

import contextlib
import socket
import threading
from collections.abc import Callable

Answer = Callable[[socket.socket], None]


class RawServer:
    """Serve ``answers[path](conn)`` on 127.0.0.1 in a daemon thread, one thread a client."""

    def __init__(self, answers: dict[str, Answer]) -> None:
        self.answers = answers
        self._sock = socket.socket()
        self._sock.bind(("127.0.0.1", 0))
        self._sock.listen(16)
        self.url = f"http://127.0.0.1:{self._sock.getsockname()[1]}"
        self.requests: list[bytes] = []
        self._thread = threading.Thread(target=self._loop, daemon=True)

    def __enter__(self) -> RawServer:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._sock.close()

    def _loop(self) -> None:
        while True:
            try:
                conn, _ = self._sock.accept()
            except OSError:
                return
            threading.Thread(target=self._serve, args=(conn,), daemon=True).start()

    def _serve(self, conn: socket.socket) -> None:
        with conn:
            head = b""
            while b"\r\n\r\n" not in head:
                piece = conn.recv(65536)
                if not piece:
                    return
                head += piece
            self.requests.append(head)
            path = head.split(b" ", 2)[1].decode()
            with contextlib.suppress(OSError):
                self.answers[path.split("?")[0]](conn)


def canned(status: str, headers: list[str], body: bytes) -> Answer:
    """An answer sending this status line, these headers and this body, then closing."""

    def answer(conn: socket.socket) -> None:
        lines = [f"HTTP/1.1 {status}", *headers, f"Content-Length: {len(body)}", "", ""]
        conn.sendall("\r\n".join(lines).encode() + body)

    return answer
