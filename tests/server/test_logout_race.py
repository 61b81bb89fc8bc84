"""Logout racing websocket handshakes: no socket stays signed in after the session ended.

A handshake looks its session up in the database; a logout that commits
while that lookup (or the accept after it) is under way must still reach
the socket: it is closed with ``signed_out``, or it comes up anonymous.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
from typing import Any

import websockets

from pokerhouse.server.settings import RoomSettings
from tests.server.conftest import serve, table

HANDSHAKES = 96
#: Over how many seconds each round's handshakes start (the logout comes half way): the
#: race shows best when the handshakes crowd around the logout.
SPREADS = (0.02, 0.06, 0.1)


async def handshake(url: str, cookie: str, delay: float) -> dict[str, Any]:
    """Open a socket after ``delay``; what it was told: its hello, any error, its close code."""
    await asyncio.sleep(delay)
    seen: dict[str, Any] = {"hello": None, "errors": [], "close": None, "greeted": False}
    try:
        ws = await websockets.connect(url, additional_headers={"Cookie": cookie}, open_timeout=60)
    except (OSError, websockets.InvalidHandshake) as error:
        seen["refused"] = repr(error)
        return seen
    try:
        while True:
            # The hello comes first, however slow the machine; a signed-in socket then waits
            # for its close (the logout's commit may be slow); an anonymous one that stays
            # quiet a while stays what it is.
            quiet = 3.0 if seen["greeted"] and seen["hello"] is None else 60.0
            try:
                text = await asyncio.wait_for(ws.recv(), timeout=quiet)
            except TimeoutError:
                break  # still open and quiet: whatever it is now, it stays
            for frame in json.loads(text):  # each websocket message: an array of messages
                if frame["type"] == "hello":
                    seen["greeted"] = True
                    seen["hello"] = frame["user"]
                elif frame["type"] == "error":
                    seen["errors"].append(frame["code"])
    except websockets.ConnectionClosed:
        pass
    seen["close"] = ws.close_code
    with contextlib.suppress(Exception):
        await ws.close()
    return seen


async def test_a_logout_during_handshakes_leaves_no_socket_signed_in(db_url: str) -> None:
    settings = RoomSettings(
        bot_think=(0.0, 0.0),
        hand_pause=0.0,
        registrations_per_hour=1000,
        sockets_per_account=1000,
        sockets_per_address=1000,
    )
    tables = [table("3x4", "3x4", options={"ante": 1, "small_bet": 2})]
    async with serve(db_url, tables, settings=settings) as room:
        ann = await room.player("ann")
        url = room.base.replace("http://", "ws://") + "/ws"
        rng = random.Random(7)
        stayed = 0
        for spread in SPREADS:
            login = await ann.http.post(
                "/api/login",
                json={"username": "ann", "password": "correct horse battery"},
                headers=ann.csrf(),
            )
            assert login.status_code == 200
            cookie = "; ".join(f"{k}={v}" for k, v in ann.http.cookies.items())
            sockets = [
                asyncio.ensure_future(handshake(url, cookie, rng.uniform(0.0, spread)))
                for _ in range(HANDSHAKES)
            ]
            await asyncio.sleep(spread / 2)  # the logout lands in the middle of the handshakes
            logout = await ann.http.post("/api/logout", headers=ann.csrf())
            assert logout.status_code == 200
            seen = await asyncio.gather(*sockets)
            signed_in = [s for s in seen if s["hello"] == "ann"]
            anonymous = [s for s in seen if s["hello"] is None and "refused" not in s]
            assert len(signed_in) + len(anonymous) == HANDSHAKES
            assert all(s["greeted"] for s in seen if "refused" not in s), "a socket got no hello"
            # Every socket that came up signed in was told the session ended, and closed.
            left = [s for s in signed_in if s["close"] != 1008 or "signed_out" not in s["errors"]]
            print(f"{spread} s: {len(signed_in)} signed in and closed, {len(anonymous)} anonymous")
            stayed += len(left)
            # Nothing of the ended session is left among the sockets a logout closes.
            assert not room.site.sockets
        assert stayed == 0, f"{stayed} of {HANDSHAKES * len(SPREADS)} sockets stayed signed in"
