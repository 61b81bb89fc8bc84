"""Casino Hold'em's own events: bonus bets and their settlement, the dealer, each box, the house.

The dealer is seat ``-1``. Its two cards are dealt with ``owner_sees=False``
so nobody sees them until it shows them (a public :class:`HandShown`).

A box's AA Bonus is settled at the flop, before it decides; a box that
then folds never shows its cards. Its owner sees the whole settlement
(:class:`BonusSettled`: won or lost, paid, the hand's name); everybody else
a :class:`BonusResult`, the chips the bet moved, which the box's stack shows
anyway, and nothing about the hand.

>>> from pokerhouse.engine.events import event_from_dict, event_to_dict
>>> from pokerhouse.engine.visibility import shown_to
>>> settled = BonusSettled(seat=1, stake=5, won=True, paid=35, description="Pair of aces")
>>> shown_to(settled, 1) is settled
True
>>> shown_to(settled, 0), shown_to(settled, None)
(BonusResult(seat=1, stake=5, net=35), BonusResult(seat=1, stake=5, net=35))
>>> shown_to(BonusSettled(seat=1, stake=5, won=False, paid=0), 0)
BonusResult(seat=1, stake=5, net=-5)
>>> event_from_dict(event_to_dict(settled)) == settled
True
"""

from __future__ import annotations

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
    taken. Only the box's owner sees this event: whether the hand was a pair
    of aces or better, and its name, tell of cards that may never be shown.
    Others see the :class:`BonusResult`.
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
        return BonusResult(
            seat=self.seat, stake=self.stake, net=self.paid if self.won else -self.stake
        )


@register_event
@dataclass(frozen=True, slots=True)
class BonusResult(Event):
    """A box's AA Bonus settled, as everyone but the box's owner sees it: the chips.

    ``net`` is what the bet paid (it won, and its stake came back too) or minus
    the stake (it lost): what the box's stack shows to everyone anyway. Not
    whether the hand was a pair of aces or better, nor its name.
    """

    type_name: ClassVar[str] = "bonus_result"
    seat_fields: ClassVar[tuple[str, ...]] = ("seat",)
    seat: int
    stake: int
    net: int


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
