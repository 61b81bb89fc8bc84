"""Tournaments in a running room: real table tasks, the real store, websockets.

Each test ends with ``ledger check`` on the room's database (the autouse
fixture), which reconciles every entry, empties every ended pool and counts
the chips at the tournaments' tables.
"""

from __future__ import annotations

import asyncio
import dataclasses

import pytest

from pokerhouse.server.settings import RoomSettings
from pokerhouse.store import EntryRecord, Store
from pokerhouse.store.accounts import FEES
from tests.conftest import FAST_HASHER
from tests.server.conftest import Harness, serve, table

pytestmark = pytest.mark.slow

SETTINGS = RoomSettings(
    bot_think=(0.0, 0.0),
    hand_pause=0.0,
    retry_seconds=0.2,
    registrations_per_hour=100_000,
    sockets_per_address=100_000,
    hashes_per_address=100_000,
    database_seconds=60.0,
    lease_seconds=300.0,
    sit_and_go_bots_after=0.0,
    sit_and_go_structure="hyper",
)

#: A cash table for the room to have one (the tournaments bring their own).
RAZZ = {"ante": 1, "bring_in": 1, "small_bet": 2, "big_bet": 4}
CASH = [table("Razz cash", "razz", options=RAZZ)]


async def finished(harness: Harness, count: int, timeout: float = 300.0) -> list[int]:
    """Move the room's clock on until ``count`` tournaments have finished; their ids."""
    store = harness.site.services.store
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while True:
        done = await store.tournaments.find(["finished"])
        if len(done) >= count:
            return [record.id for record in done]
        assert loop.time() < deadline, f"{len(done)} of {count} tournaments finished"
        await harness.clock.advance(1.0)
        await asyncio.sleep(0.05)


def assert_places(entries: list[EntryRecord], count: int) -> None:
    """Every entry has a place; entries tied for a place cover the places below it."""
    places = [entry.place for entry in entries]
    assert len(places) == count and None not in places
    expected = 1
    for place in sorted({p for p in places if p is not None}):
        tied = places.count(place)
        assert place == expected and all(e.tied == tied for e in entries if e.place == place)
        expected += tied
    assert expected == count + 1


@pytest.mark.parametrize("game", ["razz", "3x4", "teen-patti"])
async def test_a_sit_and_go_of_bots_plays_to_the_end(db_url: str, game: str) -> None:
    settings = dataclasses.replace(SETTINGS, sit_and_gos=(game,))
    async with serve(db_url, CASH, settings=settings) as harness:
        (done,) = (await finished(harness, 1))[:1]
        store = harness.site.services.store
        entries = await store.tournaments.entries(done)
        record = await store.tournaments.get(done)
        assert_places(entries, record.spec.seats)
        assert sum(e.prize for e in entries) == record.spec.buy_in * record.spec.seats
        assert await store.balance(record.pool) == 0
        # Another one opened as soon as this one filled.
        assert await store.tournaments.find(["registering", "running"])
        lobby = harness.site.room.lobby()
        assert [line["name"] for line in lobby] == ["Razz cash"]
    async with await Store.open(db_url, password_hasher=FAST_HASHER) as store:
        assert await store.balance(FEES) >= 10 * record.spec.seats
        assert (await store.check()).ok
