"""One client's websocket, seen from the room: who it is, and a bounded send queue.

Table tasks never wait on a client: :meth:`Connection.send_all` queues
encoded messages and returns. At the end of the event loop's turn whatever
is queued goes as **one** websocket message (one callback a turn sends for
every connection with something queued: a :class:`Flusher`), a JSON array of them
(:func:`pokerhouse.server.socket.outgoing.array`), through the server's public ASGI
``send``: a step's events, the next clock, a decision and an ack (and the
steps of other tables in the same turn) cost the client one message and one
write. That send is started right there, in a callback, and nearly always
ends at once (the socket takes the bytes): no task is woken for it. Only
when the socket does not take them (a client reading slowly) is the started
send handed to the connection's own writer task, which finishes it and
sends what queued meanwhile. A client that stops reading lets its queue
grow, and once it holds more than ``max_buffer`` bytes the connection is
closed, so a slow or dead client can never stall a table.

Closing must not wait on the client either: the last messages queued (such
as the error that says why) get a moment to go, then the socket is closed;
a peer that reads nothing at all is dropped by the server's keepalive pings
(``ping_seconds``).
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
from collections.abc import Awaitable, Callable, Coroutine, Generator, Sequence
from dataclasses import dataclass
from typing import Any

from pokerhouse.server.socket.outgoing import array

_ids = itertools.count(1)
log = logging.getLogger("pokerhouse.connection")

#: Default bound on a connection's unsent bytes.
MAX_BUFFER = 1 << 20

#: Seconds the messages queued before a close (the error that says why) may take to go out.
CLOSE_GRACE = 2.0


@dataclass(frozen=True, slots=True)
class Identity:
    """Who is behind a connection: a signed-in player, or nobody (a spectator)."""

    user_id: int | None = None
    username: str | None = None


class Connection:
    """A client connection: its identity, and messages waiting to be sent.

    ``send_text`` sends one websocket text message; ``close`` closes the
    socket with a code and a reason.
    """

    def __init__(
        self,
        identity: Identity,
        send_text: Callable[[str], Coroutine[Any, Any, None]],
        close: Callable[[int, str], Awaitable[None]],
        *,
        max_buffer: int = MAX_BUFFER,
        flusher: Flusher | None = None,
    ) -> None:
        #: The connection's address: what a table's outbox sends to.
        self.id = next(_ids)
        self.identity = identity
        self._send_text = send_text
        self._close = close
        self.max_buffer = max_buffer
        self._queue: list[bytes] = []
        self._flusher = flusher
        self._buffered = 0
        self._flush_due = False
        # The writer task holds a send: a started one the socket did not take at once,
        # or one of its own. Nothing else starts a send meanwhile.
        self._writing = False
        self._started: tuple[Coroutine[Any, Any, None], Any, int, int] | None = None
        self._ready = asyncio.Event()
        self._killed = asyncio.Event()
        self.closed = False
        self.close_reason = ""
        #: Tables this connection watches.
        self.tables: set[int] = set()
        #: Messages sent, and websocket messages (writes) that carried them.
        self.sent_messages = 0
        self.sent_writes = 0

    @property
    def user_id(self) -> int | None:
        """The signed-in player's id (``None``: a spectator)."""
        return self.identity.user_id

    @property
    def buffered(self) -> int:
        """Bytes queued and not yet sent."""
        return self._buffered

    def send(self, message: bytes) -> None:
        """Queue one encoded message."""
        self.send_all((message,))

    def send_all(self, messages: Sequence[bytes]) -> None:
        """Queue encoded messages; close the connection if its unsent bytes pass the bound."""
        if self.closed or not messages:
            return
        self._queue.extend(messages)
        self._buffered += sum(map(len, messages))
        if self._buffered > self.max_buffer:
            self.kill("slow_client")
        elif not self._flush_due and not self._writing:
            self._flush_due = True
            if self._flusher is not None:
                self._flusher.add(self)
            else:
                asyncio.get_running_loop().call_soon(self.flush)

    def flush(self) -> None:
        """Send what this turn of the loop queued: started here, and nearly always done here
        (at the end of the turn, by the room's :class:`Flusher`)."""
        self._flush_due = False
        if self.closed or self._writing or not self._queue:
            return
        # The queue is emptied in place: a fresh list each flush would outlive the turn
        # of the loop in a long-lived connection and churn the collector's generations.
        queue = self._queue
        size, count = sum(map(len, queue)), len(queue)
        sending = self._send_text(array(queue).decode())
        queue.clear()
        try:
            pending = sending.send(None)
        except StopIteration:
            self._sent(size, count)  # the socket took it: no task was needed
            return
        except Exception:  # the socket is gone
            self.kill("closed")
            return
        # The socket takes nothing now: the writer task finishes this send, then the rest.
        self._writing = True
        self._started = (sending, pending, size, count)
        self._ready.set()

    def _sent(self, size: int, count: int) -> None:
        # A kill that dropped the queue has zeroed the count already.
        self._buffered = max(0, self._buffered - size)
        self.sent_messages += count
        self.sent_writes += 1

    def kill(self, reason: str, *, drop: bool = True) -> None:
        """Close the socket (from any task): at once, or (``drop=False``) once the messages
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
        """The connection's task: send queued messages until it is killed, then close.

        The messages left when it was killed with ``drop=False`` get
        :data:`CLOSE_GRACE` seconds to go; a slow client's none. The close
        itself gets as long again: a peer that reads nothing never takes a
        close frame, and the server's keepalive drops it.
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
            with contextlib.suppress(Exception):  # the socket may be gone already
                await asyncio.wait_for(
                    self._close(code, self.close_reason or "closed"), timeout=CLOSE_GRACE
                )

    async def _send_queued(self) -> None:
        while True:
            await self._ready.wait()
            self._ready.clear()
            started, self._started = self._started, None
            try:
                if started is not None:
                    sending, pending, size, count = started
                    # Messages stay counted until their send returns: a send that waits on
                    # a client that reads nothing still holds them, and the bound is on
                    # everything the room holds for the client.
                    await _Resumed(sending, pending)
                    self._sent(size, count)
                queue = self._queue
                while queue and (not self.closed or self._buffered):
                    size, count = sum(map(len, queue)), len(queue)
                    text = array(queue).decode()
                    queue.clear()
                    await self._send_text(text)
                    self._sent(size, count)
            finally:
                self._writing = False
            if self.closed:
                return


class Flusher:
    """Connections with messages queued in this turn of the event loop, each sent at its
    end by one callback for them all (not a callback per connection: a step reaches
    every watcher of its table).
    """

    __slots__ = ("_due", "_scheduled", "_spare")

    def __init__(self) -> None:
        self._due: list[Connection] = []
        self._spare: list[Connection] = []
        self._scheduled = False

    def add(self, conn: Connection) -> None:
        """Send ``conn``'s queue at the end of this turn of the loop."""
        self._due.append(conn)
        if not self._scheduled:
            self._scheduled = True
            asyncio.get_running_loop().call_soon(self._run)

    def _run(self) -> None:
        self._scheduled = False
        # Two lists taking turns: a connection queued during the sends goes in the other.
        due, self._due = self._due, self._spare
        for conn in due:
            try:
                conn.flush()
            except Exception:  # a bug: that client goes, the others' frames still do
                log.exception("sending to connection %s failed", conn.id)
                conn.kill("closed")
        due.clear()
        self._spare = due


class _Resumed:
    """Awaitable: a coroutine that was started by hand and yielded ``pending`` (a future
    it waits for), run to its end inside the task that awaits this.

    What ``await`` does for a coroutine it starts itself, from its first yield on.
    """

    __slots__ = ("_coroutine", "_pending")

    def __init__(self, coroutine: Coroutine[Any, Any, None], pending: Any) -> None:
        self._coroutine = coroutine
        self._pending = pending

    def __await__(self) -> Generator[Any, Any, None]:
        coroutine, pending = self._coroutine, self._pending
        while True:
            try:
                value = yield pending
            except GeneratorExit:
                coroutine.close()
                raise
            except BaseException as error:  # a cancellation: the send takes it
                try:
                    pending = coroutine.throw(error)
                except StopIteration:
                    return
            else:
                try:
                    pending = coroutine.send(value)
                except StopIteration:
                    return
