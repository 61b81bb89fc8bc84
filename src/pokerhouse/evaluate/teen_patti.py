"""Teen Patti (3 Card Poker) hands: exactly three cards.

Best first: trail (three of a kind), pure sequence (straight flush),
sequence (straight), color (flush), pair, high card. Sequences rank A-2-3,
A-K-Q, K-Q-J, ..., 4-3-2; K-A-2 is not a sequence. Values run from 1 (5-3-2
offsuit) to 741 (trail of aces), higher is better.

>>> teen_patti("Ah 2h 3h").description
'Pure sequence, A-2-3'
>>> teen_patti_value(parse_cards("Ac 2d 3h")) > teen_patti_value(parse_cards("Ac Kd Qh"))
True
>>> teen_patti_category(teen_patti_value(parse_cards("Kc Ad 2h")))
<TeenPattiCategory.HIGH_CARD: 0>
"""

from __future__ import annotations

from collections.abc import Sequence

from pokerhouse.cards import parse_cards  # noqa: F401 (the doctests use it)
from pokerhouse.evaluate.classes import teen_patti_class_description, teen_patti_classes
from pokerhouse.evaluate.tables import TEEN_PATTI_TABLE, ensure_teen_patti, valid_cards
from pokerhouse.evaluate.values import HandValue, TeenPattiCategory, hand_cards, select_cards

__all__ = [
    "TEEN_PATTI_VALUES",
    "teen_patti",
    "teen_patti_category",
    "teen_patti_description",
    "teen_patti_value",
]

#: The number of distinct Teen Patti values; also the value of a trail of aces.
TEEN_PATTI_VALUES = 741

_TP = TEEN_PATTI_TABLE


def teen_patti_value(cards: Sequence[int]) -> int:
    """The Teen Patti value of three cards; higher is better.

    The fast path: ``cards`` are three card indices (``Card`` or ``int``
    0..51) and are **not checked** beyond their count. Use :func:`teen_patti`
    for checked input and a description.

    >>> teen_patti_value(parse_cards("Ac Ad Ah"))
    741
    >>> teen_patti_value(parse_cards("5c 3d 2h"))
    1
    """
    a, b, c = cards
    # Direct table: every ordered triple of card indices has its own slot.
    try:
        return _TP[2704 * a + 52 * b + c]
    except IndexError:
        # The table starts empty and is filled on first use.
        if ensure_teen_patti() or valid_cards(cards):
            return _TP[2704 * a + 52 * b + c]
        raise


def teen_patti(cards: str | Sequence[int | str]) -> HandValue[TeenPattiCategory]:
    """Evaluate a three-card Teen Patti hand.

    ``cards`` is text or a sequence of three cards; bad, duplicate or a wrong
    number of cards raise :class:`~pokerhouse.errors.InvalidCards`.

    >>> hand = teen_patti("Kc Kd 7s")
    >>> hand.description, hand.category
    ('Pair of kings, 7 kicker', <TeenPattiCategory.PAIR: 1>)
    >>> teen_patti("As Ah Ad").description
    'Trail of aces'
    """
    hand = hand_cards(cards, (3,))
    value = teen_patti_value(hand)
    cls = teen_patti_classes()[value - 1]
    return HandValue(value, cls[0], select_cards(hand, cls[1]), teen_patti_class_description(cls))


def _check_value(value: int) -> int:
    if not 1 <= value <= TEEN_PATTI_VALUES:
        raise ValueError(f"{value} is not a Teen Patti value (1..{TEEN_PATTI_VALUES})")
    return value


def teen_patti_category(value: int) -> TeenPattiCategory:
    """The category of a Teen Patti value.

    >>> teen_patti_category(741)
    <TeenPattiCategory.TRAIL: 5>
    """
    return teen_patti_classes()[_check_value(value) - 1][0]


def teen_patti_description(value: int) -> str:
    """The description of a Teen Patti value, as :func:`teen_patti` gives it.

    >>> teen_patti_description(teen_patti_value(parse_cards("Qs Jh Td")))
    'Sequence, Q-J-T'
    """
    return teen_patti_class_description(teen_patti_classes()[_check_value(value) - 1])
