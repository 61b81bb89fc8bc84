"""3x4 Poker and the Common rules of RULES.md, one test per rule, with fixed decks."""

from __future__ import annotations

import random

import pytest

from pokerhouse.cards import parse_cards
from pokerhouse.engine import Action, ActionKind, Limit
from pokerhouse.engine.events import (
    ActionTaken,
    AntePosted,
    BetReturned,
    BoardDealt,
    CardBurned,
    CardsDealt,
    HandMucked,
    HandShown,
    PotAwarded,
)
from pokerhouse.errors import IllegalAction, InvalidAction, InvalidSpec, OutOfTurn
from pokerhouse.games import new_hand
from pokerhouse.games.razz import RazzSpec
from pokerhouse.games.three_by_four import ThreeByFourHand, ThreeByFourSpec
from tests.helpers import assert_rejected_unchanged, holdem_order, play_out, stacked_deck

BOARD = "2c 7d 9h Jc"


def deal(
    holes: list[str], board: str = BOARD, stacks: list[int] | None = None, **spec: object
) -> ThreeByFourHand:
    options: dict[object, object] = {"ante": 1, "small_bet": 2, **spec}
    deck = stacked_deck(holdem_order(holes, board))
    return ThreeByFourHand(
        ThreeByFourSpec(**options),  # type: ignore[arg-type]
        stacks or [100] * len(holes),
        deck,
    )


def check_down(hand: ThreeByFourHand) -> None:
    while not hand.is_over:
        hand.act(Action.check())


def shown(hand: ThreeByFourHand) -> list[int]:
    return [e.seat for e in hand.events if isinstance(e, HandShown)]


# ------------------------------------------------------------------ the deal


def test_every_player_posts_the_ante_and_there_are_no_blinds() -> None:
    hand = deal(["As Ad Ah", "Ks Kd Kh", "Qs Qd Qh"], stacks=[100, 100, 0 + 1])
    antes = [e for e in hand.events if isinstance(e, AntePosted)]
    assert [(e.seat, e.amount) for e in antes] == [(0, 1), (1, 1), (2, 1)]
    assert hand.pot_total == 3 and hand.bets == [0, 0, 0]
    assert hand.all_in[2]  # a stack equal to the ante is all-in for it


def test_three_hole_cards_dealt_face_down_one_at_a_time_from_left_of_button() -> None:
    hand = deal(["As Ad Ah", "Ks Kd Kh", "Qs Qd Qh"])
    dealt = [e for e in hand.events if isinstance(e, CardsDealt)]
    assert [e.seat for e in dealt] == [0, 1, 2]
    assert dealt[0].cards == parse_cards("As Ad Ah")
    assert all(e.face_up == (False, False, False) for e in dealt)


def test_four_betting_rounds_board_two_one_one_burn_before_each() -> None:
    hand = deal(["As Ad Ah", "Ks Kd Kh"])
    streets: list[str] = []
    while not hand.is_over:
        assert hand.street is not None
        if not streets or streets[-1] != hand.street.name:
            streets.append(hand.street.name)
        hand.act(Action.check())
    assert streets == ["hole", "flop", "turn", "river"]
    kinds = [type(e) for e in hand.events if isinstance(e, BoardDealt | CardBurned)]
    assert kinds == [CardBurned, BoardDealt, CardBurned, BoardDealt, CardBurned, BoardDealt]
    boards = [e.cards for e in hand.events if isinstance(e, BoardDealt)]
    assert [len(b) for b in boards] == [2, 1, 1]
    assert sum(boards, ()) == parse_cards(BOARD)


def test_every_round_starts_left_of_the_button_and_may_check() -> None:
    hand = deal(["As Ad Ah", "Ks Kd Kh", "Qs Qd Qh"])
    for street in ("hole", "flop", "turn", "river"):
        assert hand.street is not None and hand.street.name == street
        assert hand.to_act == 0
        assert ActionKind.CHECK in hand.legal_actions()
        for _ in range(3):
            hand.act(Action.check())


def test_first_active_player_left_of_button_opens_when_seat_zero_is_all_in() -> None:
    hand = deal(["As Ad Ah", "Ks Kd Kh", "Qs Qd Qh"], stacks=[20, 100, 100])
    hand.act(Action.bet(19))  # seat 0 all-in
    hand.act(Action.call())
    hand.act(Action.call())
    assert hand.street is not None and hand.street.name == "flop"
    assert hand.to_act == 1


def test_folding_is_allowed_when_a_check_is_free() -> None:
    hand = deal(["As Ad Ah", "Ks Kd Kh"])
    assert {ActionKind.FOLD, ActionKind.CHECK} <= set(hand.legal_actions().kinds)
    hand.act(Action.fold())
    assert hand.is_over and hand.results() == (-1, 1)


def test_best_five_of_seven_wheel_is_the_lowest_straight() -> None:
    # Seat 0 makes A-2-3-4-5 with the board; seat 1 the six-high straight wins.
    hand = deal(["Ah 3d Kc", "6s 3h 8d"], board="2c 4d 5h Jc")
    check_down(hand)
    awards = [e for e in hand.events if isinstance(e, PotAwarded)]
    assert awards[0].winners == (1,)


# ------------------------------------------------------------------ pots


def test_side_pots_at_three_all_in_levels() -> None:
    hand = deal(["As Ad Ah", "Ks Kd Kh", "Qs Qd Qh", "3s 4d 8c"], stacks=[50, 100, 200, 500])
    hand.act(Action.bet(49))
    hand.act(Action.raise_to(99))
    hand.act(Action.raise_to(199))
    hand.act(Action.call())
    assert hand.is_over
    awards = [(e.amount, e.winners) for e in hand.events if isinstance(e, PotAwarded)]
    assert awards == [(200, (0,)), (150, (1,)), (200, (2,))]
    assert hand.stacks == (200, 150, 200, 300)
    assert shown(hand) == [0, 1, 2, 3]  # all-in: every hand is shown


def test_chips_of_folded_players_join_the_highest_pot_a_remaining_player_can_claim() -> None:
    hand = deal(["As Ad Ah", "Ks Kd Kh", "Qs Qd Qh"], stacks=[30, 200, 200])
    hand.act(Action.bet(29))  # seat 0 all-in for 30 in all
    hand.act(Action.raise_to(100))
    hand.act(Action.call())
    # Flop: seat 1 bets, seat 2 folds; seat 2's 101 stays in the side pot.
    hand.act(Action.bet(50))
    hand.act(Action.fold())
    assert hand.is_over
    returned = [e for e in hand.events if isinstance(e, BetReturned)]
    assert [(e.seat, e.amount) for e in returned] == [(1, 50)]
    awards = [(e.amount, e.winners) for e in hand.events if isinstance(e, PotAwarded)]
    assert awards == [(90, (0,)), (142, (1,))]
    assert sum(hand.stacks) == 430


def test_a_bet_nobody_called_is_returned_to_its_bettor() -> None:
    hand = deal(["As Ad Ah", "Ks Kd Kh"])
    hand.act(Action.bet(50))
    hand.act(Action.fold())
    returned = [e for e in hand.events if isinstance(e, BetReturned)]
    assert [(e.seat, e.amount) for e in returned] == [(0, 50)]
    assert hand.results() == (1, -1)


def test_a_bet_bigger_than_any_caller_can_match_comes_back_down_to_the_largest_call() -> None:
    hand = deal(["As Ad Ah", "Ks Kd Kh", "3s 4d 8c"], stacks=[1000, 51, 31])
    hand.act(Action.bet(500))
    hand.act(Action.call())  # all-in for 50
    hand.act(Action.call())  # all-in for 30
    returned = [(e.seat, e.amount) for e in hand.events if isinstance(e, BetReturned)]
    assert returned == [(0, 450)]
    awards = [(e.amount, e.winners) for e in hand.events if isinstance(e, PotAwarded)]
    assert awards == [(93, (0,)), (40, (0,))]
    assert hand.stacks == (1082, 0, 0)


def test_split_pot_equal_hands_share_equally() -> None:
    hand = deal(["Td 2c 3c", "Th 2d 3d"], board="As Ks Qs Js")
    check_down(hand)
    awards = [e for e in hand.events if isinstance(e, PotAwarded)]
    assert [(e.winners, e.shares) for e in awards] == [((0, 1), (1, 1))]
    assert hand.results() == (0, 0)


def test_odd_chip_goes_to_first_tied_winner_left_of_the_button() -> None:
    hand = deal(["4h 5h 6h", "Td 2c 3c", "Th 2d 3d"], board="As Ks Qs Js")
    hand.act(Action.fold())
    check_down(hand)
    awards = [e for e in hand.events if isinstance(e, PotAwarded)]
    assert [(e.winners, e.shares) for e in awards] == [((1, 2), (2, 1))]
    assert hand.results() == (-1, 1, 0)


# ------------------------------------------------------------------ betting


def test_no_limit_smallest_bet_is_the_table_minimum_and_raise_at_least_the_last() -> None:
    hand = deal(["As Ad Ah", "Ks Kd Kh", "Qs Qd Qh"], stacks=[1000] * 3, small_bet=5)
    bet = hand.legal_actions().get(ActionKind.BET)
    assert bet is not None and (bet.min_amount, bet.max_amount) == (5, 999)
    hand.act(Action.bet(20))
    raise_ = hand.legal_actions().get(ActionKind.RAISE)
    assert raise_ is not None and (raise_.min_amount, raise_.max_amount) == (40, 999)
    hand.act(Action.raise_to(70))  # a raise of 50
    raise_ = hand.legal_actions().get(ActionKind.RAISE)
    assert raise_ is not None and raise_.min_amount == 120


def test_short_all_in_raise_does_not_reopen_betting_for_players_who_acted() -> None:
    hand = deal(["As Ad Ah", "Ks Kd Kh", "Qs Qd Qh"], stacks=[1000, 130, 1000])
    hand.act(Action.bet(100))
    hand.act(Action.raise_to(129))  # all-in, a raise of 29 < 100
    assert ActionKind.RAISE in hand.legal_actions()  # seat 2 has not acted yet
    hand.act(Action.call())
    assert hand.to_act == 0
    assert hand.legal_actions().kinds == (ActionKind.FOLD, ActionKind.CALL)
    with pytest.raises(IllegalAction) as error:
        hand.act(Action.raise_to(300))
    assert error.value.code == "raise_not_allowed"


def test_short_all_ins_adding_up_to_a_full_raise_reopen_betting() -> None:
    # Robert's Rules / TDA: A bets 100, B all-in 125, C calls, D all-in 200, E calls.
    # A now faces 100 more, a full raise, and may raise; C faces 75 and may not.
    hand = deal(
        ["As Ad Ah", "Ks Kd Kh", "Qs Qd Qh", "Js Jd Jh", "Ts Td Th"],
        stacks=[1000, 126, 1000, 201, 1000],
    )
    hand.act(Action.bet(100))
    hand.act(Action.raise_to(125))
    hand.act(Action.call())
    hand.act(Action.raise_to(200))
    hand.act(Action.call())
    assert hand.to_act == 0
    raise_ = hand.legal_actions().get(ActionKind.RAISE)
    assert raise_ is not None and raise_.min_amount == 300
    hand.act(Action.call())
    assert hand.to_act == 2
    assert hand.legal_actions().kinds == (ActionKind.FOLD, ActionKind.CALL)


def test_fixed_limit_short_all_ins_adding_up_to_a_full_bet_reopen_betting() -> None:
    hand = deal(
        ["As Ad Ah", "Ks Kd Kh", "Qs Qd Qh", "Js Jd Jh"],
        stacks=[1000, 16, 21, 1000],
        limit="fixed-limit",
        small_bet=10,
    )
    hand.act(Action.bet(10))
    hand.act(Action.raise_to(15))  # all-in, half a bet short
    hand.act(Action.raise_to(20))  # all-in, again short
    hand.act(Action.call())
    assert hand.to_act == 0
    raise_ = hand.legal_actions().get(ActionKind.RAISE)
    assert raise_ is not None and raise_.min_amount == 30


def test_short_all_in_leaves_the_minimum_raise_at_the_last_full_raise() -> None:
    hand = deal(["As Ad Ah", "Ks Kd Kh", "Qs Qd Qh"], stacks=[1000, 130, 1000])
    hand.act(Action.bet(100))
    hand.act(Action.raise_to(129))  # all-in, 29 more: not a raise of 100
    raise_ = hand.legal_actions().get(ActionKind.RAISE)
    assert raise_ is not None and raise_.min_amount == 229


def test_full_raise_reopens_betting() -> None:
    hand = deal(["As Ad Ah", "Ks Kd Kh", "Qs Qd Qh"], stacks=[1000, 1000, 1000])
    hand.act(Action.bet(100))
    hand.act(Action.call())
    hand.act(Action.raise_to(200))
    assert hand.to_act == 0 and ActionKind.RAISE in hand.legal_actions()


def test_pot_limit_largest_raise_is_the_pot_after_calling() -> None:
    hand = deal(["As Ad Ah", "Ks Kd Kh", "Qs Qd Qh"], limit=Limit.POT_LIMIT, small_bet=2)
    bet = hand.legal_actions().get(ActionKind.BET)
    assert bet is not None and bet.max_amount == 3  # the pot is the three antes
    hand.act(Action.bet(3))
    raise_ = hand.legal_actions().get(ActionKind.RAISE)
    # Call 3 (pot 9), then raise by 9: to 12.
    assert raise_ is not None and (raise_.min_amount, raise_.max_amount) == (6, 12)


def test_pot_limit_largest_bet_on_a_later_street_is_the_pot() -> None:
    hand = deal(["As Ad Ah", "Ks Kd Kh", "Qs Qd Qh"], limit=Limit.POT_LIMIT)
    hand.act(Action.bet(3))
    hand.act(Action.call())
    hand.act(Action.call())
    assert hand.street is not None and hand.street.name == "flop"
    bet = hand.legal_actions().get(ActionKind.BET)
    assert bet is not None and (bet.min_amount, bet.max_amount) == (2, 12)
    assert_rejected_unchanged(hand, Action.bet(13))


def test_fixed_limit_small_bet_first_two_rounds_big_bet_last_two_and_cap() -> None:
    hand = deal(["As Ad Ah", "Ks Kd Kh"], stacks=[1000, 1000], limit="fixed-limit", small_bet=10)
    bet = hand.legal_actions().get(ActionKind.BET)
    assert bet is not None and (bet.min_amount, bet.max_amount) == (10, 10)
    hand.act(Action.bet(10))
    for total in (20, 30, 40):
        hand.act(Action.raise_to(total))
    assert ActionKind.RAISE not in hand.legal_actions()  # one bet and three raises
    hand.act(Action.call())
    hand.act(Action.check())
    hand.act(Action.check())  # flop: still the small bet, checked through
    assert hand.street is not None and hand.street.name == "turn"
    bet = hand.legal_actions().get(ActionKind.BET)
    assert bet is not None and bet.min_amount == 20


def test_uncapped_in_no_limit() -> None:
    hand = deal(["As Ad Ah", "Ks Kd Kh"], stacks=[10_000, 10_000])
    total = 2
    hand.act(Action.bet(total))
    for _ in range(10):
        total *= 2
        hand.act(Action.raise_to(total))
    assert ActionKind.RAISE in hand.legal_actions()


# ------------------------------------------------------------------ showdown


def test_showdown_last_bettor_of_final_round_shows_first() -> None:
    # Seat 1 bets the river and has the worst hand; the others show clockwise.
    hand = deal(["As Ad Ah", "3s 4d 8c", "Ks Kd Kh"])
    for _ in range(9):
        hand.act(Action.check())
    hand.act(Action.check())
    hand.act(Action.bet(10))
    hand.act(Action.call())
    hand.act(Action.call())
    assert shown(hand) == [1, 2, 0]


def test_showdown_after_checks_starts_left_of_dealer_and_losers_muck() -> None:
    hand = deal(["As Ad Ah", "3s 4d 8c", "Ks Kd Kh"])
    check_down(hand)
    assert shown(hand) == [0]
    mucked = [e.seat for e in hand.events if isinstance(e, HandMucked)]
    assert mucked == [1, 2]


def test_a_hand_beaten_in_the_main_pot_still_shows_for_a_side_pot_it_can_win() -> None:
    hand = deal(["As Ad Ah", "Ks Kd Kh", "3s 4d 8c"], stacks=[21, 100, 100])
    hand.act(Action.bet(20))  # seat 0 all-in with the best hand
    hand.act(Action.call())
    hand.act(Action.call())
    hand.act(Action.bet(10))  # flop: a side pot between seats 1 and 2
    hand.act(Action.call())
    check_down(hand)
    assert shown(hand) == [0, 1]  # seat 1 loses the main pot but wins the side pot
    assert [e.seat for e in hand.events if isinstance(e, HandMucked)] == [2]
    awards = [(e.amount, e.winners) for e in hand.events if isinstance(e, PotAwarded)]
    assert awards == [(63, (0,)), (20, (1,))]


def test_a_seat_can_choose_to_always_show() -> None:
    deck = stacked_deck(holdem_order(["As Ad Ah", "3s 4d 8c", "Ks Kd Kh"], BOARD))
    hand = ThreeByFourHand(ThreeByFourSpec(), [100] * 3, deck, always_show={2})
    check_down(hand)
    assert shown(hand) == [0, 2]


def test_a_losing_hand_may_choose_to_show_or_muck() -> None:
    deck = stacked_deck(holdem_order(["As Ad Ah", "3s 4d 8c", "Ks Kd Kh"], BOARD))
    hand = ThreeByFourHand(ThreeByFourSpec(), [100] * 3, deck, manual_showdown=True)
    for _ in range(12):
        hand.act(Action.check())
    assert hand.to_act == 1
    assert hand.legal_actions().kinds == (ActionKind.SHOW_HAND, ActionKind.MUCK)
    hand.act(Action(ActionKind.MUCK))
    hand.act(Action(ActionKind.SHOW_HAND))
    assert shown(hand) == [0, 2] and hand.is_over


def test_hand_that_ties_the_shown_hand_must_show() -> None:
    hand = deal(["Td 2c 3c", "Th 2d 3d"], board="As Ks Qs Js")
    check_down(hand)
    assert shown(hand) == [0, 1]


# ------------------------------------------------------------------ bad input


def test_acting_out_of_turn_is_rejected() -> None:
    hand = deal(["As Ad Ah", "Ks Kd Kh"])
    with pytest.raises(OutOfTurn) as error:
        hand.act(Action.check(), seat=1)
    assert error.value.code == "out_of_turn"


def test_amount_below_minimum_is_rejected() -> None:
    hand = deal(["As Ad Ah", "Ks Kd Kh"], small_bet=10)
    with pytest.raises(IllegalAction) as error:
        hand.act(Action.bet(5))
    assert error.value.code == "amount_too_small"


def test_amount_above_stack_is_rejected() -> None:
    hand = deal(["As Ad Ah", "Ks Kd Kh"])
    with pytest.raises(IllegalAction) as error:
        hand.act(Action.bet(500))
    assert error.value.code == "amount_exceeds_stack"


def test_bet_where_only_a_raise_is_possible_is_rejected() -> None:
    hand = deal(["As Ad Ah", "Ks Kd Kh"])
    hand.act(Action.bet(10))
    with pytest.raises(IllegalAction) as error:
        hand.act(Action.bet(30))
    assert error.value.code == "raise_required"


def test_check_facing_a_bet_is_rejected() -> None:
    hand = deal(["As Ad Ah", "Ks Kd Kh"])
    hand.act(Action.bet(10))
    with pytest.raises(IllegalAction) as error:
        hand.act(Action.check())
    assert error.value.code == "cannot_check"


@pytest.mark.parametrize(
    ("action", "code"),
    [
        ("fold", "not_an_action"),
        (Action(ActionKind.BET), "amount_required"),
        (Action(ActionKind.BET, 2.5), "bad_amount"),  # type: ignore[arg-type]
        (Action(ActionKind.CHECK, 3), "unexpected_amount"),
    ],
)
def test_malformed_actions_are_rejected(action: object, code: str) -> None:
    hand = deal(["As Ad Ah", "Ks Kd Kh"])
    with pytest.raises(InvalidAction) as error:
        hand.act(action)  # type: ignore[arg-type]
    assert error.value.code == code


@pytest.mark.parametrize("amount", [-5, 0, 9, 11, 10**100])
def test_call_stating_another_amount_than_the_call_is_rejected(amount: int) -> None:
    # Amounts are totals in the round ("to"): facing a bet of 10, a call is to 10.
    hand = deal(["As Ad Ah", "Ks Kd Kh"])
    hand.act(Action.bet(10))
    with pytest.raises(IllegalAction) as error:
        hand.act(Action(ActionKind.CALL, amount))
    assert error.value.code == "wrong_call_amount"
    assert_rejected_unchanged(hand, Action(ActionKind.CALL, amount))
    hand.act(Action(ActionKind.CALL, 10))
    assert hand.actions[-1] == (1, Action(ActionKind.CALL, 10))


def test_all_in_call_states_the_seats_all_in_total() -> None:
    hand = deal(["As Ad Ah", "Ks Kd Kh"], stacks=[100, 30])
    hand.act(Action.bet(60))
    assert_rejected_unchanged(hand, Action(ActionKind.CALL, 60))
    hand.act(Action(ActionKind.CALL, 29))  # 29 behind after the ante
    assert hand.all_in[1]


def test_acting_after_the_hand_is_over_is_rejected() -> None:
    hand = deal(["As Ad Ah", "Ks Kd Kh"])
    hand.act(Action.fold())
    with pytest.raises(IllegalAction) as error:
        hand.act(Action.check())
    assert error.value.code == "hand_over"


@pytest.mark.parametrize("seat", [True, 1.0, -1, 3, "1"])
def test_a_view_for_something_that_is_not_a_seat_is_refused(seat: object) -> None:
    # True == 1 and 1.0 == 1: without the check they were shown seat 1's hole cards.
    hand = deal(["As Ad Ah", "Ks Kd Kh", "Qs Qd Qh"])
    for ask in (hand.view, hand.events_for):
        with pytest.raises(InvalidAction) as error:
            ask(seat)  # type: ignore[operator]
        assert error.value.code == "bad_seat"


@pytest.mark.parametrize(
    ("options", "code"),
    [({"ante": -1}, "bad_spec"), ({"small_bet": 0}, "bad_spec"), ({"limit": "huge"}, "bad_limit")],
)
def test_bad_specs_are_rejected(options: dict[str, object], code: str) -> None:
    with pytest.raises(InvalidSpec) as error:
        ThreeByFourSpec(**options)  # type: ignore[arg-type]
    assert error.value.code == code


@pytest.mark.parametrize(
    "options",
    [
        {"always_show": [3]},
        {"always_show": [True]},
        {"always_show": "01"},
        {"always_show": 1},
        {"always_show": [[0]]},
        {"manual_showdown": "no"},
        {"manual_showdown": 1},
    ],
)
def test_bad_showdown_settings_are_rejected(options: dict[str, object]) -> None:
    with pytest.raises(InvalidSpec) as error:
        new_hand("3x4", [100] * 3, seed=1, **options)
    assert error.value.code == "bad_option"


@pytest.mark.parametrize("spec", [RazzSpec(), {"ante": 1}, None])
def test_a_hand_needs_a_three_by_four_spec(spec: object) -> None:
    with pytest.raises(InvalidSpec) as error:
        ThreeByFourHand(spec, [100, 100])  # type: ignore[arg-type]
    assert error.value.code == "bad_spec"


@pytest.mark.parametrize("players", [1, 11])
def test_two_to_ten_players(players: int) -> None:
    with pytest.raises(InvalidSpec) as error:
        new_hand("3x4", [100] * players, seed=1)
    assert error.value.code == "player_count"


# ------------------------------------------------------------------ determinism


def test_same_spec_seats_deck_and_actions_give_the_same_events() -> None:
    first = new_hand("3x4", [100, 80, 120, 90], seed=11)
    play_out(first, random.Random(5))
    second = new_hand("3x4", [100, 80, 120, 90], seed=11)
    for seat, action in first.actions:
        second.act(action, seat=seat)
    assert second.events == first.events
    assert isinstance(first.events[-1], type(second.events[-1]))
    assert any(isinstance(e, ActionTaken) for e in first.events)


@pytest.mark.parametrize("seat", [True, 1.0, "1", 5, -1])
def test_acting_as_something_that_is_not_a_seat_is_rejected(seat: object) -> None:
    hand = deal(["As Ad Ah", "Ks Kd Kh"])
    hand.act(Action.check())  # seat 1 (== True == 1.0) is now to act
    with pytest.raises(InvalidAction) as error:
        hand.act(Action.check(), seat=seat)  # type: ignore[arg-type]
    assert error.value.code == "bad_seat"
