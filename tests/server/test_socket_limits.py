"""Open sockets are capped per account and per address; a spectator's budget is its address's.

Sixty anonymous sockets, each sending at the allowed rate, once held the
room's loop at 100%: a spectator's message budget was per socket and
sockets were not capped (300 were accepted for one account).
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from typing import Any

import pytest
import websockets

from pokerhouse.server.settings import RoomSettings
from tests.server.conftest import Harness, serve, table

SETTINGS = RoomSettings(
    bot_think=(0.0, 0.0),
    hand_pause=0.0,
    registrations_per_hour=1000,
    # A burst of ten and a refill too slow to matter in a test's time: on the real clock,
    # any real refill would make what gets through depend on how fast the test sends.
    messages_per_second=1e-4,
    message_burst=10,
)


@pytest.fixture
async def capped(db_url: str) -> AsyncIterator[Harness]:
    """A room with the default socket caps (16 an account, 64 an address)."""
    assert (SETTINGS.sockets_per_account, SETTINGS.sockets_per_address) == (16, 64)
    tables = [table("3x4", "3x4", options={"ante": 1, "small_bet": 2})]
    async with serve(db_url, tables, settings=SETTINGS) as harness:
        yield harness


async def open_socket(room: Harness, cookie: str = "", address: str = "127.0.0.1") -> Any:
    """A websocket from ``address``, with its first frame read (``hello`` or the refusal)."""
    url = room.base.replace("http://", "ws://") + "/ws"
    headers = {"Cookie": cookie} if cookie else {}
    ws = await websockets.connect(
        url, additional_headers=headers, local_addr=(address, 0), open_timeout=30
    )
    first = json.loads(await asyncio.wait_for(ws.recv(), timeout=30))[0]  # an array's first
    return ws, first


async def refused(ws: Any, first: dict[str, Any]) -> bool:
    """Whether the room refused this socket: ``too_many_sockets``, then closed with 1013."""
    if first.get("type") != "error":
        return False
    assert first["code"] == "too_many_sockets", first
    with pytest.raises(websockets.ConnectionClosed):
        await asyncio.wait_for(ws.recv(), timeout=30)
    assert ws.close_code == 1013 and ws.close_reason == "too_many_sockets"
    return True


async def test_one_account_holds_at_most_16_sockets(capped: Harness) -> None:
    room = capped
    ann = await room.player("ann")  # one socket open already
    cookie = "; ".join(f"{k}={v}" for k, v in ann.http.cookies.items())
    opened = [await open_socket(room, cookie) for _ in range(16)]
    outcomes = [await refused(ws, first) for ws, first in opened]
    assert outcomes == [False] * 15 + [True]
    # Another account from the same address is not held back by ann's sockets.
    bob = await room.player("bob")
    await bob.wait_for(lambda f: f.get("type") == "hello" and f["user"] == "bob")
    # A socket of ann's closes: she may open another.
    await opened[0][0].close()
    deadline = asyncio.get_running_loop().time() + 30
    while True:  # the room counts the closed socket out as soon as it has read the close
        ws, first = await open_socket(room, cookie)
        if first == {"type": "hello", "user": "ann"}:
            break
        assert await refused(ws, first)
        assert asyncio.get_running_loop().time() < deadline, "the closed socket still counted"
        await asyncio.sleep(0.1)
    for socket, _ in [*opened, (ws, None)]:
        await socket.close()


async def test_one_address_holds_at_most_64_sockets(capped: Harness) -> None:
    room = capped
    opened = [await open_socket(room) for _ in range(65)]
    outcomes = [await refused(ws, first) for ws, first in opened]
    assert outcomes == [False] * 64 + [True]
    # Another address is not held back.
    ws, first = await open_socket(room, address="127.0.0.2")
    assert first == {"type": "hello", "user": None}
    for socket, _ in [*opened, (ws, None)]:
        await socket.close()


async def test_spectators_of_one_address_share_one_budget(capped: Harness) -> None:
    room = capped
    here = [await open_socket(room) for _ in range(3)]
    there = await open_socket(room, address="127.0.0.2")
    for ws, _ in [*here, there]:
        for _ in range(10):
            await ws.send(json.dumps({"type": "ping"}))
    answers: dict[int, list[str]] = {}
    for index, (ws, _) in enumerate([*here, there]):
        answers[index] = []
        while len(answers[index]) < 10:  # a websocket message may carry several answers
            for frame in json.loads(await asyncio.wait_for(ws.recv(), timeout=30)):
                answers[index].append(frame["type"] if frame["type"] == "pong" else frame["code"])
    pongs_here = sum(answers[i].count("pong") for i in range(3))
    # Three sockets from one address: one budget of ten, not thirty.
    assert pongs_here == 10, answers
    assert sum(answers[i].count("rate_limited") for i in range(3)) == 20
    # Another address has a budget of its own.
    assert answers[3] == ["pong"] * 10
    for ws, _ in [*here, there]:
        await ws.close()
