"""``pokerhouse accounts``: players' and bot accounts, and bots' tokens.

- ``create NAME``: a player's account, with the sign-up grant. The password
  is asked for twice at a terminal, or read from the first line of standard
  input with ``--password-stdin`` (for scripts).
- ``create NAME --bot [--owner PLAYER]``: a bot account (its name ends in
  ``_bot``), played through the API with the token printed once.
- ``token NAME``: a new token for a bot account (every earlier one ends).
- ``revoke NAME``: every token of a bot account ends.
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
    create.add_argument(
        "--bot",
        action="store_true",
        help="a bot account, played with an API token (printed once); its name ends in _bot",
    )
    create.add_argument("--owner", help="with --bot: the player who owns the bot account")
    add_url_option(create)
    create.set_defaults(handler=run_create)
    token = actions.add_parser(
        "token",
        help="a new API token for a bot account (the old ones end)",
        description="Print a new API token for a bot account; every earlier token ends. "
        "A running room refuses an ended token at its next handshake or request and closes "
        "its open sockets within seconds (POST /api/bots/NAME/token closes them at once).",
    )
    token.add_argument("name", help="the bot account")
    add_url_option(token)
    token.set_defaults(handler=run_token)
    revoke = actions.add_parser(
        "revoke",
        help="end every API token of a bot account",
        description="End every API token of a bot account. A running room refuses them at "
        "their next handshake or request and closes their open sockets within seconds "
        "(POST /api/bots/NAME/revoke closes them at once).",
    )
    revoke.add_argument("name", help="the bot account")
    add_url_option(revoke)
    revoke.set_defaults(handler=run_revoke)


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
    """Create the account and print it (a bot account's token too, this once)."""
    if args.owner is not None and not args.bot:
        raise AccountError("bad_owner", "--owner names a bot account's owner: add --bot")
    if args.bot and args.password_stdin:
        raise AccountError("bad_password", "a bot account has no password: it plays with a token")
    password = None if args.bot else read_password(args.password_stdin)

    async def create() -> str:
        async with await Store.open(args.database_url) as store:
            if not args.bot:
                user = await store.users.create(args.name, password, grant=args.grant)
                return f"created player {user.username} (user {user.id}) with {args.grant:,} chips"
            owner = None if args.owner is None else await store.users.get(args.owner)
            bot, token = await store.bots.create(args.name, owner=owner, grant=args.grant)
        return (
            f"created bot {bot.username} (user {bot.id}) with {args.grant:,} chips\n"
            f"token (shown once): {token}"
        )

    print(asyncio.run(create()))
    return 0


def run_token(args: argparse.Namespace) -> int:
    """Print a new token for the bot account."""

    async def renew() -> str:
        async with await Store.open(args.database_url) as store:
            bot, token, ended = await store.bots.new_token(args.name)
        return f"new token for {bot.username} ({len(ended)} ended; shown once): {token}"

    print(asyncio.run(renew()))
    return 0


def run_revoke(args: argparse.Namespace) -> int:
    """End every token of the bot account."""

    async def revoke() -> int:
        async with await Store.open(args.database_url) as store:
            return len(await store.bots.revoke(args.name))

    ended = asyncio.run(revoke())
    print(f"{args.name}: {ended} token{'' if ended == 1 else 's'} ended")
    return 0
