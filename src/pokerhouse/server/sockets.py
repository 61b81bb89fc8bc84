"""uvicorn's websocket protocol, taught to write several messages with one socket write.

ASGI sends one websocket message per ``send``, and uvicorn writes each to
the socket at once: one system call, and on loopback one packet delivered,
per message. A step of a table sends each watcher a few messages together
(its events, the next clock, a decision, an ack), so the room offers the
app an extension, ``pokerhouse.send_many``: an awaitable that frames many
text messages and writes them with one ``transport.write``. It waits while
the socket is paused (the client reads slowly), as ``send`` does, so a
connection's own bounded queue still decides when a slow client is cut off.

Without uvicorn's sans-I/O protocol (another server, another version) the
extension is simply absent and :mod:`.ws` sends message by message.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import Any

#: The scope extension's name; its value is ``{"send": send_many}``.
SEND_MANY = "pokerhouse.send_many"

SendMany = Callable[[Sequence[bytes]], Awaitable[None]]

try:
    from uvicorn.protocols.utils import ClientDisconnected
    from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
    from websockets.exceptions import InvalidState
except ImportError:  # pragma: no cover - another uvicorn: message by message
    BatchingProtocol: type[Any] | None = None
else:

    class _BatchingProtocol(WebSocketsSansIOProtocol):
        """The sans-I/O protocol with ``pokerhouse.send_many`` in every websocket scope."""

        def handle_connect(self, event: Any) -> None:
            super().handle_connect(event)
            scope = getattr(self, "scope", None)  # absent when the handshake was refused
            if scope is not None:
                scope["extensions"][SEND_MANY] = {"send": self.send_many}

        async def send_many(self, texts: Sequence[bytes]) -> None:
            """Frame every UTF-8 text in ``texts`` and write them all at once."""
            await self.writable.wait()
            if self.disconnected or self.close_sent or not self.handshake_complete:
                raise ClientDisconnected()
            try:
                for text in texts:
                    self.conn.send_text(text)
            except InvalidState:
                raise ClientDisconnected() from None
            self.transport.write(b"".join(self.conn.data_to_send()))

    BatchingProtocol = _BatchingProtocol


def uvicorn_ws() -> Any:
    """The ``ws`` setting for ``uvicorn.Config``: the batching protocol when there is one."""
    return BatchingProtocol if BatchingProtocol is not None else "auto"


def send_many_of(scope: Mapping[str, Any]) -> SendMany | None:
    """The ``send_many`` a websocket's scope offers, if it does."""
    extension = scope.get("extensions", {}).get(SEND_MANY)
    return None if extension is None else extension["send"]
