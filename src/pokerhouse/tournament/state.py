"""A tournament's state: plain data the director changes and a store keeps as JSON.

Everything the director decides from is here, so a tournament moves between
processes (or survives one's end) as :func:`dump` and :func:`load`.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import msgspec

#: A tournament's life: registering, running (breaks included), finished, cancelled.
REGISTERING, RUNNING, FINISHED, CANCELLED = "registering", "running", "finished", "cancelled"


@dataclass(slots=True)
class TournamentEntry:
    """One buy-in: who, the chips, where it sits, and how it finished.

    ``table`` and ``seat`` are where the entry sits, or the seat kept for it
    at the table it moves to (``seated`` false until that table is between
    hands). ``out`` numbers the eliminations (1: first out); ``place`` is
    set once final.
    """

    number: int
    player: str
    account: int
    stack: int
    table: int | None = None
    seat: int | None = None
    seated: bool = False
    busted: bool = False
    out: int | None = None
    place: int | None = None
    tied: int = 1
    prize: int = 0
    refunded: bool = False
    #: Who plays the account (see :class:`~pokerhouse.tournament.orders.Register`; 0: not
    #: told).
    person: int = 0


@dataclass(slots=True)
class TableState:
    """One of the tournament's tables: who sits where, and whether a hand is running."""

    number: int
    seats: dict[int, int] = field(default_factory=dict)
    playing: bool = False
    opened: bool = False
    hands: int = 0
    hands_in_level: int = 0
    button: int | None = None
    #: The level its last hand was dealt at, and whether that hand was a hand-for-hand one.
    level: int = 0
    hand_for_hand: bool = False
    #: In hand for hand, the round this table last dealt.
    round: int = 0


@dataclass(slots=True)
class Elimination:
    """Entries out in one hand (or one hand-for-hand round) that tie with each other."""

    entries: list[int]


@dataclass(slots=True)
class State:
    """The whole tournament: status, entries, tables, the clock, who is out and how."""

    status: str = REGISTERING
    seed: int = 0
    draws: int = 0
    entries: list[TournamentEntry] = field(default_factory=list)
    next_entry: int = 1
    tables: dict[int, TableState] = field(default_factory=dict)
    next_table: int = 1
    #: The runner's time at the last input, and the tournament's own clock (breaks and
    #: time down not counted for levels; seconds of play).
    now: float = 0.0
    played: float = 0.0
    level: int = 0
    level_left: float = 0.0
    break_left: float | None = None
    registration_open: bool = True
    #: The pool and prizes, fixed when registration closes.
    pool: int = 0
    prizes: list[int] = field(default_factory=list)
    #: Eliminations in order (first out first), each a group that ties.
    outs: list[Elimination] = field(default_factory=list)
    #: How many of :attr:`outs` have their places (a prefix: places are final in order).
    placed: int = 0
    hand_for_hand: bool = False
    round: int = 0
    #: Entries out in the hand-for-hand round being played, by table (best first at each).
    round_outs: dict[int, list[list[int]]] = field(default_factory=dict)
    breaking: int | None = None
    hands: int = 0
    moves: int = 0
    broken: int = 0


def dump(state: State) -> bytes:
    """The state as JSON."""
    return msgspec.json.encode(state)


def load(data: bytes | str) -> State:
    """A state from :func:`dump`'s JSON (raises ``msgspec.ValidationError`` on bad data)."""
    return msgspec.json.decode(data, type=State)
