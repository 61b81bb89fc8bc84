"""A wallet's play-money top-up: once an hour, kept in the ledger, paid once when asked twice."""

from __future__ import annotations

import asyncio

import pytest

from pokerhouse.store import Account, AccountError, IdempotencyConflict, Store
from tests.store.conftest import Clock, dump


async def test_one_top_up_an_hour_by_the_ledger(store: Store, clock: Clock) -> None:
    ann = await store.users.create("ann", "password1", grant=100)
    first = await store.ledger.player_top_up(ann, 9_900)
    assert first.key == f"wallet-top-up:{ann.id}:1"
    before = await dump(store)
    clock.now += 3599
    with pytest.raises(AccountError) as caught:
        await store.ledger.player_top_up(ann, 500)
    assert caught.value.code == "rate_limited" and "1 s" in str(caught.value)
    assert await dump(store) == before
    clock.now += 1
    second = await store.ledger.player_top_up(ann, 500)
    assert second.key == f"wallet-top-up:{ann.id}:2"
    assert await store.ledger.balance(Account.wallet(ann.id)) == 10_500


async def test_a_new_store_on_the_same_database_keeps_the_hour(
    store: Store, db_url: str, clock: Clock
) -> None:
    ann = await store.users.create("ann", "password1", grant=100)
    await store.ledger.player_top_up(ann, 9_900)
    again = await Store.open(db_url, clock=clock)
    try:
        with pytest.raises(AccountError) as caught:
            await again.ledger.player_top_up(ann, 9_900)
        assert caught.value.code == "rate_limited"
    finally:
        await again.close()


async def test_top_ups_asked_at_once_pay_once(store: Store) -> None:
    ann = await store.users.create("ann", "password1", grant=100)
    results = await asyncio.gather(
        *(store.ledger.player_top_up(ann, 9_900) for _ in range(4)), return_exceptions=True
    )
    paid = {r.id for r in results if not isinstance(r, BaseException)}
    refused = [r for r in results if isinstance(r, BaseException)]
    assert len(paid) == 1
    assert all(isinstance(r, AccountError) and r.code == "rate_limited" for r in refused)
    assert await store.ledger.balance(Account.wallet(ann.id)) == 10_000
    # Different amounts at once: still one of them.
    bob = await store.users.create("bob", "password1", grant=100)
    results = await asyncio.gather(
        store.ledger.player_top_up(bob, 9_900),
        store.ledger.player_top_up(bob, 5_000),
        return_exceptions=True,
    )
    assert sum(1 for r in results if not isinstance(r, BaseException)) == 1
    assert all(
        isinstance(r, AccountError | IdempotencyConflict)
        for r in results
        if isinstance(r, BaseException)
    )
    assert await store.ledger.balance(Account.wallet(bob.id)) in (10_000, 5_100)


async def test_a_person_and_their_bot_accounts_share_one_top_up_an_hour(
    store: Store, clock: Clock
) -> None:
    """A bot account's top-ups count with its owner's: one person, one top-up an hour,
    whichever of their accounts asks (six wallets would be six top-ups otherwise)."""
    ann = await store.users.create("ann", "password1", grant=100)
    ann_bot, _ = await store.bots.create("ann_bot", owner=ann, grant=100)
    ann2_bot, _ = await store.bots.create("ann2_bot", owner=ann, grant=100)
    bob = await store.users.create("bob", "password1", grant=100)
    await store.ledger.player_top_up(ann_bot, 9_900)
    before = await dump(store)
    for who in (ann, ann2_bot, ann_bot):
        with pytest.raises(AccountError) as caught:
            await store.ledger.player_top_up(who, 9_900)
        assert caught.value.code == "rate_limited"
    assert await dump(store) == before
    await store.ledger.player_top_up(bob, 9_900)  # another person's hour is their own
    clock.now += 3600
    paid = await store.ledger.player_top_up(ann, 9_900)
    assert paid.key == f"wallet-top-up:{ann.id}:2"  # the person's second top-up
    with pytest.raises(AccountError):
        await store.ledger.player_top_up(ann2_bot, 9_900)


async def test_a_person_and_their_bot_asking_at_once_are_paid_once(store: Store) -> None:
    ann = await store.users.create("ann", "password1", grant=100)
    ann_bot, _ = await store.bots.create("ann_bot", owner=ann, grant=100)
    results = await asyncio.gather(
        store.ledger.player_top_up(ann, 9_900), store.ledger.player_top_up(ann_bot, 9_900),
        return_exceptions=True,
    )  # fmt: skip
    assert sum(1 for r in results if not isinstance(r, BaseException)) == 1
    assert all(
        isinstance(r, AccountError) and r.code == "rate_limited"
        for r in results
        if isinstance(r, BaseException)
    )
