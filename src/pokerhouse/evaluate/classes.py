"""The equivalence classes of each game, strongest last, and their names.

A class is a ``(category, ranks)`` pair: ``ranks`` are card ranks (0..12 for
2..A) in the order a player reads the hand, most significant first
(``(11, 11, 11, 2, 2)`` is kings full of fours, ``(3, 2, 1, 0, 12)`` the
five-high straight). A hand's value is its class's position in the sorted
list plus one, so values are dense: 1..7462 for high hands, 1..6175 for A-5
lows, 1..741 for Teen Patti.

>>> len(high_classes()), len(low_classes()), len(teen_patti_classes())
(7462, 6175, 741)
>>> high_classes()[-1]
(<HighCategory.STRAIGHT_FLUSH: 8>, (12, 11, 10, 9, 8))
>>> low_classes()[-1]
(<LowCategory.FIVE_LOW: 13>, (3, 2, 1, 0, 12))
"""

from __future__ import annotations

from collections import Counter
from functools import cache
from itertools import combinations

from pokerhouse.cards import RANK_CHARS
from pokerhouse.evaluate.values import HighCategory, LowCategory, TeenPattiCategory

RANK_NAMES = (
    "two",
    "three",
    "four",
    "five",
    "six",
    "seven",
    "eight",
    "nine",
    "ten",
    "jack",
    "queen",
    "king",
    "ace",
)
RANK_PLURALS = tuple("sixes" if name == "six" else name + "s" for name in RANK_NAMES)

HighClass = tuple[HighCategory, tuple[int, ...]]
LowClass = tuple[LowCategory, tuple[int, ...]]
TeenPattiClass = tuple[TeenPattiCategory, tuple[int, ...]]

ACE = 12
#: Five-card straights as rank tuples, highest card first; the wheel is 5-4-3-2-A.
STRAIGHTS: tuple[tuple[int, ...], ...] = (
    (3, 2, 1, 0, ACE),
    *(tuple(range(top, top - 5, -1)) for top in range(4, 13)),
)


def _distinct_desc(count: int) -> list[tuple[int, ...]]:
    """Every set of ``count`` distinct ranks, as tuples in descending order."""
    return [tuple(sorted(ranks, reverse=True)) for ranks in combinations(range(13), count)]


@cache
def high_classes() -> tuple[HighClass, ...]:
    """The 7,462 five-card high classes, weakest first."""
    straight_sets = {frozenset(s) for s in STRAIGHTS}
    keyed: list[tuple[tuple[int, ...], HighClass]] = []

    def add(category: HighCategory, ranks: tuple[int, ...], key: tuple[int, ...]) -> None:
        keyed.append(((category, *key), (category, ranks)))

    for top, ranks in enumerate(STRAIGHTS):
        add(HighCategory.STRAIGHT_FLUSH, ranks, (top,))
        add(HighCategory.STRAIGHT, ranks, (top,))
    for ranks in _distinct_desc(5):
        if frozenset(ranks) not in straight_sets:
            add(HighCategory.FLUSH, ranks, ranks)
            add(HighCategory.HIGH_CARD, ranks, ranks)
    for quad in range(13):
        for kicker in range(13):
            if kicker != quad:
                add(HighCategory.FOUR_OF_A_KIND, (quad,) * 4 + (kicker,), (quad, kicker))
    for trips in range(13):
        for pair in range(13):
            if pair != trips:
                add(HighCategory.FULL_HOUSE, (trips,) * 3 + (pair,) * 2, (trips, pair))
    for trips in range(13):
        for kickers in _distinct_desc(2):
            if trips not in kickers:
                add(HighCategory.THREE_OF_A_KIND, (trips,) * 3 + kickers, (trips, *kickers))
    for high, low in _distinct_desc(2):
        for kicker in range(13):
            if kicker not in (high, low):
                ranks = (high, high, low, low, kicker)
                add(HighCategory.TWO_PAIR, ranks, (high, low, kicker))
    for pair in range(13):
        for kickers in _distinct_desc(3):
            if pair not in kickers:
                add(HighCategory.PAIR, (pair, pair, *kickers), (pair, *kickers))
    keyed.sort()
    return tuple(cls for _, cls in keyed)


def _low_rank(rank: int) -> int:
    """Aces low: the ace becomes 0, the deuce 1, ... the king 12."""
    return (rank + 1) % 13


@cache
def low_classes() -> tuple[LowClass, ...]:
    """The 6,175 five-card A-5 low classes, worst first.

    A-5 lows rank like high hands read upside down with aces low and no
    straights or flushes, so the classes are the high-hand shapes sorted by
    their "high" strength, strongest high (worst low) first.
    """
    keyed: list[tuple[tuple[int, ...], LowClass]] = []
    for counts in _rank_multisets(5):
        # Group ranks by count, then by low rank, most significant first.
        by_shape = sorted(counts.items(), key=lambda item: (item[1], _low_rank(item[0])))
        by_shape.reverse()
        ranks = tuple(rank for rank, n in by_shape for _ in range(n))
        shape = tuple(sorted(counts.values(), reverse=True))
        category = _LOW_SHAPES.get(shape)
        if category is None:  # five distinct ranks: named after the top card
            category = LowCategory(LowCategory.KING_LOW + 12 - _low_rank(ranks[0]))
        strength = (_SHAPE_ORDER[shape], *(_low_rank(rank) for rank in ranks))
        keyed.append((strength, (category, ranks)))
    keyed.sort(reverse=True)
    return tuple(cls for _, cls in keyed)


_LOW_SHAPES = {
    (4, 1): LowCategory.FOUR_OF_A_KIND,
    (3, 2): LowCategory.FULL_HOUSE,
    (3, 1, 1): LowCategory.THREE_OF_A_KIND,
    (2, 2, 1): LowCategory.TWO_PAIR,
    (2, 1, 1, 1): LowCategory.PAIR,
}
_SHAPE_ORDER = {
    (1, 1, 1, 1, 1): 0,
    (2, 1, 1, 1): 1,
    (2, 2, 1): 2,
    (3, 1, 1): 3,
    (3, 2): 4,
    (4, 1): 5,
}


def _rank_multisets(size: int) -> list[Counter[int]]:
    """Every multiset of ``size`` ranks with at most four of a rank, as counters."""
    result: list[Counter[int]] = []

    def extend(rank: int, left: int, counts: Counter[int]) -> None:
        if left == 0:
            result.append(Counter(counts))
            return
        if rank == 13:
            return
        for n in range(min(4, left), -1, -1):
            if n:
                counts[rank] = n
            extend(rank + 1, left - n, counts)
            counts.pop(rank, None)

    extend(0, size, Counter())
    return result


#: Teen Patti sequences, best first: A-2-3, A-K-Q, K-Q-J, ..., 4-3-2.
TEEN_PATTI_SEQUENCES: tuple[tuple[int, ...], ...] = (
    (ACE, 0, 1),
    *((top, top - 1, top - 2) for top in range(12, 1, -1)),
)


@cache
def teen_patti_classes() -> tuple[TeenPattiClass, ...]:
    """The 741 Teen Patti classes, weakest first."""
    keyed: list[tuple[tuple[int, ...], TeenPattiClass]] = []
    sequence_sets = {frozenset(s) for s in TEEN_PATTI_SEQUENCES}
    for strength, ranks in enumerate(reversed(TEEN_PATTI_SEQUENCES)):
        keyed.append(
            ((TeenPattiCategory.PURE_SEQUENCE, strength), (TeenPattiCategory.PURE_SEQUENCE, ranks))
        )
        keyed.append(((TeenPattiCategory.SEQUENCE, strength), (TeenPattiCategory.SEQUENCE, ranks)))
    for ranks in _distinct_desc(3):
        if frozenset(ranks) not in sequence_sets:
            keyed.append(((TeenPattiCategory.COLOR, *ranks), (TeenPattiCategory.COLOR, ranks)))
            keyed.append(
                ((TeenPattiCategory.HIGH_CARD, *ranks), (TeenPattiCategory.HIGH_CARD, ranks))
            )
    for rank in range(13):
        keyed.append(((TeenPattiCategory.TRAIL, rank), (TeenPattiCategory.TRAIL, (rank,) * 3)))
        for kicker in range(13):
            if kicker != rank:
                cls = (TeenPattiCategory.PAIR, (rank, rank, kicker))
                keyed.append(((TeenPattiCategory.PAIR, rank, kicker), cls))
    keyed.sort()
    return tuple(cls for _, cls in keyed)


def dashed(ranks: tuple[int, ...]) -> str:
    """Ranks as ``'8-7-4-3-2'``."""
    return "-".join(RANK_CHARS[rank] for rank in ranks)


def high_class_description(cls: HighClass) -> str:
    """``'Full house, kings over fours'``, ``'Royal flush'`` and so on.

    A high card names all five cards, since the kickers decide between two of them.

    >>> high_class_description((HighCategory.HIGH_CARD, (12, 11, 7, 5, 2)))
    'High card, ace, king, nine, seven, four'
    """
    category, ranks = cls
    top = RANK_NAMES[ranks[0]]
    if category is HighCategory.STRAIGHT_FLUSH:
        return "Royal flush" if ranks[0] == ACE else f"Straight flush, {top} high"
    if category is HighCategory.FOUR_OF_A_KIND:
        return f"Four of a kind, {RANK_PLURALS[ranks[0]]}"
    if category is HighCategory.FULL_HOUSE:
        return f"Full house, {RANK_PLURALS[ranks[0]]} over {RANK_PLURALS[ranks[3]]}"
    if category is HighCategory.FLUSH:
        return f"Flush, {top} high"
    if category is HighCategory.STRAIGHT:
        return f"Straight, {top} high"
    if category is HighCategory.THREE_OF_A_KIND:
        return f"Three of a kind, {RANK_PLURALS[ranks[0]]}"
    if category is HighCategory.TWO_PAIR:
        return f"Two pair, {RANK_PLURALS[ranks[0]]} and {RANK_PLURALS[ranks[2]]}"
    if category is HighCategory.PAIR:
        return f"Pair of {RANK_PLURALS[ranks[0]]}"
    return "High card, " + ", ".join(RANK_NAMES[rank] for rank in ranks)


def low_class_description(cls: LowClass) -> str:
    """``'8-7-4-3-2 low'`` for unpaired lows, ``'Pair of sixes'`` and so on for paired ones."""
    category, ranks = cls
    if not category.paired:
        return f"{dashed(ranks)} low"
    first = RANK_PLURALS[ranks[0]]
    if category is LowCategory.PAIR:
        return f"Pair of {first}"
    if category is LowCategory.TWO_PAIR:
        return f"Two pair, {first} and {RANK_PLURALS[ranks[2]]}"
    if category is LowCategory.THREE_OF_A_KIND:
        return f"Three of a kind, {first}"
    if category is LowCategory.FULL_HOUSE:
        return f"Full house, {first} over {RANK_PLURALS[ranks[3]]}"
    return f"Four of a kind, {first}"


def teen_patti_class_description(cls: TeenPattiClass) -> str:
    """``'Trail of aces'``, ``'Pure sequence, A-2-3'``, ``'Pair of kings, 7 kicker'``..."""
    category, ranks = cls
    if category is TeenPattiCategory.TRAIL:
        return f"Trail of {RANK_PLURALS[ranks[0]]}"
    if category is TeenPattiCategory.PAIR:
        return f"Pair of {RANK_PLURALS[ranks[0]]}, {RANK_CHARS[ranks[2]]} kicker"
    return f"{category.label}, {dashed(ranks)}"
