"""``pokerhouse tables list`` and ``pokerhouse tables chat TABLE on|off``.

``list`` prints the room's tables (id, name, game, seats, house bots, their
kind, whether they chat); ``chat`` turns a table's house bots' chat on or
off. A running room reads the setting when it starts (or when another node
takes the table over); an unknown table is refused with ``unknown_table``
and changes nothing.
"""

from __future__ import annotations

import argparse
import asyncio
from typing import Any

from pokerhouse.cli.db import add_url_option
from pokerhouse.store import Store, TableDef


def register(subparsers: Any) -> None:
    """Add the ``tables`` command."""
    parser = subparsers.add_parser(
        "tables",
        help="list the room's tables, or turn a table's bot chat on or off",
        description="The room's tables.",
    )
    actions = parser.add_subparsers(dest="tables_command", metavar="ACTION")
    actions.required = True
    listed = actions.add_parser("list", help="every table, with its bots and their chat")
    add_url_option(listed)
    listed.set_defaults(handler=run_list)
    chat = actions.add_parser("chat", help="turn a table's house bots' chat on or off")
    chat.add_argument("table", type=int, help="the table's id (see tables list)")
    chat.add_argument("setting", choices=("on", "off"), help="on or off")
    add_url_option(chat)
    chat.set_defaults(handler=run_chat)


def line(table: TableDef) -> str:
    """One table as ``tables list`` prints it."""
    config = table.config
    chat = "chat on" if config.bot_chat else "chat off"
    return (
        f"{table.id:>4}  {config.name}  ({table.game}, {config.seats} seats, "
        f"{config.bots} {config.bot_kind} bots, {chat})"
    )


def run_list(args: argparse.Namespace) -> int:
    """Print every table."""

    async def listed() -> list[TableDef]:
        async with await Store.open(args.database_url) as store:
            return await store.tables.all()

    for table in asyncio.run(listed()):
        print(line(table))
    return 0


def run_chat(args: argparse.Namespace) -> int:
    """Turn one table's bot chat on or off."""

    async def change() -> TableDef:
        async with await Store.open(args.database_url) as store:
            return await store.tables.set_bot_chat(args.table, args.setting == "on")

    print(line(asyncio.run(change())))
    print("a running room reads it when it starts (or another node takes the table over)")
    return 0
