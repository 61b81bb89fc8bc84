"""``pokerhouse accounts create NAME``: a player's account, with the sign-up grant.

The password is asked for twice at a terminal, or read from the first line
of standard input with ``--password-stdin`` (for scripts).
"""

from __future__ import annotations

import argparse
import asyncio
import getpass
import sys
from typing import Any

from pokerhouse.cli.db import add_url_option
from pokerhouse.store import AccountError, Store


def register(subparsers: Any) -> None:
    """Add the ``accounts`` command."""
    parser = subparsers.add_parser(
        "accounts",
        help="create players' accounts",
        description="Manage the room's player accounts.",
    )
    actions = parser.add_subparsers(dest="accounts_command", metavar="ACTION")
    actions.required = True
    create = actions.add_parser(
        "create",
        help="create an account (a wallet with the sign-up grant)",
        description="Create an account. Usernames are 3 to 20 letters, digits, _ or -, "
        "unique whatever their case.",
    )
    create.add_argument("name", help="the username")
    create.add_argument(
        "--password-stdin", action="store_true", help="read the password from standard input"
    )
    create.add_argument(
        "--grant", type=int, default=10_000, help="chips granted to the new wallet (10000)"
    )
    create.add_argument("--bot", action="store_true", help="a bot's account (no password)")
    add_url_option(create)
    create.set_defaults(handler=run_create)


def read_password(from_stdin: bool) -> str:
    """The new password: one line of stdin, or asked twice at the terminal."""
    if from_stdin:
        line = sys.stdin.readline()
        if not line:
            raise AccountError("bad_password", "no password on standard input")
        return line.rstrip("\r\n")
    if not sys.stdin.isatty():
        raise AccountError(
            "no_terminal", "no terminal to ask for the password: use --password-stdin"
        )
    first = getpass.getpass("Password: ")
    if getpass.getpass("Password again: ") != first:
        raise AccountError("bad_password", "the two passwords differ")
    return first


def run_create(args: argparse.Namespace) -> int:
    """Create the account and print it."""
    password = None if args.bot and not args.password_stdin else read_password(args.password_stdin)

    async def create() -> str:
        store = await Store.open(args.database_url)
        try:
            user = await store.create_user(args.name, password, bot=args.bot, grant=args.grant)
        finally:
            await store.close()
        what = "bot" if user.is_bot else "player"
        return f"created {what} {user.username} (user {user.id}) with {args.grant:,} chips"

    print(asyncio.run(create()))
    return 0
