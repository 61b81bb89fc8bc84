"""The words of a terminal session: what quits, asks for help, a hint or the pay tables.

:class:`Prompts` reads one line from the player (quitting on ``q``, end of
input or Ctrl-C, as :class:`Quit`) and prints why an entry was refused;
:func:`plural` and :func:`times` put counts into words.
"""

from __future__ import annotations

from collections.abc import Callable

from rich.console import Console
from rich.markup import escape

from pokerhouse.errors import PokerError

QUIT_WORDS = frozenset({"q", "quit", "exit"})
HELP_WORDS = frozenset({"?", "h", "help"})
HINT_WORDS = frozenset({"hint", "advice", "advise"})
PAYS_WORDS = frozenset({"pays", "p", "paytable", "paytables"})


class Quit(Exception):
    """The player asked to leave (q, end of input or Ctrl-C)."""


def plural(count: int, one: str, many: str | None = None) -> str:
    """``1 hand``, ``2 hands``: a count and its noun.

    >>> plural(1, "hand"), plural(3, "hand"), plural(2, "box", "boxes")
    ('1 hand', '3 hands', '2 boxes')
    """
    return f"{count:,} {one if count == 1 else (many or one + 's')}"


def times(count: int) -> str:
    """``once``, ``twice``, ``3 times``.

    >>> times(1), times(2), times(5)
    ('once', 'twice', '5 times')
    """
    return {1: "once", 2: "twice"}.get(count, f"{count:,} times")


class Prompts:
    """Asking the player and refusing an entry; mixed into the session."""

    console: Console
    read: Callable[[str], str]

    def ask(self, prompt: str) -> str:
        """One line from the player; :class:`Quit` on q, end of input or Ctrl-C."""
        try:
            line = self.read(prompt)
        except (EOFError, KeyboardInterrupt):
            raise Quit from None
        if line.strip().lower() in QUIT_WORDS:
            raise Quit
        return line

    def refuse(self, error: PokerError) -> None:
        """Print why an entry was refused, with its code."""
        self.console.print(f"[red]✗ {escape(str(error))}[/] [dim]({error.code})[/]")
