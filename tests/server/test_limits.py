"""Floods: message and chat limits per player across sockets, garbage floods, huge frames."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import AsyncIterator

import httpx
import pytest

from pokerhouse.server.settings import RoomSettings
from pokerhouse.server.socket import incoming as p
from tests.server.conftest import Client, Harness, serve, table
from tests.server.play import sit

#: A refill too slow to matter within a test: the budgets run on the real clock, so with
#: any real refill what gets through would depend on how fast the machine sends.
NO_REFILL = 1e-4


@contextlib.asynccontextmanager
async def budget_room(db_url: str, **budget: float) -> AsyncIterator[Harness]:
    settings = RoomSettings(
        bot_think=(0.0, 0.0), hand_pause=0.0, registrations_per_hour=1000, **budget
    )
    tables = [table("3x4", "3x4", options={"ante": 1, "small_bet": 2}, seats=2)]
    async with serve(db_url, tables, settings=settings) as harness:
        yield harness


@pytest.fixture
async def tight(db_url: str) -> AsyncIterator[Harness]:
    """A room with a small message budget: 10 at once, then (in a test's time) none."""
    async with budget_room(db_url, messages_per_second=NO_REFILL, message_burst=10) as harness:
        yield harness


@pytest.fixture
async def budgets(db_url: str) -> AsyncIterator[Harness]:
    """The room's usual bursts (60 messages, 5 chat lines), no refill in a test's time."""
    async with budget_room(
        db_url, messages_per_second=NO_REFILL, chat_per_second=NO_REFILL
    ) as harness:
        yield harness


async def second_socket(room: Harness, of: Client) -> Client:
    """Another socket of the same player (another tab, another device)."""
    other = Client(room.base, of.name)
    other.http.cookies.update(of.http.cookies)
    await other.connect()
    room.clients.append(other)
    return other


def count(client: Client, kind: str, code: str | None = None) -> int:
    return sum(
        1
        for f in client.frames
        if f.get("type") == kind and (code is None or f.get("code") == code)
    )


async def test_the_message_budget_is_the_players_whatever_socket_they_use(tight: Harness) -> None:
    ann = await tight.player()
    sockets = [ann, await second_socket(tight, ann), await second_socket(tight, ann)]
    for client in sockets:
        for _ in range(10):
            await client.send({"type": "ping"})
    for client in sockets:
        await client.wait_for(lambda f, c=client: count(c, "pong") + count(c, "error") == 10)
    pongs = sum(count(c, "pong") for c in sockets)
    refused = sum(count(c, "error", "rate_limited") for c in sockets)
    assert (pongs, refused) == (10, 20)
    # Spectators have a budget per address: two of them from two addresses get all ten each.
    watchers = [await tight.spectator("127.0.0.2"), await tight.spectator("127.0.0.3")]
    for client in watchers:
        for _ in range(10):
            await client.send({"type": "ping"})
    for client in watchers:
        await client.wait_for(lambda f, c=client: count(c, "pong") == 10)
        assert count(client, "error") == 0


async def test_chat_is_limited_per_player_across_sockets(budgets: Harness) -> None:
    room = budgets
    table_id = room.table_id("3x4")
    ann = await room.player()
    await sit(ann, table_id, 0, 100)
    other = await second_socket(room, ann)
    for client in (ann, other, ann, other, ann, other, ann, other):
        await client.send({"type": "chat", "table": table_id, "text": "hello"})
    await other.send({"type": "ping"})
    await other.wait_for(lambda f: f.get("type") == "pong")
    await ann.send({"type": "ping"})
    await ann.wait_for(lambda f: f.get("type") == "pong")
    refused = count(ann, "error", "rate_limited") + count(other, "error", "rate_limited")
    assert refused == 3  # a burst of five, then (in a test's time) none
    lines = [f for f in ann.frames if f.get("type") == "chat"]
    assert len(lines) == 5 and {f["user"] for f in lines} == {ann.name}


async def test_a_garbage_flood_closes_the_socket_and_the_room_carries_on(
    budgets: Harness,
) -> None:
    room = budgets
    flood = await room.spectator()
    for _ in range(300):
        await flood.ws.send("not json")
    await asyncio.wait_for(flood._reader, timeout=30)  # type: ignore[arg-type]
    assert flood.ws.close_code == 1008
    assert count(flood, "error") == 51  # 50 in a row are answered; the 51st closes
    # A flood of valid messages is cut at the budget, then closed the same way.
    pings = await room.spectator()
    for _ in range(400):
        await pings.ws.send('{"type": "ping"}')
    await asyncio.wait_for(pings._reader, timeout=30)  # type: ignore[arg-type]
    assert pings.ws.close_code == 1008 and count(pings, "error", "rate_limited") == 51
    assert count(pings, "pong") == 60
    fresh = await room.spectator("127.0.0.3")  # the flood's address spent its budget
    await fresh.send({"type": "ping"})
    await fresh.wait_for(lambda f: f.get("type") == "pong")
    # The closed spectators' budget went with their address's last socket; only the open
    # one's address is kept.
    await room.settle()
    kept = [key for key in room.site.limits.messages._buckets if key.startswith("addr:")]
    assert kept == ["addr:127.0.0.3"]


async def test_frames_past_the_socket_bound_are_not_read(room: Harness) -> None:
    client = await room.player()
    await client.ws.send("x" * (p.MAX_SOCKET_FRAME + 1))
    await asyncio.wait_for(client._reader, timeout=30)  # type: ignore[arg-type]
    assert client.ws.close_code == 1009
    # Between the two bounds, in bytes: 1,400 three-byte characters are over 4,096 bytes.
    other = await room.player()
    text = json.dumps({"type": "chat", "table": 1, "text": "\u4e2d" * 1400}, ensure_ascii=False)
    assert len(text) < p.MAX_FRAME < len(text.encode())
    await other.ws.send(text)
    error = await other.wait_for(lambda f: f.get("type") == "error")
    assert error["code"] == "frame_too_large"
    await asyncio.wait_for(other._reader, timeout=30)  # type: ignore[arg-type]
    assert other.ws.close_code == 1008


async def test_a_deeply_nested_frame_gets_a_coded_error_and_changes_nothing(
    room: Harness, caplog: pytest.LogCaptureFixture
) -> None:
    """4,000 bytes of brackets are past any decoder's recursion: a coded error, no traceback."""
    client = await room.spectator()
    for deep in (
        "[" * 2000 + "]" * 2000,
        '{"type": "watch", "table": ' + "[" * 1990 + "]" * 1990 + "}",
    ):
        assert p.utf8_size(deep) <= p.MAX_FRAME
        with pytest.raises(p.ProtocolError) as caught:
            p.decode(deep)
        assert caught.value.code == "too_deep"
        await client.ws.send(deep)
        error = await client.wait_for(lambda f: f.get("type") == "error", after=len(client.frames))
        assert error["code"] == "too_deep"
    # The socket is still open and served, and nothing of the room logged a failure.
    await client.send({"type": "ping"})
    await client.wait_for(lambda f: f.get("type") == "pong")
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
    # HTTP bodies alike: the same nesting is a 400 with a code.
    http = httpx.AsyncClient(base_url=room.base, timeout=30)
    csrf = (await http.get("/api/csrf")).json()["csrf"]
    for body in ("[" * 2000 + "]" * 2000, '{"username": ' + "[" * 2000 + "]" * 2000 + "}"):
        for path in ("/api/login", "/api/register"):
            response = await http.post(
                path,
                content=body,
                headers={"X-CSRF-Token": csrf, "Content-Type": "application/json"},
            )
            assert response.status_code == 400, response.text
            assert response.json()["code"] in ("bad_request", "too_deep")
    await http.aclose()
