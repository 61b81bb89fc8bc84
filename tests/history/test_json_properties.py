"""Property: any hand of any game, finished or stopped mid-way, replays from its JSON."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from pokerhouse.engine import Limit
from pokerhouse.games import get_game, new_hand
from pokerhouse.history import from_json, record, replay, to_json
from tests.helpers import allowed_cards, cards_in, policy_action

stacks = st.lists(st.integers(min_value=1, max_value=300), min_size=2, max_size=8)
games = st.sampled_from(
    [
        ("razz", {}),
        ("3x4", {"limit": Limit.NO_LIMIT, "ante": 2, "small_bet": 4}),
        ("3x4", {"limit": Limit.POT_LIMIT, "ante": 1, "small_bet": 2}),
        ("3x4", {"limit": Limit.FIXED_LIMIT, "ante": 1, "small_bet": 2}),
        # The history is generic over Hand: the other games replay the same way.
        ("teen-patti", {}),
        ("casino-holdem", {}),
    ]
)


def seated(game: str, stack_list: list[int]) -> list[int]:
    """As many of the stacks as the game seats."""
    return stack_list[: get_game(game).max_players]


@settings(max_examples=300, deadline=None)
@given(games, stacks, st.integers(0, 2**32), st.integers(0, 60))
def test_json_round_trip_replays_identical_events_and_stacks(
    game: tuple[str, dict[str, object]], stack_list: list[int], seed: int, stop: int
) -> None:
    name, options = game
    rng = random.Random(seed)
    hand = new_hand(name, seated(name, stack_list), seed=seed, options=options)
    for _ in range(stop):
        if hand.is_over:
            break
        hand.act(policy_action(hand, rng))
    text = to_json(hand)
    again = replay(text)
    assert again.events == hand.events
    assert again.stacks == hand.stacks
    assert again.is_over == hand.is_over
    assert again.to_act == hand.to_act
    assert record(again) == from_json(text)


@settings(max_examples=100, deadline=None)
@given(games, stacks, st.integers(0, 2**32))
def test_seat_histories_never_hold_a_card_the_seat_may_not_see(
    game: tuple[str, dict[str, object]], stack_list: list[int], seed: int
) -> None:
    name, options = game
    rng = random.Random(seed)
    hand = new_hand(name, seated(name, stack_list), seed=seed, options=options)
    while not hand.is_over:
        hand.act(policy_action(hand, rng))
    for seat in [None, *range(hand.players)]:
        history = from_json(to_json(hand, seat))
        assert not history.replayable
        known = cards_in(history.events) | cards_in(dict(history.cards)) | cards_in(history.board)
        assert known <= allowed_cards(hand, seat)
