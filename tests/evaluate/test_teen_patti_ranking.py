"""Teen Patti ranking (RULES.md, 3 Card Poker): every three-card hand."""

from __future__ import annotations

from collections import Counter
from itertools import combinations

import pytest

from pokerhouse import evaluate
from pokerhouse.cards import parse_cards
from pokerhouse.evaluate import TeenPattiCategory

from .conftest import assert_same_order


def naive_teen_patti(cards: tuple[int, ...]) -> tuple[int, ...]:
    """An independent, slow statement of the rule book's ranking."""
    ranks = sorted((card >> 2 for card in cards), reverse=True)
    suited = len({card & 3 for card in cards}) == 1
    if ranks == [12, 1, 0]:  # A-2-3: the best sequence
        sequence: int | None = 13
    elif ranks[0] - ranks[1] == 1 and ranks[1] - ranks[2] == 1:
        sequence = ranks[0]
    else:
        sequence = None
    if ranks[0] == ranks[2]:
        return (5, ranks[0])
    if sequence is not None:
        return (4 if suited else 3, sequence)
    if suited:
        return (2, *ranks)
    if ranks[0] == ranks[1] or ranks[1] == ranks[2]:
        pair = ranks[1]
        return (1, pair, sum(ranks) - 2 * pair)
    return (0, *ranks)


ALL_HANDS = list(combinations(range(52), 3))


def test_category_counts_over_all_22100_hands() -> None:
    values = [evaluate.teen_patti_value(hand) for hand in ALL_HANDS]
    counts = Counter(evaluate.teen_patti_category(value) for value in values)
    assert counts == {
        TeenPattiCategory.TRAIL: 52,
        TeenPattiCategory.PURE_SEQUENCE: 48,
        TeenPattiCategory.SEQUENCE: 720,
        TeenPattiCategory.COLOR: 1_096,
        TeenPattiCategory.PAIR: 3_744,
        TeenPattiCategory.HIGH_CARD: 16_440,
    }
    assert sorted(set(values)) == list(range(1, 742))
    assert evaluate.teen_patti_category_counts() == counts


def test_every_hand_ranks_as_the_rule_book_says() -> None:
    assert_same_order(
        [evaluate.teen_patti_value(hand) for hand in ALL_HANDS],
        [naive_teen_patti(hand) for hand in ALL_HANDS],  # type: ignore[misc]
    )


def test_card_order_does_not_matter() -> None:
    for hand in ALL_HANDS[::97]:
        a, b, c = hand
        values = {evaluate.teen_patti_value(p) for p in ((a, b, c), (c, b, a), (b, c, a))}
        assert len(values) == 1


def value(text: str) -> int:
    return evaluate.teen_patti_value(parse_cards(text))


def test_a23_is_the_best_sequence_then_akq_then_down_to_432() -> None:
    assert value("Ac 2d 3h") > value("Ac Kd Qh") > value("Kc Qd Jh") > value("4c 3d 2h")
    assert value("Ah 2h 3h") > value("Ah Kh Qh")
    assert evaluate.teen_patti("4c 3d 2h").category is TeenPattiCategory.SEQUENCE


def test_k_a_2_is_not_a_sequence() -> None:
    assert evaluate.teen_patti("Kc Ad 2h").category is TeenPattiCategory.HIGH_CARD
    assert evaluate.teen_patti("Kc Ac 2c").category is TeenPattiCategory.COLOR


def test_categories_rank_trail_pure_sequence_sequence_color_pair_high_card() -> None:
    ladder = ["2c 2d 2h", "4c 3c 2c", "4c 3d 2h", "5c 3c 2c", "2c 2d 3h", "Ac Kd Jh"]
    values = [value(text) for text in ladder]
    assert values == sorted(values, reverse=True)


@pytest.mark.parametrize(
    ("better", "worse"),
    [
        ("Ac Ad Ah", "Kc Kd Kh"),  # AAA high
        ("3c 3d 3h", "Ac Kc Qc"),  # 222-type trails beat every pure sequence
        ("As Ks Js", "Ac Kc 9c"),  # AKJ suited is the best color
        ("6d 3d 2d", "Ah Ad Kc"),  # the worst color beats the best pair
        ("Kc Kd 7s", "Kh Ks 6c"),  # pair, then the kicker
        ("Ac Kd 2h", "Ac Qd Jh"),  # high cards compare card by card
    ],
)
def test_ranking_examples(better: str, worse: str) -> None:
    assert value(better) > value(worse)


def test_flushes_and_high_cards_compare_card_by_card_suits_never_count() -> None:
    assert value("As Ks Js") == value("Ah Kh Jh")
    assert value("5c 3c 2c") == min(
        value(" ".join(cards)) for cards in (("5c", "3c", "2c"), ("5d", "3d", "2d"))
    )
    assert evaluate.teen_patti("5c 3c 2c").description == "Color, 5-3-2"
