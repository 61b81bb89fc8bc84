"""Every hand at once: counts of each value over all C(52, k) hands.

The enumeration is incremental: the sums of the card keys of all 2,598,960
five-card combinations are computed once, in lexicographic order, so the
combinations whose lowest card exceeds a given card form a suffix. A hand of
k = 5 + p cards is p fixed "prefix" cards followed by such a combination;
for each prefix one vectorized pass adds the prefix's keys to the suffix
sums and looks the results up. All 133,784,560 seven-card hands take a few
seconds.

>>> int(high_value_counts(6).sum())
20358520
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import combinations
from math import comb

import numpy as np
import numpy.typing as npt

from pokerhouse.evaluate.batch import (
    card_keys_np,
    card_rank_keys_np,
    flush_batch,
    teen_patti_batch,
)
from pokerhouse.evaluate.classes import high_classes, low_classes, teen_patti_classes
from pokerhouse.evaluate.tables import (
    FLUSH_BITS,
    RANK_SHIFT,
    high_table_np,
    low_table_np,
)
from pokerhouse.evaluate.values import HighCategory, LowCategory, TeenPattiCategory

__all__ = [
    "combinations_array",
    "high_category_counts",
    "high_value_counts",
    "low_category_counts",
    "low_value_counts",
    "teen_patti_category_counts",
]

_SUFFIX = 5


def combinations_array(n: int, k: int) -> npt.NDArray[np.uint8]:
    """All k-subsets of ``range(n)`` as rows of a (C(n, k), k) array, in lexicographic order.

    >>> combinations_array(4, 2).tolist()
    [[0, 1], [0, 2], [0, 3], [1, 2], [1, 3], [2, 3]]
    """
    rows = np.arange(n, dtype=np.uint8).reshape(n, 1)
    for _ in range(1, k):
        last = rows[:, -1].astype(np.int64)
        repeats = n - 1 - last
        total = int(repeats.sum())
        parents = np.repeat(np.arange(len(rows)), repeats)
        # For each parent, the next elements last + 1 .. n - 1 in order.
        starts = np.cumsum(repeats) - repeats
        offsets = np.arange(total) - np.repeat(starts, repeats)
        nxt = np.repeat(last + 1, repeats) + offsets
        rows = np.concatenate([rows[parents], nxt.astype(np.uint8).reshape(-1, 1)], axis=1)
    return rows


def _suffixes(k: int) -> Iterator[tuple[tuple[int, ...], int]]:
    """(prefix cards, index of the first five-card suffix above them) for k-card hands."""
    # first[c]: index of the first five-card combination whose lowest card is >= c.
    first = np.concatenate([[0], np.cumsum([comb(51 - c, 4) for c in range(52)])])
    for prefix in combinations(range(52), k - _SUFFIX):
        start = int(first[prefix[-1] + 1]) if prefix else 0
        if start < first[-1]:
            yield prefix, start


def high_value_counts(k: int = 7) -> npt.NDArray[np.int64]:
    """``counts[v]``: how many of the C(52, k) k-card hands have high value ``v`` (k in 5..7).

    >>> counts = high_value_counts(5)
    >>> int(counts.sum()), int(np.count_nonzero(counts))
    (2598960, 7462)
    """
    _check_size(k)
    suffix = combinations_array(52, _SUFFIX)
    keys = card_keys_np(k)
    sums = keys[suffix[:, 0]]
    for j in range(1, _SUFFIX):
        sums += keys[suffix[:, j]]
    table = high_table_np(k)
    counts = np.zeros(len(high_classes()) + 1, dtype=np.int64)
    for prefix, start in _suffixes(k):
        base = sum(int(keys[card]) for card in prefix)
        total = sums[start:] + base if prefix else sums
        values = table[total >> RANK_SHIFT]
        flush = np.flatnonzero(total & FLUSH_BITS)
        if flush.size:
            rows = suffix[start:][flush]
            if prefix:
                rows = np.concatenate(
                    [
                        np.broadcast_to(np.array(prefix, dtype=np.uint8), (len(rows), len(prefix))),
                        rows,
                    ],
                    axis=1,
                )
            values[flush] = flush_batch(rows, total[flush])
        counts += np.bincount(values, minlength=len(counts))
    return counts


def low_value_counts(k: int = 7) -> npt.NDArray[np.int64]:
    """``counts[v]``: how many of the C(52, k) k-card hands have A-5 low value ``v`` (k in 5..7).

    >>> counts = low_value_counts(5)
    >>> int(counts.sum()), int(np.count_nonzero(counts))
    (2598960, 6175)
    """
    _check_size(k)
    suffix = combinations_array(52, _SUFFIX)
    keys = card_rank_keys_np(k)
    sums = keys[suffix[:, 0]]
    for j in range(1, _SUFFIX):
        sums += keys[suffix[:, j]]
    table = low_table_np(k)
    counts = np.zeros(len(low_classes()) + 1, dtype=np.int64)
    for prefix, start in _suffixes(k):
        base = sum(int(keys[card]) for card in prefix)
        values = table[sums[start:] + base]
        counts += np.bincount(values, minlength=len(counts))
    return counts


def high_category_counts(k: int = 7) -> dict[HighCategory, int]:
    """How many k-card hands fall in each high category (every category listed).

    >>> counts = high_category_counts(5)
    >>> counts[HighCategory.STRAIGHT_FLUSH], counts[HighCategory.FOUR_OF_A_KIND]
    (40, 624)
    """
    counts = high_value_counts(k)
    result = dict.fromkeys(HighCategory, 0)
    for value, (category, _) in enumerate(high_classes(), 1):
        result[category] += int(counts[value])
    return result


def low_category_counts(k: int = 7) -> dict[LowCategory, int]:
    """How many k-card hands fall in each A-5 low category (every category listed).

    >>> low_category_counts(5)[LowCategory.FIVE_LOW]
    1024
    """
    counts = low_value_counts(k)
    result = dict.fromkeys(LowCategory, 0)
    for value, (category, _) in enumerate(low_classes(), 1):
        result[category] += int(counts[value])
    return result


def teen_patti_category_counts() -> dict[TeenPattiCategory, int]:
    """How many of the 22,100 three-card hands fall in each Teen Patti category.

    >>> teen_patti_category_counts()[TeenPattiCategory.PURE_SEQUENCE]
    48
    """
    counts = np.bincount(teen_patti_batch(combinations_array(52, 3)), minlength=742)
    result = dict.fromkeys(TeenPattiCategory, 0)
    for value, (category, _) in enumerate(teen_patti_classes(), 1):
        result[category] += int(counts[value])
    return result


def _check_size(k: int) -> None:
    if k not in (5, 6, 7):
        raise ValueError(f"hands of 5 to 7 cards can be counted, not {k}")
