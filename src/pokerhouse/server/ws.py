"""The websocket endpoint ``/ws``: one socket per client, any number of tables.

The handshake's ``Origin`` must be this site; the session cookie says who
is there (without one the socket may only watch). Every frame is decoded
once into a typed message (:mod:`.protocol`) and handed to the table it
names; a malformed one gets an ``error`` with a stable code and changes
nothing. Messages and chat are rate limited per player (:class:`Limits`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import TYPE_CHECKING

from starlette.types import Scope, Send
from starlette.websockets import WebSocket, WebSocketDisconnect

from pokerhouse.server import auth, frames
from pokerhouse.server import protocol as p
from pokerhouse.server.connection import Connection, Identity
from pokerhouse.server.logs import events, record
from pokerhouse.server.runner import Request, Watch
from pokerhouse.server.sockets import send_many_of, write_now_of
from pokerhouse.store.users import token_hash

if TYPE_CHECKING:
    from pokerhouse.server.app import Site
    from pokerhouse.server.settings import RoomSettings

log = logging.getLogger("pokerhouse.ws")

#: Errors in a row after which a connection is closed (a client that only sends garbage).
MAX_ERRORS = 50
#: Seconds the endpoint waits for a connection's last frames and its close.
CLOSE_WAIT = 15.0
#: Where :func:`with_abort` leaves a websocket's way to drop its TCP connection.
ABORT_KEY = "pokerhouse.abort"


def with_abort(scope: Scope, send: Send) -> Scope:
    """``scope`` with a function that drops the socket at once (when the server offers one).

    ASGI can only close a websocket with a close frame, and a peer that
    reads nothing never takes it (uvicorn even waits for the write buffer
    to drain before sending it). Cutting a slow or dead client off needs
    the transport: uvicorn's ``send`` is a method of the protocol that owns
    it. Called by the outermost middleware, which gets the server's ``send``.
    """
    transport = getattr(getattr(send, "__self__", None), "transport", None)
    abort = getattr(transport, "abort", None)
    if abort is None:
        return scope
    return {**scope, ABORT_KEY: abort}


class Limits:
    """The room's message and chat rate limits, per player over all their sockets.

    A signed-in player's budget is theirs whatever socket they use, so opening
    more sockets buys no more messages; a spectator (no account) has one per
    socket.
    """

    def __init__(self, settings: RoomSettings) -> None:
        self.messages = auth.RateLimit(settings.messages_per_second, settings.message_burst)
        self.chat = auth.RateLimit(settings.chat_per_second, settings.chat_burst)

    @staticmethod
    def key(conn: Connection) -> str:
        """Whose budget a connection spends."""
        return f"user:{conn.user_id}" if conn.user_id is not None else f"conn:{conn.id}"

    def closed(self, conn: Connection) -> None:
        """A socket closed: a spectator's budget goes with it (a player's stays theirs)."""
        if conn.user_id is None:
            self.messages.forget(self.key(conn))
            self.chat.forget(self.key(conn))


async def websocket_endpoint(site: Site, ws: WebSocket) -> None:
    """Serve one client's socket until it closes."""
    host = ws.headers.get("host")
    if not auth.same_origin(ws.headers.get("origin"), host, ws.url.scheme):
        await ws.close(code=1008, reason="cross-origin websocket")
        return
    user = None
    token = ws.cookies.get(auth.SESSION_COOKIE)
    if token:
        with contextlib.suppress(Exception):
            user = await site.store.user_for_session(token)
    await ws.accept()

    async def send(frame: bytes) -> None:
        await ws.send_text(frame.decode())

    async def close(code: int, reason: str) -> None:
        await ws.close(code=code, reason=reason)

    identity = Identity(user.id, user.username) if user is not None else Identity()
    conn = Connection(
        identity,
        send,
        close,
        max_buffer=site.settings.max_buffer,
        send_many=send_many_of(ws.scope),
        write_now=write_now_of(ws.scope),
        abort=ws.scope.get(ABORT_KEY),
    )
    task = asyncio.get_running_loop().create_task(conn.run())
    site.metrics.connections.inc()
    site.metrics.connections_opened.inc()
    conn.send(frames.message("hello", user=identity.username))
    session = token_hash(token) if user is not None and token else None
    if session is not None:
        site.sockets.setdefault(session, set()).add(conn)
    limits = site.limits
    budget = Limits.key(conn)
    record(events, "connection", conn=conn.id, user=identity.username, open=True)
    errors = 0

    def refuse(code: str, message: str, ident: str | None = None, table: int | None = None) -> None:
        nonlocal errors
        site.metrics.error(code)
        conn.send(frames.error(code, message, ident, table))
        errors += 1
        if errors > MAX_ERRORS:
            conn.kill("policy", drop=False)

    try:
        while not conn.closed:
            raw = await ws.receive()
            if raw["type"] == "websocket.disconnect":
                break
            text = raw.get("text")
            if text is None:
                refuse("binary_frame", "send JSON text frames")
                continue
            if p.utf8_size(text) > p.MAX_FRAME:
                refuse("frame_too_large", f"a message is at most {p.MAX_FRAME} bytes")
                conn.kill("policy", drop=False)
                break
            if not limits.messages.allow(budget):
                refuse("rate_limited", "too many messages: slow down")
                continue
            try:
                message = p.decode(text)
            except p.ProtocolError as error:
                refuse(error.code, str(error), error.id)
                continue
            if isinstance(message, p.Chat) and not limits.chat.allow(budget):
                refuse("rate_limited", "too many chat lines", table=message.table)
                continue
            errors = 0
            route(site, conn, message)
    except WebSocketDisconnect:
        pass
    finally:
        site.metrics.connections.dec()
        limits.closed(conn)
        if session is not None and session in site.sockets:
            site.sockets[session].discard(conn)
            if not site.sockets[session]:
                del site.sockets[session]
        record(events, "connection", conn=conn.id, open=False, reason=conn.close_reason or None)
        if conn.close_reason == "slow_client":
            site.metrics.slow_clients.inc()
        for table in list(conn.tables):
            runner = site.room.runner(table)
            if runner is not None:
                runner.post(Watch(conn, on=False))
        site.room.watch_lobby(conn, on=False)
        # Closed for a reason the client should read: the last frames go first (bounded).
        conn.kill("closed", drop=False)
        with contextlib.suppress(Exception):
            await asyncio.wait_for(task, timeout=CLOSE_WAIT)
        task.cancel()


def route(site: Site, conn: Connection, message: p.ClientMessage) -> None:
    """Hand a decoded message to whoever takes it."""
    if isinstance(message, p.Ping):
        conn.send(frames.message("pong"))
        return
    if isinstance(message, p.Lobby):
        site.room.watch_lobby(conn)
        return
    table = message.table
    runner = site.room.runner(table)
    if runner is None:
        ident = message.id if isinstance(message, p.Act) else None
        conn.send(frames.error("unknown_table", f"there is no table {table}", ident, table))
        return
    if isinstance(message, p.Watch | p.Resume):
        conn.tables.add(table)
        since = message.since if isinstance(message, p.Resume) else None
        runner.post(Watch(conn, on=True, since=since, views=message.views))
        return
    if isinstance(message, p.Unwatch):
        conn.tables.discard(table)
        runner.post(Watch(conn, on=False))
        return
    runner.post(Request(conn, message))
