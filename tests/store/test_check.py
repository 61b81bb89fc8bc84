"""``ledger check`` finds each kind of damage and names it.

Each test builds honest books, breaks them behind the store's back with a
plain statement, and expects the check to name the first violation. The
append-only tables refuse updates and deletes, so breakage that the
triggers allow is added, not edited.
"""

from __future__ import annotations

import asyncio

import asyncpg
import pytest

from pokerhouse.store import ActionRecord, Batch, HandFinish, Store
from pokerhouse.store.errors import DatabaseError
from pokerhouse.store.sql import Context, Stmt, Unit, one, run
from tests.conftest import FAST_HASHER, _admin_dsn
from tests.store.conftest import make_table, make_users
from tests.store.test_hands import seated_table, start_for


async def books(store: Store) -> int:
    """A table with two players, one finished hand and one running."""
    table = await seated_table(store, 2)
    await store.commit(Batch(starts=[await start_for(store, table, 1)]))
    await store.commit(
        Batch(
            actions=[ActionRecord(table, 1, 0, 0, "check")],
            finishes=[HandFinish(table, 1, [4, -4])],
        )
    )
    await store.commit(Batch(starts=[await start_for(store, table, 2)]))
    return table


async def tamper(store: Store, *statements: str) -> None:
    def unit(ctx: Context) -> Unit[None]:
        for sql in statements:
            yield run(Stmt(sql))

    await store.database.write(unit)


async def test_honest_books_pass(store: Store) -> None:
    await books(store)
    report = await store.check()
    assert report.ok and report.violation is None
    assert report.hands == 2 and report.entries > 0
    assert report.summary().startswith("ledger ok: ")


BREAKAGE = [
    (
        "an entry that unbalances its transaction",
        ["INSERT INTO ledger_entries (transaction_id, account_id, amount, balance_after) "
         "VALUES (1, 1, 5, -9995)"],
        "transactions balance",
    ),
    (
        "a balance that is not the sum of its entries",
        ["UPDATE ledger_accounts SET balance = balance + 1 WHERE key = 'rake'"],
        "balances equal entries",
    ),
    (
        "a stack that moved without the ledger",
        ["UPDATE table_seats SET stack = stack + 10 WHERE seat = 0"],
        "in-play accounts hold the seats",
    ),
    (
        "a finished hand without its settlement",
        ["UPDATE hands SET status = 'finished', settlement_id = NULL WHERE number = 2"],
        "finished hands are settled",
    ),
    (
        "results that are not what was settled",
        ["UPDATE hand_players SET result = 5 WHERE hand_seat = 0 AND hand_id = 1",
         "UPDATE hand_players SET result = -5 WHERE hand_seat = 1 AND hand_id = 1"],
        "settlements equal results",
    ),
    (
        "a settlement whose hand is running again",
        ["UPDATE hands SET status = 'voided' WHERE number = 2",
         "UPDATE hands SET status = 'running' WHERE number = 1"],
        "only finished hands are settled",
    ),
    (
        "a wallet below zero",
        ["UPDATE ledger_accounts SET balance = -1 WHERE key = 'house'"],
        "balances equal entries",
    ),
]  # fmt: skip


@pytest.mark.breaks_ledger
@pytest.mark.parametrize(("what", "statements", "check"), BREAKAGE, ids=[b[0] for b in BREAKAGE])
async def test_damage_is_named(store: Store, what: str, statements: list[str], check: str) -> None:
    await books(store)
    # The CHECK constraints refuse an overdraft even from a plain statement.
    try:
        await tamper(store, *statements)
    except DatabaseError:
        assert check == "balances equal entries" and "-1" in statements[0]
        return
    report = await store.check()
    assert not report.ok
    assert report.failed_check == check, report.summary()
    assert report.summary().startswith(f"ledger check failed ({check}): ")


@pytest.mark.breaks_ledger
async def test_a_broken_balance_chain_is_named(store: Store) -> None:
    (ann, bob) = await make_users(store, 2, grant=100)
    await make_table(store)
    # A transfer whose entries claim the wrong balances after, and a matching
    # move of the balance column: the sums agree, the chain does not.
    await tamper(
        store,
        "INSERT INTO ledger_transactions (key, kind, fingerprint, memo, created_at) "
        "VALUES ('forged', 'grant', '', '', 0)",
        "INSERT INTO ledger_entries (transaction_id, account_id, amount, balance_after) "
        f"SELECT id, (SELECT id FROM ledger_accounts WHERE key = 'wallet:{ann.id}'), -10, 95 "
        "FROM ledger_transactions WHERE key = 'forged'",
        "INSERT INTO ledger_entries (transaction_id, account_id, amount, balance_after) "
        f"SELECT id, (SELECT id FROM ledger_accounts WHERE key = 'wallet:{bob.id}'), 10, 105 "
        "FROM ledger_transactions WHERE key = 'forged'",
        f"UPDATE ledger_accounts SET balance = 90 WHERE key = 'wallet:{ann.id}'",
        f"UPDATE ledger_accounts SET balance = 110 WHERE key = 'wallet:{bob.id}'",
    )
    report = await store.check()
    assert report.failed_check == "balance chain", report.summary()


async def test_append_only_tables_refuse_edits(store: Store) -> None:
    await books(store)
    for sql in [
        "UPDATE ledger_entries SET amount = amount + 1",
        "DELETE FROM ledger_transactions",
        "UPDATE hand_actions SET kind = 'fold'",
        "DELETE FROM hand_decks",
    ]:
        with pytest.raises(DatabaseError, match="append-only"):
            await tamper(store, sql)


@pytest.mark.parametrize("db_url", ["postgresql"], indirect=True)
async def test_the_audit_outlasts_the_rooms_deadline(db_url: str) -> None:
    """On PostgreSQL a slow ``ledger check`` is bounded by its own hour, not the room's 10 s.

    (SQLite bounds only the wait for a lock, which a reader in WAL mode never has.)

    A second connection holds the hands table locked for longer than the
    store's deadline: an ordinary read gives up with ``database_timeout``, the
    audit waits for the lock and passes.
    """
    store = await Store.open(db_url, password_hasher=FAST_HASHER, deadline=0.5)
    try:
        await books(store)
        locker = await asyncpg.connect(_admin_dsn(db_url), timeout=30)
        try:
            locked = locker.transaction()
            await locked.start()
            await locker.execute("LOCK TABLE hands IN ACCESS EXCLUSIVE MODE")
            with pytest.raises(DatabaseError) as caught:
                await store.database.read(lambda ctx: count_hands())
            assert caught.value.code == "database_timeout"
            audit = asyncio.create_task(store.check())
            await asyncio.sleep(1.0)
            assert not audit.done()
            await locked.rollback()
            report = await asyncio.wait_for(audit, 60)
        finally:
            await locker.close()
        assert report.ok, report.summary()
        assert report.hands == 2
    finally:
        await store.close()


def count_hands() -> Unit[int]:
    row = yield one(Stmt("SELECT COUNT(*) FROM hands"))
    return int(row[0])
