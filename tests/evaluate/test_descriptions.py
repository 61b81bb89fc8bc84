"""Descriptions, categories and the cards that make each hand."""

from __future__ import annotations

import pytest

from pokerhouse import evaluate
from pokerhouse.cards import format_cards
from pokerhouse.evaluate import HighCategory, LowCategory, TeenPattiCategory


@pytest.mark.parametrize(
    ("cards", "description", "category", "best"),
    [
        ("As Ks Qs Js Ts 2c 3d", "Royal flush", HighCategory.STRAIGHT_FLUSH, "As Ks Qs Js Ts"),
        (
            "9h 8h 7h 6h 5h 4h Ac",
            "Straight flush, nine high",
            HighCategory.STRAIGHT_FLUSH,
            "9h 8h 7h 6h 5h",
        ),
        (
            "5d 4d 3d 2d Ad Kd Qd",
            "Straight flush, five high",
            HighCategory.STRAIGHT_FLUSH,
            "5d 4d 3d 2d Ad",
        ),
        (
            "Kc Kd Kh Ks 4c 4d 9s",
            "Four of a kind, kings",
            HighCategory.FOUR_OF_A_KIND,
            "Kc Kd Kh Ks 9s",
        ),
        (
            "Kd Kh Ks 4c 4d 9s 2h",
            "Full house, kings over fours",
            HighCategory.FULL_HOUSE,
            "Kd Kh Ks 4c 4d",
        ),
        (
            "4c 4d 4h Kd Ks Kh 2c",
            "Full house, kings over fours",
            HighCategory.FULL_HOUSE,
            "Kd Ks Kh 4c 4d",
        ),
        ("Ah 9h 7h 4h 2h 3c Kd", "Flush, ace high", HighCategory.FLUSH, "Ah 9h 7h 4h 2h"),
        ("Ah Kh 9h 7h 4h 2h 3h", "Flush, ace high", HighCategory.FLUSH, "Ah Kh 9h 7h 4h"),
        ("Ah 2d 3c 4s 5h Kc Kd", "Straight, five high", HighCategory.STRAIGHT, "5h 4s 3c 2d Ah"),
        ("Tc Jd Qh Ks Ac 2d 3h", "Straight, ace high", HighCategory.STRAIGHT, "Ac Ks Qh Jd Tc"),
        (
            "7h 7d 7c Kd Qs 2c 9h",
            "Three of a kind, sevens",
            HighCategory.THREE_OF_A_KIND,
            "7h 7d 7c Kd Qs",
        ),
        (
            "Ac Ad 9h 9s 4c 4d 2h",
            "Two pair, aces and nines",
            HighCategory.TWO_PAIR,
            "Ac Ad 9h 9s 4c",
        ),
        ("6c 6d Ah Ks 8c 3d 2h", "Pair of sixes", HighCategory.PAIR, "6c 6d Ah Ks 8c"),
        (
            "Ac Jd 9h 7s 5c 3d 2h",
            "High card, ace, jack, nine, seven, five",
            HighCategory.HIGH_CARD,
            "Ac Jd 9h 7s 5c",
        ),
        (
            "7c 5d 4h 3s 2c",
            "High card, seven, five, four, three, two",
            HighCategory.HIGH_CARD,
            "7c 5d 4h 3s 2c",
        ),
    ],
)
def test_high_descriptions(cards: str, description: str, category: HighCategory, best: str) -> None:
    hand = evaluate.high(cards)
    assert hand.description == description
    assert hand.category is category
    assert format_cards(hand.cards) == best
    assert evaluate.high_description(hand.value) == description
    assert evaluate.high_category(hand.value) is category
    assert str(hand) == description
    assert hand.text == f"{description}: {best}"


@pytest.mark.parametrize(
    ("cards", "description", "category", "best"),
    [
        ("Ac 2d 3h 4s 5c Kd Kh", "5-4-3-2-A low", LowCategory.FIVE_LOW, "5c 4s 3h 2d Ac"),
        ("8c 7d 4h 3s 2c Kd Kh", "8-7-4-3-2 low", LowCategory.EIGHT_LOW, "8c 7d 4h 3s 2c"),
        ("8c 6d 4h 3s 2c 8d 8h", "8-6-4-3-2 low", LowCategory.EIGHT_LOW, "8c 6d 4h 3s 2c"),
        ("Kc Qd Jh Ts 9c 9d 9h", "K-Q-J-T-9 low", LowCategory.KING_LOW, "Kc Qd Jh Ts 9c"),
        ("6c 6d 4h 3s 2c 6h 6s", "Pair of sixes", LowCategory.PAIR, "6c 6d 4h 3s 2c"),
        ("Ac Ad 2h 2s 3c 3d 4h", "Pair of aces", LowCategory.PAIR, "Ac Ad 4h 3c 2h"),
        ("Ac Ad Ah 2s 2c 2d 3h", "Two pair, twos and aces", LowCategory.TWO_PAIR, "2s 2c Ac Ad 3h"),
        (
            "Kc Kd Kh Ks Qc Qd Qh",
            "Full house, queens over kings",
            LowCategory.FULL_HOUSE,
            "Qc Qd Qh Kc Kd",
        ),
        ("7c 7d 7h 7s 5c", "Four of a kind, sevens", LowCategory.FOUR_OF_A_KIND, "7c 7d 7h 7s 5c"),
        (
            "7c 7d 7h 6s 5c",
            "Three of a kind, sevens",
            LowCategory.THREE_OF_A_KIND,
            "7c 7d 7h 6s 5c",
        ),
    ],
)
def test_low_descriptions(cards: str, description: str, category: LowCategory, best: str) -> None:
    hand = evaluate.low(cards)
    assert hand.description == description
    assert hand.category is category
    assert format_cards(hand.cards) == best
    assert evaluate.low_description(hand.value) == description
    assert evaluate.low_category(hand.value) is category


@pytest.mark.parametrize(
    ("cards", "description", "category", "best"),
    [
        ("Ac Ad Ah", "Trail of aces", TeenPattiCategory.TRAIL, "Ac Ad Ah"),
        ("3h Ah 2h", "Pure sequence, A-2-3", TeenPattiCategory.PURE_SEQUENCE, "Ah 2h 3h"),
        ("Qs Ks As", "Pure sequence, A-K-Q", TeenPattiCategory.PURE_SEQUENCE, "As Ks Qs"),
        ("Jc Kd Qh", "Sequence, K-Q-J", TeenPattiCategory.SEQUENCE, "Kd Qh Jc"),
        ("2c 9c Jc", "Color, J-9-2", TeenPattiCategory.COLOR, "Jc 9c 2c"),
        ("7s Kc Kd", "Pair of kings, 7 kicker", TeenPattiCategory.PAIR, "Kc Kd 7s"),
        ("2c Ad Kh", "High card, A-K-2", TeenPattiCategory.HIGH_CARD, "Ad Kh 2c"),
    ],
)
def test_teen_patti_descriptions(
    cards: str, description: str, category: TeenPattiCategory, best: str
) -> None:
    hand = evaluate.teen_patti(cards)
    assert hand.description == description
    assert hand.category is category
    assert format_cards(hand.cards) == best
    assert evaluate.teen_patti_description(hand.value) == description
    assert evaluate.teen_patti_category(hand.value) is category


def test_category_labels() -> None:
    assert HighCategory.FOUR_OF_A_KIND.label == "Four of a kind"
    assert [c.label for c in LowCategory][-3:] == ["7-low", "6-low", "5-low"]
    assert LowCategory.KING_LOW.label == "K-low"
    assert LowCategory.PAIR.label == "Pair" and LowCategory.PAIR.paired
    assert TeenPattiCategory.COLOR.label == "Color"


def test_hand_values_are_frozen() -> None:
    hand = evaluate.high("As Ks Qs Js Ts")
    with pytest.raises(AttributeError):
        hand.value = 1  # type: ignore[misc]


def test_royal_flush_only_at_the_top() -> None:
    assert evaluate.is_royal_flush(evaluate.HIGH_VALUES)
    king_high = evaluate.high_value(evaluate.high("Kd Qd Jd Td 9d").cards)
    assert not evaluate.is_royal_flush(king_high)
    assert evaluate.high_category(king_high) is HighCategory.STRAIGHT_FLUSH
