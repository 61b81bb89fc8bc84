"""The store's door for the chip ledger: postings, balances, top-ups and statements.

Reached as :attr:`pokerhouse.store.Store.ledger`. Every posting is a
balanced transaction under an idempotency key (the units are in
:mod:`pokerhouse.store.ledger` and :mod:`pokerhouse.store.reports`); chips
reach a table and come back only through :meth:`pokerhouse.store.Store.commit`.

>>> import asyncio, tempfile
>>> from pokerhouse.store import HOUSE, Account, Store
>>> async def demo(path):
...     async with await Store.open(f"sqlite:///{path}/room.db") as store:
...         ann = await store.users.create("Ann", None, bot=True, grant=500)
...         await store.ledger.top_up(ann, 100, key="top-up:ann:1")
...         await store.ledger.fund_house(1_000, key="house:1")
...         statement = await store.ledger.statement(ann)
...         wallet = await store.ledger.balance(Account.wallet(ann.id))
...         return wallet, await store.ledger.balance(HOUSE), len(statement.lines)
>>> with tempfile.TemporaryDirectory() as path:
...     asyncio.run(demo(path))
(600, 1000, 2)
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pokerhouse.store import reports, users
from pokerhouse.store.accounts import HOUSE, ISSUER, Account, Statement, Transaction
from pokerhouse.store.arguments import check_before, user_id_of
from pokerhouse.store.database import Database
from pokerhouse.store.errors import AccountError
from pokerhouse.store.ledger import check_amount, post_unit, posting
from pokerhouse.store.user_book import UserBook
from pokerhouse.store.users import User


class LedgerBook:
    """The chip ledger of one store."""

    def __init__(self, db: Database, user_book: UserBook) -> None:
        self._db = db
        self._users = user_book

    async def post(
        self,
        key: str,
        kind: str,
        entries: Mapping[Account, int],
        *,
        memo: str = "",
        meta: Mapping[str, Any] | None = None,
    ) -> Transaction:
        """Post a balanced transaction under an idempotency key.

        The same key with the same kind and entries returns the first
        transaction and posts nothing; with others it is an
        ``idempotency_conflict``. Buy-ins, cash-outs and settlements (and any
        entry on an in-play account) go through the store's ``commit``.
        """
        post = posting(key, kind, entries, memo=memo, meta=meta)
        return await self._db.write(lambda ctx: post_unit(ctx, post))

    async def balance(self, account: Account) -> int:
        """An account's balance."""
        if not isinstance(account, Account):
            raise AccountError("bad_account", f"{account!r} is not an Account")
        return await self._db.read(lambda ctx: reports.balance_unit(ctx, account))

    async def top_up(
        self, user: User | int, amount: int, *, key: str, memo: str = ""
    ) -> Transaction:
        """New chips from the issuer into a wallet (kind ``top-up``)."""
        wallet = Account.wallet(user_id_of(user))
        return await self.post(
            key, "top-up", {ISSUER: -check_amount(amount, "top-up"), wallet: amount}, memo=memo
        )

    async def player_top_up(
        self, user: User | int, amount: int, *, every: float = 3600.0
    ) -> Transaction:
        """A player's play-money top-up (kind ``top-up``), at most one every ``every``
        seconds: ``rate_limited`` sooner. The last top-up is read from the ledger in the
        same transaction, so the limit holds across restarts and nodes, and two asked at
        once are one transaction (its key counts the wallet's earlier top-ups)."""
        user_id = user_id_of(user)
        check_amount(amount, "top-up")
        if type(every) not in (int, float) or not every >= 0:
            raise AccountError("bad_limit", f"every is a number of seconds >= 0, not {every!r}")
        return await self._db.write(lambda ctx: users.top_up_unit(ctx, user_id, amount, every))

    async def fund_house(self, amount: int, *, key: str, memo: str = "") -> Transaction:
        """New chips from the issuer into the house bankroll (kind ``top-up``)."""
        return await self.post(
            key, "top-up", {ISSUER: -check_amount(amount, "funding"), HOUSE: amount}, memo=memo
        )

    async def statement(
        self, user: User | int | str, *, limit: int = 100, before: int | None = None
    ) -> Statement:
        """The wallet's last ``limit`` entries with running balances, and chips at tables.

        ``before`` (an entry id: a page's ``older``) asks for the entries older
        than it, so a client pages back through the whole statement.
        """
        found = user if isinstance(user, User) else await self._users.get(user)
        if type(limit) is not int or not 1 <= limit <= 100_000:
            raise AccountError("bad_limit", f"a limit is 1 to 100000 lines, not {limit!r}")
        check_before(before)
        return await self._db.read(
            lambda ctx: reports.statement_unit(ctx, found.id, found.username, limit, before)
        )
