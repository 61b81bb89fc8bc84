"""The ``pokerhouse`` command.

Each sub-command lives in its own module under :mod:`pokerhouse.cli` and
exposes ``register(subparsers)``; :data:`COMMAND_MODULES` lists them in the
order ``--help`` shows them.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

from pokerhouse.errors import PokerError

COMMAND_MODULES: tuple[str, ...] = (
    "demo",
    "play",
    "simulate",
    "hand",
    "replay",
    "advise",
    "analyze",
    "db",
    "accounts",
    "ledger",
)


def build_parser() -> argparse.ArgumentParser:
    """The argument parser with every sub-command registered."""
    parser = argparse.ArgumentParser(
        prog="pokerhouse",
        description="A poker room in a box: 3x4 Poker, Razz, Teen Patti and Casino Hold'em.",
    )
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    subparsers.required = True
    for name in COMMAND_MODULES:
        module = importlib.import_module(f"pokerhouse.cli.{name}")
        module.register(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status (2 on bad input)."""
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        status: int = args.handler(args)
    except PokerError as error:
        print(f"pokerhouse: error: {error} [{error.code}]", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    return status


if __name__ == "__main__":
    raise SystemExit(main())
