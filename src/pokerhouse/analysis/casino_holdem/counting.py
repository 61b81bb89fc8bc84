"""For a five-card board: how every two-card hand fares against every dealer hand.

Given a board, the 47 unseen cards make 1,081 two-card hands. For each hand
``h`` the dealer holds one of the 990 hands that share no card with it.
:func:`board_counts` returns, for every ``h`` at once:

- ``nq``: dealer hands that do not qualify (below a pair of fours);
- ``nw``: dealer hands that do not qualify *or* that ``h`` beats;
- ``m``: dealer hands that do not qualify or that ``h`` beats or ties.

(``nw - nq`` wins, ``m - nw`` stand-offs, ``990 - m`` losses.)

The trick: both the box and the dealer draw from the same 47 cards, so one
array of 1,081 values serves both. Counting dealer hands below ``h`` is a
sort of that array; the dealer hands that share a card with ``h`` are then
taken out again (card removal) with the counts of each card's own 46 hands,
sorted the same way.

>>> import numpy as np
>>> from pokerhouse.cards import parse_cards
>>> counts = board_counts(np.array([parse_cards("As Kd 7c 7h 2s")]))
>>> counts.classes.shape, int(counts.nq.max()) <= 990
((1, 1081), True)
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import numpy as np
from numpy.typing import NDArray

from pokerhouse.analysis.casino_holdem.symmetry import combinations_array
from pokerhouse.analysis.casino_holdem.tables import hand_tables

Int32s = NDArray[np.int32]
Int64s = NDArray[np.int64]

UNSEEN = 47
HOLE_HANDS = 1081  # C(47, 2)
DEALER_HANDS = 990  # C(45, 2)
GROUP = UNSEEN - 1  # two-card hands holding one given unseen card


@dataclass(frozen=True, eq=False)
class _Layout:
    """Index tables over positions 0..46 of the unseen cards (the same for every board)."""

    first: Int64s  # (1081,) first position of each hand
    second: Int64s  # (1081,) second position
    groups: Int64s  # (47, 46): hands holding each position
    slot_first: Int64s  # (1081,) where hand i sits in its first card's group (flat)
    slot_second: Int64s  # (1081,) ... and in its second card's group


@cache
def _layout() -> _Layout:
    pairs = combinations_array(UNSEEN, 2)
    index = np.full((UNSEEN, UNSEEN), -1, dtype=np.int64)
    index[pairs[:, 0], pairs[:, 1]] = np.arange(HOLE_HANDS)
    index[pairs[:, 1], pairs[:, 0]] = np.arange(HOLE_HANDS)
    others = np.array([[x for x in range(UNSEEN) if x != c] for c in range(UNSEEN)])
    groups = index[np.arange(UNSEEN)[:, None], others]
    a, b = pairs[:, 0], pairs[:, 1]
    # In a's group the partners run 0..46 without a, so b sits at b - 1 (b > a).
    return _Layout(
        first=a,
        second=b,
        groups=groups,
        slot_first=a * GROUP + b - 1,
        slot_second=b * GROUP + a,
    )


@dataclass(frozen=True, eq=False)
class BoardCounts:
    """Per board (rows) and two-card hand (columns): see the module docstring."""

    #: The 47 unseen cards of each board, ascending; hand ``i`` is
    #: ``unseen[:, hole_positions()[i]]``.
    unseen: Int64s
    #: Class (0..7461) of each hand's best five of seven.
    classes: Int32s
    nq: Int32s
    nw: Int32s
    m: Int32s


def hole_positions() -> Int64s:
    """The 1,081 two-card hands as pairs of positions among the 47 unseen cards.

    >>> hole_positions()[[0, 1, -1]].tolist()
    [[0, 1], [0, 2], [45, 46]]
    """
    layout = _layout()
    return np.column_stack([layout.first, layout.second])


def _ranks_below(values: Int32s) -> tuple[Int32s, Int32s]:
    """For each row of ``values``: how many in the row are < and <= each entry.

    Sorts ``value * 2**s + column`` so the sort also says where each entry
    came from, then reads each run of equal values' first and last index.
    """
    rows, cols = values.shape
    shift = int(cols - 1).bit_length()
    keyed = np.sort((values << shift) | np.arange(cols, dtype=np.int32), axis=1)
    ordered = keyed >> shift
    starts = np.ones(keyed.shape, dtype=bool)
    starts[:, 1:] = ordered[:, 1:] != ordered[:, :-1]
    flat_starts = np.flatnonzero(starts)
    lengths = np.diff(flat_starts, append=starts.size)
    first = np.repeat(flat_starts, lengths)
    last = first + np.repeat(lengths, lengths)
    row_base = np.repeat(np.arange(rows, dtype=np.int64) * cols, cols)
    target = row_base + (keyed & ((1 << shift) - 1)).ravel()
    below = np.empty(rows * cols, dtype=np.int32)
    at_most = np.empty(rows * cols, dtype=np.int32)
    below[target] = first - row_base
    at_most[target] = last - row_base
    return below.reshape(rows, cols), at_most.reshape(rows, cols)


def board_classes_of_holes(boards: Int64s) -> tuple[Int64s, Int32s]:
    """The unseen cards of each board and the class of every two-card hand with it.

    >>> from pokerhouse.cards import parse_cards
    >>> unseen, classes = board_classes_of_holes(np.array([parse_cards("As Ks Qs Js 2d")]))
    >>> unseen.shape, classes.shape, int(classes.max())  # Ts makes a royal flush
    ((1, 47), (1, 1081), 7461)
    """
    tables = hand_tables()
    layout = _layout()
    boards = np.asarray(boards, dtype=np.int64)
    count = len(boards)
    free = np.ones((count, 52), dtype=bool)
    free[np.arange(count)[:, None], boards] = False
    unseen = np.nonzero(free)[1].reshape(count, UNSEEN)
    keys = tables.keys[unseen >> 2]
    board_key = tables.keys[boards >> 2].sum(axis=1)
    classes = tables.nonflush7[
        board_key[:, None] + keys[:, layout.first] + keys[:, layout.second]
    ].astype(np.int32)
    # At most one suit has three or more board cards: only it can make a flush.
    suits = boards & 3
    per_suit = np.stack([(suits == s).sum(axis=1) for s in range(4)], axis=1)
    flush_suit = np.where(per_suit.max(axis=1) >= 3, per_suit.argmax(axis=1), -1)
    board_mask = np.where(suits == flush_suit[:, None], np.left_shift(1, boards >> 2), 0).sum(1)
    bits = np.where((unseen & 3) == flush_suit[:, None], np.left_shift(1, unseen >> 2), 0)
    flushes = tables.flush[board_mask[:, None] | bits[:, layout.first] | bits[:, layout.second]]
    return unseen, np.maximum(classes, flushes)


def board_counts(boards: NDArray[np.integer]) -> BoardCounts:
    """Dealer-hand counts for every two-card hand on each board (rows of five cards)."""
    tables = hand_tables()
    layout = _layout()
    unseen, classes = board_classes_of_holes(np.asarray(boards, dtype=np.int64))
    count = len(unseen)
    below, at_most = _ranks_below(classes)
    # Each unseen card's 46 hands: counts within the group, to take out the
    # dealer hands that share a card with the box's hand.
    grouped = classes[:, layout.groups].reshape(count * UNSEEN, GROUP)
    group_below, group_at_most = _ranks_below(grouped)
    qualifier = tables.pair_of_fours
    group_nq = (grouped < qualifier).sum(axis=1, dtype=np.int32)
    # Pack the three per-group numbers (each < 64) into one int to gather once.
    packed = (
        group_below + (group_at_most << 7) + (np.repeat(group_nq, GROUP).reshape(-1, GROUP) << 14)
    ).reshape(count, UNSEEN * GROUP)
    shared = packed[:, layout.slot_first] + packed[:, layout.slot_second]
    low = classes < qualifier
    # The box's own hand sits in both its cards' groups and in the whole row.
    nq = low.sum(axis=1, keepdims=True, dtype=np.int32) - (shared >> 14) + low
    nw = np.maximum(below - (shared & 127), nq)
    m = np.maximum(at_most - ((shared >> 7) & 127) + 1, nq)
    return BoardCounts(unseen=unseen, classes=classes, nq=nq, nw=nw, m=m)
