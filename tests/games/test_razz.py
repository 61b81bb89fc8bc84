"""Razz, rule by rule (RULES.md, "Razz"), on hands dealt from scripted decks.

Cards are given per seat in deal order: down, down, up (third street), then
the fourth, fifth and sixth street up cards and the seventh street down card.
"""

from __future__ import annotations

import random

import pytest

from pokerhouse import evaluate
from pokerhouse.cards import Deck, ScriptedDeck, parse_cards
from pokerhouse.engine import Action, ActionKind
from pokerhouse.engine.events import (
    ActionTaken,
    BoardDealt,
    CardBurned,
    CardsDealt,
    DeckReshuffled,
    HandMucked,
    HandShown,
    PotAwarded,
    StreetStarted,
)
from pokerhouse.errors import InvalidSpec
from pokerhouse.games.razz import RazzHand, RazzSpec
from pokerhouse.games.three_by_four import ThreeByFourSpec
from tests.helpers import assert_rejected_unchanged

SPEC = RazzSpec(ante=1, bring_in=2, small_bet=5, big_bet=10)


def deal(
    cards: list[str],
    stacks: list[int] | None = None,
    spec: RazzSpec = SPEC,
    **options: object,
) -> RazzHand:
    """A Razz hand where seat ``i`` gets ``cards[i]`` in deal order."""
    seats = {seat: parse_cards(text) for seat, text in enumerate(cards)}
    return RazzHand(spec, stacks or [100] * len(cards), ScriptedDeck(seats), **options)  # type: ignore[arg-type]


def act(hand: RazzHand, *moves: str) -> None:
    for move in moves:
        hand.act(Action.parse(move))


def kinds(hand: RazzHand) -> list[str]:
    return [str(action) for action in hand.legal_actions()]


def passive(hand: RazzHand) -> Action:
    """Bring in, check or call: never fold, never raise."""
    for kind in (ActionKind.BRING_IN, ActionKind.CHECK, ActionKind.CALL):
        if kind in hand.legal_actions():
            return Action(kind)
    raise AssertionError(f"no passive action in {kinds(hand)}")


def play_passively(hand: RazzHand) -> None:
    while not hand.is_over:
        hand.act(passive(hand))


def street_of(hand: RazzHand) -> str:
    assert hand.street is not None
    return hand.street.name


# ---------------------------------------------------------------- the bring-in


def test_bring_in_goes_to_highest_up_card() -> None:
    hand = deal(["2c 3c 9c", "4c 5c Qd", "6c 7c 5h"])
    assert hand.to_act == 1
    assert kinds(hand) == ["bring_in", "complete 5"]


def test_bring_in_king_is_highest_and_ace_lowest() -> None:
    assert deal(["2c 3c Ac", "4c 5c Kc", "6c 7c Qs"]).to_act == 1
    assert deal(["2c 3c As", "4c 5c 2d"]).to_act == 1


def test_bring_in_equal_ranks_go_by_suit_order() -> None:
    # Clubs < diamonds < hearts < spades: of three kings the heart is highest here.
    assert deal(["2c 3c Kd", "4c 5c Kh", "6c 7c Kc"]).to_act == 1
    assert deal(["2c 3c Kd", "4c 5c Kh", "6c 7c Ks"]).to_act == 2


def test_bring_in_player_all_in_for_the_ante_is_skipped() -> None:
    hand = deal(["2c 3c Kd", "4c 5c 7h", "6c 7c 8s"], stacks=[1, 100, 100])
    assert hand.all_in[0]
    assert hand.to_act == 1 and hand.bring_in_seat == 1
    assert kinds(hand) == ["bring_in", "complete 5"]


def test_short_bring_in_others_still_enter_for_the_full_bring_in() -> None:
    hand = deal(["2c 3c Kd", "4c 5c 7h", "6c 7c 8s"], stacks=[2, 100, 100])
    act(hand, "bring_in")
    posted = hand.events[-1]
    assert isinstance(posted, ActionTaken) and posted.added == 1 and posted.all_in
    act(hand, "call")
    called = hand.events[-1]
    assert isinstance(called, ActionTaken) and called.added == SPEC.bring_in


def test_call_of_a_short_bring_in_states_the_full_bring_in() -> None:
    hand = deal(["2c 3c Kd", "4c 5c 7h", "6c 7c 8s"], stacks=[2, 100, 100])
    act(hand, "bring_in")  # one chip, all-in
    assert_rejected_unchanged(hand, Action(ActionKind.CALL, 1))
    act(hand, "call 2")
    assert hand.bets[1] == SPEC.bring_in


def test_short_stacked_bring_in_cannot_complete_for_less_than_the_bring_in() -> None:
    spec = RazzSpec(ante=1, bring_in=4, small_bet=10, big_bet=20)
    hand = deal(["2c 3c Kd", "4c 5c 7h", "6c 7c 8s"], stacks=[4, 100, 100], spec=spec)
    assert kinds(hand) == ["bring_in"]
    assert_rejected_unchanged(hand, Action(ActionKind.COMPLETE, 3))
    act(hand, "bring_in", "call")
    called = hand.events[-1]
    assert isinstance(called, ActionTaken) and called.added == 4


def test_no_completion_when_nobody_else_can_put_chips_in() -> None:
    # Seat 2 is all-in for the ante, seat 0 brings in with its last two chips:
    # a completion by seat 1 could only come back to it, so it may call or fold.
    hand = deal(["2c 3c Kd", "4c 5c 7h", "6c 7c 8s"], stacks=[3, 100, 1])
    act(hand, "bring_in")
    assert hand.all_in == [True, False, True]
    assert kinds(hand) == ["fold", "call"]
    assert_rejected_unchanged(hand, Action(ActionKind.COMPLETE, 5))


def test_bring_in_player_may_complete_to_the_small_bet() -> None:
    hand = deal(["2c 3c Kd", "4c 5c 7h", "6c 7c 8s"])
    act(hand, "complete 5")
    assert hand.to_act == 1
    assert kinds(hand) == ["fold", "call", "raise 10"]


def test_completion_after_the_bring_in_then_raises_by_the_small_bet() -> None:
    hand = deal(["2c 3c Kd", "4c 5c 7h", "6c 7c 8s"])
    act(hand, "bring_in")
    assert kinds(hand) == ["fold", "call", "complete 5"]
    act(hand, "complete 5")
    assert kinds(hand) == ["fold", "call", "raise 10"]


def test_bring_in_player_may_not_fold() -> None:
    hand = deal(["2c 3c Kd", "4c 5c 7h"])
    assert_rejected_unchanged(hand, Action.fold())
    assert_rejected_unchanged(hand, Action.check())


# ---------------------------------------------------------------- bet sizes and the cap


def test_small_bet_on_third_and_fourth_street_big_bet_from_fifth() -> None:
    hand = deal(["2c 3c Kd 9c Tc Jc Qc", "4c 5c 7h 9d Td Jd Qh"])
    act(hand, "bring_in", "call")
    sizes = {}
    while not hand.is_over:
        bet = hand.legal_actions().get(ActionKind.BET)
        assert bet is not None
        sizes[street_of(hand)] = (bet.min_amount, bet.max_amount)
        act(hand, "check", "check")
    assert sizes == {"fourth": (5, 5), "fifth": (10, 10), "sixth": (10, 10), "seventh": (10, 10)}


def test_no_big_bet_on_open_pair_on_fourth_street() -> None:
    # Seat 1 shows a pair of sevens on fourth street: the bet is still the small bet.
    hand = deal(["2c 3c Kd Qc", "4c 5c 7h 7d"])
    act(hand, "bring_in", "call")
    assert street_of(hand) == "fourth"
    assert kinds(hand) == ["fold", "check", "bet 5"]
    assert_rejected_unchanged(hand, Action.bet(10))


def test_folding_is_allowed_when_a_check_is_free() -> None:
    hand = deal(["2c 3c Kd Qc", "4c 5c 7h 8d", "6c 8c 9h Jd"])
    act(hand, "bring_in", "call", "call")
    assert "check" in kinds(hand)
    act(hand, "fold")
    assert hand.folded[1] and not hand.is_over


def test_cap_is_one_bet_and_three_raises() -> None:
    hand = deal(["2c 3c Kd Qc", "4c 5c 7h 8d", "6c 8c 9h Jd"])
    act(hand, "bring_in", "call", "call")
    assert street_of(hand) == "fourth" and hand.to_act == 1
    act(hand, "bet 5", "raise 10", "raise 15", "raise 20")
    assert kinds(hand) == ["fold", "call"]
    assert_rejected_unchanged(hand, Action.raise_to(25))


def test_completion_counts_as_the_bet_for_the_cap() -> None:
    hand = deal(["2c 3c Kd", "4c 5c 7h", "6c 8c 9h"])
    act(hand, "bring_in", "complete 5", "raise 10", "raise 15", "raise 20")
    assert kinds(hand) == ["fold", "call"]


def test_cap_applies_heads_up_by_default() -> None:
    hand = deal(["2c 3c Kd Qc", "4c 5c 7h 8d"])
    act(hand, "bring_in", "call", "bet 5", "raise 10", "raise 15", "raise 20")
    assert kinds(hand) == ["fold", "call"]


def test_heads_up_uncapped_option_lifts_the_cap_with_two_players_left() -> None:
    spec = RazzSpec(ante=1, bring_in=2, small_bet=5, big_bet=10, heads_up_uncapped=True)
    hand = deal(["2c 3c Kd Qc", "4c 5c 7h 8d", "6c 8c 9h Jd"], spec=spec)
    act(hand, "bring_in", "complete 5", "raise 10", "raise 15", "raise 20")
    assert kinds(hand) == ["fold", "call"]  # three players in: capped
    act(hand, "fold", "call")
    assert street_of(hand) == "fourth"
    act(hand, "bet 5", "raise 10", "raise 15", "raise 20", "raise 25")
    assert "raise 30" in kinds(hand)


def test_max_raises_option_sets_the_cap() -> None:
    spec = RazzSpec(ante=1, bring_in=2, small_bet=5, big_bet=10, max_raises=1)
    hand = deal(["2c 3c Kd", "4c 5c 7h", "6c 8c 9h"], spec=spec)
    act(hand, "bring_in", "complete 5", "raise 10")
    assert kinds(hand) == ["fold", "call"]


# ---------------------------------------------------------------- who opens fourth to seventh


def test_first_to_act_has_the_best_low_board() -> None:
    hand = deal(["Ac 2c Kd Qd", "3c 4c 9h 8h", "5c 6c 7s 2s"])
    act(hand, "bring_in", "call", "call")
    assert street_of(hand) == "fourth" and hand.to_act == 2  # 7-2 beats 9-8 and K-Q


def test_first_to_act_pair_is_worse_than_any_unpaired_board() -> None:
    # WSOP 2023 #43 hand 85 in small: a paired board acts after an unpaired K-Q.
    hand = deal(["Ac 3c 2d 2h", "4c 5c Kh Qh"])
    act(hand, "bring_in", "call")
    assert hand.to_act == 1


def test_first_to_act_equal_boards_first_clockwise_from_the_dealer() -> None:
    hand = deal(["Ac 2c Kd Qd", "3c 4c 7d 2d", "5c 6c 7c 2h"])
    act(hand, "bring_in", "call", "call")
    assert hand.to_act == 1  # seats 1 and 2 both show 7-2; seat 1 is first clockwise


def test_first_to_act_all_in_opener_is_skipped_for_the_next_clockwise() -> None:
    # Seat 0 shows the best board but is all-in; seat 1 (worse than seat 2) is next clockwise.
    hand = deal(["Ac 2c 3d 4d", "3c 4c Kd Qh", "5c 6c 8c 7h"], stacks=[3, 100, 100])
    act(hand, "bring_in", "call", "call")  # seat 1 brings in; seat 0 calls all-in
    assert hand.all_in[0]
    assert street_of(hand) == "fourth" and hand.to_act == 1


def test_seventh_street_is_opened_by_the_sixth_street_opener() -> None:
    hand = deal(["Ac 2c Kd Qd Jd Td 9d", "3c 4c Kh 8h 7h 6h 5h", "5c 6c Ks Qs 8s 4s 2s"])
    openers = {}
    while not hand.is_over:
        street = street_of(hand)
        openers.setdefault(street, hand.to_act)
        hand.act(passive(hand))
    assert openers["sixth"] == 1
    assert openers["seventh"] == 1


# ---------------------------------------------------------------- dealing


def test_a_card_is_burned_before_fourth_to_seventh_street() -> None:
    hand = deal(["2c 3c Kd 9c Tc Jc Qc", "4c 5c 7h 9d Td Jd Qh"])
    play_passively(hand)
    burns = []
    street = ""
    dealt_since_start = False
    for event in hand.events:
        if isinstance(event, StreetStarted):
            street, dealt_since_start = event.street, False
        elif isinstance(event, CardsDealt):
            dealt_since_start = True
        elif isinstance(event, CardBurned):
            assert not dealt_since_start, "the burn comes before the street's cards"
            burns.append(street)
    assert burns == ["fourth", "fifth", "sixth", "seventh"]


def test_seventh_street_card_is_dealt_down() -> None:
    hand = deal(["2c 3c Kd 9c Tc Jc Qc", "4c 5c 7h 9d Td Jd Qh"])
    play_passively(hand)
    dealt = [event for event in hand.events if isinstance(event, CardsDealt) and event.seat == 0]
    assert [event.face_up for event in dealt] == [
        (False, False, True),
        (True,),
        (True,),
        (True,),
        (False,),
    ]


def test_short_deck_eight_players_reaching_seventh_get_a_community_card() -> None:
    hand = RazzHand(SPEC, [100] * 8, Deck(random.Random(8)))
    play_passively(hand)
    assert any(isinstance(event, DeckReshuffled) for event in hand.events)
    boards = [event for event in hand.events if isinstance(event, BoardDealt)]
    assert len(boards) == 1 and len(boards[0].cards) == 1
    community = boards[0].cards[0]
    assert all(len(cards) == 6 for cards in hand.cards)
    every_card = [card for cards in hand.cards for card in cards] + [community]
    assert len(set(every_card)) == len(every_card) == 49
    shown = [event for event in hand.events if isinstance(event, HandShown)]
    assert shown and all(community not in event.cards for event in shown)
    assert sum(hand.stacks) == 800


def test_short_deck_seven_players_reaching_seventh_use_the_burned_cards() -> None:
    hand = RazzHand(SPEC, [100] * 7, Deck(random.Random(7)))
    play_passively(hand)
    assert any(isinstance(event, DeckReshuffled) for event in hand.events)
    assert not any(isinstance(event, BoardDealt) for event in hand.events)
    assert all(len(cards) == 7 for cards in hand.cards)
    every_card = [card for cards in hand.cards for card in cards]
    assert len(set(every_card)) == 49


def test_short_deck_community_card_plays_for_everybody() -> None:
    hand = RazzHand(SPEC, [100] * 8, Deck(random.Random(8)))
    play_passively(hand)
    community = next(event for event in hand.events if isinstance(event, BoardDealt)).cards
    values = [evaluate.low_value(list(cards) + list(community)) for cards in hand.cards]
    best = max(values)
    award = next(event for event in hand.events if isinstance(event, PotAwarded))
    assert award.winners == tuple(seat for seat in range(8) if values[seat] == best)


# ---------------------------------------------------------------- showdown


def test_showdown_a5_low_straights_and_flushes_do_not_count() -> None:
    # Seat 0: a wheel in one suit (a straight flush in high poker) is the best low.
    hand = deal(["As 2s 3s 4s 5s Kd Kh", "6c 4c 3c 2c Ac Qd Qh"])
    play_passively(hand)
    shown = {event.seat: event.description for event in hand.events if isinstance(event, HandShown)}
    assert shown[0] == "5-4-3-2-A low"
    assert hand.results() == (3, -3)


def test_showdown_any_unpaired_hand_beats_a_pair() -> None:
    hand = deal(["Kc Qc Jc Tc 9d 9c 9h", "Ac Ad 2c 2d 3c 3d 4c"])
    play_passively(hand)
    assert hand.results()[0] > 0


def test_showdown_compares_the_highest_card_first() -> None:
    # 7-5-4-3-2 beats 8-4-3-2-A.
    hand = deal(["7c 5c 4c 3c 2c Kd Kh", "8d 4d 3d 2d Ad Qd Qh"])
    play_passively(hand)
    assert hand.results()[0] > 0


def test_showdown_pair_of_aces_is_the_lowest_pair() -> None:
    hand = deal(["Ac Ad 7c 8c 9c 7d 8d", "2c 2d 7h 8h 9h 7s 8s"])
    play_passively(hand)
    assert hand.results()[0] > 0


def test_showdown_last_aggressor_shows_first_then_clockwise() -> None:
    hand = deal(
        ["2c 3c Kd 9c Tc Jc Qc", "4c 5c 7h 9d Td Jd Qh", "6c 7c 8s 9h Th Js Qs"],
        always_show=[0, 1, 2],
    )
    while street_of(hand) != "seventh":
        hand.act(passive(hand))
    while hand.to_act != 1:
        act(hand, "check")
    act(hand, "bet 10")
    play_passively(hand)
    order = [event.seat for event in hand.events if isinstance(event, HandShown)]
    assert order == [1, 2, 0]


def test_showdown_without_a_bet_starts_left_of_the_dealer() -> None:
    hand = deal(
        ["2c 3c Kd 9c Tc Jc Qc", "4c 5c 7h 9d Td Jd Qh", "6c 7c 8s 9h Th Js Qs"],
        always_show=[0, 1, 2],
    )
    play_passively(hand)
    order = [event.seat for event in hand.events if isinstance(event, HandShown)]
    assert order == [0, 1, 2]


def test_showdown_after_an_all_in_every_hand_is_shown() -> None:
    # Seat 0 completes all-in on third street and seat 1 calls: seat 1's losing
    # hand is shown too.
    hand = deal(["7c 5c Kd 4c 3c 2c Qc", "8d 4d Qh 3d 2d Ad Qd"], stacks=[6, 100])
    act(hand, "complete 5", "call")
    assert hand.all_in[0]
    play_passively(hand)
    assert [e.seat for e in hand.events if isinstance(e, HandShown)] == [0, 1]
    assert not any(isinstance(e, HandMucked) for e in hand.events)
    assert hand.results() == (6, -6)


def test_showdown_a_hand_that_cannot_win_is_mucked() -> None:
    # Seat 0 shows first (no bet on seventh) with the best hand; seat 1 cannot win.
    hand = deal(["7c 5c 4c 3c 2c Kd Kh", "8d 4d 3d 2d Ad Qd Qh"])
    play_passively(hand)
    assert [type(e) for e in hand.events if isinstance(e, HandShown | HandMucked)] == [
        HandShown,
        HandMucked,
    ]


def test_split_pot_odd_chip_goes_first_clockwise_from_the_dealer() -> None:
    # Seats 0 and 2 hold the same 7-5-4-3-2; seat 1 folds on fourth street.
    hand = deal(["7c 5c Kc 3c 2c 4c Qc", "9d 8d Kh Td", "7d 5d Ks 3d 2d 4d Qd"])
    act(hand, "bring_in", "call", "call")  # Kc < Kh < Ks: seat 2 brings in
    assert street_of(hand) == "fourth"
    while street_of(hand) == "fourth":
        move = "bet 5" if ActionKind.BET in hand.legal_actions() else None
        if hand.to_act == 1:
            act(hand, "fold")
        elif move:
            act(hand, move)
        else:
            hand.act(passive(hand))
    play_passively(hand)
    award = next(event for event in hand.events if isinstance(event, PotAwarded))
    assert award.amount % 2 == 1
    assert award.winners == (0, 2)
    assert award.shares[0] == award.shares[1] + 1


@pytest.mark.parametrize("players", [2, 5, 8])
def test_hand_ends_with_chips_conserved(players: int) -> None:
    hand = RazzHand(SPEC, [60] * players, Deck(random.Random(players)))
    play_passively(hand)
    assert sum(hand.stacks) == 60 * players


def test_seat_with_no_chips_never_acts_and_never_wins_chips() -> None:
    cards = ["2c 3c 4d 5d", "4c 5c 8h 9h", "6c 7c 9s", "8c 9c Kh Qh"]
    # The table sits such a seat out; a hand refuses to deal it in.
    with pytest.raises(InvalidSpec) as error:
        deal(cards, stacks=[0, 100, 100, 100])
    assert error.value.code == "bad_stack"


@pytest.mark.parametrize(
    "options",
    [
        {"ante": -1},
        {"bring_in": 0},
        {"bring_in": 5},  # not smaller than the small bet
        {"small_bet": 4.5},
        {"big_bet": 4},  # below the small bet
        {"max_raises": -1},
        {"max_raises": True},
        {"heads_up_uncapped": "no"},
        {"heads_up_uncapped": 1},
    ],
)
def test_bad_specs_are_rejected(options: dict[str, object]) -> None:
    with pytest.raises(InvalidSpec) as error:
        RazzSpec(**{"ante": 1, "bring_in": 2, "small_bet": 5, "big_bet": 10, **options})  # type: ignore[arg-type]
    assert error.value.code == "bad_spec"


@pytest.mark.parametrize("spec", [ThreeByFourSpec(), {"ante": 1}, None])
def test_a_hand_needs_a_razz_spec(spec: object) -> None:
    # A 3x4 spec has no bring-in: the hand failed with AttributeError at the first decision.
    with pytest.raises(InvalidSpec) as error:
        RazzHand(spec, [100, 100])  # type: ignore[arg-type]
    assert error.value.code == "bad_spec"


@pytest.mark.parametrize("players", [1, 9])
def test_two_to_eight_players(players: int) -> None:
    with pytest.raises(InvalidSpec) as error:
        RazzHand(SPEC, [100] * players, Deck(random.Random(1)))
    assert error.value.code == "player_count"
