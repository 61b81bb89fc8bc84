"""uvicorn's websocket protocol, taught to write several messages with one socket write.

ASGI sends one websocket message per ``send``, and uvicorn writes each to
the socket at once: one system call, and on loopback one packet delivered,
per message. A step of a table sends each watcher a few messages together
(its events, the next clock, a decision, an ack), so the room offers the
app an extension, ``pokerhouse.send_many``: an awaitable that frames many
text messages and writes them with one ``transport.write``. It waits while
the socket is paused (the client reads slowly), as ``send`` does, so a
connection's own bounded queue still decides when a slow client is cut off.
Beside it, ``write_now`` does the same without waiting: it writes and
returns ``True`` when the socket takes data now, and ``False`` (writing
nothing) when it is paused or closing, so the connection's writer task is
woken only for a slow client, never for the common case.

Without compression, the server's text frames are framed here: a frame to
a client is never masked, so it is two to ten bytes of header and the text
(RFC 6455, section 5.2). That is most of the cost of a small message in
websockets' general framing code, which remains for compressed connections.

Without uvicorn's sans-I/O protocol (another server, another version) the
extension is simply absent and :mod:`.ws` sends message by message.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import Any

#: The scope extension's name; its value is ``{"send": send_many, "write_now": write_now}``.
SEND_MANY = "pokerhouse.send_many"

SendMany = Callable[[Sequence[bytes]], Awaitable[None]]
WriteNow = Callable[[Sequence[bytes]], bool]

_SHORT = [bytes((0x81, size)) for size in range(126)]


def text_frame_header(size: int) -> bytes:
    """The header of a server's final, unmasked text frame of ``size`` bytes (RFC 6455, 5.2).

    >>> text_frame_header(5), text_frame_header(300), len(text_frame_header(70000))
    (b'\\x81\\x05', b'\\x81~\\x01,', 10)
    """
    if size < 126:
        return _SHORT[size]
    if size < 65536:
        return b"\x81\x7e" + size.to_bytes(2, "big")
    return b"\x81\x7f" + size.to_bytes(8, "big")


try:
    from uvicorn.protocols.utils import ClientDisconnected
    from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
    from websockets.exceptions import InvalidState
    from websockets.protocol import State
except ImportError:  # pragma: no cover - another uvicorn: message by message
    BatchingProtocol: type[Any] | None = None
else:

    class _BatchingProtocol(WebSocketsSansIOProtocol):
        """The sans-I/O protocol with ``pokerhouse.send_many`` in every websocket scope."""

        def handle_connect(self, event: Any) -> None:
            super().handle_connect(event)
            scope = getattr(self, "scope", None)  # absent when the handshake was refused
            if scope is not None:
                scope["extensions"][SEND_MANY] = {
                    "send": self.send_many,
                    "write_now": self.write_now,
                }

        async def send_many(self, texts: Sequence[bytes]) -> None:
            """Frame every UTF-8 text in ``texts`` and write them all at once."""
            await self.writable.wait()
            if not self.write_now(texts):
                raise ClientDisconnected()

        def write_now(self, texts: Sequence[bytes]) -> bool:
            """Write ``texts`` if the socket takes data now; else write nothing, ``False``."""
            conn = self.conn
            if (
                not self.writable.is_set()
                or self.disconnected
                or self.close_sent
                or not self.handshake_complete
                or conn.state is not State.OPEN
            ):
                return False
            if conn.extensions:  # compressed: websockets frames and deflates
                try:
                    for text in texts:
                        conn.send_text(text)
                except InvalidState:  # pragma: no cover - the state was checked above
                    return False
                self.transport.write(b"".join(conn.data_to_send()))
                return True
            out = conn.data_to_send()  # empty: uvicorn writes whatever it frames at once
            for text in texts:
                out.append(text_frame_header(len(text)))
                out.append(text)
            self.transport.write(b"".join(out))
            return True

    BatchingProtocol = _BatchingProtocol


def uvicorn_ws() -> Any:
    """The ``ws`` setting for ``uvicorn.Config``: the batching protocol when there is one."""
    return BatchingProtocol if BatchingProtocol is not None else "auto"


def send_many_of(scope: Mapping[str, Any]) -> SendMany | None:
    """The ``send_many`` a websocket's scope offers, if it does."""
    extension = scope.get("extensions", {}).get(SEND_MANY)
    return None if extension is None else extension["send"]


def write_now_of(scope: Mapping[str, Any]) -> WriteNow | None:
    """The ``write_now`` a websocket's scope offers, if it does."""
    extension = scope.get("extensions", {}).get(SEND_MANY)
    return None if extension is None else extension["write_now"]
