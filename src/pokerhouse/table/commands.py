"""The commands a table takes: everything a caller can ask of it, as typed values.

:meth:`~pokerhouse.table.Table.apply` is the table's one door: it takes one
of these and returns a step: exactly the events it caused, each with the
table's gapless sequence number, and the records a room stores. Commands
are plain data (a deck is its order of cards, never a live deck). Seats are
always table seats.

>>> from pokerhouse.engine import Action
>>> Act(seat=2, action=Action.call(), hand=14, client_id="ann-7")
Act(seat=2, action=Action(kind=<ActionKind.CALL: 'call'>, amount=None), hand=14, client_id='ann-7')
"""

from __future__ import annotations

from dataclasses import dataclass

from pokerhouse.cards import Card
from pokerhouse.engine.actions import Action
from pokerhouse.engine.frozen import quick_init


@quick_init
@dataclass(frozen=True, slots=True)
class Sit:
    """Seat ``player`` at ``seat`` with ``buy_in`` chips; dealt in from the next hand.

    ``account`` is the caller's id for whoever sits (a room's user id; 0:
    none): the table's records name it, and an event only some seats may
    read is read by the accounts that held those seats when it happened.
    """

    seat: int
    player: str
    buy_in: int
    account: int = 0


@quick_init
@dataclass(frozen=True, slots=True)
class SitTogether:
    """Seat several players at once, as at a tournament start: ``(seat, player, buy_in)``
    entries, or ``(seat, player, buy_in, account)``.

    At a table without a button, the seat draw decides who deals first.
    """

    players: tuple[tuple[int, str, int] | tuple[int, str, int, int], ...]

    def __post_init__(self) -> None:
        # Any iterable of entries will do; kept as a tuple so the command stays a value.
        object.__setattr__(self, "players", tuple(self.players))


@quick_init
@dataclass(frozen=True, slots=True)
class Leave:
    """Stand the player at ``seat`` up: at once between hands, at the end of a hand they play."""

    seat: int


@quick_init
@dataclass(frozen=True, slots=True)
class AddChips:
    """Add ``amount`` chips to ``seat``'s stack between hands (within the buy-in limits)."""

    seat: int
    amount: int


@quick_init
@dataclass(frozen=True, slots=True)
class SitOut:
    """Stop dealing ``seat`` in, from the next hand."""

    seat: int


@quick_init
@dataclass(frozen=True, slots=True)
class SitIn:
    """Deal ``seat`` in again, from the next hand."""

    seat: int


@quick_init
@dataclass(frozen=True, slots=True)
class SetWager:
    """A box's bets for the next rounds at a banked game: the ante (0: sit the round out)
    and the side bonus."""

    seat: int
    ante: int
    bonus: int = 0


@quick_init
@dataclass(frozen=True, slots=True)
class SetStakes:
    """Change the game's amounts from the next hand (a tournament's new level).

    ``stakes`` are ``(field, value)`` pairs of the game's spec (for Razz:
    ``("ante", 2), ("bring_in", 3), ("small_bet", 10), ("big_bet", 20)``);
    fields not named keep their values. Only between hands.
    """

    stakes: tuple[tuple[str, int], ...]

    def __post_init__(self) -> None:
        # A mapping or any iterable of pairs will do; kept as a tuple so the command stays a value.
        pairs = self.stakes.items() if isinstance(self.stakes, dict) else self.stakes
        object.__setattr__(self, "stakes", tuple(tuple(pair) for pair in pairs))


@quick_init
@dataclass(frozen=True, slots=True)
class StartHand:
    """Deal the next hand to the seats that play.

    ``order`` is the deck, all 52 cards top first (default: shuffled by the
    table's RNG), and ``seed`` seeds any later reshuffle of it (Razz's short
    seventh street; default: a hash of the order); the hand's record keeps
    both, so it can be dealt again exactly. A room resuming a stored
    hand also names its ``seats`` (table seats in hand order, the button
    last) and its ``setup`` (the hand's own keyword arguments, such as Casino
    Hold'em's antes).
    """

    order: tuple[Card, ...] | None = None
    seed: int | None = None
    seats: tuple[int, ...] | None = None
    setup: tuple[tuple[str, object], ...] | None = None


@quick_init
@dataclass(frozen=True, slots=True)
class VoidHand:
    """Call the running hand off (its stored log cannot be carried on): every chip back.

    With no hand running, ``number`` names a stored hand that could not even
    be dealt again: it is voided all the same, and its number stays used.
    """

    reason: str
    number: int | None = None


@quick_init
@dataclass(frozen=True, slots=True)
class Act:
    """Seat ``seat`` takes ``action`` in the running hand.

    ``hand``, if given, must be the running hand's number: an action meant for
    an earlier hand is refused (``stale_hand``) instead of landing in this one.
    ``client_id`` is the caller's own id for the action, kept in its record.
    """

    seat: int
    action: Action
    hand: int | None = None
    client_id: str | None = None


@quick_init
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
    | SetStakes
    | StartHand
    | Act
    | Timeout
    | VoidHand
)
