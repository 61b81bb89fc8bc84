"""One client's websocket, seen from the room: who it is, and a bounded send queue.

Table tasks never wait on a client: :meth:`Connection.send` queues a frame
and returns; a writer task of the connection's own drains the queue to the
socket. A client that stops reading lets its queue grow, and once it holds
more than ``max_buffer`` bytes the connection is closed, so a slow or dead
client can never stall a table. Given ``send_many``, the writer sends
everything queued at once (a table step's frames go in one socket write).
Given ``write_now`` too, the frames queued during one turn of the event
loop are written by one callback at its end while the socket takes data,
and the writer task is woken only when it does not (a slow client).

Closing must not wait on the client either: a writer stuck sending to a
peer that reads nothing is abandoned, and the socket is closed from the
connection's own task (:meth:`Connection.run`), which ends the stuck send.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
from collections import deque
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass

_ids = itertools.count(1)

#: Default bound on a connection's unsent bytes.
MAX_BUFFER = 1 << 20

#: Seconds the frames queued before a close (the error that says why) may take to go out.
CLOSE_GRACE = 2.0


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
        send_many: Callable[[Sequence[bytes]], Awaitable[None]] | None = None,
        write_now: Callable[[Sequence[bytes]], bool] | None = None,
        abort: Callable[[], None] | None = None,
    ) -> None:
        self.id = next(_ids)
        self.identity = identity
        self._send_bytes = send_bytes
        self._send_many = send_many
        self._write_now = write_now if send_many is not None else None
        self._flush_due = False
        self._writing = False  # the writer task has frames in a send
        self._close = close
        self._abort = abort
        self.max_buffer = max_buffer
        self._queue: deque[bytes] = deque()
        self._buffered = 0
        self._ready = asyncio.Event()
        self._killed = asyncio.Event()
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
        if self._buffered > self.max_buffer:
            self.kill("slow_client")
        elif self._write_now is None:
            self._ready.set()
        elif not self._flush_due:
            self._flush_due = True
            asyncio.get_running_loop().call_soon(self._flush)

    def _flush(self) -> None:
        """Write what this turn of the loop queued, if the socket takes it now."""
        self._flush_due = False
        if self.closed or not self._queue:
            return
        if not self._writing:
            assert self._write_now is not None
            frames = list(self._queue)
            if self._write_now(frames):
                self._queue.clear()
                self._sent(sum(map(len, frames)), len(frames))
                return
        self._ready.set()  # paused or closing: the writer task waits for the socket

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
        self._killed.set()

    async def run(self) -> None:
        """The connection's task: send queued frames until it is killed, then close the socket.

        The frames left when it was killed with ``drop=False`` get
        :data:`CLOSE_GRACE` seconds to go; a slow client's none. A send still
        hanging then is cancelled and the socket closed regardless: with a
        close frame if that goes within :data:`CLOSE_GRACE`, else (a peer
        that reads nothing takes no close frame either) by ``abort``.
        """
        sending = asyncio.get_running_loop().create_task(self._send_queued())
        try:
            await self._killed.wait()
            if self.close_reason != "slow_client":
                with contextlib.suppress(TimeoutError, Exception):
                    await asyncio.wait_for(asyncio.shield(sending), timeout=CLOSE_GRACE)
        finally:
            sending.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await sending
            # A broken rule or an ended session: policy; too slow a reader: try again later.
            code = 1008 if self.close_reason in ("policy", "signed_out") else 1013
            try:
                await asyncio.wait_for(
                    self._close(code, self.close_reason or "closed"), timeout=CLOSE_GRACE
                )
            except TimeoutError:
                if self._abort is not None:
                    self._abort()
            except Exception:  # the socket is gone already
                pass

    def _sent(self, size: int, count: int) -> None:
        # A kill that dropped the queue has zeroed the count already.
        self._buffered = max(0, self._buffered - size)
        self.sent_frames += count

    async def _send_queued(self) -> None:
        while True:
            await self._ready.wait()
            self._ready.clear()
            while self._queue and (not self.closed or self._buffered):
                # Frames stay counted until their send returns: a send that hangs on
                # a client that reads nothing still holds them, and the bound is on
                # everything the room holds for the client.
                if self._send_many is not None:
                    frames = list(self._queue)
                    self._queue.clear()
                    self._writing = True
                    try:
                        await self._send_many(frames)
                    finally:
                        self._writing = False
                    self._sent(sum(map(len, frames)), len(frames))
                    continue
                frame = self._queue.popleft()
                await self._send_bytes(frame)
                self._sent(len(frame), 1)
            if self.closed:
                return
