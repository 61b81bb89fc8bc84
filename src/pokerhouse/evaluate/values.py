"""What an evaluator returns: a :class:`HandValue` and the category enums.

Every value is an ``int`` that orders hands by strength, higher is better, in
each of the three games (so the best A-5 low has the highest low value). The
category enums are ``IntEnum`` subclasses ordered the same way.

>>> HighCategory.FULL_HOUSE > HighCategory.FLUSH
True
>>> LowCategory.FIVE_LOW > LowCategory.KING_LOW > LowCategory.PAIR
True
>>> TeenPattiCategory.SEQUENCE.label
'Sequence'
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import IntEnum
from typing import Generic, TypeVar

from pokerhouse.cards import Card, check_cards, format_cards, parse_cards


class HighCategory(IntEnum):
    """Five-card high hand categories, weakest first.

    A royal flush is the ace-high :attr:`STRAIGHT_FLUSH`; its description says
    ``"Royal flush"`` (see :func:`pokerhouse.evaluate.is_royal_flush`).
    """

    HIGH_CARD = 0
    PAIR = 1
    TWO_PAIR = 2
    THREE_OF_A_KIND = 3
    STRAIGHT = 4
    FLUSH = 5
    FULL_HOUSE = 6
    FOUR_OF_A_KIND = 7
    STRAIGHT_FLUSH = 8

    @property
    def label(self) -> str:
        """The category in words: ``HighCategory.TWO_PAIR.label == 'Two pair'``."""
        return self.name.replace("_", " ").capitalize()


class LowCategory(IntEnum):
    """A-5 low categories, worst first: paired hands, then unpaired by top card.

    An unpaired low is named after its highest card (``EIGHT_LOW`` for
    8-7-4-3-2); any unpaired low beats any paired one.

    >>> LowCategory.EIGHT_LOW.label, LowCategory.EIGHT_LOW.paired
    ('8-low', False)
    >>> LowCategory.TWO_PAIR.label, LowCategory.TWO_PAIR.paired
    ('Two pair', True)
    """

    FOUR_OF_A_KIND = 0
    FULL_HOUSE = 1
    THREE_OF_A_KIND = 2
    TWO_PAIR = 3
    PAIR = 4
    KING_LOW = 5
    QUEEN_LOW = 6
    JACK_LOW = 7
    TEN_LOW = 8
    NINE_LOW = 9
    EIGHT_LOW = 10
    SEVEN_LOW = 11
    SIX_LOW = 12
    FIVE_LOW = 13

    @property
    def paired(self) -> bool:
        """True for the categories that hold a pair or more."""
        return self <= LowCategory.PAIR

    @property
    def label(self) -> str:
        """The category in words: ``'8-low'``, ``'Pair'``."""
        if self.paired:
            return self.name.replace("_", " ").capitalize()
        return f"{'KQJT98765'[self - LowCategory.KING_LOW]}-low"


class TeenPattiCategory(IntEnum):
    """Teen Patti (3 Card Poker) categories, weakest first."""

    HIGH_CARD = 0
    PAIR = 1
    COLOR = 2
    SEQUENCE = 3
    PURE_SEQUENCE = 4
    TRAIL = 5

    @property
    def label(self) -> str:
        """The category in words: ``TeenPattiCategory.PURE_SEQUENCE.label == 'Pure sequence'``."""
        return self.name.replace("_", " ").capitalize()


CategoryT = TypeVar("CategoryT", HighCategory, LowCategory, TeenPattiCategory)


@dataclass(frozen=True, slots=True)
class HandValue(Generic[CategoryT]):
    """An evaluated hand.

    ``value`` orders hands of the same game (higher is better; equal values
    split); ``category`` is the game's category enum; ``cards`` are the five
    (Teen Patti: three) cards that make the hand, most significant first;
    ``description`` names the hand in words.

    >>> from pokerhouse import evaluate
    >>> hand = evaluate.high("Kd Kh Ks 4c 4d 9s 2h")
    >>> hand.category, hand.cards
    (<HighCategory.FULL_HOUSE: 6>, (Kd, Kh, Ks, 4c, 4d))
    >>> str(hand)
    'Full house, kings over fours'
    """

    value: int
    category: CategoryT
    cards: tuple[Card, ...]
    description: str

    def __str__(self) -> str:
        return self.description

    @property
    def text(self) -> str:
        """The description and the cards: ``'Royal flush: As Ks Qs Js Ts'``."""
        return f"{self.description}: {format_cards(self.cards)}"


def hand_cards(cards: str | Sequence[int | str], counts: tuple[int, ...]) -> tuple[Card, ...]:
    """Parse and check the input of a public evaluator: distinct cards of an allowed count.

    >>> hand_cards("As Kd Qh", (3,))
    (As, Kd, Qh)
    >>> hand_cards([51, 51, 0], (3,))
    Traceback (most recent call last):
    ...
    pokerhouse.errors.InvalidCards: duplicate card As
    """
    hand = parse_cards(cards)
    check_cards(hand, counts)
    return hand


def select_cards(pool: Sequence[Card], ranks: tuple[int, ...]) -> tuple[Card, ...]:
    """Take one card of each rank in ``ranks`` from ``pool``, in that order, first found first.

    >>> select_cards(parse_cards("Kd 4c Ks 4d Kh"), (11, 11, 11, 2, 2))
    (Kd, Ks, Kh, 4c, 4d)
    """
    left = list(pool)
    chosen = []
    for rank in ranks:
        for i, card in enumerate(left):
            if card >> 2 == rank:
                chosen.append(left.pop(i))
                break
    return tuple(chosen)
