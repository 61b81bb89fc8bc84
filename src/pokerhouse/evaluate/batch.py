"""numpy batch evaluators: many hands at once, one row of card indices per hand.

Each returns an ``int64`` array holding exactly the values the scalar
evaluators give (:func:`~pokerhouse.evaluate.high_value` and friends).

>>> import numpy as np
>>> from pokerhouse.cards import parse_cards
>>> hands = np.array([parse_cards("As Ks Qs Js Ts 2c 3d"), parse_cards("7c 5d 4h 3s 2c 9d 9h")])
>>> high_batch(hands).tolist()
[7462, 2833]
>>> low_batch(hands).tolist()
[5797, 6165]
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import cache
from typing import Any

import numpy as np
import numpy.typing as npt

from pokerhouse.cards import or_list
from pokerhouse.errors import InvalidCards
from pokerhouse.evaluate.tables import (
    CARD_KEYS,
    CARD_RANK_KEYS,
    FLUSH_BITS,
    RANK_MASK,
    RANK_SHIFT,
    flush_values_np,
    high_table_np,
    low_table_np,
    teen_patti_table_np,
)

__all__ = ["high_batch", "low_batch", "teen_patti_batch"]

#: Rows per step: keeps the temporaries in cache.
CHUNK = 1 << 14

IntArray = npt.NDArray[np.int64]


@cache
def card_keys_np(n: int) -> IntArray:
    """:data:`~pokerhouse.evaluate.tables.CARD_KEYS` for n cards as an int64 array."""
    return np.array(CARD_KEYS[n], dtype=np.int64)


@cache
def card_rank_keys_np(n: int) -> IntArray:
    """:data:`~pokerhouse.evaluate.tables.CARD_RANK_KEYS` for n cards as an int64 array."""
    return np.array(CARD_RANK_KEYS[n], dtype=np.int64)


#: Bit 13 * suit + rank of each card: a sum over distinct cards holds each suit's ranks.
CARD_BITS: IntArray = np.array(
    [1 << (13 * (card & 3) + (card >> 2)) for card in range(52)], dtype=np.int64
)
_ONE_BIT: IntArray = np.array([1 << card for card in range(52)], dtype=np.int64)


def as_hands(hands: npt.ArrayLike, sizes: tuple[int, ...]) -> npt.NDArray[Any]:
    """``hands`` as a 2-D integer array with a row length in ``sizes``.

    Raises :class:`~pokerhouse.errors.InvalidCards` naming what is wrong;
    :func:`columns` checks the cards themselves.

    >>> as_hands([[0, 1, 2]], (3,)).shape
    (1, 3)
    >>> as_hands([0, 1, 2], (3,))
    Traceback (most recent call last):
    ...
    pokerhouse.errors.InvalidCards: expected an array of shape (N, 3) (one hand per row), got (3,)
    """
    wanted = or_list(f"(N, {size})" for size in sizes)
    try:
        array = np.asarray(hands)
    except ValueError as error:  # ragged rows
        raise InvalidCards(
            "card_count", f"expected an array of shape {wanted} (one hand per row): {error}"
        ) from None
    if array.ndim != 2 or array.shape[1] not in sizes:
        raise InvalidCards(
            "card_count",
            f"expected an array of shape {wanted} (one hand per row), got {array.shape}",
        )
    if array.dtype.kind not in "iu":
        raise InvalidCards("bad_card", f"card arrays must hold integers 0..51, not {array.dtype}")
    return array


def columns(array: npt.NDArray[Any], *, check: bool) -> Iterator[tuple[int, npt.NDArray[np.intp]]]:
    """(first row, the chunk's columns as a contiguous (k, rows) index array) per chunk.

    With ``check``, a card outside 0..51 or a card twice in a row raises
    :class:`InvalidCards`, naming the row.

    >>> [cols.tolist() for _, cols in columns(np.array([[0, 1, 2], [3, 4, 5]]), check=True)]
    [[[0, 3], [1, 4], [2, 5]]]
    >>> next(columns(np.array([[0, 1, 2], [3, 4, 52]]), check=True))
    Traceback (most recent call last):
    ...
    pokerhouse.errors.InvalidCards: card index 52 (row 1) is outside 0..51
    """
    for start in range(0, len(array), CHUNK):
        cols = array[start : start + CHUNK].T.astype(np.intp)
        if check:
            if cols.min() < 0 or cols.max() > 51:
                outside = (cols < 0) | (cols > 51)
                row = int(np.flatnonzero(outside.any(axis=0))[0])
                card = int(cols[:, row][outside[:, row]][0])
                raise InvalidCards(
                    "bad_card", f"card index {card} (row {start + row}) is outside 0..51"
                )
            # Distinct cards: the sum of their single bits equals the bits' union.
            bits = _ONE_BIT[cols[0]]
            union = bits.copy()
            for column in cols[1:]:
                more = _ONE_BIT[column]
                bits += more
                union |= more
            twice = np.flatnonzero(bits != union)
            if twice.size:
                row = start + int(twice[0])
                raise InvalidCards(
                    "duplicate_card", f"row {row} holds a card twice: {array[row].tolist()}"
                )
        yield start, cols


def high_batch(hands: npt.ArrayLike, *, check: bool = True) -> IntArray:
    """High values of the best five of each row's 5, 6 or 7 cards.

    ``hands`` is an integer array of shape (N, k), k in 5..7. With
    ``check=False`` the cards are not checked for range or duplicates
    (faster; wrong input gives meaningless values or an ``IndexError``).

    >>> high_batch([[51, 47, 43, 39, 35]]).tolist()
    [7462]
    >>> high_batch([[51, 47, 43, 39, 35, 51]])
    Traceback (most recent call last):
    ...
    pokerhouse.errors.InvalidCards: row 0 holds a card twice: [51, 47, 43, 39, 35, 51]
    """
    array = as_hands(hands, (5, 6, 7))
    count, k = array.shape
    keys = card_keys_np(k)
    table = high_table_np(k)
    out = np.empty(count, dtype=np.int64)
    for start, cols in columns(array, check=check):
        # Gathered per-card keys summed column by column: rank hash << 24 | suit counters.
        sums = keys[cols[0]]
        for column in cols[1:]:
            sums += keys[column]
        values = table[sums >> RANK_SHIFT]
        flush = np.flatnonzero(sums & FLUSH_BITS)
        if flush.size:
            values[flush] = flush_batch(cols.T[flush], sums[flush])
        out[start : start + len(values)] = values
    return out


def flush_batch(rows: npt.NDArray[Any], sums: IntArray) -> npt.NDArray[np.uint16]:
    """Flush values of rows whose key sums have a flush bit set."""
    flags = sums & FLUSH_BITS
    suit = (flags > 0x20).astype(np.int64) + (flags > 0x800) + (flags > 0x20000)
    union = CARD_BITS[rows].sum(axis=1)
    masks = (union >> (13 * suit)) & RANK_MASK
    result: npt.NDArray[np.uint16] = flush_values_np()[masks]
    return result


def low_batch(hands: npt.ArrayLike, *, check: bool = True) -> IntArray:
    """A-5 low values of the best five of each row's 5, 6 or 7 cards.

    ``hands`` is an integer array of shape (N, k), k in 5..7; ``check`` as for
    :func:`high_batch`.

    >>> from pokerhouse.cards import parse_cards
    >>> low_batch([parse_cards("5c 4d 3h 2s Ac"), parse_cards("Kc Kd Kh Ks Qc")]).tolist()
    [6175, 1]
    """
    array = as_hands(hands, (5, 6, 7))
    count, k = array.shape
    keys = card_rank_keys_np(k)
    table = low_table_np(k)
    out = np.empty(count, dtype=np.int64)
    for start, cols in columns(array, check=check):
        # Gathered per-card rank keys summed column by column: a perfect hash of the ranks.
        sums = keys[cols[0]]
        for column in cols[1:]:
            sums += keys[column]
        out[start : start + len(sums)] = table[sums]
    return out


def teen_patti_batch(hands: npt.ArrayLike, *, check: bool = True) -> IntArray:
    """Teen Patti values of rows of three cards.

    >>> teen_patti_batch([[48, 49, 50], [0, 4, 8]]).tolist()
    [741, 717]
    """
    array = as_hands(hands, (3,))
    table = teen_patti_table_np()
    out = np.empty(len(array), dtype=np.int64)
    for start, (a, b, c) in columns(array, check=check):
        # Direct table: slot 2704 * a + 52 * b + c.
        out[start : start + len(a)] = table[2704 * a + 52 * b + c]
    return out
