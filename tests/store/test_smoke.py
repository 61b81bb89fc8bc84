"""First steps on both databases."""

from __future__ import annotations

from pokerhouse.store import Account, Store
from tests.store.conftest import make_table, make_users
from tests.store.writes import buy_in


async def test_a_user_buys_in(store: Store) -> None:
    (ann,) = await make_users(store, 1)
    table = await make_table(store)
    change = await buy_in(store, table, 0, ann, 500)
    assert change.seat is not None and change.seat.stack == 500
    assert await store.ledger.balance(Account.wallet(ann.id)) == 9_500
    assert await store.ledger.balance(Account.in_play(table, ann.id)) == 500
