"""Typed errors, each with a stable machine-readable ``code``.

Every error the library raises on bad input derives from :class:`PokerError`,
so a caller (the server, the terminal, a bot harness) can catch one class and
show ``error.code`` and ``str(error)`` to the user.

>>> try:
...     raise IllegalAction("amount_too_small", "bet of 5 is below the minimum of 10")
... except PokerError as error:
...     print(error.code, "-", error)
amount_too_small - bet of 5 is below the minimum of 10
"""

from __future__ import annotations


class PokerError(Exception):
    """Base class of every error raised on bad input.

    ``code`` is a short, stable identifier (``"out_of_turn"``); the message
    says what was wrong in words.
    """

    default_code = "poker_error"

    def __init__(self, code: str | None = None, message: str = "") -> None:
        self.code = code or self.default_code
        super().__init__(message or self.code)


class InvalidCards(PokerError, ValueError):
    """Card text that does not parse, duplicate cards or a wrong card count."""

    default_code = "invalid_cards"


class InvalidAction(PokerError, ValueError):
    """An action that is malformed whatever the state (unknown kind, bad amount type)."""

    default_code = "invalid_action"


class IllegalAction(PokerError):
    """A well-formed action the rules do not allow at this point of the hand."""

    default_code = "illegal_action"


class OutOfTurn(IllegalAction):
    """An action from a seat that is not the one to act."""

    default_code = "out_of_turn"


class InvalidSpec(PokerError, ValueError):
    """A game specification or table setting that breaks the rules."""

    default_code = "invalid_spec"


class HistoryError(PokerError, ValueError):
    """A hand history that is malformed, truncated or does not replay."""

    default_code = "invalid_history"


class EngineFault(PokerError):
    """The engine failed inside an action it had accepted: the hand is broken.

    Not the caller's fault: the hand refuses every later action with this
    error, and a table voids it (every chip back to where it was).
    """

    default_code = "engine_fault"
