"""Random hands rank in the same order as independent evaluators.

High hands against phevaluator and treys (both lower-is-better, so negated),
A-5 lows against PokerKit's ``RegularLowHand``.
"""

from __future__ import annotations

import random
from itertools import combinations, pairwise

import pytest
from phevaluator import evaluate_cards
from pokerkit import RegularLowHand
from treys import Card as TreysCard
from treys import Evaluator

from pokerhouse import evaluate
from pokerhouse.cards import format_cards

from .conftest import assert_same_order, random_hands


@pytest.mark.parametrize("size", [5, 6, 7])
def test_high_matches_phevaluator(rng: random.Random, size: int) -> None:
    hands = random_hands(rng, size, 20_000)
    # phevaluator numbers cards 4 * rank + suit (c, d, h, s) like we do.
    assert_same_order(
        [evaluate.high_value(hand) for hand in hands],
        [-evaluate_cards(*hand) for hand in hands],
    )


@pytest.mark.parametrize("size", [5, 6, 7])
def test_high_matches_treys(rng: random.Random, size: int) -> None:
    hands = random_hands(rng, size, 3_000)
    evaluator = Evaluator()
    theirs = []
    for hand in hands:
        cards = [TreysCard.new(str(card)) for card in format_cards(hand).split()]
        theirs.append(-evaluator.evaluate(cards[:2], cards[2:]))
    assert_same_order([evaluate.high_value(hand) for hand in hands], theirs)


def test_high_separates_the_straight_and_flush_edge_cases(rng: random.Random) -> None:
    # Hands rich in straights and flushes: few ranks, few suits.
    ranks, suits = [0, 1, 2, 3, 4, 8, 9, 10, 11, 12], [0, 1]
    pool = [4 * r + s for r in ranks for s in suits]
    hands = [rng.sample(pool, 7) for _ in range(5_000)]
    assert_same_order(
        [evaluate.high_value(hand) for hand in hands],
        [-evaluate_cards(*hand) for hand in hands],
    )


def pokerkit_low(hand: list[int]) -> RegularLowHand:
    return RegularLowHand.from_game(format_cards(hand, separator=""))


@pytest.mark.parametrize("size", [5, 6, 7])
def test_low_matches_pokerkit_regular_low_hand(rng: random.Random, size: int) -> None:
    hands = random_hands(rng, size, 1_500)
    ours = [evaluate.low_value(hand) for hand in hands]
    theirs = [pokerkit_low(hand) for hand in hands]
    # PokerKit hands compare with < (stronger is greater) but do not hash by strength.
    order = sorted(range(len(hands)), key=lambda i: ours[i])
    for i, j in pairwise(order):
        tied = not (theirs[i] < theirs[j] or theirs[j] < theirs[i])
        assert tied if ours[i] == ours[j] else theirs[i] < theirs[j]


def test_low_matches_pokerkit_on_paired_hands(rng: random.Random) -> None:
    # Few ranks: most hands are paired, two pair or worse.
    pool = [4 * r + s for r in (12, 0, 1, 2, 11) for s in range(4)]
    hands = [rng.sample(pool, 7) for _ in range(800)]
    ours = [evaluate.low_value(hand) for hand in hands]
    theirs = [pokerkit_low(hand) for hand in hands]
    for (a, x), (b, y) in combinations(list(zip(ours, theirs, strict=True))[:120], 2):
        assert (a < b) == (x < y)
        assert (a > b) == (y < x)
