"""A lean websocket client for load tests: an asyncio protocol, RFC 6455 framing by hand.

A load test's clients share the machine with the server they measure, so
each received frame must cost as little as possible: no per-frame task,
lock or future, as a general-purpose library needs. This client does the
handshake, unmasks nothing (servers do not mask), masks what it sends
(clients must), answers pings, and hands every text message's bytes to a
callback. It offers no extensions, so no frame is compressed.
"""

from __future__ import annotations

import asyncio
import base64
import os
import struct
from collections.abc import Callable

_GUID = b"258EAFA5-E914-47DA-95CA-C5AB0DC85B11"
_TEXT, _CLOSE, _PING, _PONG = 0x1, 0x8, 0x9, 0xA


def mask(payload: bytes, key: bytes) -> bytes:
    """``payload`` XOR the repeated 4-byte ``key``, as one big-integer XOR (no byte loop)."""
    n = len(payload)
    if n == 0:
        return payload
    keys = (key * (n // 4 + 1))[:n]
    return (int.from_bytes(payload, "little") ^ int.from_bytes(keys, "little")).to_bytes(
        n, "little"
    )


def frame(opcode: int, payload: bytes) -> bytes:
    """One final, masked client frame."""
    n = len(payload)
    key = os.urandom(4)
    if n < 126:
        head = struct.pack("!BB", 0x80 | opcode, 0x80 | n)
    elif n < 65536:
        head = struct.pack("!BBH", 0x80 | opcode, 0x80 | 126, n)
    else:
        head = struct.pack("!BBQ", 0x80 | opcode, 0x80 | 127, n)
    return head + key + mask(payload, key)


class WsClient(asyncio.Protocol):
    """One websocket: ``on_message(payload)`` for each text message, ``on_close()`` once."""

    def __init__(
        self,
        on_message: Callable[[bytes], None],
        on_close: Callable[[], None] = lambda: None,
    ) -> None:
        self.on_message = on_message
        self.on_close = on_close
        self.transport: asyncio.Transport | None = None
        self.open = False
        self.closed = False
        self.received = 0
        self._buffer = bytearray()
        self._handshake: asyncio.Future[None] | None = None
        self._fragments: list[bytes] = []

    @classmethod
    async def connect(
        cls,
        host: str,
        port: int,
        path: str,
        on_message: Callable[[bytes], None],
        *,
        cookie: str | None = None,
        on_close: Callable[[], None] = lambda: None,
        timeout: float = 30.0,
    ) -> WsClient:
        """Open ``ws://host:port/path`` and finish the handshake."""
        loop = asyncio.get_running_loop()
        _, client = await loop.create_connection(lambda: cls(on_message, on_close), host, port)
        client._handshake = loop.create_future()
        key = base64.b64encode(os.urandom(16)).decode()
        lines = [
            f"GET {path} HTTP/1.1",
            f"Host: {host}:{port}",
            "Upgrade: websocket",
            "Connection: Upgrade",
            f"Sec-WebSocket-Key: {key}",
            "Sec-WebSocket-Version: 13",
        ]
        if cookie:
            lines.append(f"Cookie: {cookie}")
        assert client.transport is not None
        client.transport.write(("\r\n".join(lines) + "\r\n\r\n").encode())
        await asyncio.wait_for(client._handshake, timeout)
        return client

    # ------------------------------------------------------------ asyncio.Protocol

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        self.transport = transport

    def connection_lost(self, exc: Exception | None) -> None:
        if self._handshake is not None and not self._handshake.done():
            self._handshake.set_exception(ConnectionError("closed during the handshake"))
        if not self.closed:
            self.closed = True
            self.on_close()

    def data_received(self, data: bytes) -> None:
        buffer = self._buffer
        buffer += data
        if not self.open:
            end = buffer.find(b"\r\n\r\n")
            if end < 0:
                return
            status = bytes(buffer[: buffer.find(b"\r\n")])
            del buffer[: end + 4]
            assert self._handshake is not None
            if b" 101 " not in status:
                self._handshake.set_exception(ConnectionError(status.decode(errors="replace")))
                return
            self.open = True
            self._handshake.set_result(None)
        # Every complete frame in the buffer, read from an offset: one compaction at the end.
        at = 0
        size = len(buffer)
        while size - at >= 2:
            first, second = buffer[at], buffer[at + 1]
            length = second & 0x7F
            start = at + 2
            if length == 126:
                if size - at < 4:
                    break
                length = int.from_bytes(buffer[at + 2 : at + 4], "big")
                start = at + 4
            elif length == 127:
                if size - at < 10:
                    break
                length = int.from_bytes(buffer[at + 2 : at + 10], "big")
                start = at + 10
            end = start + length
            if end > size:
                break
            payload = bytes(buffer[start:end])
            at = end
            self._frame(first, payload)
        if at:
            del buffer[:at]

    # ------------------------------------------------------------ frames

    def _frame(self, first: int, payload: bytes) -> None:
        opcode = first & 0x0F
        final = first & 0x80
        if opcode == _TEXT or opcode == 0x0 or opcode == 0x2:
            if not final:
                self._fragments.append(payload)
                return
            if self._fragments:
                payload = b"".join((*self._fragments, payload))
                self._fragments.clear()
            self.received += 1
            self.on_message(payload)
        elif opcode == _PING:
            self._write(frame(_PONG, payload))
        elif opcode == _CLOSE:
            self._write(frame(_CLOSE, payload[:2]))
            self.closed = True
            if self.transport is not None:
                self.transport.close()
            self.on_close()

    def _write(self, data: bytes) -> None:
        if self.transport is not None and not self.transport.is_closing():
            self.transport.write(data)

    def send(self, text: bytes) -> None:
        """Send one text message (UTF-8 bytes)."""
        self._write(frame(_TEXT, text))

    def close(self) -> None:
        """Say goodbye (1000) and close."""
        if not self.closed:
            self._write(frame(_CLOSE, struct.pack("!H", 1000)))
            self.closed = True
        if self.transport is not None:
            self.transport.close()
