"""Property tests: thousands of random 3x4 hands in every betting structure."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from pokerhouse.engine import Limit
from pokerhouse.games import new_hand
from tests.helpers import assert_no_leak, assert_rejected_unchanged, illegal_actions, policy_action

stacks = st.lists(st.integers(min_value=1, max_value=400), min_size=2, max_size=10)


def run(limit: Limit, stack_list: list[int], seed: int, probe: bool) -> None:
    rng = random.Random(seed)
    hand = new_hand(
        "3x4", stack_list, seed=seed, options={"limit": limit, "ante": 2, "small_bet": 4}
    )
    steps = 0
    while not hand.is_over:
        if probe:
            for bad in illegal_actions(hand, rng):
                assert_rejected_unchanged(hand, bad)
            assert_no_leak(hand)
        assert min(hand.stacks) >= 0
        assert sum(hand.stacks) + hand.pot_total == sum(stack_list)
        hand.act(policy_action(hand, rng))
        steps += 1
        assert steps < 500
    assert sum(hand.stacks) == sum(stack_list), "chips not conserved"
    assert min(hand.stacks) >= 0
    assert sum(hand.results()) == 0
    assert_no_leak(hand)


@settings(max_examples=1000, deadline=None)
@given(st.sampled_from(list(Limit)), stacks, st.integers(0, 2**32))
def test_random_hands_conserve_chips_and_end(
    limit: Limit, stack_list: list[int], seed: int
) -> None:
    run(limit, stack_list, seed, probe=False)


@settings(max_examples=100, deadline=None)
@given(st.sampled_from(list(Limit)), stacks, st.integers(0, 2**32))
def test_illegal_actions_change_nothing_and_views_hide_cards(
    limit: Limit, stack_list: list[int], seed: int
) -> None:
    run(limit, stack_list, seed, probe=True)
