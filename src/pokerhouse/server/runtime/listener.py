"""The room's listening socket, made by the room so it can set what the kernel enforces.

A client that stops reading is cut off by its connection's bound, and its
socket closed; but a close waits for the data already written to drain, and
a peer that reads nothing (its process stopped, its kernel still
acknowledging) never drains it. ``TCP_USER_TIMEOUT`` (Linux) makes the
kernel drop a connection whose data stays unacknowledged, or unsent behind
a zero window, for ``stall_seconds``; accepted sockets inherit it from the
listening one. The server is then handed the socket through its public
``sockets`` argument.

>>> sock = listening_socket("127.0.0.1", 0, stall_seconds=5.0)
>>> sock.getsockname()[0], sock.type == socket.SOCK_STREAM
('127.0.0.1', True)
>>> sock.close()
"""

from __future__ import annotations

import socket


def listening_socket(
    host: str,
    port: int,
    *,
    stall_seconds: float,
    send_buffer: int | None = None,
    reuse_port: bool = False,
) -> socket.socket:
    """A bound TCP socket for the server on ``host:port`` (``port`` 0: any free one).

    ``send_buffer`` sets the kernel's send buffer of every accepted socket (a
    test's slow link: backpressure after kilobytes). ``reuse_port``: other
    processes may listen on the same port too (``SO_REUSEPORT``), and the
    kernel spreads new connections among them: several nodes of one room on
    one machine's cores behind one address.
    """
    family, kind, proto, _, address = socket.getaddrinfo(
        host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE
    )[0]
    sock = socket.socket(family, kind, proto)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        if reuse_port:
            option = getattr(socket, "SO_REUSEPORT", None)
            if option is None:
                raise OSError("this system cannot share a port (no SO_REUSEPORT)")
            sock.setsockopt(socket.SOL_SOCKET, option, 1)
        user_timeout = getattr(socket, "TCP_USER_TIMEOUT", None)
        if user_timeout is not None:
            sock.setsockopt(socket.IPPROTO_TCP, user_timeout, int(stall_seconds * 1000))
        if send_buffer is not None:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, send_buffer)
        sock.bind(address)
    except OSError:
        sock.close()
        raise
    return sock
