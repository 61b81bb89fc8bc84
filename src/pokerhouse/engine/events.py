"""Immutable events: everything that happens in a hand, and who may see it.

A hand is its list of events. Each event declares who may see it whole
(:meth:`Event.visible_to`: ``None`` for everybody, else a set of seats) and
what the others see instead (:meth:`Event.redacted`: a copy with the hidden
cards replaced by ``None``, or ``None`` to drop the event). Only
:func:`pokerhouse.engine.visibility.shown_to` reads these declarations: it
is the one rule between the engine and anyone looking, and every path to a
player or a spectator goes through it.

>>> from pokerhouse.cards import parse_cards
>>> from pokerhouse.engine.visibility import shown_to
>>> dealt = CardsDealt(seat=1, cards=parse_cards("As Kd 7c"), face_up=(False, False, True))
>>> shown_to(dealt, 1) is dealt, shown_to(dealt, 0).cards
(True, (None, None, 7c))
>>> event_from_dict(event_to_dict(dealt)) == dealt
True

A hand numbers its seats from 0 (left of the button); a table renumbers
the events it passes on into its own seat numbers with :func:`renumber`:

>>> renumber(dealt, (4, 7)).seat
7
"""

from __future__ import annotations

import dataclasses
import types
import typing
from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum
from typing import Any, ClassVar, TypeVar

from pokerhouse.cards import Card
from pokerhouse.engine.actions import Action, ActionKind
from pokerhouse.engine.frozen import quick_init
from pokerhouse.errors import HistoryError

#: The house dealer's seat in the events of a banked game (boxes are 0 and up).
DEALER = -1

EVENT_TYPES: dict[str, type[Event]] = {}
_E = TypeVar("_E", bound="type[Event]")


def register_event(cls: _E) -> _E:
    """Class decorator: make an event type known to :func:`event_from_dict`.

    It also gives the event the quicker ``__init__`` of :func:`quick_init`.
    """
    EVENT_TYPES[cls.type_name] = cls
    return quick_init(cls)


@dataclass(frozen=True, slots=True)
class Event:
    """Base class of all events; public unless a subclass says otherwise."""

    type_name: ClassVar[str] = "event"
    #: Fields that hold one seat number, and fields that hold a tuple of them:
    #: what :func:`renumber` maps from hand seats to table seats.
    seat_fields: ClassVar[tuple[str, ...]] = ()
    seat_list_fields: ClassVar[tuple[str, ...]] = ()
    #: Whether the event holds one value per seat in seat order (stacks, results),
    #: which has no meaning in another numbering: a table restates such events.
    per_seat: ClassVar[bool] = False

    def visible_to(self) -> frozenset[int] | None:
        """Seats that may see the whole event; ``None`` means everybody.

        A declaration read by :func:`~pokerhouse.engine.visibility.shown_to`
        alone: ask it what a viewer is shown.
        """
        return None

    def redacted(self) -> Event | None:
        """What a seat outside :meth:`visible_to` sees (``None``: nothing).

        A declaration read by :func:`~pokerhouse.engine.visibility.shown_to` alone.
        """
        return None

    def shown_cards(self) -> tuple[tuple[int, tuple[Card | None, ...]], ...]:
        """Each seat whose hidden cards this event shows its audience, with the cards.

        Empty for an event that shows nobody's hidden cards. Histories use it
        to fill in, for a viewer, the cards it learned after the deal.
        """
        return ()


def renumber(event: Event, seats: Sequence[int]) -> Event:
    """The event with every seat number ``s`` replaced by ``seats[s]``.

    The dealer (:data:`DEALER`) keeps its number. Raises :class:`ValueError`
    for an event that holds one value per seat (:attr:`Event.per_seat`).
    """
    cls = type(event)
    if cls.per_seat:
        raise ValueError(f"{cls.type_name} holds one value per seat and cannot be renumbered")
    one, many = cls.seat_fields, cls.seat_list_fields
    if not one and not many:
        return event
    values = {name: getattr(event, name) for name in _field_names(cls)}
    for name in one:
        seat = values[name]
        if seat != DEALER:
            values[name] = seats[seat]
    for name in many:
        values[name] = tuple(seat if seat == DEALER else seats[seat] for seat in values[name])
    return cls(**values)


_FIELD_NAMES: dict[type[Event], tuple[str, ...]] = {}


def _field_names(cls: type[Event]) -> tuple[str, ...]:
    names = _FIELD_NAMES.get(cls)
    if names is None:
        names = _FIELD_NAMES[cls] = tuple(field.name for field in dataclasses.fields(cls))
    return names


# ---------------------------------------------------------------- common events


@register_event
@dataclass(frozen=True, slots=True)
class HandStarted(Event):
    """A hand of ``game`` starts with these stacks (seat 0 is left of the button)."""

    type_name: ClassVar[str] = "hand_started"
    per_seat: ClassVar[bool] = True
    game: str
    stacks: tuple[int, ...]


@register_event
@dataclass(frozen=True, slots=True)
class StreetStarted(Event):
    """A betting round (street) begins."""

    type_name: ClassVar[str] = "street_started"
    street: str


@register_event
@dataclass(frozen=True, slots=True)
class AntePosted(Event):
    """A seat posts its ante (less when its stack is smaller)."""

    type_name: ClassVar[str] = "ante_posted"
    seat_fields: ClassVar[tuple[str, ...]] = ("seat",)
    seat: int
    amount: int


@register_event
@dataclass(frozen=True, slots=True)
class CardsDealt(Event):
    """Cards dealt to a seat, each face up or face down.

    ``owner_sees`` is false when even the owner may not look yet (a blind
    Teen Patti player): then nobody sees the face-down cards.
    """

    type_name: ClassVar[str] = "cards_dealt"
    seat_fields: ClassVar[tuple[str, ...]] = ("seat",)
    seat: int
    cards: tuple[Card | None, ...]
    face_up: tuple[bool, ...]
    owner_sees: bool = True

    def visible_to(self) -> frozenset[int] | None:
        if all(self.face_up):
            return None
        return frozenset({self.seat}) if self.owner_sees else frozenset()

    def redacted(self) -> Event:
        hidden = tuple([c if up else None for c, up in zip(self.cards, self.face_up, strict=True)])
        # Positional, not dataclasses.replace: every deal makes one for each seat.
        return CardsDealt(self.seat, hidden, self.face_up, self.owner_sees)


@register_event
@dataclass(frozen=True, slots=True)
class BoardDealt(Event):
    """Community cards dealt face up."""

    type_name: ClassVar[str] = "board_dealt"
    cards: tuple[Card, ...]


@register_event
@dataclass(frozen=True, slots=True)
class CardBurned(Event):
    """The top card is burned; which card is never told to anyone."""

    type_name: ClassVar[str] = "card_burned"


@register_event
@dataclass(frozen=True, slots=True)
class DeckReshuffled(Event):
    """The burned cards were shuffled back into the stub (a short deck)."""

    type_name: ClassVar[str] = "deck_reshuffled"


@register_event
@dataclass(frozen=True, slots=True)
class ActionTaken(Event):
    """A seat acted; ``added`` is what it put in, ``total`` its bet in the round after."""

    type_name: ClassVar[str] = "action_taken"
    seat_fields: ClassVar[tuple[str, ...]] = ("seat",)
    seat: int
    action: Action
    added: int = 0
    total: int = 0
    all_in: bool = False


@register_event
@dataclass(frozen=True, slots=True)
class BetReturned(Event):
    """The part of a bet nobody called goes back to its bettor."""

    type_name: ClassVar[str] = "bet_returned"
    seat_fields: ClassVar[tuple[str, ...]] = ("seat",)
    seat: int
    amount: int


@register_event
@dataclass(frozen=True, slots=True)
class HandShown(Event):
    """A seat shows its cards; ``description`` names the hand."""

    type_name: ClassVar[str] = "hand_shown"
    seat_fields: ClassVar[tuple[str, ...]] = ("seat",)
    seat: int
    cards: tuple[Card, ...]
    description: str = ""

    def shown_cards(self) -> tuple[tuple[int, tuple[Card | None, ...]], ...]:
        return ((self.seat, self.cards),)


@register_event
@dataclass(frozen=True, slots=True)
class HandMucked(Event):
    """A seat throws its cards away unseen."""

    type_name: ClassVar[str] = "hand_mucked"
    seat_fields: ClassVar[tuple[str, ...]] = ("seat",)
    seat: int


@register_event
@dataclass(frozen=True, slots=True)
class PotAwarded(Event):
    """A pot (0 is the main pot) goes to its winners; ``shares`` match ``winners``."""

    type_name: ClassVar[str] = "pot_awarded"
    seat_list_fields: ClassVar[tuple[str, ...]] = ("winners",)
    pot: int
    amount: int
    winners: tuple[int, ...]
    shares: tuple[int, ...]
    description: str = ""

    def __post_init__(self) -> None:
        if len(self.winners) != len(self.shares) or sum(self.shares) != self.amount:
            raise ValueError("a pot's shares must match its winners and add up to its amount")


@register_event
@dataclass(frozen=True, slots=True)
class HandEnded(Event):
    """The hand is over: each seat's chip change and final stack."""

    type_name: ClassVar[str] = "hand_ended"
    per_seat: ClassVar[bool] = True
    net: tuple[int, ...]
    stacks: tuple[int, ...]

    def __post_init__(self) -> None:
        if len(self.net) != len(self.stacks):
            raise ValueError("a hand's end needs one chip change and one stack per seat")


# ---------------------------------------------------------------- serialisation


def event_to_dict(event: Event) -> dict[str, Any]:
    """A JSON-ready dict: ``{"type": ..., field: value, ...}`` with cards as text."""
    data: dict[str, Any] = {"type": event.type_name}
    # The cached names: ``dataclasses.fields`` cost more than the encoding itself.
    for name in _field_names(type(event)):
        data[name] = _encode(getattr(event, name))
    return data


def _encode(value: object) -> Any:
    if isinstance(value, Card):
        return str(value)
    if isinstance(value, Action):
        return {"kind": value.kind.value, "amount": value.amount}
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, tuple | list):
        return [_encode(item) for item in value]
    return value


def event_from_dict(data: object) -> Event:
    """Rebuild an event from :func:`event_to_dict` output; raises :class:`HistoryError`."""
    if not isinstance(data, dict):
        raise HistoryError("bad_event", f"an event must be an object, got {data!r}")
    name = data.get("type")
    cls = EVENT_TYPES.get(name) if isinstance(name, str) else None
    if cls is None:
        raise HistoryError("unknown_event", f"unknown event type {name!r}")
    hints = _hints(cls)
    kwargs: dict[str, Any] = {}
    try:
        for field in dataclasses.fields(cls):
            if field.name in data:
                kwargs[field.name] = _decode(data[field.name], hints[field.name])
        event = cls(**kwargs)
        # An event whose declarations fail (cards and face-up flags of different
        # lengths) would fail later, when shown to a player.
        event.visible_to()
        event.redacted()
        return event
    except (TypeError, ValueError, KeyError) as error:
        raise HistoryError("bad_event", f"malformed {name} event {data!r}: {error}") from None


_HINTS: dict[type[Event], dict[str, Any]] = {}


def _hints(cls: type[Event]) -> dict[str, Any]:
    if cls not in _HINTS:
        import sys

        namespace = dict(vars(sys.modules[cls.__module__]))
        namespace.update(Card=Card, Action=Action)
        _HINTS[cls] = typing.get_type_hints(cls, globalns=namespace)
    return _HINTS[cls]


def _decode(value: Any, hint: Any) -> Any:
    origin = typing.get_origin(hint)
    if origin in (typing.Union, types.UnionType):
        if value is None:
            return None
        options = [arg for arg in typing.get_args(hint) if arg is not type(None)]
        return _decode(value, options[0])
    if origin is tuple:
        args = typing.get_args(hint)
        if not isinstance(value, list | tuple):
            raise ValueError(f"expected a list, got {value!r}")
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(_decode(item, args[0]) for item in value)
        return tuple(_decode(item, arg) for item, arg in zip(value, args, strict=True))
    if hint is Card:
        if not isinstance(value, str):
            raise ValueError(f"expected a card such as 'As', got {value!r}")
        return Card.parse(value)
    if hint is Action:
        if not isinstance(value, dict):
            raise ValueError(f"expected an action object, got {value!r}")
        amount = value.get("amount")
        if amount is not None and type(amount) is not int:
            raise ValueError(f"expected a whole number of chips, got {amount!r}")
        return Action(ActionKind(value["kind"]), amount)
    if isinstance(hint, type) and issubclass(hint, Enum):
        return hint(value)
    if hint is int and (type(value) is not int):
        raise ValueError(f"expected a whole number, got {value!r}")
    if hint is bool and not isinstance(value, bool):
        raise ValueError(f"expected true or false, got {value!r}")
    if hint is str and not isinstance(value, str):
        raise ValueError(f"expected text, got {value!r}")
    return value
