"""A raked table: the room's rake goes to its ledger account and the books still balance."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from pokerhouse.store import RAKE
from tests.server.conftest import Harness, serve, table
from tests.server.play import play_hand, sit


@pytest.fixture
async def raked(db_url: str) -> AsyncIterator[Harness]:
    tables = [
        table(
            "3x4 raked",
            "3x4",
            options={"ante": 20, "small_bet": 20},
            seats=2,
            rake_bps=1000,  # 10% of each pot...
            rake_cap=3,  # ...but at most 3 chips a hand
            min_buy_in=200,
            max_buy_in=1000,
        )
    ]
    async with serve(db_url, tables) as harness:
        yield harness


async def test_rake_is_taken_past_the_first_round_and_booked(raked: Harness) -> None:
    table = raked.table_id("3x4 raked")
    ann, bob = await raked.player(), await raked.player()
    await sit(ann, table, 0, 500)
    await sit(bob, table, 1, 500)
    # Both check every street: the pot of two antes (40) goes past the first round; 10% is 4.
    ended = await play_hand([ann, bob], table)
    assert ended["rake"] == 3 and sum(ended["net"]) == -3
    await raked.settle()
    assert await raked.site.store.ledger.balance(RAKE) == 3
    events = [f["event"]["type"] for f in ann.events(table)]
    assert "rake_taken" in events
