"""All 133,784,560 seven-card hands (and all six-card ones), counted by category."""

from __future__ import annotations

import pytest

from pokerhouse import evaluate
from pokerhouse.evaluate import HighCategory, LowCategory

ALL_SEVEN = 133_784_560


@pytest.mark.slow
def test_seven_card_high_counts() -> None:
    counts = evaluate.high_category_counts(7)
    assert counts == {
        HighCategory.STRAIGHT_FLUSH: 41_584,
        HighCategory.FOUR_OF_A_KIND: 224_848,
        HighCategory.FULL_HOUSE: 3_473_184,
        HighCategory.FLUSH: 4_047_644,
        HighCategory.STRAIGHT: 6_180_020,
        HighCategory.THREE_OF_A_KIND: 6_461_620,
        HighCategory.TWO_PAIR: 31_433_400,
        HighCategory.PAIR: 58_627_800,
        HighCategory.HIGH_CARD: 23_294_460,
    }
    assert sum(counts.values()) == ALL_SEVEN
    # Seven cards reach 4,824 of the 7,462 classes (no 7-5-4-3-2 and the like).
    assert int((evaluate.high_value_counts(7) > 0).sum()) == 4824


@pytest.mark.slow
def test_seven_card_low_counts_by_top_card() -> None:
    counts = evaluate.low_category_counts(7)
    unpaired = {
        LowCategory.FIVE_LOW: 781_824,
        LowCategory.SIX_LOW: 3_151_360,
        LowCategory.SEVEN_LOW: 7_426_560,
        LowCategory.EIGHT_LOW: 13_171_200,
        LowCategory.NINE_LOW: 19_174_400,
        LowCategory.TEN_LOW: 23_675_904,
        LowCategory.JACK_LOW: 24_837_120,
        LowCategory.QUEEN_LOW: 21_457_920,
        LowCategory.KING_LOW: 13_939_200,
    }
    assert {c: n for c, n in counts.items() if not c.paired} == unpaired
    paired = sum(n for c, n in counts.items() if c.paired)
    assert paired == ALL_SEVEN - sum(unpaired.values())


def test_six_card_high_counts() -> None:
    assert evaluate.high_category_counts(6) == {
        HighCategory.STRAIGHT_FLUSH: 1_844,
        HighCategory.FOUR_OF_A_KIND: 14_664,
        HighCategory.FULL_HOUSE: 165_984,
        HighCategory.FLUSH: 205_792,
        HighCategory.STRAIGHT: 361_620,
        HighCategory.THREE_OF_A_KIND: 732_160,
        HighCategory.TWO_PAIR: 2_532_816,
        HighCategory.PAIR: 9_730_740,
        HighCategory.HIGH_CARD: 6_612_900,
    }
