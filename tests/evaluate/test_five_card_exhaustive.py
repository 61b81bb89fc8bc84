"""Every five-card hand: category counts and the number of distinct values."""

from __future__ import annotations

from collections import Counter
from itertools import combinations

import numpy as np

from pokerhouse import evaluate
from pokerhouse.evaluate import HighCategory, LowCategory
from pokerhouse.evaluate.exhaustive import combinations_array

ALL_FIVE = 2_598_960


def test_high_counts_over_all_five_card_hands() -> None:
    values = Counter(map(evaluate.high_value, combinations(range(52), 5)))
    assert sum(values.values()) == ALL_FIVE
    assert len(values) == 7462
    assert sorted(values) == list(range(1, 7463))
    by_category = Counter()
    for value, count in values.items():
        by_category[evaluate.high_category(value)] += count
    assert by_category == {
        HighCategory.STRAIGHT_FLUSH: 40,
        HighCategory.FOUR_OF_A_KIND: 624,
        HighCategory.FULL_HOUSE: 3_744,
        HighCategory.FLUSH: 5_108,
        HighCategory.STRAIGHT: 10_200,
        HighCategory.THREE_OF_A_KIND: 54_912,
        HighCategory.TWO_PAIR: 123_552,
        HighCategory.PAIR: 1_098_240,
        HighCategory.HIGH_CARD: 1_302_540,
    }


def test_royal_flushes_are_the_four_top_hands() -> None:
    tens_and_up = range(32, 52)
    royals = [
        hand
        for hand in combinations(tens_and_up, 5)
        if evaluate.is_royal_flush(evaluate.high_value(hand))
    ]
    assert len(royals) == 4
    assert all(evaluate.high(hand).description == "Royal flush" for hand in royals)


def test_low_has_6175_distinct_values_over_all_five_card_hands() -> None:
    values = Counter(map(evaluate.low_value, combinations(range(52), 5)))
    assert sum(values.values()) == ALL_FIVE
    assert sorted(values) == list(range(1, 6176))
    unpaired = sum(n for v, n in values.items() if not evaluate.low_category(v).paired)
    # 1,287 sets of five distinct ranks, 4**5 suit choices each.
    assert unpaired == 1287 * 4**5


def test_batch_and_exhaustive_counts_agree_with_the_scalar_evaluators() -> None:
    hands = combinations_array(52, 5)
    high = evaluate.high_batch(hands)
    low = evaluate.low_batch(hands)
    sample = hands[::11].tolist()
    assert high[::11].tolist() == list(map(evaluate.high_value, sample))
    assert low[::11].tolist() == list(map(evaluate.low_value, sample))
    assert np.array_equal(np.bincount(high, minlength=7463), evaluate.high_value_counts(5))
    assert np.array_equal(np.bincount(low, minlength=6176), evaluate.low_value_counts(5))


def test_five_card_low_counts_by_top_card() -> None:
    counts = evaluate.low_category_counts(5)
    # n distinct ranks below the top card choose 4, times 4**5 suits.
    for category, top in (
        (LowCategory.FIVE_LOW, 5),
        (LowCategory.EIGHT_LOW, 8),
        (LowCategory.KING_LOW, 13),
    ):
        below = top - 1
        assert counts[category] == (below * (below - 1) * (below - 2) * (below - 3) // 24) * 4**5
