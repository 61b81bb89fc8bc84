"""Schema revisions: apply the shipped Alembic migrations, or check a database is current.

The migrations live in the package (``pokerhouse/store/migrations``) and run
through SQLAlchemy's async engine (aiosqlite or asyncpg), one transaction for
the whole upgrade on both databases (SQLite's DDL is transactional once the
driver leaves ``BEGIN`` to us).

>>> head_revision()
'0010'
"""

from __future__ import annotations

from typing import Any

import asyncpg
from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import event
from sqlalchemy.engine import URL, Connection
from sqlalchemy.exc import DBAPIError
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine

from pokerhouse.store.errors import DatabaseError
from pokerhouse.store.urls import redacted

_LOCATION = "pokerhouse.store:migrations"

# Connection refused, bad credentials, no such database: the pool wraps the
# driver's errors in DBAPIError; a refused socket comes through as OSError.
_UNREACHABLE = (OSError, DBAPIError, asyncpg.PostgresError, asyncpg.InterfaceError)


def _config(connection: Connection | None = None) -> Config:
    config = Config()
    config.set_main_option("script_location", _LOCATION)
    if connection is not None:
        config.attributes["connection"] = connection
    return config


def head_revision() -> str:
    """The newest revision this version of pokerhouse ships."""
    head = ScriptDirectory.from_config(_config()).get_current_head()
    assert head is not None
    return head


def known_revisions() -> set[str]:
    """Every revision this version of pokerhouse knows."""
    return {script.revision for script in ScriptDirectory.from_config(_config()).walk_revisions()}


def migration_engine(url: URL) -> AsyncEngine:
    """An async engine for DDL: on SQLite, ``BEGIN IMMEDIATE`` is ours to send."""
    engine = create_async_engine(url)
    if url.get_backend_name() == "sqlite":

        @event.listens_for(engine.sync_engine, "connect")
        def _connect(dbapi_connection: Any, _record: Any) -> None:
            # The driver's own transaction handling would commit DDL piecemeal.
            dbapi_connection.isolation_level = None
            cursor = dbapi_connection.cursor()
            cursor.execute("PRAGMA journal_mode=WAL")
            cursor.execute("PRAGMA busy_timeout=10000")
            cursor.close()

        @event.listens_for(engine.sync_engine, "begin")
        def _begin(connection: Connection) -> None:
            connection.exec_driver_sql("BEGIN IMMEDIATE")

    return engine


def _current(connection: Connection) -> str | None:
    return MigrationContext.configure(connection).get_current_revision()


async def current_revision(url: URL) -> str | None:
    """The database's revision (``None`` for a database the store never touched)."""
    engine = migration_engine(url)
    try:
        async with engine.connect() as connection:
            return await connection.run_sync(_current)
    except _UNREACHABLE as error:
        raise _unavailable(url, error) from None
    finally:
        await engine.dispose()


async def upgrade(url: URL) -> tuple[str | None, str]:
    """Apply every migration the database lacks; returns ``(before, after)`` revisions."""
    engine = migration_engine(url)

    def run(connection: Connection) -> tuple[str | None, str]:
        before = _current(connection)
        if before is not None and before not in known_revisions():
            raise _newer(url, before)
        command.upgrade(_config(connection), "head")
        return before, head_revision()

    try:
        async with engine.begin() as connection:
            return await connection.run_sync(run)
    except _UNREACHABLE as error:
        raise _unavailable(url, error) from None
    finally:
        await engine.dispose()


async def check_current(url: URL) -> None:
    """Raise :class:`DatabaseError` unless the database is at the head revision."""
    revision = await current_revision(url)
    head = head_revision()
    if revision == head:
        return
    if revision is not None and revision not in known_revisions():
        raise _newer(url, revision)
    at = f"revision {revision}" if revision else "no pokerhouse schema"
    raise DatabaseError(
        "schema_outdated",
        f"the database {redacted(url)} has {at}; this pokerhouse needs revision {head}: "
        "run `pokerhouse db upgrade` (with the same --database-url) first",
    )


def _newer(url: URL, revision: str) -> DatabaseError:
    return DatabaseError(
        "schema_newer",
        f"the database {redacted(url)} is at revision {revision}, newer than this "
        f"pokerhouse knows ({head_revision()}): upgrade pokerhouse",
    )


def _unavailable(url: URL, error: Exception) -> DatabaseError:
    reason = getattr(error, "orig", None) or error
    return DatabaseError("database_unavailable", f"cannot reach {redacted(url)}: {reason}")
