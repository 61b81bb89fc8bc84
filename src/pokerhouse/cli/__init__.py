"""The ``pokerhouse`` command.

Each sub-command lives in its own module under :mod:`pokerhouse.cli` and
exposes ``register(subparsers)``; :data:`COMMAND_MODULES` lists them in the
order ``--help`` shows them.

Exit statuses: 0 done; 2 bad input (``pokerhouse: error: <message> [<code>]``
on stderr, and argparse's usage errors); 130 interrupted (Ctrl-C);
:data:`EXIT_BROKEN_PIPE` (141) when the reader of the output went away
(``pokerhouse hand ... | head -c 1``): the command stops quietly, as a Unix
tool killed by ``SIGPIPE`` does, for which a shell reports 128 + 13.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Sequence

from pokerhouse.errors import PokerError

COMMAND_MODULES: tuple[str, ...] = (
    "serve",
    "demo",
    "play",
    "simulate",
    "arena",
    "bot",
    "tournament",
    "hand",
    "replay",
    "advise",
    "analyze",
    "db",
    "tables",
    "accounts",
    "ledger",
)

#: The exit status when stdout's reader has gone: 128 + SIGPIPE, as a shell reports for Unix tools.
EXIT_BROKEN_PIPE = 141


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
        # Output still buffered would otherwise meet a closed pipe at exit, out of our hands.
        sys.stdout.flush()
    except BrokenPipeError:
        _discard_stdout()
        return EXIT_BROKEN_PIPE
    except PokerError as error:
        print(f"pokerhouse: error: {error} [{error.code}]", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    return status


def _discard_stdout() -> None:
    """Point stdout at the null device, so the interpreter's last flush cannot fail again."""
    try:
        descriptor = sys.stdout.fileno()
    except (AttributeError, OSError, ValueError):
        return  # not a real file (a test's capture): nothing is flushed at exit
    null = os.open(os.devnull, os.O_WRONLY)
    os.dup2(null, descriptor)
    os.close(null)


if __name__ == "__main__":
    raise SystemExit(main())
