"""Views: typed facts per game, no event list; viewers follow events from a cursor."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pokerhouse.engine import Action, RoundView, View
from pokerhouse.engine.visibility import shown_to
from pokerhouse.errors import InvalidAction
from pokerhouse.games import new_hand
from pokerhouse.games.casino_holdem import CasinoHoldemView
from pokerhouse.games.teen_patti import TeenPattiView
from tests.helpers import policy_action

VIEW_TYPES = {
    "3x4": RoundView,
    "razz": RoundView,
    "teen-patti": TeenPattiView,
    "casino-holdem": CasinoHoldemView,
}


@pytest.mark.parametrize("game", sorted(VIEW_TYPES))
def test_each_game_gives_its_own_typed_view_without_an_event_list(game: str) -> None:
    hand = new_hand(game, [200] * 3, seed=4)
    view = hand.view(hand.to_act)
    assert type(view) is VIEW_TYPES[game] and isinstance(view, View)
    assert not hasattr(view, "events") and not hasattr(view, "extra")


@pytest.mark.parametrize("game", sorted(VIEW_TYPES))
def test_a_cursor_gives_each_viewer_exactly_the_new_events(game: str) -> None:
    rng = random.Random(game)
    hand = new_hand(game, [200] * 3, seed=9)
    cursors = {viewer: 0 for viewer in (None, 0, 1, 2)}
    seen: dict[int | None, list[object]] = {viewer: [] for viewer in cursors}
    while not hand.is_over:
        hand.act(policy_action(hand, rng))
        for viewer in cursors:
            seen[viewer] += hand.events_for(viewer, cursors[viewer])
            cursors[viewer] = hand.event_count
    for viewer, events in seen.items():
        assert events == hand.events_for(viewer)
        assert events == [e for e in (shown_to(x, viewer) for x in hand.events) if e is not None]


def test_round_views_carry_what_bots_and_the_terminal_used_to_dig_out_of_events() -> None:
    hand = new_hand("razz", [200] * 3, seed=2)
    view = hand.view(hand.to_act)
    assert isinstance(view, RoundView)
    assert view.bring_in == hand.to_act and view.bets_and_raises == 0
    assert [len(flags) for flags in view.face_up] == [3, 3, 3]
    assert all(flags == (False, False, True) for flags in view.face_up)
    hand.act(policy_action(hand, random.Random(1)))
    view = hand.view(hand.to_act)
    assert isinstance(view, RoundView) and view.bring_in is None
    assert view.to_call == max(
        0, min(view.current_bet - view.bets[view.seat], view.stacks[view.seat])
    )  # type: ignore[index]


def test_a_view_is_for_one_seat_or_a_spectator() -> None:
    hand = new_hand("3x4", [100, 100], seed=1)
    for viewer in (True, 1.0, 2, -1, frozenset({0})):
        with pytest.raises(InvalidAction):
            hand.view(viewer)  # type: ignore[arg-type]
    assert hand.events_for(frozenset({0, 1})) == list(hand.events)


def test_a_bet_nobody_has_matched_is_no_side_pot_but_a_closed_all_in_is() -> None:
    hand = new_hand("3x4", [200, 200, 6], seed=3, options={"ante": 2, "small_bet": 4})
    assert hand.to_act == 0
    hand.act(Action.bet(10))
    view = hand.view(None)
    # The bet stays in front of seat 0: one pot of the antes, every seat in it.
    assert view.bets == (10, 0, 0) and view.pot == 16
    assert [(pot.amount, pot.eligible) for pot in view.pots] == [(6, (0, 1, 2))]
    hand.act(Action.call())
    hand.act(Action.call())  # seat 2: all-in for its last 4 chips
    view = hand.view(None)
    # The round closed: seat 2's all-in splits the side pot off.
    assert view.bets == (0, 0, 0)
    assert [(pot.amount, pot.eligible) for pot in view.pots] == [(18, (0, 1, 2)), (12, (0, 1))]


@settings(max_examples=40, deadline=None)
@given(
    game=st.sampled_from(sorted(VIEW_TYPES)), seed=st.integers(0, 2**32), players=st.integers(2, 6)
)
def test_own_cards_are_what_the_seats_view_shows_at_every_point(
    game: str, seed: int, players: int
) -> None:
    rng = random.Random(seed)
    hand = new_hand(game, [rng.randrange(20, 300) for _ in range(players)], seed=seed)
    while True:
        for seat in range(players):
            view = hand.view(seat)
            assert hand.own_cards(seat) == (view.cards[seat], view.board)
        if hand.is_over:
            break
        hand.act(policy_action(hand, rng))


def test_own_cards_are_a_seats_only() -> None:
    hand = new_hand("razz", [200] * 3, seed=2)
    for wrong in (None, 3, -1, True, "0"):
        with pytest.raises(InvalidAction):
            hand.own_cards(wrong)  # type: ignore[arg-type]
