"""A-5 lows (Razz): the best five of 5, 6 or 7 cards, aces low.

Straights and flushes do not count, pairs count against; any unpaired hand
beats any paired one, and hands compare from the highest card down. Values
run from 1 (four kings with a queen) to 6,175 (5-4-3-2-A), higher is better.

>>> low("Ac 2d 3h 4s 5c Kd Kh").description
'5-4-3-2-A low'
>>> low_value(parse_cards("8c 7d 4h 3s 2c")) > low_value(parse_cards("8c 7d 5h 3s 2c"))
True
>>> low_category(low_value(parse_cards("Kc Kd Kh Ks Qc")))
<LowCategory.FOUR_OF_A_KIND: 0>
"""

from __future__ import annotations

from collections.abc import Sequence

from pokerhouse.cards import parse_cards  # noqa: F401 (the doctests use it)
from pokerhouse.errors import InvalidCards
from pokerhouse.evaluate.classes import low_class_description, low_classes
from pokerhouse.evaluate.tables import CARD_RANK_KEYS, ensure_low, low_table, valid_cards
from pokerhouse.evaluate.values import HandValue, LowCategory, hand_cards, select_cards

__all__ = ["LOW_VALUES", "low", "low_category", "low_description", "low_value"]

#: The number of distinct A-5 low values; also the value of 5-4-3-2-A.
LOW_VALUES = 6175

_R5, _R6, _R7 = CARD_RANK_KEYS[5], CARD_RANK_KEYS[6], CARD_RANK_KEYS[7]
_L5, _L6, _L7 = low_table(5), low_table(6), low_table(7)


def low_value(cards: Sequence[int]) -> int:
    """The A-5 low value of the best five of 5, 6 or 7 cards; higher is better.

    The fast path: ``cards`` are card indices (``Card`` or ``int`` 0..51) and
    are **not checked**. Use :func:`low` for checked input and a description.

    >>> low_value(parse_cards("5c 4d 3h 2s Ac"))
    6175
    >>> low_value(parse_cards("Ac Ad Kh 2s 3c 4d 5h")) == low_value(parse_cards("As 2d 3h 4s 5c"))
    True
    """
    # Perfect hash: the sum of per-card rank keys indexes a flat table of lows.
    try:
        if len(cards) == 7:
            a, b, c, d, e, f, g = cards
            return _L7[_R7[a] + _R7[b] + _R7[c] + _R7[d] + _R7[e] + _R7[f] + _R7[g]]
        if len(cards) == 6:
            a, b, c, d, e, f = cards
            return _L6[_R6[a] + _R6[b] + _R6[c] + _R6[d] + _R6[e] + _R6[f]]
        if len(cards) == 5:
            a, b, c, d, e = cards
            return _L5[_R5[a] + _R5[b] + _R5[c] + _R5[d] + _R5[e]]
    except IndexError:
        # The tables start empty and are filled on first use.
        if ensure_low(len(cards)) or valid_cards(cards):
            return low_value(cards)
        raise
    raise InvalidCards("card_count", f"an A-5 low has 5 to 7 cards, got {len(cards)}")


def low(cards: str | Sequence[int | str]) -> HandValue[LowCategory]:
    """Evaluate the best five-card A-5 low of 5, 6 or 7 cards.

    ``cards`` is text or a sequence of cards; bad, duplicate or too few/many
    cards raise :class:`~pokerhouse.errors.InvalidCards`.

    >>> hand = low("8c 6d 4h 3s 2c 8d 8h")
    >>> hand.description, hand.category, hand.cards
    ('8-6-4-3-2 low', <LowCategory.EIGHT_LOW: 10>, (8c, 6d, 4h, 3s, 2c))
    >>> low("6c 6d 4h 3s 2c").description
    'Pair of sixes'
    >>> low("6c 6d 4h 4s 2c 2d Ah").description
    'Pair of twos'
    """
    hand = hand_cards(cards, (5, 6, 7))
    value = low_value(hand)
    cls = low_classes()[value - 1]
    return HandValue(value, cls[0], select_cards(hand, cls[1]), low_class_description(cls))


def _check_value(value: int) -> int:
    if not 1 <= value <= LOW_VALUES:
        raise ValueError(f"{value} is not an A-5 low value (1..{LOW_VALUES})")
    return value


def low_category(value: int) -> LowCategory:
    """The category of an A-5 low value: the top card of an unpaired low, or the paired shape.

    >>> low_category(low_value(parse_cards("8c 7d 4h 3s 2c"))).label
    '8-low'
    """
    return low_classes()[_check_value(value) - 1][0]


def low_description(value: int) -> str:
    """The description of an A-5 low value, as :func:`low` gives it.

    >>> low_description(6175)
    '5-4-3-2-A low'
    >>> low_description(low_value(parse_cards("Ac Ad 2h 3s 4c")))
    'Pair of aces'
    """
    return low_class_description(low_classes()[_check_value(value) - 1])
