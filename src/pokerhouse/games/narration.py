"""Hand events as readable lines: the common events here, each game's own in a registry.

:func:`narrate_hand_event` reads the engine's events with ``match`` on their
classes; a game with events of its own registers a line writer for each
with :func:`narrates` (Teen Patti's look and sideshow, Casino Hold'em's
bonus and boxes), so that every case is a typed function mypy checks.

A :class:`Speaker` knows the players' names by seat number (whatever
numbering the events use) and speaks to the reader's own seat in the second
person.

>>> from pokerhouse.engine import Action
>>> from pokerhouse.engine.events import ActionTaken
>>> speaker = Speaker({0: "Ann", 3: "Bob"}, you=0)
>>> narrate_hand_event(ActionTaken(seat=3, action=Action.raise_to(60), added=40, total=60), speaker)
'Bob raises to 60'
>>> narrate_hand_event(ActionTaken(seat=0, action=Action.call(), added=20, total=60), speaker)
'You call 20'
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from pokerhouse.cards import Card
from pokerhouse.engine.actions import ActionKind
from pokerhouse.engine.events import (
    DEALER,
    ActionTaken,
    AntePosted,
    BetReturned,
    BoardDealt,
    CardBurned,
    CardsDealt,
    DeckReshuffled,
    Event,
    HandEnded,
    HandMucked,
    HandShown,
    HandStarted,
    PotAwarded,
    StreetStarted,
)

E = TypeVar("E", bound=Event)


@dataclass(frozen=True, slots=True)
class Speaker:
    """Who is who: ``names`` by seat number, and the reader's own seat (``you``)."""

    names: Mapping[int, str] | Sequence[str]
    you: int | None = None

    def name(self, seat: int) -> str:
        """The name of ``seat`` (``You`` for the reader's own, ``The dealer`` for the house)."""
        if self.you is not None and seat == self.you:
            return "You"
        if seat == DEALER:
            return "The dealer"
        names = self.names
        if isinstance(names, Mapping):
            return names.get(seat, f"seat {seat}")
        return names[seat] if 0 <= seat < len(names) else f"seat {seat}"

    def is_you(self, seat: int) -> bool:
        """Whether ``seat`` is the reader's."""
        return self.you is not None and seat == self.you

    def says(self, seat: int, third: str, second: str) -> str:
        """``"<name> <verb phrase>"``: ``third`` person for others, ``second`` for you."""
        return f"{self.name(seat)} {second if self.is_you(seat) else third}"


#: A game's line writer for one of its own event types.
Narrator = Callable[[Any, Speaker], "str | None"]

_NARRATORS: dict[type[Event], Narrator] = {}


def narrates(event_type: type[E]) -> Callable[[Callable[[E, Speaker], str | None]], Narrator]:
    """Decorator: register the line writer of a game's own event type."""

    def register(writer: Callable[[E, Speaker], str | None]) -> Narrator:
        _NARRATORS[event_type] = writer
        return writer

    return register


def cards_text(cards: Sequence[Card | None]) -> str:
    """Cards as text, ``??`` for a card the reader may not see.

    >>> from pokerhouse.cards import parse_cards
    >>> cards_text((None, *parse_cards("As")))
    '?? As'
    """
    return " ".join("??" if card is None else str(card) for card in cards)


def in_sentence(description: str) -> str:
    """A hand's description as the middle of a sentence: ``Pair of fours`` -> ``pair of fours``.

    A description that opens with a card rank (``K-8-4-2-A low``) keeps it.

    >>> in_sentence("Three of a kind, sixes"), in_sentence("K-8-4-2-A low")
    ('three of a kind, sixes', 'K-8-4-2-A low')
    """
    return description[:1].lower() + description[1:] if description[1:2].islower() else description


def join_names(names: Sequence[str]) -> str:
    """``A``, ``A and B``, ``A, B and C``."""
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + " and " + names[-1]


#: Each action's sentence: (third person, second person); ``{added}`` and ``{amount}``.
ACTION_WORDS: dict[ActionKind, tuple[str, str]] = {
    ActionKind.FOLD: ("folds", "fold"),
    ActionKind.CHECK: ("checks", "check"),
    ActionKind.CALL: ("calls {added}", "call {added}"),
    ActionKind.BRING_IN: ("brings in for {added}", "bring in for {added}"),
    ActionKind.COMPLETE: ("completes to {amount}", "complete to {amount}"),
    ActionKind.RAISE: ("raises to {amount}", "raise to {amount}"),
    ActionKind.BET: ("bets {amount}", "bet {amount}"),
    ActionKind.LOOK: ("looks at their cards", "look at your cards"),
    ActionKind.SHOW: ("pays {added} for a show", "pay {added} for a show"),
    ActionKind.SIDESHOW: (
        "bets {added} and asks for a sideshow",
        "bet {added} and ask for a sideshow",
    ),
    ActionKind.ACCEPT: ("accepts the sideshow", "accept the sideshow"),
    ActionKind.DECLINE: ("declines the sideshow", "decline the sideshow"),
    ActionKind.SHOW_HAND: ("shows", "show"),
    ActionKind.MUCK: ("mucks", "muck"),
}


def narrate_hand_event(event: Event, speaker: Speaker) -> str | None:
    """One readable line for a hand event (``None`` for events not worth a line)."""
    match event:
        case HandStarted() | CardBurned():
            return None
        case StreetStarted(street=street):
            return f"*** {street.upper()} ***"
        case AntePosted(seat=seat, amount=amount):
            return speaker.says(seat, f"posts an ante of {amount}", f"post an ante of {amount}")
        case CardsDealt(seat=seat, cards=cards):
            shown = cards_text(cards)
            return speaker.says(seat, f"is dealt {shown}", f"are dealt {shown}")
        case BoardDealt(cards=cards):
            return f"Board: {cards_text(cards)}"
        case DeckReshuffled():
            return "The burned cards are shuffled back into the stub"
        case ActionTaken():
            return _action_line(event, speaker)
        case BetReturned(seat=seat, amount=amount):
            whose = "Your" if speaker.is_you(seat) else f"{speaker.name(seat)}'s"
            return f"{whose} uncalled {amount} is returned"
        case HandShown(seat=seat, cards=cards, description=description):
            suffix = f" ({description})" if description else ""
            shown = cards_text(cards)
            return speaker.says(seat, f"shows {shown}{suffix}", f"show {shown}{suffix}")
        case HandMucked(seat=seat):
            return speaker.says(seat, "mucks", "muck")
        case PotAwarded():
            return _pot_line(event, speaker)
        case HandEnded(net=net):
            parts = [
                f"{speaker.name(seat)} {change:+d}" for seat, change in enumerate(net) if change
            ]
            return "Result: " + (", ".join(parts) if parts else "no change")
    writer = _NARRATORS.get(type(event))
    if writer is not None:
        return writer(event, speaker)
    return generic_line(event, speaker)


def _action_line(event: ActionTaken, speaker: Speaker) -> str:
    action = event.action
    words = ACTION_WORDS.get(action.kind)
    if words is None:  # pragma: no cover - every kind has its words
        third = second = str(action)
    else:
        third, second = (text.format(added=event.added, amount=action.amount) for text in words)
    if event.all_in:
        third, second = third + " and is all-in", second + " and are all-in"
    return speaker.says(event.seat, third, second)


def _pot_line(event: PotAwarded, speaker: Speaker) -> str:
    winners = [speaker.name(seat) for seat in event.winners]
    pot = "the pot" if event.pot == 0 else f"side pot {event.pot}"
    with_hand = f" with {in_sentence(event.description)}" if event.description else ""
    if len(winners) == 1:
        seat = event.winners[0]
        return speaker.says(seat, "wins", "win") + f" {event.amount} from {pot}{with_hand}"
    shares = event.shares
    each = f"{shares[0]} each" if len(set(shares)) == 1 else "/".join(map(str, shares))
    return f"{join_names(winners)} split {pot} of {event.amount} ({each}){with_hand}"


def generic_line(event: Event, speaker: Speaker) -> str:
    """A plain line for an event without a sentence of its own, from its fields."""
    words = event.type_name.replace("_", " ")
    parts: list[str] = []
    seat_fields = set(type(event).seat_fields)
    for field in dataclasses.fields(event):
        value = getattr(event, field.name)
        label = field.name.replace("_", " ")
        if field.name in seat_fields and isinstance(value, int):
            parts.append(f"{label} {speaker.name(value)}")
        elif (
            isinstance(value, tuple)
            and value
            and all(item is None or isinstance(item, Card) for item in value)
        ):
            parts.append(f"{label} {cards_text(value)}")
        else:
            parts.append(f"{label} {value}")
    title = words[:1].upper() + words[1:]
    return f"{title}: " + ", ".join(parts) if parts else title
