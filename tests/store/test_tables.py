"""Table definitions and leases."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from pokerhouse.store import Store, TableBookError, TableConfig
from tests.store.conftest import Clock, dump


async def test_tables_persist_with_every_setting(store: Store, db_url: str) -> None:
    config = TableConfig(
        "Razz High",
        "razz",
        options={"ante": 2, "bring_in": 3, "small_bet": 10, "big_bet": 20},
        seats=8,
        rake_bps=500,
        rake_cap=30,
        bots=3,
        bot_kind="random",
        decision_seconds=20,
        time_bank_seconds=45.5,
        bot_chat=False,
    )
    made = await store.tables.create(config)
    casino = await store.tables.create(TableConfig("Casino", "casino_holdem", seats=7, max_boxes=3))
    assert made.config.min_buy_in == 200 and made.config.max_buy_in == 1000
    assert casino.game == "casino-holdem" and casino.config.max_boxes == 3
    assert not made.config.bot_chat and casino.config.bot_chat  # chat on unless turned off
    assert casino.config.bot_kind == "pro"  # the house's own bots by default
    reopened = await Store.open(db_url)
    try:
        assert await reopened.tables.all() == [made, casino]
        assert await reopened.tables.get(made.id) == made
    finally:
        await reopened.close()


def _bad_configs() -> list[tuple[dict[str, Any], str]]:
    return [
        ({"name": ""}, "bad_name"),
        ({"name": " padded"}, "bad_name"),
        ({"name": "x" * 41}, "bad_name"),
        ({"name": "new\nline"}, "bad_name"),
        ({"name": 5}, "bad_name"),
        ({"game": "chess"}, "bad_table"),
        ({"game": None}, "bad_table"),
        ({"options": {"ante": -1}}, "bad_table"),
        ({"options": {"colour": "red"}}, "bad_table"),
        ({"options": "ante=1"}, "bad_table"),
        ({"seats": 11}, "bad_table"),
        ({"seats": 1}, "bad_table"),
        ({"seats": 2.0}, "bad_table"),
        ({"min_buy_in": 0}, "bad_table"),
        ({"min_buy_in": 500, "max_buy_in": 100}, "bad_table"),
        ({"rake_bps": 10_001}, "bad_table"),
        ({"rake_bps": -1}, "bad_table"),
        ({"rake_cap": -1}, "bad_table"),
        ({"max_boxes": 2}, "bad_table"),
        ({"bots": 7}, "bad_table"),
        ({"bot_kind": "genius"}, "bad_table"),
        ({"bot_chat": "yes"}, "bad_table"),
        ({"decision_seconds": 0}, "bad_table"),
        ({"decision_seconds": float("inf")}, "bad_table"),
        ({"time_bank_seconds": -1}, "bad_table"),
        ({"time_bank_seconds": True}, "bad_table"),
    ]


async def test_bad_table_definitions_are_refused(store: Store) -> None:
    await store.tables.create(TableConfig("Taken", "3x4"))
    before = await dump(store)
    for change, code in [*_bad_configs(), ({"name": "Taken"}, "name_taken")]:
        config: dict[str, Any] = {"name": "T", "game": "3x4", **change}
        with pytest.raises(TableBookError) as caught:
            await store.tables.create(TableConfig(**config))
        assert caught.value.code == code, (change, str(caught.value))
    assert await dump(store) == before


async def test_a_banked_game_takes_no_rake(store: Store) -> None:
    with pytest.raises(TableBookError, match="banked"):
        await store.tables.create(TableConfig("C", "casino-holdem", rake_bps=100))


async def test_unknown_tables(store: Store) -> None:
    for call in (store.tables.get(999), store.tables.acquire(999, "node-a")):
        with pytest.raises(TableBookError) as caught:
            await call
        assert caught.value.code == "unknown_table"


async def test_leases_hand_out_growing_fencing_tokens(store: Store, clock: Clock) -> None:
    table = await store.tables.create(TableConfig("T", "3x4"))
    assert await store.tables.acquire(table.id, "node-a", seconds=5) == 1
    clock.now += 6
    assert await store.tables.acquire(table.id, "node-b", seconds=5) == 2
    clock.now += 6
    assert await store.tables.acquire(table.id, "node-a", seconds=5) == 3


async def test_a_taking_over_node_takes_only_a_free_or_lapsed_lease(
    store: Store, clock: Clock
) -> None:
    """``reclaim=False`` never takes a running lease, not even one under the taker's own
    name (another process of that name may run the table); ``table_leases`` says which
    leases are free to take."""
    first = await store.tables.create(TableConfig("X", "3x4"))
    second = await store.tables.create(TableConfig("Y", "3x4"))
    free = await store.tables.leases()
    assert free[first.id].free and free[first.id].owner is None and free[first.id].token == 0
    assert await store.tables.acquire(first.id, "node-a", seconds=5, reclaim=False) == 1
    for taker in ("node-a", "node-b"):
        with pytest.raises(TableBookError) as caught:
            await store.tables.acquire(first.id, taker, seconds=5, reclaim=False)
        assert caught.value.code == "lease_held"
    leases = await store.tables.leases()
    assert not leases[first.id].free and leases[first.id].owner == "node-a"
    assert leases[first.id].expires == pytest.approx(clock.now + 5)
    assert leases[second.id].free
    clock.now += 6  # node-a let it lapse: anyone may take it, with a higher token
    assert (await store.tables.leases())[first.id].free
    assert await store.tables.acquire(first.id, "node-b", seconds=5, reclaim=False) == 2
    assert await store.tables.renew("node-a", {first.id: 1}, seconds=5) == set()
    assert (await store.tables.leases())[first.id].owner == "node-b"


async def test_rooms_starting_together_create_the_first_tables_once(
    store: Store, db_url: str
) -> None:
    from tests.store.test_concurrency import run_concurrently

    first = [TableConfig(f"First {n}", "razz", min_buy_in=20, max_buy_in=200) for n in range(3)]

    async def start(worker: Store, n: int) -> Any:
        return await worker.tables.create_first(first)

    *results, _ = await asyncio.to_thread(run_concurrently, db_url, start, 5)
    assert not [r for r in results if isinstance(r, BaseException)], results
    assert sorted(created for _, created in results) == [False] * 4 + [True]
    stored = await store.tables.all()
    assert [t.config.name for t in stored] == ["First 0", "First 1", "First 2"]
    for tables, _ in results:  # every starter sees the same tables, the creator's ids
        assert [t.id for t in tables] == [t.id for t in stored]
    again, created = await store.tables.create_first(
        [TableConfig("Late", "3x4", min_buy_in=20, max_buy_in=200)]
    )
    assert not created and [t.id for t in again] == [t.id for t in stored]


async def test_first_tables_are_checked_before_anything_is_stored(store: Store) -> None:
    bad = [
        TableConfig("Fine", "razz", min_buy_in=20, max_buy_in=200),
        TableConfig("Broken", "razz", min_buy_in=200, max_buy_in=20),
    ]
    with pytest.raises(TableBookError):
        await store.tables.create_first(bad)
    assert await store.tables.all() == []
