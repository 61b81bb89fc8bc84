"""The rule book's rankings (RULES.md), one test per sentence."""

from __future__ import annotations

from pokerhouse import evaluate
from pokerhouse.cards import parse_cards


def high(text: str) -> int:
    return evaluate.high_value(parse_cards(text))


def low(text: str) -> int:
    return evaluate.low_value(parse_cards(text))


def test_high_categories_in_the_standard_order() -> None:
    ladder = [
        "9h 8h 7h 6h 5h",  # straight flush
        "2c 2d 2h 2s 3c",  # four of a kind
        "2c 2d 2h 3s 3c",  # full house
        "7d 5d 4d 3d 2d",  # flush
        "5c 4d 3h 2s Ac",  # straight
        "Ac Ad Ah Ks Qc",  # three of a kind
        "Ac Ad Kh Ks Qc",  # two pair
        "Ac Ad Kh Qs Jc",  # pair
        "Ac Kd Qh Js 9c",  # high card
    ]
    values = [high(text) for text in ladder]
    assert values == sorted(values, reverse=True)


def test_a2345_is_the_lowest_straight() -> None:
    assert high("6c 5d 4h 3s 2c") > high("5c 4d 3h 2s Ac") > high("Ac Ad Ah Ks Qc")
    assert high("5h 4h 3h 2h Ah") < high("6h 5h 4h 3h 2h")
    assert evaluate.high("Qc Kd Ah 2s 3c").category is evaluate.HighCategory.HIGH_CARD


def test_high_uses_the_best_five_of_seven_suits_never_break_ties() -> None:
    assert high("As Ks 2c 3d 7h 8h 9h") == high("Ah Kh 2c 3d 7s 8s 9s")
    assert high("As Ks Qs Js 9s 2c 3d") > high("Ac Kd Qh Js Tc 9d 2c")


def test_low_aces_are_low_straights_and_flushes_do_not_count() -> None:
    assert low("5h 4h 3h 2h Ah") == low("5c 4d 3h 2s Ac") == evaluate.LOW_VALUES
    assert low("6c 5d 4h 3s 2c") < low("6c 4d 3h 2s Ac")


def test_low_compares_the_highest_card_first_then_the_next() -> None:
    assert low("8c 7d 4h 3s 2c") < low("8c 6d 5h 4s 3c")
    assert low("9c 2d 3h 4s Ac") < low("8c 7d 6h 5s 4c")


def test_low_any_unpaired_hand_beats_any_paired_one() -> None:
    assert low("Kc Qd Jh Ts 9c") > low("Ac Ad 2h 3s 4c")


def test_low_a_pair_of_aces_is_the_lowest_pair() -> None:
    assert low("Ac Ad 2h 3s 4c") > low("2c 2d Ah 3s 4c") > low("3c 3d Ah 2s 4c")
    assert low("Kc Kd Ah 2s 3c") < low("Qc Qd Jh Ts 9c")


def test_low_pairs_count_against_and_the_best_five_of_seven_is_used() -> None:
    assert low("Ac Ad 2h 2s 3c 4d 5h") == evaluate.LOW_VALUES
    assert evaluate.low("Kc Kd Kh 2c 2d 3c 3d").description == "Two pair, threes and twos"


def test_equal_lows_split_suits_never_count() -> None:
    assert low("7c 5c 4c 3c 2c") == low("7d 5h 4s 3c 2d")
