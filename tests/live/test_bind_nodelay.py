"""The listening socket of serve, web and proxy: every accepted connection has Nagle off.

With Nagle's algorithm on, a response's first body write waits for the client to
acknowledge the headers, and on a kept-alive connection that takes a delayed ACK (40 ms on
Linux) at the start of every stream after the first: the proxy added it to each stream's
first chunks, and the replay server to its timing.
"""

from __future__ import annotations

import asyncio
import socket

import pytest

from ssescope.serve.app import bind

pytestmark = pytest.mark.network


def test_the_listening_socket_names_tcp_as_its_protocol() -> None:
    # asyncio disables Nagle on accepted connections only when the protocol is IPPROTO_TCP
    with bind("127.0.0.1", 0) as sock:
        assert sock.type == socket.SOCK_STREAM
        assert sock.proto == socket.IPPROTO_TCP


async def test_an_accepted_connection_has_nagle_off() -> None:
    loop = asyncio.get_running_loop()
    accepted: asyncio.Future[int] = loop.create_future()

    class Probe(asyncio.Protocol):
        def connection_made(self, transport: asyncio.BaseTransport) -> None:
            sock = transport.get_extra_info("socket")
            accepted.set_result(sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY))
            transport.close()

    # the way uvicorn serves a socket it is handed (serve, web and proxy all hand it one)
    server = await loop.create_server(Probe, sock=bind("127.0.0.1", 0))
    try:
        port = server.sockets[0].getsockname()[1]
        _reader, writer = await asyncio.open_connection("127.0.0.1", port)
        try:
            nodelay = await asyncio.wait_for(accepted, 10)
        finally:
            writer.close()
            await writer.wait_closed()
        assert nodelay != 0
    finally:
        server.close()
        await server.wait_closed()
