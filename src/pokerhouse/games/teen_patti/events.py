"""Teen Patti's own events: a look, a change of stake and a sideshow's comparison.

A look and a sideshow are private: only the seats concerned see the cards,
everyone else learns only that they happened.

>>> from pokerhouse.cards import parse_cards
>>> from pokerhouse.engine.events import event_from_dict, event_to_dict
>>> from pokerhouse.engine.visibility import shown_to
>>> looked = CardsLooked(seat=2, cards=parse_cards("As Kd 7c"))
>>> shown_to(looked, 2) is looked
True
>>> shown_to(looked, 0)
CardsLooked(seat=2, cards=(None, None, None))
>>> event_from_dict(event_to_dict(looked)) == looked
True
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import ClassVar

from pokerhouse.cards import Card
from pokerhouse.engine.events import Event, register_event


@register_event
@dataclass(frozen=True, slots=True)
class CardsLooked(Event):
    """A blind player looks at their cards and becomes seen.

    The owner sees the cards; every other seat sees the same event with the
    cards hidden, which says only that the seat looked.
    """

    type_name: ClassVar[str] = "cards_looked"
    seat_fields: ClassVar[tuple[str, ...]] = ("seat",)
    seat: int
    cards: tuple[Card | None, ...]

    def visible_to(self) -> frozenset[int] | None:
        return frozenset({self.seat})

    def redacted(self) -> Event:
        return dataclasses.replace(self, cards=(None,) * len(self.cards))

    def shown_cards(self) -> tuple[tuple[int, tuple[Card | None, ...]], ...]:
        return ((self.seat, self.cards),)


@register_event
@dataclass(frozen=True, slots=True)
class StakeRaised(Event):
    """The current stake went up: blind bets are now at least ``stake``, seen ones twice it.

    >>> from pokerhouse.engine.visibility import audience
    >>> audience(StakeRaised(stake=4)) is None
    True
    """

    type_name: ClassVar[str] = "stake_raised"
    stake: int


@register_event
@dataclass(frozen=True, slots=True)
class SideshowCompared(Event):
    """A sideshow was accepted: ``asker`` and ``target`` compared hands and ``loser`` folds.

    Only the two players see the cards; the others see who folded.

    >>> from pokerhouse.cards import parse_cards
    >>> from pokerhouse.engine.visibility import shown_to
    >>> event = SideshowCompared(asker=2, target=1, asker_cards=parse_cards("As Ad 2c"),
    ...                          target_cards=parse_cards("Kh Qh Jh"), loser=2)
    >>> shown_to(event, 1) is event
    True
    >>> shown_to(event, 0).asker_cards, shown_to(event, 0).loser
    ((None, None, None), 2)
    """

    type_name: ClassVar[str] = "sideshow_compared"
    seat_fields: ClassVar[tuple[str, ...]] = ("asker", "target", "loser")
    asker: int
    target: int
    asker_cards: tuple[Card | None, ...]
    target_cards: tuple[Card | None, ...]
    loser: int

    def visible_to(self) -> frozenset[int] | None:
        return frozenset({self.asker, self.target})

    def redacted(self) -> Event:
        return dataclasses.replace(
            self,
            asker_cards=(None,) * len(self.asker_cards),
            target_cards=(None,) * len(self.target_cards),
        )

    def shown_cards(self) -> tuple[tuple[int, tuple[Card | None, ...]], ...]:
        return ((self.asker, self.asker_cards), (self.target, self.target_cards))
