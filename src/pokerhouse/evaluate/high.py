"""Five-card high hands: the best five of 5, 6 or 7 cards.

Values run from 1 (7-5-4-3-2 offsuit) to 7,462 (a royal flush), one per
class of equal hands, so two hands tie exactly when their values are equal.

>>> high("As Ks Qs Js Ts 2c 3d").description
'Royal flush'
>>> aces_up = high_value(parse_cards("Ah Ad 9c 9s 2d 3c 4h"))
>>> aces_up > high_value(parse_cards("Ah Ad 8c 8s Kd 3c 4h"))
True
>>> high_category(high_value(parse_cards("5c 4d 3h 2s Ac Kd Kh")))
<HighCategory.STRAIGHT: 4>
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from pokerhouse.cards import Card, parse_cards  # noqa: F401 (the doctests use it)
from pokerhouse.errors import InvalidCards
from pokerhouse.evaluate.classes import high_class_description, high_classes
from pokerhouse.evaluate.tables import (
    CARD_KEYS,
    FLUSH_VALUES,
    ensure_high,
    high_table,
    valid_cards,
)
from pokerhouse.evaluate.values import HandValue, HighCategory, hand_cards, select_cards

__all__ = [
    "HIGH_VALUES",
    "high",
    "high_category",
    "high_description",
    "high_value",
    "is_royal_flush",
]

#: The number of distinct five-card high values; also the royal flush's value.
HIGH_VALUES = 7462

_K5, _K6, _K7 = CARD_KEYS[5], CARD_KEYS[6], CARD_KEYS[7]
_T5, _T6, _T7 = high_table(5), high_table(6), high_table(7)
_FLUSH = FLUSH_VALUES


def high_value(cards: Sequence[int]) -> int:
    """The high value of the best five of 5, 6 or 7 cards; higher is better.

    The fast path: ``cards`` are card indices (``Card`` or plain ``int``
    0..51) and are **not checked**; duplicates or out-of-range numbers give a
    meaningless value or an ``IndexError``. Use :func:`high` for checked
    input and a description.

    >>> high_value([51, 47, 43, 39, 35])  # As Ks Qs Js Ts
    7462
    >>> high_value(parse_cards("7c 5d 4h 3s 2c"))
    1
    """
    # Perfect hash: a sum of per-card keys is the rank multiset's index in a
    # flat table; a 6-bit counter per suit in the low bits flags five of a suit.
    try:
        if len(cards) == 7:
            a, b, c, d, e, f, g = cards
            s = _K7[a] + _K7[b] + _K7[c] + _K7[d] + _K7[e] + _K7[f] + _K7[g]
            if s & 0x820820:  # FLUSH_BITS
                return _flush_value(cards, s)
            return _T7[s >> 24]
        if len(cards) == 6:
            a, b, c, d, e, f = cards
            s = _K6[a] + _K6[b] + _K6[c] + _K6[d] + _K6[e] + _K6[f]
            if s & 0x820820:
                return _flush_value(cards, s)
            return _T6[s >> 24]
        if len(cards) == 5:
            a, b, c, d, e = cards
            s = _K5[a] + _K5[b] + _K5[c] + _K5[d] + _K5[e]
            if s & 0x820820:
                return _flush_value(cards, s)
            return _T5[s >> 24]
    except IndexError:
        # The tables start empty and are filled on first use.
        if ensure_high(len(cards)) or valid_cards(cards):
            return high_value(cards)
        raise
    raise InvalidCards("card_count", f"a high hand has 5 to 7 cards, got {len(cards)}")


def _flush_value(cards: Sequence[int], key_sum: int) -> int:
    # The suit whose counter passed 32; its ranks as a 13-bit mask index the flush table.
    suit = ((key_sum & 0x820820).bit_length() - 6) // 6
    mask = 0
    for card in cards:
        if card & 3 == suit:
            mask |= 1 << (card >> 2)
    return _FLUSH[mask]


def high(cards: str | Sequence[int | str]) -> HandValue[HighCategory]:
    """Evaluate the best five-card high hand of 5, 6 or 7 cards.

    ``cards`` is text (``"As Ks 2d ..."``) or a sequence of cards; bad,
    duplicate or too few/many cards raise :class:`~pokerhouse.errors.InvalidCards`.

    >>> hand = high("Kd Kh 4s Ks 4c 9d 2h")
    >>> hand.description, hand.cards
    ('Full house, kings over fours', (Kd, Kh, Ks, 4s, 4c))
    >>> high("Ah 2d 3c 4s 5h Kc Kd").description
    'Straight, five high'
    >>> high("Ah 2d 3c").description
    Traceback (most recent call last):
    ...
    pokerhouse.errors.InvalidCards: expected 5, 6 or 7 cards, got 3
    """
    hand = hand_cards(cards, (5, 6, 7))
    value = high_value(hand)
    cls = high_classes()[value - 1]
    category, ranks = cls
    pool: Sequence[Card] = hand
    if category in (HighCategory.FLUSH, HighCategory.STRAIGHT_FLUSH):
        suit = Counter(card & 3 for card in hand).most_common(1)[0][0]
        pool = [card for card in hand if card & 3 == suit]
    return HandValue(value, category, select_cards(pool, ranks), high_class_description(cls))


def _check_value(value: int) -> int:
    if not 1 <= value <= HIGH_VALUES:
        raise ValueError(f"{value} is not a high hand value (1..{HIGH_VALUES})")
    return value


def high_category(value: int) -> HighCategory:
    """The category of a high value.

    >>> high_category(7462), high_category(1)
    (<HighCategory.STRAIGHT_FLUSH: 8>, <HighCategory.HIGH_CARD: 0>)
    """
    return high_classes()[_check_value(value) - 1][0]


def high_description(value: int) -> str:
    """The description of a high value, as :func:`high` gives it.

    >>> high_description(high_value(parse_cards("Ac Ad 9h 9s 2c")))
    'Two pair, aces and nines'
    """
    return high_class_description(high_classes()[_check_value(value) - 1])


def is_royal_flush(value: int) -> bool:
    """True for the royal flush (the ace-high straight flush), the top value.

    >>> is_royal_flush(high_value(parse_cards("Ad Kd Qd Jd Td 9d 2c")))
    True
    """
    return value == HIGH_VALUES
