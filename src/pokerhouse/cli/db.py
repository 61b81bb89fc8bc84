"""``pokerhouse db upgrade``: bring the room's database to this version's schema.

SQLite files are migrated on first use anyway; a PostgreSQL database is
migrated only by this command (the room refuses to start on an older one).
``pokerhouse db status`` says which revision a database is at.
"""

from __future__ import annotations

import argparse
import asyncio
from typing import Any

from pokerhouse.store.migrate import current_revision, head_revision, upgrade
from pokerhouse.store.urls import ENV_VAR, database_url, parse_url, redacted


def add_url_option(parser: argparse.ArgumentParser) -> None:
    """The ``--database-url`` option every store command takes."""
    parser.add_argument(
        "--database-url",
        metavar="URL",
        help=f"the room's database (default: ${ENV_VAR}, else sqlite:///var/pokerhouse.db); "
        "e.g. sqlite:///var/room.db or postgresql://user@host/db",
    )


def register(subparsers: Any) -> None:
    """Add the ``db`` command."""
    parser = subparsers.add_parser(
        "db",
        help="migrate or inspect the room's database",
        description="Apply the schema migrations that ship with pokerhouse, or show the revision.",
    )
    actions = parser.add_subparsers(dest="db_command", metavar="ACTION")
    actions.required = True
    up = actions.add_parser("upgrade", help="apply every migration the database lacks")
    add_url_option(up)
    up.set_defaults(handler=run_upgrade)
    status = actions.add_parser("status", help="show the database's schema revision")
    add_url_option(status)
    status.set_defaults(handler=run_status)


def run_upgrade(args: argparse.Namespace) -> int:
    """Migrate to the newest revision."""
    url = parse_url(database_url(args.database_url))
    before, after = asyncio.run(upgrade(url))
    if before == after:
        print(f"{redacted(url)}: already at revision {after}")
    else:
        print(f"{redacted(url)}: upgraded from {before or 'an empty database'} to revision {after}")
    return 0


def run_status(args: argparse.Namespace) -> int:
    """Print the revision; exit 1 if it is not the newest."""
    url = parse_url(database_url(args.database_url))
    revision = asyncio.run(current_revision(url))
    head = head_revision()
    state = "current" if revision == head else f"needs `pokerhouse db upgrade` to {head}"
    print(f"{redacted(url)}: revision {revision or 'none'} ({state})")
    return 0 if revision == head else 1
