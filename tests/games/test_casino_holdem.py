"""Casino Hold'em rule tests: one per settlement case of the rule book, with fixed decks.

Deal order: one card to each box in turn, then the dealer; again; then the
flop, then the turn and the river together.
"""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from pokerhouse.cards import Deck, parse_cards
from pokerhouse.engine import Action
from pokerhouse.engine.events import (
    BoardDealt,
    CardsDealt,
    HandShown,
    event_from_dict,
    event_to_dict,
)
from pokerhouse.engine.visibility import shown_to
from pokerhouse.games import get_game, new_hand
from pokerhouse.games.casino_holdem import (
    DEALER,
    BonusPays,
    BonusSettled,
    BoxSettled,
    CasinoHoldemHand,
    CasinoHoldemSpec,
    DealerQualified,
    HouseSettled,
)


def casino_deck(boxes: Sequence[str], dealer: str, flop: str, turn_river: str) -> Deck:
    """A deck that deals each box and the dealer these cards, then this board."""
    holes = [parse_cards(text) for text in boxes]
    dealer_cards = parse_cards(dealer)
    order = []
    for i in range(2):
        order += [str(hole[i]) for hole in holes] + [str(dealer_cards[i])]
    return Deck.stacked(" ".join(order) + " " + flop + " " + turn_river)


def play(
    boxes: Sequence[str],
    dealer: str,
    flop: str,
    turn_river: str,
    *,
    decisions: Sequence[str] | None = None,
    antes: Sequence[int] | None = None,
    bonuses: Sequence[int] | None = None,
    spec: CasinoHoldemSpec | None = None,
    stack: int = 1000,
) -> CasinoHoldemHand:
    deck = casino_deck(boxes, dealer, flop, turn_river)
    hand = CasinoHoldemHand(
        spec or CasinoHoldemSpec(),
        [stack] * len(boxes),
        deck,
        antes=antes if antes is not None else [10] * len(boxes),
        bonuses=bonuses,
    )
    for decision in ["call"] * len(boxes) if decisions is None else decisions:
        hand.act(Action.parse(decision))
    return hand


def settled(hand: CasinoHoldemHand, seat: int) -> BoxSettled:
    return next(e for e in hand.events if isinstance(e, BoxSettled) and e.seat == seat)


def test_registered_as_banked_game() -> None:
    info = get_game("casino-holdem")
    assert info.banked and (info.min_players, info.max_players) == (1, 7)
    hand = new_hand("casino-holdem", [100, 100], seed=3, antes=[5, 10], bonuses=[0, 5])
    assert hand.setup() == {"antes": [5, 10], "bonuses": [0, 5]}


def test_deal_gives_two_cards_to_each_box_and_the_dealer_then_a_flop() -> None:
    deck = casino_deck(["As Kd", "7c 7d"], "Qh Qs", "2c 3c 4c", "9h 9s")
    hand = CasinoHoldemHand(CasinoHoldemSpec(), [100, 100], deck)
    assert hand.cards == [parse_cards("As Kd"), parse_cards("7c 7d")]
    assert hand.dealer_cards == parse_cards("Qh Qs")
    assert hand.board == list(parse_cards("2c 3c 4c"))
    assert hand.to_act == 0 and hand.street == "flop"


def test_dealer_not_qualifying_pays_the_ante_and_pushes_the_call() -> None:
    # Dealer: K-high (no pair of fours); the box's jack-high is worse but still paid.
    hand = play(["Jc 4s"], "Ah 3d", "Kc 9d 7h", "2s 5c")
    assert hand.dealer_qualifies is False
    box = settled(hand, 0)
    assert (box.outcome, box.ante, box.call, box.net) == ("dealer_not_qualified", 10, 0, 10)
    assert hand.results() == (10,) and hand.house_result == -10


def test_pair_of_threes_does_not_qualify_and_pair_of_fours_does() -> None:
    threes = play(["Ac Kc"], "3h 3d", "Qc 9d 7h", "2s 6s")
    fours = play(["Ac Kc"], "4h 4d", "Qc 9d 7h", "2s 6s")
    assert threes.dealer_qualifies is False and fours.dealer_qualifies is True
    assert settled(fours, 0).outcome == "lost"


def test_box_wins_with_a_straight_ante_one_to_one_call_one_to_one() -> None:
    hand = play(["8c 6d"], "Kh Kd", "9s 7h 2c", "5d Jc")
    box = settled(hand, 0)
    assert (box.outcome, box.ante, box.call, box.net) == ("won", 10, 20, 30)
    assert hand.results() == (30,)


def test_box_wins_with_a_flush_ante_two_to_one() -> None:
    hand = play(["Ah 6h"], "Kc Kd", "9h 7h 2c", "3h Js")
    box = settled(hand, 0)
    assert (box.outcome, box.ante, box.call, box.net) == ("won", 20, 20, 40)


def test_box_wins_with_a_royal_flush_ante_one_hundred_to_one() -> None:
    hand = play(["As Ks"], "Qd Qc", "Qs Js Ts", "2c 3d")
    box = settled(hand, 0)
    assert (box.outcome, box.ante, box.call, box.net, box.capped) == ("won", 1000, 20, 1020, 0)
    shown = [e for e in hand.events if isinstance(e, HandShown) and e.seat == 0]
    assert shown[0].description == "Royal flush"


def test_dealer_wins_takes_ante_and_call() -> None:
    hand = play(["Ac Kd"], "9h 9c", "9s 5d 2c", "7h Jd")
    box = settled(hand, 0)
    assert (box.outcome, box.ante, box.call, box.net) == ("lost", -10, -20, -30)
    assert hand.results() == (-30,) and hand.house_result == 30


def test_equal_five_card_hands_stand_off_though_unused_cards_differ() -> None:
    # Both play the board's broadway straight; 3d 2c and 5h 4h do not play.
    hand = play(["3d 2c"], "5h 4h", "As Ks Qd", "Jc Th")
    box = settled(hand, 0)
    assert (box.outcome, box.ante, box.call, box.net) == ("stand_off", 0, 0, 0)
    assert hand.results() == (0,) and hand.house_result == 0


def test_equal_two_pair_with_board_kicker_stands_off() -> None:
    # Aces and kings with a queen kicker from the board for both; 3s vs 2d unused.
    hand = play(["Ac 3s"], "Ad 2d", "As Kd Kc", "Qh 7c")
    assert settled(hand, 0).outcome == "stand_off"


def test_better_kicker_wins() -> None:
    hand = play(["Ac Qs"], "Ad Jd", "As Kd Kc", "8h 7c")
    assert settled(hand, 0).outcome == "won"


def test_fold_loses_the_ante_and_the_others_play_on() -> None:
    hand = play(["7c 2d", "8c 6d"], "Kh Kd", "9s 7h 2c", "5d Jc", decisions=["fold", "call"])
    folded = settled(hand, 0)
    assert (folded.outcome, folded.net) == ("folded", -10)
    assert settled(hand, 1).outcome == "won"
    assert hand.results() == (-10, 30) and hand.house_result == -20
    assert hand.revealed == [False, True]  # a folded box's cards are never shown


def test_when_every_box_folds_the_dealer_never_shows() -> None:
    hand = play(["7c 2d"], "Kh Kd", "9s 7h 2c", "5d Jc", decisions=["fold"])
    assert hand.is_over and hand.results() == (-10,) and hand.house_result == 10
    assert not hand.dealer_shown and len(hand.board) == 3
    assert not any(isinstance(e, HandShown) for e in hand.events)


def test_max_payout_caps_a_royal_flush() -> None:
    spec = CasinoHoldemSpec(max_payout=500)
    hand = play(["As Ks"], "Qd Qc", "Qs Js Ts", "2c 3d", spec=spec)
    box = settled(hand, 0)
    assert (box.ante, box.call, box.net, box.capped) == (1000, 20, 500, 520)
    assert hand.results() == (500,) and hand.house_result == -500


def test_max_payout_caps_each_box_separately_and_not_the_bonus() -> None:
    spec = CasinoHoldemSpec(max_payout=25)
    hand = play(["As Ad", "8c 6d"], "Kh Kd", "Ac 7h 2c", "9s Jc", bonuses=[10, 0], spec=spec)
    bonus = next(e for e in hand.events if isinstance(e, BonusSettled))
    assert bonus.paid == 70  # trips of aces, flat 7:1, uncapped
    assert settled(hand, 0).net == 25 and settled(hand, 0).capped == 5
    assert hand.results() == (95, -30)


def test_bonus_wins_with_a_pair_of_aces() -> None:
    hand = play(["Ah 9c"], "Kd 9d", "Ac Kh 2s", "3h 7d", bonuses=[5], decisions=[])
    bonus = next(e for e in hand.events if isinstance(e, BonusSettled))
    assert (bonus.won, bonus.paid, bonus.description) == (True, 35, "Pair of aces")
    assert hand.stacks == (1000 - 10 - 5 + 5 + 35,)


def test_bonus_loses_with_a_pair_of_kings() -> None:
    hand = play(["Kh 9c"], "Qd 9d", "Kc 8h 2s", "3h 7d", bonuses=[5], decisions=[])
    bonus = next(e for e in hand.events if isinstance(e, BonusSettled))
    assert (bonus.won, bonus.paid) == (False, 0)
    assert hand.stacks == (1000 - 10 - 5,)


def test_bonus_is_settled_before_decisions_and_kept_after_a_fold() -> None:
    hand = play(["Ah Ad"], "Kd 9d", "2c 7h 8s", "3h Kh", bonuses=[10], decisions=[])
    assert hand.stacks == (1000 - 20 + 10 + 70,)  # settled before anyone acts
    hand.act(Action.fold())
    assert hand.results() == (70 - 10,)
    assert hand.house_result == -60


def test_common_bonus_table_pays_a_flush_twenty_to_one() -> None:
    spec = CasinoHoldemSpec(bonus_pays=BonusPays.named("common"))
    hand = play(["Ah 9h"], "Kd 9d", "2h 7h Kh", "3c 4d", bonuses=[5], spec=spec, decisions=[])
    bonus = next(e for e in hand.events if isinstance(e, BonusSettled))
    assert (bonus.paid, bonus.description) == (100, "Flush, ace high")


def test_bonus_uses_only_the_boxs_cards_and_the_flop() -> None:
    # Aces only arrive with the turn: the bonus has already lost.
    hand = play(["Ah 9c"], "Kd 9d", "Qc 8h 2s", "Ac 7d", bonuses=[5])
    bonus = next(e for e in hand.events if isinstance(e, BonusSettled))
    assert not bonus.won


def test_call_is_exactly_twice_the_ante() -> None:
    deck = casino_deck(["Ah 9c"], "Kd 9d", "Ac Kh 2s", "3h 7d")
    hand = CasinoHoldemHand(CasinoHoldemSpec(), [100], deck, antes=[15])
    events = hand.act(Action.call())
    taken = events[0]
    assert (taken.added, taken.total) == (30, 45)  # type: ignore[attr-defined]


def test_dealer_cards_are_hidden_until_the_dealer_shows() -> None:
    deck = casino_deck(["Ah 9c", "2c 2d"], "Kd 9d", "Ac Kh 2s", "3h 7d")
    hand = CasinoHoldemHand(CasinoHoldemSpec(), [100, 100], deck)
    dealt = next(e for e in hand.events if isinstance(e, CardsDealt) and e.seat == DEALER)
    for seat in (None, 0, 1):
        assert shown_to(dealt, seat).cards == (None, None)  # type: ignore[union-attr]
        assert hand.view(seat).dealer_cards == (None, None)
    assert hand.view(0).cards == (parse_cards("Ah 9c"), (None, None))
    assert hand.view(1).cards == ((None, None), parse_cards("2c 2d"))
    hand.act(Action.call())
    hand.act(Action.call())
    assert hand.view(1).dealer_cards == parse_cards("Kd 9d")
    assert hand.view(1).cards[0] == parse_cards("Ah 9c")  # shown at the showdown


def test_events_round_trip_through_json() -> None:
    hand = play(["As Ad", "8c 6d"], "Kh Kd", "Ac 7h 2c", "9s Jc", bonuses=[10, 0])
    for event in hand.events:
        assert event_from_dict(event_to_dict(event)) == event
    kinds = {type(e) for e in hand.events}
    assert {BonusSettled, BoxSettled, DealerQualified, HouseSettled, BoardDealt} <= kinds
    assert next(e for e in hand.events if isinstance(e, HouseSettled)).result == hand.house_result


def test_a_box_that_cannot_afford_the_call_may_only_fold() -> None:
    deck = casino_deck(["Ah 9c"], "Kd 9d", "Qc 8h 2s", "3h 7d")
    hand = CasinoHoldemHand(CasinoHoldemSpec(), [25], deck, antes=[10])
    assert [str(a) for a in hand.legal_actions()] == ["fold"]


def test_bonus_winnings_can_fund_the_call() -> None:
    deck = casino_deck(["Ah Ac"], "Kd 9d", "Ad 8h 2s", "3h 7d")
    hand = CasinoHoldemHand(CasinoHoldemSpec(), [15], deck, antes=[10], bonuses=[5])
    assert hand.stacks == (40,)
    assert [str(a) for a in hand.legal_actions()] == ["fold", "call"]


def test_boxes_decide_in_seat_order() -> None:
    deck = casino_deck(["Ah 9c", "2c 2d", "Th Td"], "Kd 9d", "Ac Kh 2s", "3h 7d")
    hand = CasinoHoldemHand(CasinoHoldemSpec(), [100] * 3, deck)
    order = []
    while not hand.is_over:
        order.append(hand.to_act)
        hand.act(Action.call())
    assert order == [0, 1, 2]


@pytest.mark.parametrize("boxes", [1, 7])
def test_one_to_seven_boxes(boxes: int) -> None:
    hand = new_hand("casino-holdem", [100] * boxes, seed=boxes)
    while not hand.is_over:
        hand.act(Action.call())
    assert sum(hand.results()) + hand.house_result == 0  # type: ignore[attr-defined]
