"""Casino Hold'em's own events: bonus bets and their settlement, the dealer, each box, the house.

The dealer is seat ``-1``. Its two cards are dealt with ``owner_sees=False``
so nobody sees them until it shows them (a public :class:`HandShown`).

>>> from pokerhouse.engine.events import event_from_dict, event_to_dict, for_seat
>>> settled = BonusSettled(seat=1, stake=5, won=True, paid=35, description="Pair of aces")
>>> for_seat(settled, 1) is settled
True
>>> for_seat(settled, 0)
BonusSettled(seat=1, stake=5, won=True, paid=35, description='')
>>> event_from_dict(event_to_dict(settled)) == settled
True
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import ClassVar

from pokerhouse.engine.events import Event, register_event


@register_event
@dataclass(frozen=True, slots=True)
class BonusPosted(Event):
    """A box puts an AA Bonus bet next to its Ante."""

    type_name: ClassVar[str] = "bonus_posted"
    seat_fields: ClassVar[tuple[str, ...]] = ("seat",)
    seat: int
    amount: int


@register_event
@dataclass(frozen=True, slots=True)
class BonusSettled(Event):
    """A box's AA Bonus is settled after the flop.

    A winning bet (``won``) gets its stake back plus ``paid``; a losing one is
    taken. Others see the result but not the hand's name, which would tell
    them about the box's hidden cards.
    """

    type_name: ClassVar[str] = "bonus_settled"
    seat_fields: ClassVar[tuple[str, ...]] = ("seat",)
    seat: int
    stake: int
    won: bool
    paid: int
    description: str = ""

    def visible_to(self) -> frozenset[int] | None:
        return frozenset({self.seat})

    def redacted(self) -> Event:
        return dataclasses.replace(self, description="")


@register_event
@dataclass(frozen=True, slots=True)
class DealerQualified(Event):
    """Whether the dealer's hand is a pair of fours or better."""

    type_name: ClassVar[str] = "dealer_qualified"
    qualifies: bool
    description: str = ""


#: The ways a box's Ante and Call end.
OUTCOMES = ("folded", "dealer_not_qualified", "won", "stand_off", "lost")


@register_event
@dataclass(frozen=True, slots=True)
class BoxSettled(Event):
    """A box's Ante and Call are settled.

    ``outcome`` is one of :data:`OUTCOMES`. ``ante`` and ``call`` are the
    box's results on each bet before the cap; ``capped`` is what the max
    payout kept back; ``net`` is the box's result on both after the cap.
    """

    type_name: ClassVar[str] = "box_settled"
    seat_fields: ClassVar[tuple[str, ...]] = ("seat",)
    seat: int
    outcome: str
    ante: int
    call: int
    capped: int = 0
    net: int = 0


@register_event
@dataclass(frozen=True, slots=True)
class HouseSettled(Event):
    """The house's result for the round: what the boxes lost minus what they won."""

    type_name: ClassVar[str] = "house_settled"
    result: int
