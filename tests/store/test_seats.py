"""Seats: buy-ins, added chips and cash-outs keep the in-play accounts equal to the stacks."""

from __future__ import annotations

from functools import partial

import pytest

from pokerhouse.store import (
    Account,
    IdempotencyConflict,
    InsufficientFunds,
    LedgerError,
    Store,
    StoreError,
    TableBookError,
    TransactionKind,
)
from tests.store.conftest import dump, make_table, make_users
from tests.store.writes import add_chips, buy_in, cash_out


async def test_buy_in_add_chips_and_cash_out(store: Store) -> None:
    (ann,) = await make_users(store, 1, grant=2_000)
    table = await make_table(store)
    wallet, in_play = Account.wallet(ann.id), Account.in_play(table, ann.id)
    buy = await buy_in(store, table, 3, ann, 400, key="buy:1")
    assert buy.transaction is not None and buy.transaction.kind is TransactionKind.BUY_IN
    added = await add_chips(store, table, 3, ann, 250)
    assert added.seat is not None and added.seat.stack == 650
    assert (
        await store.ledger.balance(in_play) == 650 and await store.ledger.balance(wallet) == 1_350
    )
    assert [(s.seat, s.user_id, s.stack) for s in await store.tables.seats(table)] == [
        (3, ann.id, 650)
    ]
    out = await cash_out(store, table, 3, ann, key="out:1")
    assert out.seat is None and out.transaction is not None
    assert out.transaction.amount(wallet) == 650
    assert await store.ledger.balance(in_play) == 0 and await store.ledger.balance(wallet) == 2_000
    assert await store.tables.seats(table) == []
    statement = await store.ledger.statement(ann)
    assert [line.kind for line in statement.lines] == [
        TransactionKind.GRANT,
        TransactionKind.BUY_IN,
        TransactionKind.BUY_IN,
        TransactionKind.CASH_OUT,
    ]


async def test_buy_in_and_cash_out_are_idempotent_by_key(store: Store) -> None:
    (ann,) = await make_users(store, 1, grant=2_000)
    table = await make_table(store)
    first = await buy_in(store, table, 0, ann, 400, key="buy:1")
    again = await buy_in(store, table, 0, ann, 400, key="buy:1")
    assert again.transaction == first.transaction and again.seat == first.seat
    with pytest.raises(IdempotencyConflict):
        await buy_in(store, table, 0, ann, 500, key="buy:1")
    out = await cash_out(store, table, 0, ann, key="out:1")
    assert await cash_out(store, table, 0, ann, key="out:1") == out
    with pytest.raises(IdempotencyConflict):
        await cash_out(store, table, 0, ann, key="buy:1")
    assert await store.ledger.balance(Account.wallet(ann.id)) == 2_000


async def test_seat_rules(store: Store) -> None:
    ann, bob = await make_users(store, 2, grant=5_000)
    table = await make_table(store, seats=4)
    await buy_in(store, table, 0, ann, 100)
    before = await dump(store)
    refusals = [
        (buy_in(store, table, 0, bob, 100), "seat_taken"),
        (buy_in(store, table, 1, ann, 100), "too_many_boxes"),
        (buy_in(store, table, 4, bob, 100), "bad_seat"),
        (buy_in(store, table, -1, bob, 100), "bad_seat"),
        (buy_in(store, table, 1, bob, 19), "buy_in_too_small"),
        (buy_in(store, table, 1, bob, 1_001), "buy_in_too_large"),
        (buy_in(store, 999, 1, bob, 100), "unknown_table"),
        (buy_in(store, table, 1, 999, 100), "unknown_user"),
        (add_chips(store, table, 0, ann, 901), "buy_in_too_large"),
        (add_chips(store, table, 0, bob, 10), "not_seated"),
        (add_chips(store, table, 1, bob, 10), "not_seated"),
        (cash_out(store, table, 0, bob), "not_seated"),
        (cash_out(store, table, 2, ann), "not_seated"),
    ]
    for call, code in refusals:
        with pytest.raises(TableBookError) as caught:
            await call
        assert caught.value.code == code, str(caught.value)
    assert await dump(store) == before


@pytest.mark.parametrize(
    ("amount", "code"),
    [(0, "zero_amount"), (-100, "negative_amount"), (100.0, "bad_amount"), (True, "bad_amount")],
)
async def test_bad_buy_in_amounts(store: Store, amount: object, code: str) -> None:
    (ann,) = await make_users(store, 1)
    table = await make_table(store)
    before = await dump(store)
    for call in (partial(buy_in, store), partial(add_chips, store)):
        with pytest.raises(LedgerError) as caught:
            await call(table, 0, ann, amount)
        assert caught.value.code == code
    assert await dump(store) == before


async def test_a_buy_in_the_wallet_cannot_pay_is_refused(store: Store) -> None:
    (ann,) = await make_users(store, 1, grant=50)
    table = await make_table(store)
    before = await dump(store)
    with pytest.raises(InsufficientFunds):
        await buy_in(store, table, 0, ann, 100)
    assert await dump(store) == before


async def test_casino_boxes_share_one_in_play_account(store: Store) -> None:
    (ann,) = await make_users(store, 1, grant=5_000)
    table = await make_table(store, "Casino", "casino-holdem", seats=7, max_boxes=3)
    for seat in (0, 2, 5):
        await buy_in(store, table, seat, ann, 100 * (seat + 1))
    with pytest.raises(TableBookError) as caught:
        await buy_in(store, table, 6, ann, 100)
    assert caught.value.code == "too_many_boxes"
    assert await store.ledger.balance(Account.in_play(table, ann.id)) == 100 + 300 + 600
    await cash_out(store, table, 2, ann)
    assert await store.ledger.balance(Account.in_play(table, ann.id)) == 700


async def test_an_empty_stack_stands_up_without_a_transaction(store: Store) -> None:
    from tests.store.test_hands import settle

    ann, bob = await make_users(store, 2)
    table = await make_table(store)
    await buy_in(store, table, 0, ann, 100)
    await buy_in(store, table, 1, bob, 100)
    await settle(store, table, 1, [-100, 100])
    out = await cash_out(store, table, 0, ann)
    assert out.transaction is None and out.seat is None
    assert [s.user_id for s in await store.tables.seats(table)] == [bob.id]


async def test_non_integer_table_and_seat_are_refused(store: Store) -> None:
    (ann,) = await make_users(store, 1)
    table = await make_table(store)
    for table_id, seat in [(str(table), 0), (table, 1.0), (table, True), (0, 0)]:
        with pytest.raises(StoreError):
            await buy_in(store, table_id, seat, ann, 100)  # type: ignore[arg-type]
