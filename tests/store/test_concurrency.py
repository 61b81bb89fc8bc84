"""Concurrency for real: several connections at once, each in a thread with its own loop.

Each worker thread opens its own store (its own connections) and runs its
share of the calls concurrently; the threads start together. On SQLite the
connections contend for the file's write lock, on PostgreSQL for row locks.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Awaitable, Callable
from typing import Any

from pokerhouse.store import Account, InsufficientFunds, Store, Transaction
from tests.conftest import FAST_HASHER
from tests.store.conftest import make_table
from tests.store.writes import buy_in

Job = Callable[[Store, int], Awaitable[Any]]


def run_concurrently(url: str, job: Job, calls: int, threads: int = 5) -> list[Any]:
    """``job(store, n)`` for n in range(calls), spread over ``threads`` stores; the
    results (or exceptions) in call order, and each store's deadlock retries."""
    results: list[Any] = [None] * calls
    retries: list[int] = []
    barrier = threading.Barrier(threads)

    async def worker(index: int) -> None:
        store = await Store.open(url, password_hasher=FAST_HASHER, pool_size=5)
        try:
            barrier.wait()
            mine = range(index, calls, threads)
            done = await asyncio.gather(*(job(store, n) for n in mine), return_exceptions=True)
            for n, result in zip(mine, done, strict=True):
                results[n] = result
            retries.append(store.database.retries)
        finally:
            await store.close()

    workers = [threading.Thread(target=asyncio.run, args=(worker(i),)) for i in range(threads)]
    for thread in workers:
        thread.start()
    for thread in workers:
        thread.join()
    assert len(retries) == threads, "a worker died"
    results.append(sum(retries))
    return results


async def test_fifty_buy_ins_from_a_wallet_that_pays_for_ten(store: Store, db_url: str) -> None:
    ann = await store.users.create("ann", None, bot=True, grant=1_000)
    tables = [await make_table(store, f"T{n}") for n in range(50)]

    async def buy(worker: Store, n: int) -> Any:
        return await buy_in(worker, tables[n], 0, ann, 100)

    *results, _ = await asyncio.to_thread(run_concurrently, db_url, buy, 50)
    won = [r for r in results if not isinstance(r, BaseException)]
    lost = [r for r in results if isinstance(r, BaseException)]
    assert len(won) == 10
    assert all(isinstance(error, InsufficientFunds) for error in lost), lost[:3]
    assert await store.ledger.balance(Account.wallet(ann.id)) == 0
    seated = [seat for table in tables for seat in await store.tables.seats(table)]
    assert len(seated) == 10 and sum(seat.stack for seat in seated) == 1_000


async def test_a_hundred_posts_of_one_key_make_one_transaction(store: Store, db_url: str) -> None:
    ann = await store.users.create("ann", None, bot=True, grant=1_000)
    bob = await store.users.create("bob", None, bot=True, grant=0)
    entries = {Account.wallet(ann.id): -250, Account.wallet(bob.id): 250}

    async def post(worker: Store, n: int) -> Transaction:
        return await worker.ledger.post("the-one-key", "grant", entries)

    *results, _ = await asyncio.to_thread(run_concurrently, db_url, post, 100)
    assert not [r for r in results if isinstance(r, BaseException)], results[:3]
    assert len({tx.id for tx in results}) == 1
    assert await store.ledger.balance(Account.wallet(bob.id)) == 250
    assert len((await store.ledger.statement(bob)).lines) == 1


async def test_opposite_transfers_do_not_deadlock(store: Store, db_url: str) -> None:
    users = [await store.users.create(f"user{n}", None, bot=True, grant=10_000) for n in range(4)]
    wallets = [Account.wallet(user.id) for user in users]

    async def transfer(worker: Store, n: int) -> Transaction:
        # Every pair, both ways, three accounts at a time: locks taken in any
        # order would deadlock; taken in id order they cannot.
        a, b, c = wallets[n % 4], wallets[(n + 1) % 4], wallets[(n + 2) % 4]
        return await worker.ledger.post(
            f"t{n}", "grant", {a: -3, b: 1, c: 2} if n % 2 else {c: -3, b: 2, a: 1}
        )

    *results, retries = await asyncio.to_thread(run_concurrently, db_url, transfer, 200)
    assert not [r for r in results if isinstance(r, BaseException)], results[:3]
    assert retries == 0
    total = sum([await store.ledger.balance(wallet) for wallet in wallets])
    assert total == 40_000
