"""``pokerhouse ledger check`` and ``pokerhouse ledger show NAME``.

``check`` verifies every invariant of the books (docs/store.md) in one
snapshot: exit 0 and a one-line summary, or exit 1 naming the first
violation. ``show`` prints a player's wallet statement with the running
balance, and what they hold at tables.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import time
from typing import Any

from pokerhouse.cli.db import add_url_option
from pokerhouse.store import Statement, Store


def register(subparsers: Any) -> None:
    """Add the ``ledger`` command."""
    parser = subparsers.add_parser(
        "ledger",
        help="check the chip ledger, or show a player's statement",
        description="The room's double-entry chip ledger.",
    )
    actions = parser.add_subparsers(dest="ledger_command", metavar="ACTION")
    actions.required = True
    check = actions.add_parser("check", help="verify every invariant (exit 1 on a violation)")
    add_url_option(check)
    check.set_defaults(handler=run_check)
    show = actions.add_parser("show", help="a player's statement with running balance")
    show.add_argument("name", help="the username")
    show.add_argument("--limit", type=int, default=50, help="how many lines, the latest (50)")
    show.add_argument(
        "--before", type=int, default=None, metavar="ENTRY",
        help="the lines older than this entry (an earlier page's 'older')",
    )  # fmt: skip
    show.add_argument("--json", action="store_true", help="print JSON instead of a table")
    add_url_option(show)
    show.set_defaults(handler=run_show)


def run_check(args: argparse.Namespace) -> int:
    """Run ``ledger check``."""

    async def check() -> Any:
        store = await Store.open(args.database_url)
        try:
            return await store.check()
        finally:
            await store.close()

    report = asyncio.run(check())
    print(report.summary())
    return 0 if report.ok else 1


def run_show(args: argparse.Namespace) -> int:
    """Print a statement."""

    async def show() -> Statement:
        store = await Store.open(args.database_url)
        try:
            return await store.ledger.statement(args.name, limit=args.limit, before=args.before)
        finally:
            await store.close()

    statement = asyncio.run(show())
    if args.json:
        print(json.dumps(as_dict(statement), indent=2))
    else:
        print(as_text(statement))
    return 0


def as_dict(statement: Statement) -> dict[str, Any]:
    """A statement as JSON-ready data."""
    return {
        "user_id": statement.user_id,
        "username": statement.username,
        "wallet": statement.wallet,
        "in_play": {str(table): chips for table, chips in statement.in_play.items()},
        "total": statement.total,
        "older": statement.older,
        "lines": [
            {
                "entry": line.entry_id,
                "transaction": line.transaction_id,
                "time": line.created_at,
                "kind": line.kind.value,
                "key": line.key,
                "memo": line.memo,
                "amount": line.amount,
                "balance": line.balance,
            }
            for line in statement.lines
        ],
    }


def as_text(statement: Statement) -> str:
    """A statement as a plain table.

    >>> from pokerhouse.store import StatementLine, TransactionKind
    >>> line = StatementLine(
    ...     1, "grant:user:1", TransactionKind.GRANT, "new account", 0.0, 100, 100, entry_id=1
    ... )
    >>> print(as_text(Statement(1, "ann", (line,), 100, {})))  # doctest: +NORMALIZE_WHITESPACE
    ann (user 1): wallet 100, at tables 0, total 100
    time (UTC)           kind        amount   balance  key
    1970-01-01 00:00:00  grant         +100       100  grant:user:1  new account
    """
    tables = ", ".join(f"table {t}: {chips:,}" for t, chips in statement.in_play.items())
    at_tables = sum(statement.in_play.values())
    lines = [
        f"{statement.username} (user {statement.user_id}): wallet {statement.wallet:,}, "
        f"at tables {at_tables:,}{f' ({tables})' if tables else ''}, total {statement.total:,}",
        f"{'time (UTC)':<20} {'kind':<10} {'amount':>8} {'balance':>9}  key",
    ]
    for line in statement.lines:
        when = time.strftime("%Y-%m-%d %H:%M:%S", time.gmtime(line.created_at))
        memo = f"  {line.memo}" if line.memo else ""
        amounts = f"{line.amount:>+8,} {line.balance:>9,}"
        lines.append(f"{when:<20} {line.kind.value:<10} {amounts}  {line.key}{memo}")
    if statement.older is not None:
        lines.append(f"older lines: --before {statement.older}")
    return "\n".join(lines)
