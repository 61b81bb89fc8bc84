"""Vectorised hand values for the analysis: lookup tables built on :mod:`pokerhouse.evaluate`.

A hand's *class* is its position (0..7461) among the 7,462 five-card hand
classes, weakest first; comparing classes is comparing
:func:`~pokerhouse.evaluate.high_value`. The tables are filled from the
evaluator's values of one five-card hand per class, so they agree with it
by construction; six- and seven-card entries are the best of their
five-card subsets.

The trick (one comment, as the design asks): a hand without a flush is
valued by its rank multiset, found by summing per-rank keys chosen so that
no two multisets of the same size share a sum; a flush is valued by the
13-bit rank mask of its suit.

>>> import numpy as np
>>> from pokerhouse.cards import parse_cards
>>> tables = hand_tables()
>>> seven = np.array([parse_cards("As Ks Qs Js Ts 2c 2d"), parse_cards("4c 4d 9h Ks 2c 7d 8s")])
>>> classes = tables.classes7(seven)
>>> int(classes[0]), bool(classes[1] >= tables.pair_of_fours)
(7461, True)
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from itertools import combinations, combinations_with_replacement

import numpy as np
from numpy.typing import NDArray

from pokerhouse.cards import Card
from pokerhouse.games.casino_holdem.paytables import AnteCategory, BonusCategory, thresholds

Int8s = NDArray[np.int8]
Int16s = NDArray[np.int16]
Int32s = NDArray[np.int32]
Int64s = NDArray[np.int64]

#: Per-rank keys whose sums are distinct for every multiset of up to seven
#: ranks with at most four of each (checked when the tables are built).
RANK_KEYS: tuple[int, ...] = (
    0,
    1,
    5,
    22,
    98,
    453,
    2031,
    8698,
    22854,
    83661,
    262349,
    636345,
    1479181,
)

NUM_CLASSES = 7462


@dataclass(frozen=True, eq=False)
class HandTables:
    """The lookup tables and class thresholds (all in class numbers 0..7461)."""

    #: ``RANK_KEYS`` as an array indexed by rank.
    keys: Int32s
    #: Class of a five-card rank multiset, by key sum (-1: no such multiset).
    nonflush5: Int16s
    #: Class of a seven-card rank multiset, by key sum (-1: no such multiset).
    nonflush7: Int16s
    #: Class of the best flush in a suit's 13-bit rank mask (-1: fewer than five cards).
    flush: Int16s
    #: The evaluator's value of each class, ascending.
    values: Int64s
    #: :class:`AnteCategory` of each class.
    ante_category: Int8s
    #: :class:`BonusCategory` of each class (five-card hands).
    bonus_category: Int8s
    #: The weakest class at or above a pair of fours (the dealer qualifies).
    pair_of_fours: int
    #: The weakest flush class.
    flush_min: int

    def classes7(self, cards: NDArray[np.integer]) -> Int32s:
        """Classes of seven-card hands given as an integer array shaped ``(..., 7)``."""
        return self._classes(np.asarray(cards), self.nonflush7)

    def classes5(self, cards: NDArray[np.integer]) -> Int32s:
        """Classes of five-card hands given as an integer array shaped ``(..., 5)``.

        >>> from pokerhouse.cards import parse_cards
        >>> hand_tables().classes5(np.array(parse_cards("As Ks Qs Js Ts"))).tolist()
        7461
        """
        return self._classes(np.asarray(cards), self.nonflush5)

    def _classes(self, cards: NDArray[np.integer], nonflush: Int16s) -> Int32s:
        shape = cards.shape[:-1]
        columns = cards.reshape(-1, cards.shape[-1]).astype(np.intp)
        card_keys = self.keys[np.arange(52) >> 2]
        # Each card as one bit of a 52-bit word laid out suit by suit: a
        # suit's 13-bit rank mask is then a shift and a mask away.
        card_bits = np.left_shift(np.int64(1), 13 * (np.arange(52) & 3) + (np.arange(52) >> 2))
        key = np.zeros(len(columns), dtype=np.int32)
        word = np.zeros(len(columns), dtype=np.int64)
        for column in columns.T:
            key += card_keys[column]
            word |= card_bits[column]
        best: Int32s = nonflush[key].astype(np.int32)
        for suit in range(4):
            best = np.maximum(best, self.flush[(word >> (13 * suit)) & 0x1FFF])
        return best.reshape(shape)

    def class_of(self, cards: tuple[Card, ...]) -> int:
        """The class of one five- or seven-card hand.

        >>> from pokerhouse.cards import parse_cards
        >>> hand_tables().class_of(parse_cards("2c 3d 4h 5s 7c"))
        0
        """
        array = np.array([cards])
        return int(self.classes5(array)[0] if len(cards) == 5 else self.classes7(array)[0])


def _multisets(size: int) -> NDArray[np.int64]:
    """Every multiset of ``size`` ranks with at most four of a rank, as sorted rows."""
    rows = np.array(list(combinations_with_replacement(range(13), size)), dtype=np.int64)
    # Sorted rows: five equal ranks would put the same rank four places apart.
    fives = (rows[:, 4:] == rows[:, :-4]).any(axis=1)
    kept: NDArray[np.int64] = rows[~fives]
    return kept


def _unsuited_cards(ranks: NDArray[np.int64]) -> list[Card]:
    # Cycling the suits over the sorted ranks gives equal ranks different suits
    # and never five cards of one suit.
    return [Card(4 * int(rank) + index % 4) for index, rank in enumerate(ranks)]


def _key_table(multisets: NDArray[np.int64], classes: NDArray[np.int64], keys: Int32s) -> Int16s:
    sums = keys[multisets].sum(axis=1).astype(np.int64)
    if len(np.unique(sums)) != len(sums):  # pragma: no cover - guards RANK_KEYS
        raise AssertionError(f"rank keys collide for {multisets.shape[1]}-card multisets")
    table = np.full(int(sums.max()) + 1, -1, dtype=np.int16)
    table[sums] = classes
    return table


def _categories(values: Int64s, limits: list[int]) -> Int8s:
    """How many of the ascending ``limits`` each value reaches."""
    reached: Int8s = np.searchsorted(np.array(limits), values, side="right").astype(np.int8)
    return reached


@cache
def hand_tables() -> HandTables:
    """Build (once per process) the tables; a fraction of a second."""
    from pokerhouse.evaluate import high_value

    keys = np.array(RANK_KEYS, dtype=np.int32)
    five = _multisets(5)
    five_values = [high_value(_unsuited_cards(row)) for row in five]
    flush_masks = [sum(1 << r for r in ranks) for ranks in combinations(range(13), 5)]
    flush_values = [
        high_value([Card(4 * r + 3) for r in range(13) if mask >> r & 1]) for mask in flush_masks
    ]
    values = np.unique(np.array(five_values + flush_values, dtype=np.int64))
    if len(values) != NUM_CLASSES:  # pragma: no cover - the evaluator's contract
        raise AssertionError(f"expected {NUM_CLASSES} five-card classes, got {len(values)}")
    nonflush5 = _key_table(five, np.searchsorted(values, five_values), keys)

    flush = np.full(1 << 13, -1, dtype=np.int16)
    flush[flush_masks] = np.searchsorted(values, flush_values)
    # Six or more suited cards: the best mask with one card fewer, level by level.
    masks = np.arange(1 << 13)
    popcount = np.array([bin(mask).count("1") for mask in range(1 << 13)])
    for size in range(6, 14):
        level = masks[popcount == size]
        best = np.full(len(level), -1, dtype=np.int16)
        for rank in range(13):
            bit = 1 << rank
            best = np.maximum(best, np.where(level & bit, flush[level & ~bit], -1))
        flush[level] = best

    seven = _multisets(7)
    subsets = np.array(list(combinations(range(7), 5)))
    seven_classes = nonflush5[keys[seven[:, subsets]].sum(axis=-1)].max(axis=1)
    nonflush7 = _key_table(seven, seven_classes.astype(np.int64), keys)

    limits = thresholds()
    ante = _categories(
        values,
        [
            limits.flush,
            limits.full_house,
            limits.four_of_a_kind,
            limits.straight_flush,
            limits.royal_flush,
        ],
    )
    bonus = _categories(
        values,
        [
            limits.pair_of_aces,
            limits.two_pair,
            limits.three_of_a_kind,
            limits.straight,
            limits.flush,
            limits.full_house,
            limits.four_of_a_kind,
            limits.straight_flush,
            limits.royal_flush,
        ],
    )
    return HandTables(
        keys=keys,
        nonflush5=nonflush5,
        nonflush7=nonflush7,
        flush=flush,
        values=values,
        ante_category=ante,
        bonus_category=bonus,
        pair_of_fours=int(np.searchsorted(values, limits.pair_of_fours)),
        flush_min=int(np.searchsorted(values, limits.flush)),
    )


__all__ = ["NUM_CLASSES", "RANK_KEYS", "AnteCategory", "BonusCategory", "HandTables", "hand_tables"]
