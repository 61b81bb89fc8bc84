"""Suit symmetry: the 24 suit permutations, card pairs, and canonical flops and boards.

Relabelling suits changes no hand's value, so a set of cards can be replaced
by a canonical one: write each suit as a 13-bit rank mask, sort the four
masks (largest first) and give them to clubs, diamonds, hearts, spades in
that order. Two sets are the same up to suits exactly when their sorted
masks are equal. The 22,100 flops fall into 1,755 classes and the 2,598,960
five-card boards into 134,459.

>>> flops = flop_classes()
>>> len(flops.cards), int(flops.weights.sum())
(1755, 22100)
>>> boards = board_classes()
>>> len(boards.cards), int(boards.weights.sum())
(134459, 2598960)
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from itertools import permutations
from math import comb

import numpy as np
from numpy.typing import NDArray

Ints = NDArray[np.int64]

#: The 24 suit permutations; ``SUIT_PERMUTATIONS[g][s]`` is where suit ``s`` goes.
SUIT_PERMUTATIONS: NDArray[np.int64] = np.array(list(permutations(range(4))), dtype=np.int64)
#: ``CARD_PERMUTATIONS[g][card]``: the card after relabelling suits by ``g``.
CARD_PERMUTATIONS: Ints = np.array(
    [[4 * (card >> 2) + int(perm[card & 3]) for card in range(52)] for perm in SUIT_PERMUTATIONS],
    dtype=np.int64,
)


def combinations_array(n: int, k: int) -> Ints:
    """Every ``k``-subset of ``range(n)`` as sorted rows, in lexicographic order.

    >>> combinations_array(4, 2).tolist()
    [[0, 1], [0, 2], [0, 3], [1, 2], [1, 3], [2, 3]]
    """
    rows = np.arange(n, dtype=np.int64)[:, None]
    for _ in range(k - 1):
        last = rows[:, -1]
        counts = n - 1 - last
        base = np.repeat(rows, counts, axis=0)
        # Within each block the next element runs from last + 1 to n - 1.
        starts = np.cumsum(counts) - counts
        offsets = np.arange(len(base)) - np.repeat(starts, counts)
        rows = np.column_stack([base, np.repeat(last, counts) + 1 + offsets])
    return rows[: comb(n, k)] if k > 0 else np.zeros((1, 0), dtype=np.int64)


def subset_rank(subsets: NDArray[np.integer], n: int) -> Ints:
    """The lexicographic index of each sorted row among the ``k``-subsets of ``range(n)``.

    >>> subset_rank(np.array([[0, 1], [2, 3]]), 4).tolist()
    [0, 5]
    """
    rows = np.asarray(subsets, dtype=np.int64)
    k = rows.shape[-1]
    table = np.array([[comb(a, b) for b in range(k + 2)] for a in range(n + 2)], dtype=np.int64)
    rank = np.zeros(rows.shape[:-1], dtype=np.int64)
    previous = np.full(rows.shape[:-1], -1, dtype=np.int64)
    for i in range(k):
        # Sets starting with a smaller element at position i come first:
        # sum over v in (previous, c) of C(n - 1 - v, k - 1 - i).
        current = rows[..., i]
        rank += table[n - previous - 1, k - i] - table[n - current, k - i]
        previous = current
    return rank


#: The 1,326 two-card hands as rows of two cards, in lexicographic order.
PAIRS: Ints = combinations_array(52, 2)
#: ``PAIR_INDEX[a, b]``: the index in :data:`PAIRS` of the hand {a, b} (-1 when a == b).
PAIR_INDEX: Ints = np.full((52, 52), -1, dtype=np.int64)
PAIR_INDEX[PAIRS[:, 0], PAIRS[:, 1]] = np.arange(len(PAIRS))
PAIR_INDEX[PAIRS[:, 1], PAIRS[:, 0]] = np.arange(len(PAIRS))
#: ``PAIR_PERMUTATIONS[g, i]``: the index of two-card hand ``i`` after relabelling by ``g``.
PAIR_PERMUTATIONS: Ints = PAIR_INDEX[
    CARD_PERMUTATIONS[:, PAIRS[:, 0]], CARD_PERMUTATIONS[:, PAIRS[:, 1]]
]


def suit_masks(cards: NDArray[np.integer]) -> Ints:
    """Each row's four 13-bit rank masks, one per suit: shape ``(..., 4)``.

    >>> suit_masks(np.array([0, 4, 51])).tolist()  # 2c 3c As
    [3, 0, 0, 4096]
    """
    cards = np.asarray(cards, dtype=np.int64)
    bits = np.left_shift(1, cards >> 2)
    return np.stack([np.where((cards & 3) == s, bits, 0).sum(axis=-1) for s in range(4)], axis=-1)


def canonical(cards: NDArray[np.integer]) -> tuple[Ints, Ints]:
    """Canonical form of each row of cards: ``(key, g)``.

    ``key`` packs the sorted suit masks (equal keys: same set up to suits);
    ``g`` is one suit permutation (an index into :data:`SUIT_PERMUTATIONS`)
    taking the row to its canonical cards.

    >>> from pokerhouse.cards import parse_cards
    >>> keys, g = canonical(np.array([parse_cards("As Kd 2d"), parse_cards("Ah Kc 2c")]))
    >>> bool(keys[0] == keys[1])
    True
    """
    masks = suit_masks(cards)
    # Largest mask first: order[..., i] is the suit that becomes suit i.
    order = np.argsort(-masks, axis=-1, kind="stable")
    ordered = np.take_along_axis(masks, order, axis=-1)
    key = ordered[..., 0] << 39 | ordered[..., 1] << 26 | ordered[..., 2] << 13 | ordered[..., 3]
    destination = np.argsort(order, axis=-1)  # where each suit goes
    code = destination[..., 0] * 64 + destination[..., 1] * 16 + destination[..., 2] * 4
    code += destination[..., 3]
    lookup = np.zeros(256, dtype=np.int64)
    lookup[SUIT_PERMUTATIONS @ np.array([64, 16, 4, 1])] = np.arange(24)
    return key, lookup[code]


def cards_of_key(keys: Ints, size: int) -> Ints:
    """The canonical cards (sorted rows of ``size``) of each key from :func:`canonical`."""
    masks = (keys[:, None] >> np.array([39, 26, 13, 0])) & 0x1FFF
    bits = (masks[:, :, None] >> np.arange(13)) & 1  # (keys, suit, rank)
    # Card 4 * rank + suit: lay the bits out by rank, then suit.
    flat = bits.transpose(0, 2, 1).reshape(len(keys), 52)
    return np.nonzero(flat)[1].reshape(len(keys), size).astype(np.int64)


def stabilizer(cards: NDArray[np.integer]) -> Ints:
    """The suit permutations that map this set of cards to itself.

    >>> from pokerhouse.cards import parse_cards
    >>> len(stabilizer(np.array(parse_cards("As Ks Qs"))))  # any order of the other suits
    6
    >>> len(stabilizer(np.array(parse_cards("As Kd"))))  # swap clubs and hearts, or not
    2
    """
    row = np.asarray(cards, dtype=np.int64)
    images = np.sort(CARD_PERMUTATIONS[:, row], axis=1)
    return np.flatnonzero((images == np.sort(row)).all(axis=1))


@dataclass(frozen=True, eq=False)
class FlopClasses:
    """The 1,755 flop classes, and how each of the 22,100 flops maps to its class."""

    #: Canonical cards of each class, shape (1755, 3).
    cards: Ints
    #: How many flops each class holds (sum 22,100).
    weights: Ints
    #: For each flop (by :func:`subset_rank` among 3-subsets of 52): its class ...
    class_of: Ints
    #: ... and a suit permutation taking it to the class's canonical cards.
    permutation_of: Ints
    #: For each class: the suit permutations fixing its canonical cards.
    stabilizers: tuple[Ints, ...]


@cache
def flop_classes() -> FlopClasses:
    """All flops grouped by suit symmetry (built once)."""
    flops = combinations_array(52, 3)
    keys, perms = canonical(flops)
    unique, class_of, weights = np.unique(keys, return_inverse=True, return_counts=True)
    cards = cards_of_key(unique, 3)
    return FlopClasses(
        cards=cards,
        weights=weights.astype(np.int64),
        class_of=class_of.astype(np.int64),
        permutation_of=perms,
        stabilizers=tuple(stabilizer(row) for row in cards),
    )


@dataclass(frozen=True, eq=False)
class BoardClasses:
    """The 134,459 classes of five-card boards and their sizes."""

    #: Canonical cards of each class, sorted, shape (134459, 5).
    cards: Ints
    #: How many boards each class holds (sum 2,598,960).
    weights: Ints


@cache
def board_classes() -> BoardClasses:
    """All five-card boards grouped by suit symmetry (built once, about a second)."""
    boards = combinations_array(52, 5)
    keys, _ = canonical(boards)
    unique, weights = np.unique(keys, return_counts=True)
    return BoardClasses(cards=cards_of_key(unique, 5), weights=weights.astype(np.int64))
