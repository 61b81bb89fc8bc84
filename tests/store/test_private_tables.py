"""Private tables in the store: what opening and joining may cost, and when a join counts."""

from __future__ import annotations

import asyncio
import threading
from typing import Any

import pytest
from argon2 import PasswordHasher

from pokerhouse.store import Store, TableBookError, TableConfig
from tests.conftest import FAST_HASHER
from tests.store.conftest import Clock, dump

TABLE = TableConfig("Friday", "3x4", {"ante": 1, "small_bet": 2}, 4, 40, 400, decision_seconds=30.0)


class CountingHasher:
    """argon2 at the tests' cost, counting its hashes and checks; a check may be held at
    a gate the test opens (to change the table while a join is past its password)."""

    def __init__(self) -> None:
        self.hasher: PasswordHasher = FAST_HASHER
        self.hashes = 0
        self.checks = 0
        self.gate: threading.Event | None = None
        self.waiting = threading.Event()

    def hash(self, password: str) -> str:
        self.hashes += 1
        return self.hasher.hash(password)

    def verify(self, stored: str, password: str) -> bool:
        self.checks += 1
        if self.gate is not None:
            self.waiting.set()
            assert self.gate.wait(30), "the test never opened the gate"
        return self.hasher.verify(stored, password)

    def check_needs_rehash(self, stored: str) -> bool:
        return self.hasher.check_needs_rehash(stored)


@pytest.fixture
async def counted(db_url: str, clock: Clock) -> Any:
    hasher = CountingHasher()
    opened = await Store.open(db_url, clock=clock, password_hasher=hasher)  # type: ignore[arg-type]
    try:
        yield opened, hasher
    finally:
        await opened.close()


async def test_a_host_at_the_table_limit_costs_no_hash(counted: Any) -> None:
    store, hasher = counted
    ann = await store.users.create("ann", None, bot=True, grant=1000)
    for number in range(3):
        await store.private.open(ann, TABLE, password=f"secret-{number}")
    assert hasher.hashes == 3
    before = await dump(store)
    for _ in range(5):
        with pytest.raises(TableBookError) as refused:
            await store.private.open(ann, TABLE, password="secret-4")
        assert refused.value.code == "too_many_tables"
    assert hasher.hashes == 3  # refused before any hash
    assert await dump(store) == before


@pytest.mark.parametrize("change", ["renew", "close"])
async def test_a_join_past_its_password_when_the_host_renews_or_closes_is_refused(
    counted: Any, change: str
) -> None:
    store, hasher = counted
    ann = await store.users.create("ann", None, bot=True, grant=1000)
    bob = await store.users.create("bob", None, bot=True, grant=1000)
    table, token = await store.private.open(ann, TABLE, password="river-rat")
    hasher.gate = threading.Event()
    joining = asyncio.create_task(store.private.join(token, bob, "river-rat"))
    assert await asyncio.to_thread(hasher.waiting.wait, 30)  # the password is being checked
    if change == "renew":
        await store.private.new_invitation(table.id)
    else:
        await store.private.close(table.id)
    hasher.gate.set()
    with pytest.raises(TableBookError) as refused:
        await joining
    assert refused.value.code == ("not_invited" if change == "renew" else "table_closed")
    assert await store.private.standing(table.id, bob) is None  # never came in
