"""Property tests: thousands of random Razz hands, every table size and stack depth."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from pokerhouse.games import new_hand
from pokerhouse.games.razz import RazzSpec
from tests.helpers import assert_no_leak, assert_rejected_unchanged, illegal_actions, policy_action

# Stacks from nothing behind the ante (all-in before the deal) to deep.
stacks = st.lists(st.integers(min_value=1, max_value=300), min_size=2, max_size=8)


@st.composite
def specs(draw: st.DrawFn) -> RazzSpec:
    small = draw(st.integers(2, 10))
    return RazzSpec(
        ante=draw(st.integers(0, 3)),
        bring_in=draw(st.integers(1, small - 1)),
        small_bet=small,
        big_bet=draw(st.sampled_from([small, 2 * small])),
        max_raises=draw(st.integers(0, 4)),
        heads_up_uncapped=draw(st.booleans()),
    )


def run(spec: RazzSpec, stack_list: list[int], seed: int, probe: bool) -> None:
    rng = random.Random(seed)
    hand = new_hand("razz", stack_list, spec=spec, seed=seed)
    steps = 0
    while not hand.is_over:
        if probe:
            for bad in illegal_actions(hand, rng):
                assert_rejected_unchanged(hand, bad)
            assert_no_leak(hand)
        assert min(hand.stacks) >= 0
        assert sum(hand.stacks) + hand.pot_total == sum(stack_list)  # type: ignore[attr-defined]
        hand.act(policy_action(hand, rng))
        steps += 1
        assert steps < 500, "hand did not end"
    assert sum(hand.stacks) == sum(stack_list), "chips not conserved"
    assert min(hand.stacks) >= 0
    assert sum(hand.results()) == 0
    assert_no_leak(hand)


@settings(max_examples=1000, deadline=None)
@given(specs(), stacks, st.integers(0, 2**32))
def test_random_razz_hands_conserve_chips_and_end(
    spec: RazzSpec, stack_list: list[int], seed: int
) -> None:
    run(spec, stack_list, seed, probe=False)


@settings(max_examples=100, deadline=None)
@given(specs(), stacks, st.integers(0, 2**32))
def test_razz_illegal_actions_change_nothing_and_views_hide_cards(
    spec: RazzSpec, stack_list: list[int], seed: int
) -> None:
    run(spec, stack_list, seed, probe=True)
