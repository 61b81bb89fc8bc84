"""The :class:`Store`: the room's books behind one small async object.

The store opens and closes the database, takes the room's one write path
(:meth:`Store.commit`: a :class:`Batch` of hand starts, actions, finishes,
voids and money moves, fenced by the tables' leases) and runs the ledger
check; everything else is a book, one attribute each: :attr:`Store.users`,
:attr:`Store.ledger`, :attr:`Store.tables`, :attr:`Store.hands`,
:attr:`Store.tournaments`, :attr:`Store.bots`, :attr:`Store.stats` and
:attr:`Store.private`. Every method checks its input in full first (a typed
error, nothing written), then runs one unit of work in one database
transaction.

>>> import asyncio, tempfile
>>> from pokerhouse.store import Account, Batch, SeatIn, Store, TableConfig
>>> async def demo(path):
...     async with await Store.open(f"sqlite:///{path}/room.db") as store:
...         ann = await store.users.create("Ann", None, bot=True, grant=500)
...         table = await store.tables.create(TableConfig("Razz 1", "razz"))
...         await store.commit(Batch(seats_in=[SeatIn(table.id, 0, ann.id, 100, "buy:ann")]))
...         (seat,) = await store.tables.seats(table.id)
...         return await store.ledger.balance(Account.wallet(ann.id)), seat.stack
>>> with tempfile.TemporaryDirectory() as path:
...     asyncio.run(demo(path))
(400, 100)
"""

from __future__ import annotations

import time
from collections.abc import Callable
from types import TracebackType

from argon2 import PasswordHasher

from pokerhouse.store import hands, users
from pokerhouse.store.bot_accounts import BotBook
from pokerhouse.store.check import CheckReport, check_unit
from pokerhouse.store.database import Database
from pokerhouse.store.hand_book import HandBook
from pokerhouse.store.handlog import Batch, BatchResult
from pokerhouse.store.ledger_book import LedgerBook
from pokerhouse.store.private_tables import PrivateBook
from pokerhouse.store.stats import StatsBook
from pokerhouse.store.table_book import TableBook
from pokerhouse.store.tournament_book import TournamentBook
from pokerhouse.store.urls import database_url, parse_url, redacted
from pokerhouse.store.user_book import UserBook

#: Rows (hand starts, actions, finishes, voids) beyond which a SQLite batch is written in
#: the writer's thread, off the event loop; up to it, on the loop (a hop costs as much).
HEAVY_BATCH = 64

#: How long ``ledger check`` may take on PostgreSQL. It reads every entry and hand in one
#: snapshot, which on a large or busy database takes longer than any call of the room.
CHECK_SECONDS = 3600.0


class Store:
    """The room's books: users and sessions, the chip ledger, tables and their seats,
    hands, tournaments, bot accounts, statistics and private tables.

    Open one with :meth:`open`; close it with :meth:`close` (or ``async with``).
    """

    def __init__(self, db: Database, passwords: users.Passwords) -> None:
        self._db = db
        #: Users: accounts, passwords and sessions.
        self.users = UserBook(db, passwords)
        #: The chip ledger: postings, balances, top-ups, statements.
        self.ledger = LedgerBook(db, self.users)
        #: Tables: definitions, leases and seats.
        self.tables = TableBook(db)
        #: Hands: records, logs, a player's hands, counts.
        self.hands = HandBook(db)
        #: Tournaments: their state, entries and money.
        self.tournaments = TournamentBook(db)
        #: Bot accounts: their tokens and their board.
        self.bots = BotBook(db)
        #: Players' statistics and the weekly leaderboards.
        self.stats = StatsBook(db)
        #: Private tables: invitations, guests, their session ledger.
        self.private = PrivateBook(db, passwords)

    @classmethod
    async def open(
        cls,
        url: str | None = None,
        *,
        clock: Callable[[], float] = time.time,
        upgrade: bool | None = None,
        password_hasher: PasswordHasher | None = None,
        hash_concurrency: int = users.HASHES_AT_ONCE,
        pool_size: int = 10,
        sqlite_synchronous: str = "NORMAL",
        deadline: float = 10.0,
    ) -> Store:
        """Open the database at ``url`` (default: ``POKERHOUSE_DATABASE_URL``, else
        ``var/pokerhouse.db``).

        SQLite files are created and migrated on first use; a PostgreSQL
        database must be at the current revision (``pokerhouse db upgrade``),
        unless ``upgrade=True``. ``clock`` gives the time (session expiry,
        timestamps); ``password_hasher`` replaces argon2-cffi's default
        parameters (time cost 3, 64 MiB); at most ``hash_concurrency`` hashes
        run at once. ``deadline``: seconds any one database call may take
        (waiting for SQLite's write lock, connecting to or running a unit on
        PostgreSQL) before it fails with :class:`DatabaseError`.
        """
        db = await Database.open(
            parse_url(database_url(url)),
            clock=clock,
            upgrade=upgrade,
            pool_size=pool_size,
            sqlite_synchronous=sqlite_synchronous,
            deadline=deadline,
        )
        return cls(db, users.Passwords(password_hasher, hash_concurrency))

    async def close(self) -> None:
        """Close every connection."""
        await self._db.close()

    async def __aenter__(self) -> Store:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.close()

    @property
    def dialect(self) -> str:
        """``"sqlite"`` or ``"postgresql"``."""
        return self._db.dialect

    @property
    def url(self) -> str:
        """The database URL, password hidden."""
        return redacted(self._db.url)

    @property
    def database(self) -> Database:
        """The underlying :class:`Database` (for tools and tests)."""
        return self._db

    # ------------------------------------------------------------ the one write path

    async def commit(self, batch: Batch) -> BatchResult:
        """Write hand starts, actions, finishes, voids and chips to and from seats, for
        any tables, in one transaction (group commit): all of them, or none and a typed
        error. Each write carries its table's lease token (``None``: never leased); any
        other is refused (``stale_lease``)."""
        checked = batch.checked()
        if not len(checked):
            return BatchResult()
        return await self._db.write(
            lambda ctx: hands.batch_unit(ctx, checked), heavy=len(checked) > HEAVY_BATCH
        )

    async def check(self) -> CheckReport:
        """Run ``ledger check``: every invariant, in one snapshot (bounded by
        ``CHECK_SECONDS``, not the room's deadline: the audit reads every entry)."""
        return await self._db.read(check_unit, deadline=CHECK_SECONDS)
