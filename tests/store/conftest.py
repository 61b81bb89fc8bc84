"""Store fixtures: a store on this test's database (see ``tests/conftest.py``), helpers.

``db_url`` is parametrised: ``sqlite`` (a fresh file per test, copied from a
database migrated once) and ``postgresql`` (a fresh database per test, made
from a migrated template database and dropped afterwards). The PostgreSQL
run needs ``POKERHOUSE_TEST_DATABASE_URL`` (a server and a database to connect
to, e.g. ``postgresql://postgres@127.0.0.1:5432/test``); without it, or with an
unreachable server, those tests are skipped, except on CI (``CI=true``) where
that is a failure.

After every test that used a database, ``ledger check`` runs on it and must
pass (the autouse fixture :func:`ledger_invariants`).
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest

from pokerhouse.store import Store, TableConfig, User
from pokerhouse.store.schema import metadata
from pokerhouse.store.sql import Context, Stmt, Unit, all_rows
from tests.conftest import FAST_HASHER


class Clock:
    """A clock the tests move by hand."""

    def __init__(self, now: float = 1_800_000_000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock() -> Clock:
    """The store's clock."""
    return Clock()


@pytest.fixture
async def store(db_url: str, clock: Clock) -> AsyncIterator[Store]:
    """An open store on this test's database."""
    opened = await Store.open(db_url, clock=clock, password_hasher=FAST_HASHER)
    try:
        yield opened
    finally:
        await opened.close()


# ---------------------------------------------------------------- helpers


async def dump(store: Store) -> dict[str, list[tuple[Any, ...]]]:
    """Every row of every table, sorted: to show that a refused call wrote nothing."""
    stmts = {
        table.name: Stmt(f"SELECT * FROM {table.name} ORDER BY 1, 2")
        for table in metadata.sorted_tables
    }

    def unit(ctx: Context) -> Unit[dict[str, list[tuple[Any, ...]]]]:
        found = {}
        for name, stmt in stmts.items():
            found[name] = [tuple(row) for row in (yield all_rows(stmt))]
        return found

    return await store.database.read(unit)


async def make_users(store: Store, count: int, grant: int = 10_000) -> list[User]:
    """``count`` bots with ``grant`` chips each."""
    return [
        await store.users.create(f"player{index}", None, bot=True, grant=grant)
        for index in range(count)
    ]


async def make_table(
    store: Store, name: str = "Table 1", game: str = "3x4", **settings: Any
) -> int:
    """A table's id (buy-ins from 20 to 1,000 chips unless told otherwise)."""
    settings.setdefault("min_buy_in", 20)
    settings.setdefault("max_buy_in", 1000)
    return (await store.tables.create(TableConfig(name, game, **settings))).id
