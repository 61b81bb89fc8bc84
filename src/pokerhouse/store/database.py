"""Connections and the two drivers that run units of work.

SQLite (:mod:`pokerhouse.store.sqlite`): one writer connection and one
reader connection. A write unit runs whole between ``BEGIN IMMEDIATE`` (the
write lock taken up front, so a check and the write that depends on it are
never split by another writer) and ``COMMIT``. The file is created and
migrated on first use.

PostgreSQL: a pool of asyncpg connections (asyncpg's own, bounded); a unit
runs on one of them inside ``BEGIN ... COMMIT`` (read committed; the units
take row locks in a fixed order), and runs again from the start if the
server still reports a deadlock or a serialisation failure. Reads that must
agree with each other (``ledger check``) run in a repeatable-read snapshot.

Both drivers are used directly; SQLAlchemy builds the schema and runs the
migrations (:mod:`pokerhouse.store.migrate`), and reads URLs.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import AsyncIterator, Callable
from typing import Any, TypeVar

import asyncpg
from sqlalchemy.engine import URL

from pokerhouse.store import migrate
from pokerhouse.store.errors import DatabaseError, StoreError
from pokerhouse.store.sql import ALL, MANY, ONE, RUN, Context, Unit, UnitFactory
from pokerhouse.store.sqlite import SqliteReader, SqliteWriter
from pokerhouse.store.urls import redacted, sqlite_path

T = TypeVar("T")

#: How often a PostgreSQL unit is run again after a deadlock or serialisation failure.
RETRIES = 5

_RETRYABLE = (asyncpg.exceptions.DeadlockDetectedError, asyncpg.exceptions.SerializationError)
_UNAVAILABLE = (OSError, asyncpg.exceptions.PostgresConnectionError, asyncpg.InterfaceError)


class Database:
    """An open database: runs units of work; see :meth:`open`."""

    def __init__(self, url: URL, clock: Callable[[], float], deadline: float = 10.0) -> None:
        self.url = url
        #: Seconds one database call may take before it fails (nothing waits forever).
        self.deadline = deadline
        self.dialect = url.get_backend_name()
        self.clock = clock
        #: Account ids by key (ids never change, so any process may cache them).
        self.account_ids: dict[str, int] = {}
        #: How many PostgreSQL units ran again after a deadlock or serialisation failure.
        self.retries = 0
        self._connections: _Connections | None = None
        self._writer: SqliteWriter | None = None
        self._reader: SqliteReader | None = None

    @classmethod
    async def open(
        cls,
        url: URL,
        *,
        clock: Callable[[], float] = time.time,
        upgrade: bool | None = None,
        pool_size: int = 10,
        sqlite_synchronous: str = "NORMAL",
        deadline: float = 10.0,
    ) -> Database:
        """Connect; migrate first if ``upgrade`` (default: SQLite yes, PostgreSQL no).

        A database at an older revision that is not upgraded here is refused
        with :class:`DatabaseError` (``schema_outdated``), naming ``pokerhouse db upgrade``.
        ``deadline`` bounds every call: SQLite waits that long for another
        process's lock (then ``database_busy``); PostgreSQL connects and runs a
        unit within it (then ``database_timeout``).
        """
        if not deadline > 0:
            raise DatabaseError("bad_deadline", f"a database deadline is > 0 s, not {deadline}")
        db = cls(url, clock, deadline)
        if db.dialect == "sqlite":
            sqlite_path(url).parent.mkdir(parents=True, exist_ok=True)
        if upgrade if upgrade is not None else db.dialect == "sqlite":
            await migrate.upgrade(url)
        else:
            await migrate.check_current(url)
        if db.dialect == "sqlite":
            if sqlite_synchronous.upper() not in ("NORMAL", "FULL", "EXTRA"):
                raise DatabaseError(
                    "bad_url", f"unknown SQLite synchronous mode {sqlite_synchronous!r}"
                )
            path, mode = str(sqlite_path(url)), sqlite_synchronous.upper()
            db._reader = SqliteReader(path, mode, deadline)
            db._writer = SqliteWriter(path, mode, db._reader, deadline)
        else:
            db._connections = _Connections(url, pool_size, deadline)
        return db

    async def close(self) -> None:
        """Close every connection (waits for a running unit to finish)."""
        writer, reader = self._writer, self._reader
        self._writer = self._reader = None
        loop = asyncio.get_running_loop()
        if writer is not None:
            await loop.run_in_executor(None, writer.close)
        if reader is not None:
            await loop.run_in_executor(None, reader.close)
        if self._connections is not None:
            connections, self._connections = self._connections, None
            await connections.close()

    async def write(self, factory: UnitFactory[T], *, heavy: bool = False) -> T:
        """Run a unit that writes, in one transaction; all or nothing.

        ``heavy`` (a large batch) keeps a SQLite unit off the event loop.
        """
        if self._writer is not None:
            return await self._writer.submit(factory, self.context(), heavy=heavy)
        if self.dialect == "sqlite":
            raise DatabaseError("database_closed", "the store is closed")
        return await self._run_pg(factory, write=True)

    async def read(self, factory: UnitFactory[T], *, deadline: float | None = None) -> T:
        """Run a unit that only reads, in one consistent snapshot.

        ``deadline`` replaces the store's own for this call: an audit of the
        whole ledger may rightly take longer than any call of the room.
        """
        if self._reader is not None:
            return await self._reader.submit(factory, self.context())
        if self.dialect == "sqlite":
            raise DatabaseError("database_closed", "the store is closed")
        return await self._run_pg(factory, write=False, deadline=deadline)

    def context(self) -> Context:
        """A fresh context for one run of a unit."""
        return Context(self.dialect, self.clock(), self.account_ids)

    # ------------------------------------------------------------ PostgreSQL

    async def _run_pg(
        self, factory: UnitFactory[T], *, write: bool, deadline: float | None = None
    ) -> T:
        limit = self.deadline if deadline is None else deadline
        if self._connections is None:
            raise DatabaseError("database_closed", "the store is closed")
        for attempt in range(RETRIES + 1):
            ctx = self.context()
            try:
                # A server that stops answering (not one that refuses) must not hang the room.
                result = await asyncio.wait_for(self._run_pg_once(factory(ctx), write=write), limit)
            except TimeoutError:
                raise DatabaseError(
                    "database_timeout",
                    f"{redacted(self.url)} did not answer within {limit:g} s",
                ) from None
            except _RETRYABLE:
                if attempt == RETRIES:
                    raise
                self.retries += 1
                await asyncio.sleep(0.001 * 2**attempt)
                continue
            except _UNAVAILABLE as error:
                raise DatabaseError(
                    "database_unavailable", f"lost {redacted(self.url)}: {error}"
                ) from None
            except asyncpg.PostgresError as error:
                raise _database_error(error) from None
            except _PoolTimeout:
                raise DatabaseError(
                    "database_busy",
                    f"every database connection stayed busy for {self.deadline:g} s",
                ) from None
            self.account_ids.update(ctx.new_ids)
            return result
        raise AssertionError("unreachable")  # pragma: no cover

    async def _run_pg_once(self, unit: Unit[T], *, write: bool) -> T:
        assert self._connections is not None
        async with self._connections.lease() as conn:
            try:
                isolation = "read_committed" if write else "repeatable_read"
                async with conn.transaction(isolation=isolation, readonly=not write):
                    return await _drive_pg(conn, unit)
            finally:
                unit.close()


class _PoolTimeout(Exception):
    """No connection of the pool came free within the deadline."""


class _Connections:
    """asyncpg's pool: at most ``size`` connections, made when first needed.

    A connection that broke, or was cancelled half-way through a unit, is
    dropped (its socket closed at once: a graceful close would wait for a
    server that may never answer) and the pool makes a new one.
    """

    def __init__(self, url: URL, size: int, deadline: float) -> None:
        self._dsn = url.set(drivername="postgresql").render_as_string(hide_password=False)
        self._size = size
        self._deadline = deadline
        self._pool: asyncpg.Pool | None = None
        self._opening = asyncio.Lock()

    async def _open(self) -> asyncpg.Pool:
        async with self._opening:
            if self._pool is None:
                self._pool = await asyncpg.create_pool(
                    self._dsn,
                    min_size=0,
                    max_size=self._size,
                    timeout=self._deadline,
                    # Statements are few and fixed: each connection prepares them once.
                    statement_cache_size=512,
                )
            return self._pool

    @contextlib.asynccontextmanager
    async def lease(self) -> AsyncIterator[Any]:
        """One connection for the caller alone."""
        pool = self._pool if self._pool is not None else await self._open()
        try:
            conn = await pool.acquire(timeout=self._deadline)
        except TimeoutError:
            raise _PoolTimeout() from None
        healthy = False
        try:
            yield conn
            healthy = not conn.is_closed() and not conn.is_in_transaction()
        finally:
            if not healthy:
                with contextlib.suppress(Exception):
                    conn.terminate()
            await pool.release(conn)

    async def close(self) -> None:
        """Close every connection."""
        if self._pool is not None:
            pool, self._pool = self._pool, None
            await pool.close()


async def _drive_pg(conn: Any, unit: Unit[T]) -> T:
    result: Any = None
    while True:
        try:
            op = unit.send(result)
        except StopIteration as stop:
            return stop.value  # type: ignore[no-any-return]
        stmt = op.stmt
        sql = stmt.postgresql[0]
        mode = op.mode
        if mode == MANY:
            await conn.executemany(sql, list(map(stmt.pg_args, op.params)))
            result = None
            continue
        args = stmt.pg_args(op.params)
        if mode == ONE:
            result = await conn.fetchrow(sql, *args)
        elif mode == ALL:
            result = await conn.fetch(sql, *args)
        else:
            assert mode == RUN
            status = await conn.execute(sql, *args)
            result = int(status.rsplit(" ", 1)[-1])


def _database_error(error: Exception) -> StoreError:
    return DatabaseError("database_error", f"the database refused a statement: {error}")
