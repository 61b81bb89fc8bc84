"""Every chip move of a table is a write of its batch: fenced, ordered, idempotent.

A table's step commits as one batch: chips to seats, the hand's log, its
settlement and the cash-outs of those who leave at its end, all in one
transaction under the table's lease; a client's action id is stored with
the action, so a resend is known for a repeat after a restart.
"""

from __future__ import annotations

import asyncio
import dataclasses
import random
from typing import Any

import pytest

from pokerhouse.cards import Deck
from pokerhouse.store import (
    Account,
    ActionRecord,
    Batch,
    DatabaseError,
    HandFinish,
    HandLogError,
    HandStart,
    InsufficientFunds,
    SeatIn,
    SeatOut,
    Store,
    TableBookError,
    TransactionKind,
)
from tests.store.conftest import dump, make_table, make_users
from tests.store.writes import append_actions, buy_in, finish_hand

ORDER = tuple(str(card) for card in Deck(random.Random(4)).order())


async def test_a_settlement_and_the_cash_outs_it_implies_are_one_transaction(
    store: Store,
) -> None:
    ann, bob = await make_users(store, 2, grant=1_000)
    table = await make_table(store)
    lease = await store.tables.acquire(table, "node")
    await store.commit(
        Batch(
            seats_in=[
                SeatIn(table, 0, ann.id, 200, "sit:1", lease),
                SeatIn(table, 1, bob.id, 200, "sit:2", lease),
            ]
        )
    )
    start = HandStart(table, 1, "3x4", {}, {}, [(0, ann.id, 200), (1, bob.id, 200)], ORDER, 3)
    await store.commit(Batch(starts=[dataclasses.replace(start, lease=lease)]))
    # Bob leaves at the end of the hand and wins 30: his cash-out is 230, after the settlement.
    ending = Batch(
        actions=[ActionRecord(table, 1, 0, 0, "fold", None, lease, ann.id, "ann-1")],
        finishes=[HandFinish(table, 1, [-30, 30], lease=lease)],
        seats_out=[SeatOut(table, 1, bob.id, 230, "out:5", lease)],
    )
    result = await store.commit(ending)
    out = result.moves["out:5"]
    assert out is not None and out.kind is TransactionKind.CASH_OUT
    assert out.amount(Account.wallet(bob.id)) == 230
    assert await store.ledger.balance(Account.wallet(bob.id)) == 1_030
    assert [(s.seat, s.stack) for s in await store.tables.seats(table)] == [(0, 170)]
    assert await store.hands.applied(table, 1, ann.id, "ann-1")
    assert not await store.hands.applied(table, 1, ann.id, "ann-2")
    assert not await store.hands.applied(table, 1, bob.id, "ann-1")


async def test_a_cash_out_of_other_chips_than_the_seat_holds_is_refused_with_its_batch(
    store: Store,
) -> None:
    ann, bob = await make_users(store, 2, grant=1_000)
    table = await make_table(store)
    await buy_in(store, table, 0, ann, 200)
    await buy_in(store, table, 1, bob, 200)
    start = HandStart(table, 1, "3x4", {}, {}, [(0, ann.id, 200), (1, bob.id, 200)], ORDER, 3)
    await store.commit(Batch(starts=[start]))
    before = await dump(store)
    with pytest.raises(HandLogError) as refused:
        await store.commit(
            Batch(
                finishes=[HandFinish(table, 1, [-30, 30])],
                seats_out=[SeatOut(table, 1, bob.id, 200, "out:1")],  # it holds 230 by then
            )
        )
    assert refused.value.code == "seat_mismatch"
    assert await dump(store) == before  # the settlement went back with it


async def test_a_buy_in_short_of_funds_refuses_the_whole_batch(store: Store) -> None:
    (ann,) = await make_users(store, 1, grant=100)
    table = await make_table(store)
    before = await dump(store)
    with pytest.raises(InsufficientFunds):
        await store.commit(Batch(seats_in=[SeatIn(table, 0, ann.id, 500, "sit:1")]))
    assert await dump(store) == before


async def test_a_bot_is_funded_inside_its_buy_in_once_whatever_the_retries(store: Store) -> None:
    (bot,) = await make_users(store, 1, grant=50)
    table = await make_table(store)
    move = SeatIn(table, 2, bot.id, 400, "bot-sit:1:2:17", fund=True)
    await store.commit(Batch(seats_in=[move]))
    await store.commit(Batch(seats_in=[move]))  # a retry: the same key, the same transaction
    assert await store.ledger.balance(Account.wallet(bot.id)) == 0
    assert await store.ledger.balance(Account.in_play(table, bot.id)) == 400
    kinds = [line.kind for line in (await store.ledger.statement(bot)).lines]
    assert kinds == [TransactionKind.GRANT, TransactionKind.TOP_UP, TransactionKind.BUY_IN]
    # Chips added to a bot funded the same way, each from what its wallet lacks.
    await store.commit(Batch(seats_in=[SeatIn(table, 2, bot.id, 100, "bot-add:1", add=True,
                                              fund=True)]))  # fmt: skip
    assert await store.ledger.balance(Account.in_play(table, bot.id)) == 500


async def test_malformed_seat_moves_are_refused_before_any_statement(store: Store) -> None:
    (ann,) = await make_users(store, 1)
    table = await make_table(store)
    for move in (
        SeatIn(table, 0, ann.id, 0, "k"),
        SeatIn(table, 0, ann.id, 10, ""),
        SeatIn(table, -1, ann.id, 10, "k"),
        SeatIn(table, 0, ann.id, 10, "k", add=1),  # type: ignore[arg-type]
        SeatOut(table, 0, ann.id, -5, "k"),
        SeatOut(table, 0, 0, 5, "k"),
    ):
        with pytest.raises(HandLogError) as refused:
            await store.commit(
                Batch(seats_in=[move]) if isinstance(move, SeatIn) else Batch(seats_out=[move])
            )
        assert refused.value.code == "bad_seat_move"


async def test_a_client_id_is_stored_once_per_hand_and_player(store: Store) -> None:
    ann, bob = await make_users(store, 2, grant=1_000)
    table = await make_table(store)
    await buy_in(store, table, 0, ann, 200)
    await buy_in(store, table, 1, bob, 200)
    start = HandStart(table, 1, "3x4", {}, {}, [(0, ann.id, 200), (1, bob.id, 200)], ORDER, 3)
    await store.commit(Batch(starts=[start]))
    await append_actions(store, [ActionRecord(table, 1, 0, 0, "check", None, None, ann.id, "x")])
    await append_actions(store, [ActionRecord(table, 1, 1, 1, "check", None, None, bob.id, "x")])
    with pytest.raises(DatabaseError):  # the unique index refuses it
        await append_actions(
            store, [ActionRecord(table, 1, 2, 0, "check", None, None, ann.id, "x")]
        )
    with pytest.raises(HandLogError):
        await append_actions(store, [ActionRecord(table, 1, 2, 0, "check", None, None, None, "y")])
    (log,) = await store.hands.unfinished(table)
    assert [(a.user_id, a.client_id) for a in log.actions] == [(ann.id, "x"), (bob.id, "x")]
    await finish_hand(store, table, 1, [0, 0])


async def test_a_house_bot_sits_at_one_table_at_a_time(store: Store) -> None:
    bot, ann = await make_users(store, 2, grant=1_000)
    first, second = await make_table(store, "A"), await make_table(store, "B")
    await store.commit(Batch(seats_in=[SeatIn(first, 0, bot.id, 200, "bot-sit:a", fund=True)]))
    before = await dump(store)
    with pytest.raises(TableBookError) as refused:
        await store.commit(Batch(seats_in=[SeatIn(second, 0, bot.id, 200, "bot-sit:b", fund=True)]))
    assert refused.value.code == "bot_busy" and f"table {first}" in str(refused.value)
    assert await dump(store) == before
    # A retry of its buy-in, and a person at two tables: fine; once it stood up, it may
    # sit elsewhere.
    await store.commit(Batch(seats_in=[SeatIn(first, 0, bot.id, 200, "bot-sit:a", fund=True)]))
    await store.commit(Batch(seats_in=[SeatIn(first, 1, ann.id, 200, "sit:a")]))
    await store.commit(Batch(seats_in=[SeatIn(second, 0, ann.id, 200, "sit:b")]))
    await store.commit(Batch(seats_out=[SeatOut(first, 0, bot.id, 200, "bot-out:a")]))
    await store.commit(Batch(seats_in=[SeatIn(second, 1, bot.id, 200, "bot-sit:b2", fund=True)]))
    assert [(s.seat, s.user_id) for s in await store.tables.seats(second)] == [
        (0, ann.id),
        (1, bot.id),
    ]


async def test_rooms_seating_one_bot_at_once_seat_it_once(store: Store, db_url: str) -> None:
    from tests.store.test_concurrency import run_concurrently

    (bot,) = await make_users(store, 1, grant=0)
    tables = [await make_table(store, f"T{n}") for n in range(5)]

    async def seat(worker: Store, n: int) -> Any:
        move = SeatIn(tables[n], 0, bot.id, 100, f"bot-sit:{n}", fund=True)
        return await worker.commit(Batch(seats_in=[move]))

    *results, _ = await asyncio.to_thread(run_concurrently, db_url, seat, 5)
    refused = [r for r in results if isinstance(r, BaseException)]
    assert len(refused) == 4, results
    assert all(isinstance(r, TableBookError) and r.code == "bot_busy" for r in refused), refused
    seated = [t for t in tables if await store.tables.seats(t)]
    assert len(seated) == 1
