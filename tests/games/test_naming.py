"""A player's hand named at every street, however few cards there are yet."""

from __future__ import annotations

import pytest

from pokerhouse import evaluate
from pokerhouse.cards import parse_cards
from pokerhouse.games.naming import hand_name, partial_high, partial_low


@pytest.mark.parametrize(
    ("cards", "board", "name"),
    [
        ("4d Tc 4c", "", "Pair of fours"),
        ("6c 6d 6h", "", "Three of a kind, sixes"),
        ("As Kd 7c", "", "High card, ace, king, seven"),
        ("6c 6d Kh", "6s 2d", "Three of a kind, sixes"),
        ("6c 6d Kh", "6s 2d Ks", "Full house, sixes over kings"),
        ("Ah 2h 3h", "4h 5h Kd Kc", "Straight flush, five high"),
    ],
)
def test_3x4_names_the_hole_cards_and_every_street(cards: str, board: str, name: str) -> None:
    assert hand_name("3x4", parse_cards(cards), parse_cards(board)) == name


@pytest.mark.parametrize(
    ("cards", "name"),
    [
        ("7c 4d Ah", "7-4-A low so far"),
        ("8c 6d 4h 2s", "8-6-4-2 low so far"),
        ("8c 4d 8h 2s", "8-4-2 low so far, with two eights"),
        ("8c 6d 4h 2s Ac", "8-6-4-2-A low"),
        ("8c 6d 4h 2s Ac Kd Kh", "8-6-4-2-A low"),
        ("8c 8d 4h 4s Ac", "Two pair, eights and fours"),
    ],
)
def test_razz_names_the_low_so_far_then_the_best_low(cards: str, name: str) -> None:
    assert hand_name("razz", parse_cards(cards)) == name


def test_teen_patti_is_named_once_the_three_cards_are_seen() -> None:
    assert hand_name("teen-patti", parse_cards("9c 9d 2s")) == "Pair of nines, 2 kicker"
    assert hand_name("teen-patti", ()) is None


def test_casino_holdem_names_the_box_at_the_flop_and_the_river() -> None:
    hole, flop = parse_cards("3s 9s"), parse_cards("4s Ks 9d")
    assert hand_name("casino-holdem", hole, flop) == "Pair of nines"
    assert hand_name("casino-holdem", hole, flop + parse_cards("8s Ac")) == "Flush, king high"


def test_five_cards_or_more_are_named_as_the_evaluators_name_them() -> None:
    cards = parse_cards("Kd Kh 4s Ks 4c 9d 2h")
    assert hand_name("3x4", cards[:3], cards[3:]) == evaluate.high(cards).description
    assert hand_name("razz", cards) == evaluate.low(cards).description


def test_partial_hands_read_as_the_evaluators_descriptions_do() -> None:
    # Same words as five-card hands: a partial pair reads as the full evaluator's pair.
    assert partial_high(parse_cards("Kc Kd")) == "Pair of kings"
    assert evaluate.high("Kc Kd 7h 4s 2c").description == "Pair of kings"
    assert partial_high(parse_cards("Kc Kd Ks Kh")) == "Four of a kind, kings"
    assert partial_low(parse_cards("Ac Ad As")) == "A low so far, with three aces"
