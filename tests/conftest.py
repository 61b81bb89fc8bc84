"""Fixtures shared by the room's tests: a fresh database per test, on SQLite and PostgreSQL.

``db_url`` is parametrised: ``sqlite`` (a fresh file per test, copied from a
database migrated once) and ``postgresql`` (a fresh database per test, made
from a migrated template database and dropped afterwards). The PostgreSQL
run needs ``POKERHOUSE_TEST_DATABASE_URL`` (a server and a database to connect
to, e.g. ``postgresql://postgres@127.0.0.1:5432/test``); without it, or with an
unreachable server, those tests are skipped, except on CI (``CI=true``) where
that is a failure.

After every test that used a database, ``ledger check`` runs on it and must
pass (the autouse fixture :func:`ledger_invariants`).
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import os
import secrets
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import asyncpg
import pytest
from argon2 import PasswordHasher
from hypothesis import settings
from sqlalchemy.engine import make_url

from pokerhouse.store import CheckReport, Store
from pokerhouse.store.migrate import upgrade
from pokerhouse.store.urls import parse_url

ENV = "POKERHOUSE_TEST_DATABASE_URL"

#: Cheap argon2 parameters: the tests create hundreds of users.
FAST_HASHER = PasswordHasher(time_cost=1, memory_cost=256, parallelism=1)

_PG_SKIP: list[str] = []

# Hypothesis fails an example that takes over 200 ms, which a busy machine makes of any
# example; the tests' own assertions say what is wrong, not how long it took.
settings.register_profile("pokerhouse", deadline=None)
settings.load_profile("pokerhouse")


def _run(coroutine: Any) -> Any:
    """``asyncio.run``, or in a thread when this one already runs a loop (sync Playwright does)."""
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return asyncio.run(coroutine)
    with concurrent.futures.ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(asyncio.run, coroutine).result()


def _on_ci() -> bool:
    return os.environ.get("CI", "").lower() == "true"


# ---------------------------------------------------------------- PostgreSQL


def _admin_dsn(url: str) -> str:
    parsed = make_url(url).set(drivername="postgresql")
    return parsed.render_as_string(hide_password=False)


async def _pg_execute(dsn: str, *statements: str) -> None:
    conn = await asyncpg.connect(dsn, timeout=30)  # a loaded machine connects slowly
    try:
        for statement in statements:
            await conn.execute(statement)
    finally:
        await conn.close()


def _with_database(url: str, name: str) -> str:
    return make_url(url).set(database=name).render_as_string(hide_password=False)


@pytest.fixture(scope="session")
def pg_template() -> Iterator[str]:
    """A migrated PostgreSQL database to copy (dropped at the end of the session)."""
    url = os.environ.get(ENV)
    if not url:
        reason = f"{ENV} is not set: the PostgreSQL run of the store tests is skipped"
        if _on_ci():
            pytest.fail(f"CI=true but {ENV} is not set")
        _PG_SKIP.append(reason)
        pytest.skip(reason)
    name = f"ph_tpl_{secrets.token_hex(4)}"
    admin = _admin_dsn(url)
    try:
        asyncio.run(_pg_execute(admin, f"CREATE DATABASE {name}"))
    except (TimeoutError, OSError, asyncpg.PostgresError) as error:
        reason = f"PostgreSQL at {make_url(url).render_as_string()} is unreachable ({error})"
        if _on_ci():
            pytest.fail(f"CI=true: {reason}")
        _PG_SKIP.append(reason)
        pytest.skip(reason)
    template = _with_database(url, name)
    asyncio.run(upgrade(parse_url(template)))
    yield template
    asyncio.run(_pg_execute(admin, f"DROP DATABASE IF EXISTS {name} WITH (FORCE)"))


# ---------------------------------------------------------------- SQLite


@pytest.fixture(scope="session")
def sqlite_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A migrated SQLite file to copy."""
    path = tmp_path_factory.mktemp("store-template") / "template.db"
    _run(upgrade(parse_url(f"sqlite:///{path}")))
    return path


# ---------------------------------------------------------------- per test


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A fresh, migrated database for this test: its URL."""
    if request.param == "sqlite":
        path = tmp_path / "room.db"
        shutil.copy(request.getfixturevalue("sqlite_template"), path)
        yield f"sqlite:///{path}"
        return
    yield from _fresh_pg(request.getfixturevalue("pg_template"), migrated=True)


@pytest.fixture(params=["sqlite", "postgresql"])
def empty_db_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A database with nothing in it (no schema): its URL."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'new' / 'room.db'}"
        return
    yield from _fresh_pg(request.getfixturevalue("pg_template"), migrated=False)


def _fresh_pg(template: str, *, migrated: bool) -> Iterator[str]:
    """A new database, a copy of the migrated template or empty, dropped afterwards."""
    name = f"ph_test_{secrets.token_hex(6)}"
    admin = _admin_dsn(template)
    copy = f" TEMPLATE {make_url(template).database}" if migrated else ""
    asyncio.run(_pg_execute(admin, f"CREATE DATABASE {name}{copy}"))
    try:
        yield _with_database(template, name)
    finally:
        asyncio.run(_pg_execute(admin, f"DROP DATABASE IF EXISTS {name} WITH (FORCE)"))


@pytest.fixture(autouse=True)
def ledger_invariants(request: pytest.FixtureRequest) -> Iterator[None]:
    """After each test that used a database: ``ledger check`` passes on it."""
    url = request.getfixturevalue("db_url") if "db_url" in request.fixturenames else None
    yield
    # Tests of ledger check itself break the books on purpose.
    if url is not None and request.node.get_closest_marker("breaks_ledger") is None:
        report = _run(check(url))
        assert report.ok, report.summary()


async def check(url: str) -> CheckReport:
    """``ledger check`` on the database at ``url``, from a store of its own."""
    checker = await Store.open(url, upgrade=False)
    try:
        return await checker.check()
    finally:
        await checker.close()


def pytest_terminal_summary(terminalreporter: Any) -> None:
    """Say plainly when the PostgreSQL run was skipped."""
    if _PG_SKIP:
        terminalreporter.write_line(f"store: {_PG_SKIP[0]}", yellow=True)


# ---------------------------------------------------------------- Redis

REDIS_ENV = "POKERHOUSE_TEST_REDIS_URL"


@pytest.fixture
def redis_bus() -> Iterator[tuple[str, str]]:
    """Redis for a room's bus, and a key prefix of this test's own (its keys are deleted
    afterwards). Without ``POKERHOUSE_TEST_REDIS_URL`` (e.g. ``redis://127.0.0.1:6379/0``) or
    with an unreachable server the test is skipped, except on CI where that fails it."""
    import redis

    url = os.environ.get(REDIS_ENV)
    if not url:
        if _on_ci():
            pytest.fail(f"CI=true but {REDIS_ENV} is not set")
        pytest.skip(f"{REDIS_ENV} is not set: the tests of several nodes are skipped")
    client = redis.Redis.from_url(url, socket_timeout=10)
    try:
        client.ping()
    except (redis.RedisError, OSError) as error:
        client.close()
        if _on_ci():
            pytest.fail(f"CI=true: Redis at {url} is unreachable ({error})")
        pytest.skip(f"Redis at {url} is unreachable ({error})")
    prefix = f"ph-test-{secrets.token_hex(6)}"
    try:
        yield url, prefix
    finally:
        keys = list(client.scan_iter(match=f"{prefix}:*"))
        if keys:
            client.delete(*keys)
        client.close()
