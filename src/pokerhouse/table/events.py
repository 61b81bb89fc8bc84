"""Table events: what happens between and around hands (seating, button, chips).

They are public (everybody at a table sees who sits where, the seat-draw
cards and the button) and serialise like hand events.

>>> from pokerhouse.cards import Card
>>> from pokerhouse.engine.events import event_from_dict, event_to_dict
>>> drawn = SeatDrawCard(seat=4, player="Ann", card=Card.parse("Kh"))
>>> event_to_dict(drawn)
{'type': 'seat_draw_card', 'seat': 4, 'player': 'Ann', 'card': 'Kh'}
>>> event_from_dict(event_to_dict(drawn)) == drawn
True
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from pokerhouse.cards import Card
from pokerhouse.engine.actions import Action
from pokerhouse.engine.events import Event, register_event


@register_event
@dataclass(frozen=True, slots=True)
class PlayerSat(Event):
    """A player takes a seat with ``chips`` (their buy-in)."""

    type_name: ClassVar[str] = "player_sat"
    seat: int
    player: str
    chips: int


@register_event
@dataclass(frozen=True, slots=True)
class PlayerLeft(Event):
    """A player stands up and takes ``chips`` away."""

    type_name: ClassVar[str] = "player_left"
    seat: int
    player: str
    chips: int


@register_event
@dataclass(frozen=True, slots=True)
class ChipsAdded(Event):
    """A rebuy or top-up between hands: ``amount`` added, ``stack`` after."""

    type_name: ClassVar[str] = "chips_added"
    seat: int
    player: str
    amount: int
    stack: int


@register_event
@dataclass(frozen=True, slots=True)
class PlayerBusted(Event):
    """A player has no chips left: dealt no hand until a rebuy."""

    type_name: ClassVar[str] = "player_busted"
    seat: int
    player: str


@register_event
@dataclass(frozen=True, slots=True)
class PlayerLeaving(Event):
    """A player in the running hand asked to leave: they stand up when it ends."""

    type_name: ClassVar[str] = "player_leaving"
    seat: int
    player: str


@register_event
@dataclass(frozen=True, slots=True)
class SittingOut(Event):
    """A player stays seated but is dealt no cards (``out``) or comes back.

    ``reason`` is empty when the player asked, ``timeouts`` when the table sat
    them out after timing out twice in a row.
    """

    type_name: ClassVar[str] = "sitting_out"
    seat: int
    player: str
    out: bool
    reason: str = ""


@register_event
@dataclass(frozen=True, slots=True)
class WagerSet(Event):
    """A box's bets for the next rounds at a banked game (ante 0: it sits the rounds out)."""

    type_name: ClassVar[str] = "wager_set"
    seat: int
    ante: int
    bonus: int


@register_event
@dataclass(frozen=True, slots=True)
class StakesSet(Event):
    """The game's amounts change from the next hand: ``stakes`` names each spec field
    that changed and its new value."""

    type_name: ClassVar[str] = "stakes_set"
    stakes: tuple[tuple[str, int], ...]


@register_event
@dataclass(frozen=True, slots=True)
class TimedOut(Event):
    """``seat`` ran out of time: the table takes ``action`` for it (the next event)."""

    type_name: ClassVar[str] = "timed_out"
    seat: int
    player: str
    action: Action


@register_event
@dataclass(frozen=True, slots=True)
class RakeTaken(Event):
    """The room's rake from hand ``number``: ``shares[i]`` came from table seat ``seats[i]``."""

    type_name: ClassVar[str] = "rake_taken"
    number: int
    amount: int
    seats: tuple[int, ...]
    shares: tuple[int, ...]


@register_event
@dataclass(frozen=True, slots=True)
class HandVoided(Event):
    """Hand ``number`` is void: every chip goes back where it was before the deal."""

    type_name: ClassVar[str] = "hand_voided"
    number: int
    reason: str


@register_event
@dataclass(frozen=True, slots=True)
class SeatDrawCard(Event):
    """The seat draw: a card dealt face up to a player who sat down with others."""

    type_name: ClassVar[str] = "seat_draw_card"
    seat: int
    player: str
    card: Card


@register_event
@dataclass(frozen=True, slots=True)
class ButtonPlaced(Event):
    """The dealer button goes to ``seat``: ``reason`` is first_to_sit, seat_draw or moved."""

    type_name: ClassVar[str] = "button_placed"
    seat: int
    reason: str


@register_event
@dataclass(frozen=True, slots=True)
class TableHandStarted(Event):
    """Hand ``number`` starts; ``seats[i]`` is the table seat playing as hand seat ``i``.

    ``button`` is the table seat of the button (-1 at a banked game, which has none).
    """

    type_name: ClassVar[str] = "table_hand_started"
    number: int
    button: int
    seats: tuple[int, ...]
    stacks: tuple[int, ...]


@register_event
@dataclass(frozen=True, slots=True)
class TableHandEnded(Event):
    """Hand ``number`` is over: ``net[i]`` is table seat ``seats[i]``'s result.

    ``stacks[i]`` is that seat's stack after the hand. ``house`` is the bank's
    result at a banked game (0 otherwise); ``rake`` what the room took (the
    results are net of it).
    """

    type_name: ClassVar[str] = "table_hand_ended"
    number: int
    seats: tuple[int, ...]
    net: tuple[int, ...]
    house: int
    stacks: tuple[int, ...] = ()
    rake: int = 0
