"""One client's websocket, seen from the room: who it is, and a bounded send queue.

Table tasks never wait on a client: :meth:`Connection.send` queues a frame
and returns; a writer task of the connection's own drains the queue to the
socket. A client that stops reading lets its queue grow, and once it holds
more than ``max_buffer`` bytes the connection is closed, so a slow or dead
client can never stall a table.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
from collections import deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

_ids = itertools.count(1)

#: Default bound on a connection's unsent bytes.
MAX_BUFFER = 1 << 20


@dataclass(frozen=True, slots=True)
class Identity:
    """Who is behind a connection: a signed-in player, or nobody (a spectator)."""

    user_id: int | None = None
    username: str | None = None


class Connection:
    """A client connection: its identity, and frames waiting to be sent."""

    def __init__(
        self,
        identity: Identity,
        send_bytes: Callable[[bytes], Awaitable[None]],
        close: Callable[[int, str], Awaitable[None]],
        *,
        max_buffer: int = MAX_BUFFER,
    ) -> None:
        self.id = next(_ids)
        self.identity = identity
        self._send_bytes = send_bytes
        self._close = close
        self.max_buffer = max_buffer
        self._queue: deque[bytes] = deque()
        self._buffered = 0
        self._ready = asyncio.Event()
        self.closed = False
        self.close_reason = ""
        #: Tables this connection watches.
        self.tables: set[int] = set()
        self.sent_frames = 0

    @property
    def user_id(self) -> int | None:
        """The signed-in player's id (``None``: a spectator)."""
        return self.identity.user_id

    @property
    def buffered(self) -> int:
        """Bytes queued and not yet sent."""
        return self._buffered

    def send(self, frame: bytes) -> None:
        """Queue ``frame``; close the connection if its unsent bytes pass the bound."""
        if self.closed:
            return
        self._queue.append(frame)
        self._buffered += len(frame)
        self._ready.set()
        if self._buffered > self.max_buffer:
            self.kill("slow_client")

    def kill(self, reason: str, *, drop: bool = True) -> None:
        """Close the socket (from any task): at once, or (``drop=False``) once the frames
        already queued, such as the error that says why, have gone."""
        if self.closed:
            return
        self.closed = True
        self.close_reason = reason
        if drop:
            self._queue.clear()
            self._buffered = 0
        self._ready.set()

    async def writer(self) -> None:
        """Send queued frames until the connection closes (run as the connection's task)."""
        try:
            while True:
                await self._ready.wait()
                self._ready.clear()
                while self._queue and (not self.closed or self._buffered):
                    frame = self._queue.popleft()
                    self._buffered -= len(frame)
                    await self._send_bytes(frame)
                    self.sent_frames += 1
                if self.closed:
                    break
        finally:
            if self.close_reason:
                # A broken rule or an ended session: policy; too slow a reader: try again later.
                code = 1008 if self.close_reason in ("policy", "signed_out") else 1013
                with contextlib.suppress(Exception):  # the socket may be gone already
                    await self._close(code, self.close_reason)
