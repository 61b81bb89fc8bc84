"""Suit symmetry: combinations, ranks, canonical forms, flop and board classes."""

from __future__ import annotations

from itertools import combinations
from math import comb

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from pokerhouse.analysis.casino_holdem.symmetry import (
    CARD_PERMUTATIONS,
    PAIR_INDEX,
    PAIR_PERMUTATIONS,
    PAIRS,
    board_classes,
    canonical,
    combinations_array,
    flop_classes,
    stabilizer,
    subset_rank,
)


def test_combinations_array_matches_itertools() -> None:
    for n, k in ((6, 3), (10, 2), (7, 1), (8, 5)):
        assert combinations_array(n, k).tolist() == [list(c) for c in combinations(range(n), k)]
    assert len(combinations_array(52, 5)) == comb(52, 5)


def test_subset_rank_inverts_the_lexicographic_order() -> None:
    rows = combinations_array(20, 4)
    assert (subset_rank(rows, 20) == np.arange(len(rows))).all()


@given(st.lists(st.integers(0, 51), min_size=3, max_size=7, unique=True), st.integers(0, 23))
def test_canonical_form_ignores_suit_names(cards: list[int], perm: int) -> None:
    row = np.array([cards])
    relabelled = CARD_PERMUTATIONS[perm][row]
    key, g = canonical(row)
    key2, _ = canonical(relabelled)
    assert key[0] == key2[0]
    # g takes the row to the same canonical cards as the relabelled row's.
    image = np.sort(CARD_PERMUTATIONS[g[0]][row[0]])
    _, g2 = canonical(relabelled)
    assert (image == np.sort(CARD_PERMUTATIONS[g2[0]][relabelled[0]])).all()


def test_flop_classes() -> None:
    flops = flop_classes()
    assert len(flops.cards) == 1755 and flops.weights.sum() == 22100
    everything = combinations_array(52, 3)
    images = np.sort(CARD_PERMUTATIONS[flops.permutation_of[:, None], everything], axis=1)
    assert (images == flops.cards[flops.class_of]).all()
    # Orbit size times stabilizer size is the 24 relabellings.
    sizes = np.array([len(s) for s in flops.stabilizers])
    assert (sizes * flops.weights == 24).all()


def test_board_classes() -> None:
    boards = board_classes()
    assert len(boards.cards) == 134459 and boards.weights.sum() == comb(52, 5)
    for row, weight in zip(boards.cards[::5000], boards.weights[::5000], strict=True):
        assert len(stabilizer(row)) * weight == 24


def test_pair_permutations() -> None:
    assert (PAIR_INDEX[PAIRS[:, 0], PAIRS[:, 1]] == np.arange(1326)).all()
    for g in (0, 7, 23):
        assert sorted(PAIR_PERMUTATIONS[g].tolist()) == list(range(1326))
