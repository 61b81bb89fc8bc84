"""The commands a table takes: everything a caller can ask of it, as typed values.

:meth:`~pokerhouse.table.Table.apply` is the table's one door: it takes one
of these and returns exactly the events it caused, each with the table's
gapless sequence number (a :class:`Logged`). Seats are always table seats.

>>> from pokerhouse.engine import Action
>>> Act(seat=2, action=Action.call(), hand=14)
Act(seat=2, action=Action(kind=<ActionKind.CALL: 'call'>, amount=None), hand=14)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from pokerhouse.cards import Deck
from pokerhouse.engine.actions import Action
from pokerhouse.engine.events import Event, renumber


@dataclass(frozen=True, slots=True)
class Sit:
    """Seat ``player`` at ``seat`` with ``buy_in`` chips; dealt in from the next hand."""

    seat: int
    player: str
    buy_in: int


@dataclass(frozen=True, slots=True)
class SitTogether:
    """Seat several players at once, as at a tournament start: ``(seat, player, buy_in)``.

    At a table without a button, the seat draw decides who deals first.
    """

    players: tuple[tuple[int, str, int], ...]

    def __post_init__(self) -> None:
        # Any iterable of entries will do; kept as a tuple so the command stays a value.
        object.__setattr__(self, "players", tuple(self.players))


@dataclass(frozen=True, slots=True)
class Leave:
    """Stand the player at ``seat`` up: at once between hands, at the end of a hand they play."""

    seat: int


@dataclass(frozen=True, slots=True)
class AddChips:
    """Add ``amount`` chips to ``seat``'s stack between hands (within the buy-in limits)."""

    seat: int
    amount: int


@dataclass(frozen=True, slots=True)
class SitOut:
    """Stop dealing ``seat`` in, from the next hand."""

    seat: int


@dataclass(frozen=True, slots=True)
class SitIn:
    """Deal ``seat`` in again, from the next hand."""

    seat: int


@dataclass(frozen=True, slots=True)
class SetWager:
    """A box's bets for the next rounds at a banked game: the ante (0: sit the round out)
    and the side bonus."""

    seat: int
    ante: int
    bonus: int = 0


@dataclass(frozen=True, slots=True)
class StartHand:
    """Deal the next hand to the seats that play; ``deck`` overrides the shuffled one.

    A room resuming a stored hand names its ``seats`` (table seats in hand
    order, the button last) and its ``setup`` (the hand's own keyword
    arguments, such as Casino Hold'em's antes), so the hand is dealt exactly
    as it was.
    """

    deck: Deck | None = field(default=None, compare=False)
    seats: tuple[int, ...] | None = None
    setup: tuple[tuple[str, object], ...] | None = None


@dataclass(frozen=True, slots=True)
class VoidHand:
    """Call the running hand off (its stored log cannot be carried on): every chip back."""

    reason: str


@dataclass(frozen=True, slots=True)
class Act:
    """Seat ``seat`` takes ``action`` in the running hand.

    ``hand``, if given, must be the running hand's number: an action meant for
    an earlier hand is refused (``stale_hand``) instead of landing in this one.
    """

    seat: int
    action: Action
    hand: int | None = None


@dataclass(frozen=True, slots=True)
class Timeout:
    """``seat``'s clock ran out: the table acts for it (check if free, else fold)."""

    seat: int
    hand: int | None = None


#: Everything :meth:`~pokerhouse.table.Table.apply` accepts.
Command = (
    Sit
    | SitTogether
    | Leave
    | AddChips
    | SitOut
    | SitIn
    | SetWager
    | StartHand
    | Act
    | Timeout
    | VoidHand
)


class Logged:
    """One event of a table's stream, with its sequence number (1, 2, 3... no gaps).

    A hand's event is put into table seat numbers when first read: a caller
    that never looks at an event (a simulation) never pays for renumbering it.

    >>> from pokerhouse.engine.events import BetReturned
    >>> logged = Logged(7, BetReturned(seat=0, amount=5), seats=(3, 5))
    >>> logged.seq, logged.event
    (7, BetReturned(seat=3, amount=5))
    """

    __slots__ = ("_event", "_seats", "seq")

    def __init__(self, seq: int, event: Event, seats: Sequence[int] | None = None) -> None:
        self.seq = seq
        self._event = event
        self._seats = seats

    @property
    def event(self) -> Event:
        """The event, in table seat numbers."""
        if self._seats is not None:
            self._event = renumber(self._event, self._seats)
            self._seats = None
        return self._event

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Logged):
            return NotImplemented
        return self.seq == other.seq and self.event == other.event

    def __hash__(self) -> int:
        return hash((self.seq, self.event))

    def __repr__(self) -> str:
        return f"Logged(seq={self.seq}, event={self.event!r})"
