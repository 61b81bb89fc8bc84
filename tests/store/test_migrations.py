"""Schema revisions: SQLite migrates itself; PostgreSQL waits for ``pokerhouse db upgrade``."""

from __future__ import annotations

from pathlib import Path

import pytest

from pokerhouse.store import DatabaseError, Store
from pokerhouse.store.migrate import current_revision, head_revision, upgrade
from pokerhouse.store.sql import Context, Stmt, Unit, run
from pokerhouse.store.urls import parse_url


async def test_a_new_database_is_refused_until_upgraded(empty_db_url: str) -> None:
    url = parse_url(empty_db_url)
    if url.get_backend_name() == "sqlite":
        # SQLite creates and migrates its file on first use...
        store = await Store.open(empty_db_url)
        await store.close()
        assert await current_revision(url) == head_revision()
        return
    # ...PostgreSQL is refused, with the command to run.
    with pytest.raises(DatabaseError) as caught:
        await Store.open(empty_db_url)
    assert caught.value.code == "schema_outdated"
    assert "pokerhouse db upgrade" in str(caught.value)
    assert await upgrade(url) == (None, head_revision())
    assert await upgrade(url) == (head_revision(), head_revision())
    store = await Store.open(empty_db_url)
    try:
        assert (await store.check()).ok
    finally:
        await store.close()


async def test_an_unmigrated_sqlite_file_is_refused_when_upgrades_are_off(tmp_path: Path) -> None:
    with pytest.raises(DatabaseError) as caught:
        await Store.open(f"sqlite:///{tmp_path / 'room.db'}", upgrade=False)
    assert caught.value.code == "schema_outdated"


async def test_a_newer_revision_than_this_pokerhouse_knows_is_refused(
    store: Store, db_url: str
) -> None:
    def stamp(ctx: Context) -> Unit[None]:
        yield run(Stmt("UPDATE alembic_version SET version_num = '9999'"))

    await store.database.write(stamp)
    for attempt in (Store.open(db_url), upgrade(parse_url(db_url))):
        with pytest.raises(DatabaseError) as caught:
            await attempt
        assert caught.value.code == "schema_newer"

    def unstamp(ctx: Context) -> Unit[None]:
        yield run(Stmt(f"UPDATE alembic_version SET version_num = '{head_revision()}'"))

    await store.database.write(unstamp)


async def test_an_unreachable_server_is_a_coded_error() -> None:
    with pytest.raises(DatabaseError) as caught:
        await Store.open("postgresql://nobody@127.0.0.1:1/none")
    assert caught.value.code == "database_unavailable"


async def test_the_migrations_build_exactly_the_schema(db_url: str) -> None:
    """What the migrations made and ``store/schema.py`` describe are the same tables."""
    from alembic.autogenerate import compare_metadata
    from alembic.runtime.migration import MigrationContext

    from pokerhouse.store.migrate import migration_engine
    from pokerhouse.store.schema import metadata

    engine = migration_engine(parse_url(db_url))
    try:
        async with engine.connect() as connection:
            diffs = await connection.run_sync(
                lambda sync: compare_metadata(
                    MigrationContext.configure(sync, opts={"compare_type": True}), metadata
                )
            )
    finally:
        await engine.dispose()
    assert diffs == []
