"""Per-card keys and the lookup tables behind every evaluator, built once.

The hot paths add one precomputed key per card and look the sum up:

- **Rank keys.** ``RANK_KEYS[n]`` gives each rank a number such that the sums
  of ``n`` keys, each rank used at most four times, differ for every
  multiset of ranks (found by a greedy search; the seven-card keys are the
  ones SKPokerEval uses). The sum is a perfect hash of the ranks in hand.
- **Suit counter.** ``CARD_KEYS[n][card]`` is the rank key shifted left by
  ``RANK_SHIFT`` plus ``7 << 6 * suit``: every suit has a 6-bit counter that
  grows by 7 per card, so bit 5 of a counter (32) is set exactly when that
  suit holds five or more cards (4 * 7 = 28 < 32 <= 5 * 7; 7 * 7 = 49 < 64).
  ``sum & FLUSH_BITS`` detects a flush with one ``and``.
- **Tables.** ``high_table(n)[ranks_sum]`` is the high value of the best
  hand made without a flush; ``FLUSH_VALUES[rank_mask]`` the value of the
  best flush or straight flush in a suit holding the ranks of ``rank_mask``;
  ``low_table(n)[ranks_sum]`` the A-5 low value; ``TEEN_PATTI_TABLE``
  is indexed directly by ``2704 * a + 52 * b + c``.

The big tables are ``array.array('H')`` objects that exist empty from import
and are filled in place on first use, so the evaluators can bind them as
globals: an empty table raises ``IndexError``, which the evaluators catch to
build it (see :func:`ensure_high`). numpy views of the same memory serve the
batch evaluators.

>>> ensure_high(7) in (True, False)
True
>>> len(high_table(7)), max(RANK_KEYS[7])
(7825760, 1479181)
"""

from __future__ import annotations

import threading
from array import array
from collections.abc import Iterator, Sequence
from functools import cache
from itertools import combinations_with_replacement

import numpy as np
import numpy.typing as npt

from pokerhouse.evaluate.classes import (
    TEEN_PATTI_SEQUENCES,
    high_classes,
    low_classes,
    teen_patti_classes,
)
from pokerhouse.evaluate.values import HighCategory, TeenPattiCategory

#: Rank keys for hands of exactly n cards: sums of n keys (at most four of a
#: rank) are distinct. Index = rank (0 = deuce, 12 = ace).
RANK_KEYS: dict[int, tuple[int, ...]] = {
    5: (0, 1, 5, 22, 94, 312, 992, 2422, 5624, 12522, 19998, 43258, 79415),
    6: (0, 1, 5, 22, 98, 422, 1734, 5760, 14270, 37951, 90838, 206930, 436437),
    7: (0, 1, 5, 22, 98, 453, 2031, 8698, 22854, 83661, 262349, 636345, 1479181),
}
SIZES = (5, 6, 7)
RANK_SHIFT = 24
#: Bit 5 of each suit's 6-bit counter: set when the suit holds five cards or more.
FLUSH_BITS = 0x820820
#: 13 bits: one per rank.
RANK_MASK = 0x1FFF

#: Key of each card (index 0..51) for hands of n cards: rank key << 24 | 7 << 6 * suit.
CARD_KEYS: dict[int, tuple[int, ...]] = {
    n: tuple((keys[card >> 2] << RANK_SHIFT) | (7 << (6 * (card & 3))) for card in range(52))
    for n, keys in RANK_KEYS.items()
}
#: Rank key of each card (index 0..51) for hands of n cards, without the suit counter.
CARD_RANK_KEYS: dict[int, tuple[int, ...]] = {
    n: tuple(keys[card >> 2] for card in range(52)) for n, keys in RANK_KEYS.items()
}

_HIGH: dict[int, array[int]] = {n: array("H") for n in SIZES}
_LOW: dict[int, array[int]] = {n: array("H") for n in SIZES}
#: Best flush or straight flush value of a suit holding the ranks of the index
#: mask (0 below five ranks); filled with the high tables.
FLUSH_VALUES: list[int] = []
#: Teen Patti value of cards (a, b, c) at index 2704 * a + 52 * b + c.
TEEN_PATTI_TABLE: array[int] = array("H")
_lock = threading.Lock()


def high_table(n: int) -> array[int]:
    """The high table for n-card hands (empty until :func:`ensure_high` runs)."""
    return _HIGH[n]


def low_table(n: int) -> array[int]:
    """The A-5 low table for n-card hands (empty until :func:`ensure_low` runs)."""
    return _LOW[n]


def flush_suit(key_sum: int) -> int:
    """The suit with five or more cards, from a sum of ``CARD_KEYS`` with a flush bit set."""
    return ((key_sum & FLUSH_BITS).bit_length() - 6) // 6


def multisets(n: int) -> Iterator[tuple[int, ...]]:
    """Every sorted tuple of n ranks with at most four of a rank."""
    for ranks in combinations_with_replacement(range(13), n):
        if all(ranks[i] != ranks[i + 4] for i in range(n - 4)):
            yield ranks


@cache
def _high_by_ranks(n: int) -> dict[tuple[int, ...], int]:
    """Non-flush high value of every multiset of n ranks (best five of them)."""
    if n == 5:
        values: dict[tuple[int, ...], int] = {}
        for value, (category, ranks) in enumerate(high_classes(), 1):
            if category not in (HighCategory.FLUSH, HighCategory.STRAIGHT_FLUSH):
                values[tuple(sorted(ranks))] = value
        return values
    return _best_of_one_fewer(n, _high_by_ranks(n - 1))


@cache
def _low_by_ranks(n: int) -> dict[tuple[int, ...], int]:
    """A-5 low value of every multiset of n ranks (best five of them)."""
    if n == 5:
        return {tuple(sorted(ranks)): v for v, (_, ranks) in enumerate(low_classes(), 1)}
    return _best_of_one_fewer(n, _low_by_ranks(n - 1))


def _best_of_one_fewer(n: int, smaller: dict[tuple[int, ...], int]) -> dict[tuple[int, ...], int]:
    # The best five of n cards is the best five of one of its (n - 1)-card subsets.
    values = {}
    for ranks in multisets(n):
        values[ranks] = max(smaller[ranks[:i] + ranks[i + 1 :]] for i in range(n))
    return values


def _fill(table: array[int], n: int, values: dict[tuple[int, ...], int]) -> None:
    keys = RANK_KEYS[n]
    sums = np.fromiter(
        (sum(keys[r] for r in ranks) for ranks in values), dtype=np.int64, count=len(values)
    )
    dense = np.zeros(int(sums.max()) + 1, dtype=np.uint16)
    dense[sums] = np.fromiter(values.values(), dtype=np.uint16, count=len(values))
    table.frombytes(dense.tobytes())


def _build_flush_values() -> list[int]:
    value_of = {
        sum(1 << r for r in ranks): value
        for value, (category, ranks) in enumerate(high_classes(), 1)
        if category in (HighCategory.FLUSH, HighCategory.STRAIGHT_FLUSH)
    }
    values = [0] * (RANK_MASK + 1)
    # In increasing order of the mask, every submask comes first.
    for mask in range(RANK_MASK + 1):
        bits = mask.bit_count()
        if bits == 5:
            values[mask] = value_of[mask]
        elif bits > 5:
            values[mask] = max(values[mask & ~(1 << r)] for r in range(13) if mask >> r & 1)
    return values


def ensure_high(n: int) -> bool:
    """Build the high table for n cards and the flush table if needed; True if built now."""
    if n not in _HIGH:
        return False
    with _lock:
        built = False
        if not FLUSH_VALUES:
            FLUSH_VALUES.extend(_build_flush_values())
            built = True
        if not _HIGH[n]:
            _fill(_HIGH[n], n, _high_by_ranks(n))
            built = True
        return built


def ensure_low(n: int) -> bool:
    """Build the A-5 low table for n cards if needed; True if built now."""
    if n not in _LOW:
        return False
    with _lock:
        if _LOW[n]:
            return False
        _fill(_LOW[n], n, _low_by_ranks(n))
        return True


def ensure_teen_patti() -> bool:
    """Build the Teen Patti table if needed; True if built now."""
    with _lock:
        if TEEN_PATTI_TABLE:
            return False
        TEEN_PATTI_TABLE.frombytes(_teen_patti_dense().tobytes())
        return True


def valid_cards(cards: Sequence[int]) -> bool:
    """True when ``cards`` are distinct card indices 0..51.

    After an ``IndexError`` the fast paths build their table, then retry only
    valid cards, so a table another thread filled meanwhile is still used and
    bad input still raises.
    """
    return len(set(cards)) == len(cards) and all(0 <= card < 52 for card in cards)


def _teen_patti_dense() -> npt.NDArray[np.uint16]:
    value_of = {cls: value for value, cls in enumerate(teen_patti_classes(), 1)}
    sequences = {frozenset(s): s for s in TEEN_PATTI_SEQUENCES}
    dense = np.zeros(52**3, dtype=np.uint16)
    for a in range(52):
        for b in range(a + 1, 52):
            for c in range(b + 1, 52):
                ranks = tuple(sorted((a >> 2, b >> 2, c >> 2), reverse=True))
                suited = (a & 3) == (b & 3) == (c & 3)
                sequence = sequences.get(frozenset(ranks))
                if sequence is not None and len(set(ranks)) == 3:
                    category = (
                        TeenPattiCategory.PURE_SEQUENCE if suited else TeenPattiCategory.SEQUENCE
                    )
                    cls = (category, sequence)
                elif ranks[0] == ranks[2]:
                    cls = (TeenPattiCategory.TRAIL, ranks)
                elif ranks[0] == ranks[1] or ranks[1] == ranks[2]:
                    pair = ranks[1]
                    kicker = ranks[0] + ranks[2] - pair
                    cls = (TeenPattiCategory.PAIR, (pair, pair, kicker))
                else:
                    category = TeenPattiCategory.COLOR if suited else TeenPattiCategory.HIGH_CARD
                    cls = (category, ranks)
                value = value_of[cls]
                for x, y, z in ((a, b, c), (a, c, b), (b, a, c), (b, c, a), (c, a, b), (c, b, a)):
                    dense[2704 * x + 52 * y + z] = value
    return dense


@cache
def high_table_np(n: int) -> npt.NDArray[np.uint16]:
    """The high table for n cards as a numpy array sharing its memory."""
    ensure_high(n)
    return np.frombuffer(_HIGH[n], dtype=np.uint16)


@cache
def low_table_np(n: int) -> npt.NDArray[np.uint16]:
    """The A-5 low table for n cards as a numpy array sharing its memory."""
    ensure_low(n)
    return np.frombuffer(_LOW[n], dtype=np.uint16)


@cache
def flush_values_np() -> npt.NDArray[np.uint16]:
    """:data:`FLUSH_VALUES` as a numpy array."""
    ensure_high(7)
    return np.array(FLUSH_VALUES, dtype=np.uint16)


@cache
def teen_patti_table_np() -> npt.NDArray[np.uint16]:
    """:data:`TEEN_PATTI_TABLE` as a numpy array sharing its memory."""
    ensure_teen_patti()
    return np.frombuffer(TEEN_PATTI_TABLE, dtype=np.uint16)
