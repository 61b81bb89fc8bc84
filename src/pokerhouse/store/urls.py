"""Database URLs as people write them, turned into the async drivers' URLs.

The room runs on a SQLite file by default and on PostgreSQL by URL. Whatever
the user typed (``sqlite:///var/room.db``, ``postgresql://user@host/db``,
``postgres://...``, a bare file path) becomes a URL for aiosqlite or asyncpg.

>>> database_url("sqlite:///var/room.db")
'sqlite+aiosqlite:///var/room.db'
>>> database_url("postgres://ann@db.example/room")
'postgresql+asyncpg://ann@db.example/room'
>>> database_url("var/room.db")
'sqlite+aiosqlite:///var/room.db'
>>> database_url(None, environ={})
'sqlite+aiosqlite:///var/pokerhouse.db'
>>> database_url("mysql://x/y")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
pokerhouse.store.errors.DatabaseError: unsupported database URL 'mysql://x/y' ...
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import Final

from sqlalchemy.engine import URL, make_url
from sqlalchemy.exc import ArgumentError

from pokerhouse.store.errors import DatabaseError

#: The environment variable read when no URL is given.
ENV_VAR: Final = "POKERHOUSE_DATABASE_URL"

#: The database used when neither a URL nor the variable is given (relative
#: to the current directory).
DEFAULT_PATH: Final = "var/pokerhouse.db"

_SQLITE = {"sqlite", "sqlite+aiosqlite", "sqlite+pysqlite"}
_POSTGRES = {
    "postgres",
    "postgresql",
    "postgresql+asyncpg",
    "postgresql+psycopg",
    "postgresql+psycopg2",
    "postgresql+psycopg2cffi",
}


def database_url(url: str | None, environ: Mapping[str, str] | None = None) -> str:
    """The async-driver URL for ``url``, the environment's, or the default file."""
    env = os.environ if environ is None else environ
    text = url if url is not None else env.get(ENV_VAR) or f"sqlite:///{DEFAULT_PATH}"
    return parse_url(text).render_as_string(hide_password=False)


def parse_url(text: str) -> URL:
    """``text`` as a SQLAlchemy URL for the async driver, or :class:`DatabaseError`."""
    if not isinstance(text, str) or not text.strip() or any(not c.isprintable() for c in text):
        raise DatabaseError("bad_url", f"a database URL is printable text, not {text!r}")
    text = text.strip()
    if "://" not in text:
        # A bare path: a SQLite file.
        return URL.create("sqlite+aiosqlite", database=text)
    try:
        parsed = make_url(text)
    except ArgumentError:
        raise DatabaseError("bad_url", f"cannot read database URL {text!r}") from None
    scheme = parsed.drivername
    if scheme in _SQLITE:
        if not parsed.database or parsed.database == ":memory:":
            raise DatabaseError(
                "bad_url",
                "an in-memory SQLite database is not shared between connections: name a file",
            )
        return parsed.set(drivername="sqlite+aiosqlite")
    if scheme in _POSTGRES:
        return parsed.set(drivername="postgresql+asyncpg")
    raise DatabaseError(
        "bad_url",
        f"unsupported database URL {text!r} (use sqlite:///path/to/file.db or "
        "postgresql://user@host/database)",
    )


def sqlite_path(url: URL) -> Path:
    """The file of a SQLite URL."""
    assert url.database is not None
    return Path(url.database)


def redacted(url: str | URL) -> str:
    """The URL with any password hidden, for messages."""
    parsed = url if isinstance(url, URL) else make_url(url)
    return parsed.render_as_string(hide_password=True)
