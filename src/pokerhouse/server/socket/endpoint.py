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
from collections.abc import Coroutine
from typing import Any, cast

from starlette.types import ASGIApp, Receive, Scope, Send
from starlette.websockets import WebSocket, WebSocketDisconnect

from pokerhouse.server.http import auth
from pokerhouse.server.http.bearer import BadToken, bearer_token, bot_of
from pokerhouse.server.runtime.logs import events, record
from pokerhouse.server.site import Site
from pokerhouse.server.socket import incoming as p
from pokerhouse.server.socket import outgoing
from pokerhouse.server.socket.connection import Connection, Identity
from pokerhouse.server.socket.message_rates import Limits
from pokerhouse.server.table.inputs import Caller, Request, WatchInput
from pokerhouse.store.users import token_hash

log = logging.getLogger("pokerhouse.ws")

#: Errors in a row after which a connection is closed (a client that only sends garbage).
MAX_ERRORS = 50
#: Seconds the endpoint waits for a connection's last frames and its close.
CLOSE_WAIT = 15.0


async def refuse_socket(ws: WebSocket, message: str) -> None:
    """Refuse a handshake past a cap: ``error`` ``too_many_sockets``, then close 1013."""
    with contextlib.suppress(Exception):
        await ws.accept()
        await ws.send_text(outgoing.array([outgoing.error("too_many_sockets", message)]).decode())
        await ws.close(code=1013, reason="too_many_sockets")


async def refuse_token(
    ws: WebSocket, message: str, code: int = 1008, *, accepted: bool = False
) -> None:
    """Refuse a handshake's token: ``error`` ``bad_token`` then close 1008, or, when the
    store cannot check it, ``room_unavailable`` then close 1013 (try again later)."""
    kind = "bad_token" if code == 1008 else "room_unavailable"
    with contextlib.suppress(Exception):
        if not accepted:
            await ws.accept()
        await ws.send_text(outgoing.array([outgoing.error(kind, message)]).decode())
        await ws.close(code=code, reason=kind)


class SocketRoute:
    """ASGI: ``/ws`` served on the server's own ``send`` and ``receive``; anything else
    goes to ``app``.

    A table's step sends a message to each of its watchers, thousands a
    second: Starlette's router and exception middleware wrap every send of a
    websocket it routes, for nothing the endpoint needs (it handles its own
    errors). The endpoint gets the same public :class:`WebSocket`, made here.
    """

    def __init__(self, app: ASGIApp, site: Site) -> None:
        self.app = app
        self.site = site

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "websocket" and scope.get("path") == "/ws":
            await websocket_endpoint(self.site, WebSocket(scope, receive, send), receive, send)
            return
        await self.app(scope, receive, send)


async def websocket_endpoint(site: Site, ws: WebSocket, receive: Receive, send: Send) -> None:
    """Serve one client's socket until it closes (``receive`` and ``send``: the server's own
    ASGI calls, which the socket reads its messages with, and the connection writes with,
    once it is accepted: Starlette's checked ones add a coroutine to every message)."""
    host = ws.headers.get("host")
    if not auth.same_origin(ws.headers.get("origin"), host, ws.url.scheme):
        await ws.close(code=1008, reason="cross-origin websocket")
        return
    address = ws.client.host if ws.client else "?"
    place = site.socket_limits.enter(address)
    if place is None:
        site.metrics.error("too_many_sockets")
        await refuse_socket(ws, "too many sockets open from this address: close one")
        return
    user = None
    try:
        # A bot account's token (Authorization: Bearer), else a browser's session cookie.
        bearer = bearer_token(ws.headers.get("authorization"))
    except BadToken as error:
        place.leave()
        await refuse_token(ws, str(error))
        return
    token = bearer or ws.cookies.get(auth.SESSION_COOKIE)
    # Said before the lookup: a logout that commits from here on marks this handshake.
    coming = site.sessions.expect(token_hash(token)) if token else None
    try:
        if token:
            try:
                user = await site.store.users.session_user(token)
                if bearer is not None:
                    user = bot_of(user)  # a token signs in bot accounts only
            except Exception:
                away = True  # a browser watches as nobody; a bot is told to come back
            else:
                away = False
            if bearer is not None and (away or user is None):
                if coming is not None:
                    site.sessions.forget(coming)
                place.leave()
                if away:
                    await refuse_token(ws, "tokens cannot be checked now: come back soon", 1013)
                else:
                    await refuse_token(ws, "this token signs nobody in: unknown, ended or revoked")
                return
        admitted = user is None or place.sign_in(user.id)
        if admitted:
            await ws.accept()
    except BaseException:
        if coming is not None:
            site.sessions.forget(coming)
        place.leave()
        raise
    if not admitted:
        if coming is not None:
            site.sessions.forget(coming)
        place.leave()
        site.metrics.error("too_many_sockets")
        await refuse_socket(ws, "too many sockets open for this account: close one")
        return
    if coming is not None and coming.ended:
        if bearer is not None:  # a bot's token ended meanwhile: refused, not let in as nobody
            site.sessions.forget(coming)
            place.leave()
            await refuse_token(ws, "this token was ended or revoked", accepted=True)
            return
        user = None  # the session ended during the lookup or the accept: anonymous

    async def close(code: int, reason: str) -> None:
        await ws.close(code=code, reason=reason)

    identity = Identity(user.id, user.username) if user is not None else Identity()

    def send_text(text: str) -> Coroutine[Any, Any, None]:
        # The server's send itself (a coroutine the connection may start by hand).
        return cast(Coroutine[Any, Any, None], send({"type": "websocket.send", "text": text}))

    conn = Connection(
        identity, send_text, close, max_buffer=site.settings.max_buffer, flusher=site.flusher
    )
    # No await since the check above: the session cannot end between it and the join.
    session = None
    if coming is not None:
        if user is not None and site.sessions.join(coming, conn):
            session = coming.session
        else:
            site.sessions.forget(coming)
    task = asyncio.get_running_loop().create_task(conn.run())
    site.room.connected(conn)
    site.metrics.connections.inc()
    site.metrics.connections_opened.inc()
    conn.send(outgoing.encode(outgoing.Hello(user=identity.username)))
    limits = site.limits
    budget = Limits.key(conn, address)
    record(events, "connection", conn=conn.id, user=identity.username, open=True)
    errors = 0

    def refuse(code: str, message: str, ident: str | None = None, table: int | None = None) -> None:
        nonlocal errors
        site.metrics.error(code)
        conn.send(outgoing.error(code, message, ident, table))
        errors += 1
        if errors > MAX_ERRORS:
            conn.kill("policy", drop=False)

    try:
        while not conn.closed:
            raw = await receive()
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
            if isinstance(message, p.ChatMessage) and not limits.chat.allow(budget):
                refuse("rate_limited", "too many chat lines", table=message.table)
                continue
            errors = 0
            route(site, conn, message)
    except WebSocketDisconnect:
        pass
    finally:
        site.metrics.connections.dec()
        limits.closed(conn, address, last=place.leave())
        if session is not None:
            site.sessions.leave(session, conn)
        record(events, "connection", conn=conn.id, open=False, reason=conn.close_reason or None)
        if conn.close_reason == "slow_client":
            site.metrics.slow_clients.inc()
        caller = Caller(conn.id, identity.user_id, identity.username)
        for table in list(conn.tables):
            site.room.post(table, WatchInput(caller, on=False))
        site.room.disconnected(conn)
        site.room.tournaments.forget(conn.id)
        # Closed for a reason the client should read: the last frames go first (bounded).
        conn.kill("closed", drop=False)
        with contextlib.suppress(Exception):
            await asyncio.wait_for(task, timeout=CLOSE_WAIT)
        task.cancel()


def route(site: Site, conn: Connection, message: p.ClientMessage) -> None:
    """Hand a decoded message to whoever takes it."""
    if isinstance(message, p.PingMessage):
        conn.send(outgoing.encode(outgoing.Pong()))
        return
    if isinstance(message, p.LobbyMessage):
        site.room.watch_lobby(conn)
        return
    if isinstance(message, p.WatchTournamentMessage):
        site.room.tournaments.watch(conn.id, message.tournament, on=message.on)
        return
    table = message.table
    caller = Caller(conn.id, conn.identity.user_id, conn.identity.username)
    item: WatchInput | Request
    if isinstance(message, p.WatchMessage | p.ResumeMessage):
        since = message.since if isinstance(message, p.ResumeMessage) else None
        item = WatchInput(caller, on=True, since=since, views=message.views)
    elif isinstance(message, p.UnwatchMessage):
        item = WatchInput(caller, on=False)
    else:
        item = Request(caller, message)
    # A table no node has is refused here, or by the relay once the leases are read.
    if not site.room.post(table, item):
        ident = message.id if isinstance(message, p.ActMessage) else None
        conn.send(outgoing.error("unknown_table", f"there is no table {table}", ident, table))
        return
    if isinstance(message, p.WatchMessage | p.ResumeMessage):
        conn.tables.add(table)
    elif isinstance(message, p.UnwatchMessage):
        conn.tables.discard(table)
