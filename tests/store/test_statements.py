"""Every statement of the store is checked against the real schema of both databases.

The store writes its SQL by hand and runs it on the drivers directly; the
schema is SQLAlchemy's (``store/schema.py``) and the migrations build it.
Preparing each statement on a migrated database makes the database itself
check every table and column it names, on SQLite and on PostgreSQL.
"""

from __future__ import annotations

import importlib
import pkgutil
import sqlite3

import asyncpg
import pytest
from sqlalchemy.engine import make_url

import pokerhouse.store
from pokerhouse.store.sql import STATEMENTS, Stmt


def all_statements() -> list[Stmt]:
    """Every ``Stmt`` the store's modules define (each is made at import)."""
    for module in pkgutil.iter_modules(pokerhouse.store.__path__):
        if module.name != "migrations":
            importlib.import_module(f"pokerhouse.store.{module.name}")
    return list(STATEMENTS)


def test_the_store_defines_its_statements() -> None:
    # Dozens of statements: the registry sees them all (not an empty loop below).
    assert len(all_statements()) > 50


async def test_every_statement_prepares_on_the_migrated_schema(db_url: str) -> None:
    statements = all_statements()
    if db_url.startswith("sqlite"):
        conn = sqlite3.connect(db_url.removeprefix("sqlite:///"))
        try:
            for stmt in statements:
                if stmt.only == "postgresql":
                    continue
                sql, names = stmt.sqlite
                try:
                    # EXPLAIN compiles the statement: an unknown table or column fails here.
                    conn.execute(f"EXPLAIN {sql}", [None] * len(names))
                except sqlite3.Error as error:
                    pytest.fail(f"{stmt!r} does not prepare on SQLite: {error}")
        finally:
            conn.close()
        return
    dsn = make_url(db_url).set(drivername="postgresql").render_as_string(hide_password=False)
    conn = await asyncpg.connect(dsn)
    try:
        for stmt in statements:
            try:
                await conn.prepare(stmt.postgresql[0])
            except asyncpg.PostgresError as error:
                pytest.fail(f"{stmt!r} does not prepare on PostgreSQL: {error}")
    finally:
        await conn.close()
