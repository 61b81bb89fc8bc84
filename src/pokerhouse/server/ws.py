"""The websocket endpoint ``/ws``: one socket per client, any number of tables.

The handshake's ``Origin`` must be this site; the session cookie says who
is there (without one the socket may only watch). Every frame is decoded
once into a typed message (:mod:`.protocol`) and handed to the table it
names; a malformed one gets an ``error`` with a stable code and changes
nothing. Actions and chat are rate limited per connection.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import TYPE_CHECKING

from starlette.websockets import WebSocket, WebSocketDisconnect

from pokerhouse.server import auth, frames
from pokerhouse.server import protocol as p
from pokerhouse.server.connection import Connection, Identity
from pokerhouse.server.runner import Request, Watch

if TYPE_CHECKING:
    from pokerhouse.server.app import Site

log = logging.getLogger("pokerhouse.ws")

#: Messages a connection may send: a steady rate and a burst; beyond it they are refused.
MESSAGES_PER_SECOND = 20.0
MESSAGE_BURST = 60
CHAT_PER_SECOND = 0.5
CHAT_BURST = 5
#: Errors in a row after which a connection is closed (a client that only sends garbage).
MAX_ERRORS = 50


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
    conn = Connection(identity, send, close, max_buffer=site.settings.max_buffer)
    writer = asyncio.get_running_loop().create_task(conn.writer())
    site.metrics.connections.inc()
    conn.send(frames.message("hello", user=identity.username))
    limits = auth.RateLimit(MESSAGES_PER_SECOND, MESSAGE_BURST)
    chat = auth.RateLimit(CHAT_PER_SECOND, CHAT_BURST)
    errors = 0
    try:
        while not conn.closed:
            raw = await ws.receive()
            if raw["type"] == "websocket.disconnect":
                break
            text = raw.get("text")
            if text is None:
                conn.send(frames.error("binary_frame", "send JSON text frames"))
                errors += 1
                continue
            if len(text) > p.MAX_FRAME:
                conn.send(
                    frames.error("frame_too_large", f"a message is at most {p.MAX_FRAME} bytes")
                )
                conn.kill("policy", drop=False)
                break
            if not limits.allow("all"):
                conn.send(frames.error("rate_limited", "too many messages: slow down"))
                errors += 1
                if errors > MAX_ERRORS:
                    conn.kill("policy", drop=False)
                continue
            try:
                message = p.decode(text)
            except p.ProtocolError as error:
                site.metrics.error(error.code)
                conn.send(frames.error(error.code, str(error), error.id))
                errors += 1
                if errors > MAX_ERRORS:
                    conn.kill("policy", drop=False)
                continue
            if isinstance(message, p.Chat) and not chat.allow("chat"):
                conn.send(frames.error("rate_limited", "too many chat lines", table=message.table))
                continue
            errors = 0
            route(site, conn, message)
    except WebSocketDisconnect:
        pass
    finally:
        site.metrics.connections.dec()
        if conn.close_reason == "slow_client":
            site.metrics.slow_clients.inc()
        for table in list(conn.tables):
            runner = site.room.runner(table)
            if runner is not None:
                runner.post(Watch(conn, on=False))
        site.room.watch_lobby(conn, on=False)
        if conn.closed and conn.buffered:
            # Closed for a reason the client should read: let the last frames go first.
            with contextlib.suppress(Exception):
                await asyncio.wait_for(asyncio.shield(writer), timeout=2.0)
        conn.kill("closed")
        writer.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await writer


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
