"""Properties: best of 6 or 7 is the best five-card subset; card order never matters."""

from __future__ import annotations

from itertools import combinations

from hypothesis import given, settings
from hypothesis import strategies as st

from pokerhouse import evaluate

hands = st.integers(5, 7).flatmap(
    lambda size: st.lists(st.integers(0, 51), min_size=size, max_size=size, unique=True)
)


@settings(max_examples=400, deadline=None)
@given(hands)
def test_high_is_the_best_five_card_subset(cards: list[int]) -> None:
    best = max(evaluate.high_value(five) for five in combinations(cards, 5))
    assert evaluate.high_value(cards) == best
    hand = evaluate.high(cards)
    assert evaluate.high_value(hand.cards) == best
    assert set(hand.cards) <= set(cards)


@settings(max_examples=400, deadline=None)
@given(hands)
def test_low_is_the_best_five_card_subset(cards: list[int]) -> None:
    best = max(evaluate.low_value(five) for five in combinations(cards, 5))
    assert evaluate.low_value(cards) == best
    hand = evaluate.low(cards)
    assert evaluate.low_value(hand.cards) == best
    assert set(hand.cards) <= set(cards)


@settings(max_examples=200, deadline=None)
@given(hands, st.randoms(use_true_random=False))
def test_card_order_never_matters(cards: list[int], random: object) -> None:
    shuffled = list(cards)
    random.shuffle(shuffled)  # type: ignore[attr-defined]
    assert evaluate.high_value(shuffled) == evaluate.high_value(cards)
    assert evaluate.low_value(shuffled) == evaluate.low_value(cards)


@settings(max_examples=200, deadline=None)
@given(hands)
def test_suits_matter_only_through_flushes(cards: list[int]) -> None:
    # Moving every card to a rotated suit keeps the value.
    rotated = [(card & ~3) | ((card + 1) & 3) for card in cards]
    assert evaluate.high_value(rotated) == evaluate.high_value(cards)
    assert evaluate.low_value(rotated) == evaluate.low_value(cards)
