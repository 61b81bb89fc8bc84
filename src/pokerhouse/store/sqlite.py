"""The SQLite driver: a writer that rarely leaves the event loop, a reader thread.

A unit of work on SQLite is a handful of statements of a few microseconds
each; a hop to a thread and back costs more than the unit itself (tens of
microseconds, and far more on a busy machine). So the writer runs a unit
**on the event loop** when it can take the write lock at once (``BEGIN
IMMEDIATE`` with no busy wait), and hands it to its own thread only when it
must wait for another process's lock, or when the unit is heavy. Nothing
slow is left on the loop: the automatic WAL checkpoint (the one step of a
commit that may fsync) is turned off on the writer and run by the reader's
thread every few hundred commits. Reads (statements, ``ledger check``) run on
the reader's thread; WAL lets them run while the writer writes.

The WAL file starts over only when a write begins with every frame in it
copied to the database. A checkpoint that runs beside a busy writer never
gets there (frames keep arriving while it copies), so under steady load the
WAL would grow without end: 9.8 GB in ten minutes of a 500-table room, its
index (mapped into memory) 19 MB. So once a background checkpoint finds the
WAL longer than ``WAL_FRAMES_LIMIT``, the writer copies the few frames it
missed itself, in its thread and with writes held back for those
milliseconds, and the next write starts the WAL over, cut back to
``WAL_BYTES_LIMIT`` on disk.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import sqlite3
import time
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any, TypeVar

from pokerhouse.store.errors import DatabaseError, StoreError
from pokerhouse.store.sql import ALL, MANY, ONE, RUN, Context, Unit, UnitFactory

T = TypeVar("T")

#: How long a write waits for another process's lock before ``database_busy`` (default).
BUSY_SECONDS = 10.0

#: Commits between two WAL checkpoints (run off the event loop).
CHECKPOINT_EVERY = 500

#: WAL frames (pages) past which the writer finishes a checkpoint so the WAL starts over.
WAL_FRAMES_LIMIT = 8192

#: The WAL file's size on disk once it starts over (``journal_size_limit``).
WAL_BYTES_LIMIT = 64 * 2**20


def connect(path: str, synchronous: str, *, busy_ms: int) -> sqlite3.Connection:
    """A connection in WAL mode with foreign keys on; no implicit ``BEGIN``."""
    conn = sqlite3.connect(
        path,
        timeout=busy_ms / 1000,
        isolation_level=None,  # the driver sends no BEGIN of its own; run_unit does
        check_same_thread=False,  # one thread at a time: the loop or the writer thread
        cached_statements=512,
    )
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute(f"PRAGMA synchronous={synchronous}")
    conn.execute("PRAGMA foreign_keys=ON")
    conn.execute(f"PRAGMA journal_size_limit={WAL_BYTES_LIMIT}")
    return conn


class SqliteWriter:
    """The one write connection of a store."""

    def __init__(
        self,
        path: str,
        synchronous: str,
        checkpoints: SqliteReader,
        busy_seconds: float = BUSY_SECONDS,
    ) -> None:
        self._busy_seconds = busy_seconds
        self._executor = ThreadPoolExecutor(1, thread_name_prefix="pokerhouse-db-writer")
        self._conn = connect(path, synchronous, busy_ms=0)
        self._conn.execute("PRAGMA wal_autocheckpoint=0")
        self._lock = asyncio.Lock()
        self._checkpoints = checkpoints
        self._commits = 0
        #: The last background checkpoint (the reader's), while it runs or until it is read.
        self._background: Future[tuple[int, int, int]] | None = None
        #: Checkpoints the writer finished itself (each lets the next write start the WAL over).
        self.finished_checkpoints = 0

    async def submit(self, factory: UnitFactory[T], ctx: Context, *, heavy: bool) -> T:
        """Run a write unit: on the loop if the lock is free now, else in the thread."""
        async with self._lock:
            if self._wal_too_long():
                await self._finish_checkpoint()
            if not heavy:
                try:
                    self._conn.execute("BEGIN IMMEDIATE")
                except sqlite3.OperationalError:
                    pass  # another process writes: wait for it in the thread
                else:
                    value = run_unit(self._conn, factory, ctx)
                    self._committed()
                    return value
            loop = asyncio.get_running_loop()
            job = loop.run_in_executor(self._executor, self._wait_and_run, factory, ctx)
            try:
                value = await asyncio.shield(job)
            except asyncio.CancelledError:
                # Hold the lock until the thread is done with the connection.
                while not job.done():
                    with contextlib.suppress(asyncio.CancelledError):
                        await asyncio.wait({job})
                raise
            self._committed()
            return value

    def _wait_and_run(self, factory: UnitFactory[T], ctx: Context) -> T:
        deadline = time.monotonic() + self._busy_seconds
        pause = 0.0005
        while True:
            try:
                self._conn.execute("BEGIN IMMEDIATE")
                break
            except sqlite3.OperationalError as error:
                if time.monotonic() > deadline:
                    raise DatabaseError("database_busy", f"the database is busy: {error}") from None
                time.sleep(pause)
                pause = min(pause * 2, 0.05)
        return run_unit(self._conn, factory, ctx)

    def _committed(self) -> None:
        self._commits += 1
        if self._commits % CHECKPOINT_EVERY == 0 and self._background is None:
            self._background = self._checkpoints.checkpoint()

    def _wal_too_long(self) -> bool:
        """Whether the last background checkpoint, now done, left a WAL past the limit."""
        background = self._background
        if background is None or not background.done():
            return False
        self._background = None
        if background.cancelled() or background.exception() is not None:
            return False  # a failed checkpoint: the next one tries again
        _busy, frames, _copied = background.result()
        return frames > WAL_FRAMES_LIMIT

    async def _finish_checkpoint(self) -> None:
        """Copy the frames the background checkpoint missed, writes held back meanwhile.

        With the lock held nothing is written, so the checkpoint reaches the
        end of the WAL (unless a reader still reads an older snapshot: then
        the next background checkpoint finds the WAL long and this runs again).
        """
        loop = asyncio.get_running_loop()
        try:
            _busy, frames, copied = await loop.run_in_executor(
                self._executor, _checkpoint, self._conn
            )
        except sqlite3.Error:
            return  # the next background checkpoint finds the WAL long again
        if frames == copied:
            self.finished_checkpoints += 1

    def close(self) -> None:
        """Close the connection (after a last checkpoint) and the thread."""
        self._executor.shutdown()
        self._conn.close()


class SqliteReader:
    """A read connection with a thread of its own."""

    def __init__(self, path: str, synchronous: str, busy_seconds: float = BUSY_SECONDS) -> None:
        self._executor = ThreadPoolExecutor(1, thread_name_prefix="pokerhouse-db-reader")
        self._conn = self._executor.submit(
            connect, path, synchronous, busy_ms=int(busy_seconds * 1000)
        ).result()

    async def submit(self, factory: UnitFactory[T], ctx: Context) -> T:
        """Run a read unit in one snapshot, in the reader's thread."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._executor, self._read, factory, ctx)

    def _read(self, factory: UnitFactory[T], ctx: Context) -> T:
        self._conn.execute("BEGIN")
        return run_unit(self._conn, factory, ctx)

    def checkpoint(self) -> Future[tuple[int, int, int]]:
        """Copy the WAL into the database file, in the background (never waits for readers):
        the future of :func:`_checkpoint`'s figures."""
        return self._executor.submit(_checkpoint, self._conn)

    def close(self) -> None:
        """Checkpoint, close the connection and the thread."""
        self._executor.submit(self._conn.execute, "PRAGMA wal_checkpoint(PASSIVE)").result()
        self._executor.submit(self._conn.close).result()
        self._executor.shutdown()


def _checkpoint(conn: sqlite3.Connection) -> tuple[int, int, int]:
    """A passive checkpoint: (1 if it could not run, frames in the WAL, frames copied)."""
    busy, frames, copied = conn.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()
    return int(busy), int(frames), int(copied)


def run_unit(conn: sqlite3.Connection, factory: UnitFactory[T], ctx: Context) -> T:
    """Run a unit inside the transaction the caller began; commit or roll back."""
    try:
        unit = factory(ctx)
        value = drive(conn, unit)
        conn.execute("COMMIT")
    except BaseException as error:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        if isinstance(error, sqlite3.Error) and not isinstance(error, StoreError):
            raise DatabaseError(
                "database_error", f"the database refused a statement: {error}"
            ) from None
        raise
    ctx.account_ids.update(ctx.new_ids)
    return value


def drive(conn: sqlite3.Connection, unit: Unit[T]) -> T:
    """Feed a unit its statements' results until it returns."""
    result: Any = None
    try:
        while True:
            op = unit.send(result)
            stmt = op.stmt
            sql = stmt.sqlite[0]
            mode = op.mode
            if mode == MANY:
                conn.executemany(sql, map(stmt.sqlite_args, op.params))
                result = None
                continue
            args = stmt.sqlite_args(op.params)
            if stmt.sqlite_arrays:
                args = _arrays(args, stmt.sqlite_arrays)
            cursor = conn.execute(sql, args)
            if mode == ONE:
                result = cursor.fetchone()
            elif mode == ALL:
                result = cursor.fetchall()
            else:
                assert mode == RUN
                result = cursor.rowcount
    except StopIteration as stop:
        return stop.value  # type: ignore[no-any-return]
    finally:
        unit.close()


def _arrays(args: tuple[Any, ...], positions: tuple[int, ...]) -> tuple[Any, ...]:
    # Lists are arrays on PostgreSQL; SQLite reads them as JSON with json_each.
    return tuple(_json_array(v) if i in positions else v for i, v in enumerate(args))


def _json_array(values: list[Any]) -> str:
    if all(type(v) is int for v in values):
        return f"[{','.join(map(str, values))}]"  # the common case, without the encoder
    return json.dumps(values)
