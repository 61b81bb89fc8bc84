"""The ledger: balanced postings, idempotency keys, refusals that write nothing."""

from __future__ import annotations

from typing import Any

import pytest

from pokerhouse.store import (
    HOUSE,
    ISSUER,
    RAKE,
    Account,
    IdempotencyConflict,
    InsufficientFunds,
    LedgerError,
    Store,
    TransactionKind,
)
from tests.store.conftest import dump, make_table, make_users


async def test_a_grant_is_a_transaction_from_the_issuer(store: Store) -> None:
    ann = await store.users.create("ann", None, bot=True, grant=2_500)
    statement = await store.ledger.statement(ann)
    assert [(line.kind, line.amount, line.balance) for line in statement.lines] == [
        (TransactionKind.GRANT, 2_500, 2_500)
    ]
    assert statement.lines[0].key == f"grant:user:{ann.id}"
    assert await store.ledger.balance(ISSUER) == -2_500


async def test_a_transfer_moves_chips_and_keeps_running_balances(store: Store) -> None:
    ann, bob = await make_users(store, 2, grant=1_000)
    tx = await store.ledger.post(
        "gift:1",
        "grant",
        {Account.wallet(ann.id): -300, Account.wallet(bob.id): 300},
        memo="a gift",
        meta={"why": "birthday"},
    )
    assert tx.amount(Account.wallet(bob.id)) == 300
    assert {e.account: e.balance_after for e in tx.entries} == {
        Account.wallet(ann.id): 700,
        Account.wallet(bob.id): 1_300,
    }
    assert tx.meta == {"why": "birthday"} and tx.memo == "a gift"
    assert await store.ledger.balance(Account.wallet(ann.id)) == 700
    lines = (await store.ledger.statement(bob)).lines
    assert [line.balance for line in lines] == [1_000, 1_300]


async def test_the_house_is_funded_from_the_issuer(store: Store) -> None:
    tx = await store.ledger.fund_house(50_000, key="fund:1")
    assert tx.kind is TransactionKind.TOP_UP
    assert await store.ledger.balance(HOUSE) == 50_000
    assert await store.ledger.balance(ISSUER) == -50_000


async def test_a_player_top_up(store: Store) -> None:
    (ann,) = await make_users(store, 1, grant=100)
    await store.ledger.top_up(ann, 900, key="top-up:ann:1")
    assert await store.ledger.balance(Account.wallet(ann.id)) == 1_000


async def test_the_same_key_and_entries_return_the_first_transaction(store: Store) -> None:
    ann, bob = await make_users(store, 2, grant=1_000)
    entries = {Account.wallet(ann.id): -10, Account.wallet(bob.id): 10}
    first = await store.ledger.post("k1", "grant", entries)
    before = await dump(store)
    again = await store.ledger.post("k1", "grant", entries, memo="ignored on a repeat")
    assert again == first
    assert await dump(store) == before
    assert await store.ledger.balance(Account.wallet(bob.id)) == 1_010


async def test_the_same_key_with_other_entries_is_a_conflict(store: Store) -> None:
    ann, bob = await make_users(store, 2, grant=1_000)
    await store.ledger.post(
        "k1", "grant", {Account.wallet(ann.id): -10, Account.wallet(bob.id): 10}
    )
    before = await dump(store)
    for entries, kind in [
        ({Account.wallet(ann.id): -11, Account.wallet(bob.id): 11}, "grant"),
        ({Account.wallet(ann.id): -10, Account.wallet(bob.id): 10}, "top-up"),
        ({Account.wallet(bob.id): -10, Account.wallet(ann.id): 10}, "grant"),
    ]:
        with pytest.raises(IdempotencyConflict) as caught:
            await store.ledger.post("k1", kind, entries)
        assert caught.value.code == "idempotency_conflict"
    assert await dump(store) == before


async def test_only_the_issuer_goes_below_zero(store: Store) -> None:
    ann, bob = await make_users(store, 2, grant=100)
    before = await dump(store)
    with pytest.raises(InsufficientFunds) as caught:
        await store.ledger.post(
            "x", "grant", {Account.wallet(ann.id): -101, Account.wallet(bob.id): 101}
        )
    assert caught.value.code == "insufficient_funds" and f"wallet:{ann.id}" in str(caught.value)
    with pytest.raises(InsufficientFunds):
        await store.ledger.post("y", "rake", {RAKE: -1, Account.wallet(bob.id): 1})
    assert await dump(store) == before
    # The whole wallet may go, down to zero.
    await store.ledger.post(
        "z", "grant", {Account.wallet(ann.id): -100, Account.wallet(bob.id): 100}
    )
    assert await store.ledger.balance(Account.wallet(ann.id)) == 0


def _bad_postings(a: Account, b: Account) -> list[tuple[str, Any, Any, dict[str, Any], str]]:
    """(key, kind, entries, extra arguments, expected code)."""
    return [
        ("k", "grant", {a: 0, b: 0}, {}, "zero_amount"),
        ("k", "grant", {a: -1.0, b: 1.0}, {}, "bad_amount"),
        ("k", "grant", {a: -1.5, b: 1.5}, {}, "bad_amount"),
        ("k", "grant", {a: False, b: True}, {}, "bad_amount"),
        ("k", "grant", {a: "-1", b: "1"}, {}, "bad_amount"),
        ("k", "grant", {a: -(2**60), b: 2**60}, {}, "amount_too_large"),
        ("k", "grant", {a: -5, b: 4}, {}, "unbalanced"),
        ("k", "grant", {a: 5}, {}, "too_few_entries"),
        ("k", "grant", {}, {}, "too_few_entries"),
        ("k", "grant", {a: -1, Account.wallet(999_999): 1}, {}, "unknown_account"),
        ("k", "grant", {a: -1, "wallet:1": 1}, {}, "bad_account"),
        ("k", "settlement", {a: -1, b: 1}, {}, "reserved_kind"),
        ("k", "buy-in", {a: -1, b: 1}, {}, "reserved_kind"),
        ("k", "bribe", {a: -1, b: 1}, {}, "bad_kind"),
        ("k", "grant", {a: -1, Account.in_play(1, 1): 1}, {}, "in_play_account"),
        ("", "grant", {a: -1, b: 1}, {}, "bad_key"),
        ("a key", "grant", {a: -1, b: 1}, {}, "bad_key"),
        ("k" * 201, "grant", {a: -1, b: 1}, {}, "bad_key"),
        ("k\x00", "grant", {a: -1, b: 1}, {}, "bad_key"),
        (17, "grant", {a: -1, b: 1}, {}, "bad_key"),
        ("k", "grant", {a: -1, b: 1}, {"memo": "x" * 501}, "bad_memo"),
        ("k", "grant", {a: -1, b: 1}, {"memo": "bell\x07"}, "bad_memo"),
        ("k", "grant", {a: -1, b: 1}, {"meta": {"x": float("nan")}}, "bad_meta"),
        ("k", "grant", {a: -1, b: 1}, {"meta": {"x": object()}}, "bad_meta"),
    ]


async def test_bad_postings_raise_coded_errors_and_write_nothing(store: Store) -> None:
    ann, bob = await make_users(store, 2, grant=1_000)
    await make_table(store)
    a, b = Account.wallet(ann.id), Account.wallet(bob.id)
    before = await dump(store)
    for key, kind, entries, extra, code in _bad_postings(a, b):
        with pytest.raises(LedgerError) as caught:
            await store.ledger.post(key, kind, entries, **extra)
        assert caught.value.code == code, (key, kind, entries, extra, str(caught.value))
    assert await dump(store) == before


async def test_a_repeat_after_the_wallet_emptied_still_returns_the_first(store: Store) -> None:
    ann, bob = await make_users(store, 2, grant=100)
    entries = {Account.wallet(ann.id): -100, Account.wallet(bob.id): 100}
    first = await store.ledger.post("all-in", "grant", entries)
    assert await store.ledger.post("all-in", "grant", entries) == first


async def test_statement_limit_shows_the_latest_lines(store: Store) -> None:
    ann, bob = await make_users(store, 2, grant=1_000)
    for n in range(5):
        await store.ledger.post(
            f"t{n}", "grant", {Account.wallet(ann.id): -1, Account.wallet(bob.id): 1}
        )
    statement = await store.ledger.statement(ann.username, limit=2)
    assert [line.key for line in statement.lines] == ["t3", "t4"]
    assert [line.balance for line in statement.lines] == [996, 995]
    assert statement.wallet == 995 and statement.total == 995
