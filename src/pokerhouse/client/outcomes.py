"""What a bot's run comes to: each hand played, the run's summary, or why it stopped.

>>> BotStopped("people_only", "this table is for people only").code
'people_only'
>>> RunSummary(hands=3, net=-4, reconnects=0)
RunSummary(hands=3, net=-4, reconnects=0)
"""

from __future__ import annotations

from dataclasses import dataclass

from pokerhouse.errors import PokerError


class BotStopped(PokerError):
    """The runner stopped because the room refused it for good; ``code`` says why."""

    default_code = "bot_stopped"


@dataclass(frozen=True, slots=True)
class HandPlayed:
    """A hand the runner's seat was dealt in: its ``number``, the ``seat``, its ``net``
    and the ``stack`` after it."""

    table: int
    number: int
    seat: int
    net: int
    stack: int


@dataclass(frozen=True, slots=True)
class RunSummary:
    """What a run came to: ``hands`` played, their ``net`` and the ``reconnects`` made."""

    hands: int
    net: int
    reconnects: int
