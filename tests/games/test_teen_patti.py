"""3 Card Poker / Teen Patti: the seed's worked example and one test per rule of RULES.md."""

from __future__ import annotations

import itertools
import pickle
import random

import pytest

from pokerhouse import evaluate
from pokerhouse.cards import Card, Deck, ScriptedDeck, parse_cards
from pokerhouse.engine import Action, ActionKind, Limit
from pokerhouse.engine.events import (
    ActionTaken,
    AntePosted,
    BetReturned,
    CardsDealt,
    Event,
    HandEnded,
    HandShown,
    PotAwarded,
    event_from_dict,
    event_to_dict,
)
from pokerhouse.errors import InvalidSpec
from pokerhouse.evaluate import TeenPattiCategory
from pokerhouse.games import get_game, new_hand
from pokerhouse.games.teen_patti import CardsLooked, StakeRaised, TeenPattiHand, TeenPattiSpec
from pokerhouse.history import replay, to_json

LOOK = Action(ActionKind.LOOK)
SHOW = Action(ActionKind.SHOW)


def deck_for(*hands: str) -> Deck:
    """A deck that deals these hands (seat 0 first), one card at a time clockwise."""
    cards = [parse_cards(text) for text in hands]
    return Deck.stacked([cards[seat][i] for i in range(3) for seat in range(len(cards))])


def deal(*hands: str, stacks: list[int] | None = None, **spec: object) -> TeenPattiHand:
    return TeenPattiHand(
        TeenPattiSpec(**spec),  # type: ignore[arg-type]
        stacks if stacks is not None else [100] * len(hands),
        deck_for(*hands),
    )


def play(hand: TeenPattiHand, *moves: str) -> None:
    for move in moves:
        hand.act(Action.parse(move))


def bet_range(hand: TeenPattiHand) -> tuple[int | None, int | None]:
    bet = hand.legal_actions().get(ActionKind.BET)
    assert bet is not None
    return bet.min_amount, bet.max_amount


def awards(hand: TeenPattiHand) -> list[tuple[int, tuple[int, ...], tuple[int, ...]]]:
    return [(e.amount, e.winners, e.shares) for e in hand.events if isinstance(e, PotAwarded)]


def returned(hand: TeenPattiHand) -> list[tuple[int, int]]:
    return [(e.seat, e.amount) for e in hand.events if isinstance(e, BetReturned)]


def shows_paid(hand: TeenPattiHand) -> list[tuple[int, int]]:
    return [
        (e.seat, e.added)
        for e in hand.events
        if isinstance(e, ActionTaken) and e.action.kind is ActionKind.SHOW
    ]


# ------------------------------------------------------------------ the seed's worked example

# A, B, C, D are seats 0-3 (D deals). D holds a pair of sevens, A only ace high.
SEED_HANDS = ("As Kd 9c", "2c 2d 5h", "3c 3d 8h", "7h 7s 2s")


def test_seed_worked_example_step_by_step() -> None:
    hand = deal(*SEED_HANDS, ante=1)
    a, b, c, d = range(4)

    def state() -> tuple[int | None, int, int, int, int]:
        view = hand.view(None)
        assert view.blind_min == hand.stake
        return hand.to_act, view.stake, view.seen_min, hand.pot_total, view.pot

    # Everyone antes 1: pot 4, the stake is the ante; A (left of D) acts first, blind.
    assert [e.amount for e in hand.events if isinstance(e, AntePosted)] == [1, 1, 1, 1]
    assert state() == (a, 1, 2, 4, 4)
    assert bet_range(hand) == (1, 99)
    # A plays blind and puts in one unit.
    play(hand, "bet 1")
    assert state() == (b, 1, 2, 5, 5)
    # B sees his cards (the turn stays with him, now seen: minimum 2) and folds.
    play(hand, "look")
    assert state() == (b, 1, 2, 5, 5)
    assert hand.seen[b] and bet_range(hand) == (2, 99)
    play(hand, "fold")
    assert state() == (c, 1, 2, 5, 5)
    # C plays blind and bets one unit.
    assert bet_range(hand) == (1, 99)
    play(hand, "bet 1")
    assert state() == (d, 1, 2, 6, 6)
    # D looks and puts in 2 units, the seen minimum; the stake stays at one.
    play(hand, "look")
    assert bet_range(hand) == (2, 99)
    play(hand, "bet 2")
    assert state() == (a, 1, 2, 8, 8)
    # A raises the stake by putting in 2 units blind.
    assert bet_range(hand) == (1, 98)
    play(hand, "bet 2")
    assert state() == (c, 2, 4, 10, 10)
    # C (B has folded) looks and folds.
    assert bet_range(hand) == (2, 98)
    play(hand, "look")
    assert bet_range(hand) == (4, 98)
    play(hand, "fold")
    assert state() == (d, 2, 4, 10, 10)
    # D puts in 4 units, the seen minimum now that A raised the stake to 2.
    assert bet_range(hand) == (4, 97)
    play(hand, "bet 4")
    assert state() == (a, 2, 4, 14, 14)
    # A looks, and having done so, puts in 4 units and asks for a show.
    play(hand, "look")
    assert hand.to_act == a and hand.view(a).show_cost == 4
    assert ActionKind.SHOW in hand.legal_actions()
    play(hand, "show")
    assert shows_paid(hand) == [(a, 4)]
    # D shows his cards and the winner (D's pair) takes it all.
    assert [e.seat for e in hand.events if isinstance(e, HandShown)] == [d, a]
    assert awards(hand) == [(18, (d,), (18,))]
    assert hand.is_over and hand.to_act is None
    assert hand.results() == (-8, -1, -2, 11)
    assert [e.stake for e in hand.events if isinstance(e, StakeRaised)] == [2]


# ------------------------------------------------------------------ turns, blind and seen


def test_turns_go_clockwise_from_left_of_dealer_skipping_folded_and_all_in() -> None:
    hand = deal("As Kd 9c", "2c 2d 5h", "3c 3d 8h", "7h 7s 2s", stacks=[100, 100, 5, 100])
    assert hand.to_act == 0
    play(hand, "bet 1", "fold", "bet 4")  # seat 2 goes all-in
    assert hand.all_in[2] and hand.to_act == 3
    play(hand, "bet 4")
    assert hand.to_act == 0  # round and round, past the folded and the all-in seat


def test_look_keeps_the_turn() -> None:
    hand = deal("As Kd 9c", "2c 2d 5h", "3c 3d 8h")
    events = len(hand.events)
    play(hand, "look")
    assert hand.to_act == 0 and hand.seen[0]
    assert hand.events[events:] == (CardsLooked(seat=0, cards=parse_cards("As Kd 9c")),)
    assert ActionKind.LOOK not in hand.legal_actions()
    assert bet_range(hand) == (2, 99)


def test_look_is_private_to_the_looker() -> None:
    hand = deal("As Kd 9c", "2c 2d 5h", "3c 3d 8h")
    play(hand, "look")
    assert hand.events_for(0)[-1] == CardsLooked(seat=0, cards=parse_cards("As Kd 9c"))
    for other in (1, 2, None):
        assert hand.events_for(other)[-1] == CardsLooked(seat=0, cards=(None, None, None))
        assert hand.view(other).cards[0] == (None, None, None)
    assert hand.view(0).my_cards == parse_cards("As Kd 9c")


def test_cards_are_dealt_unseen_even_by_their_owner() -> None:
    hand = deal("As Kd 9c", "2c 2d 5h")
    dealt = [e for e in hand.events if isinstance(e, CardsDealt)]
    assert [e.seat for e in dealt] == [0, 1] and not any(e.owner_sees for e in dealt)
    for seat in (0, 1):
        assert hand.view(seat).my_cards == (None, None, None)
        assert all(c is None for e in hand.events_for(seat) for c in getattr(e, "cards", ()))


def test_cards_are_dealt_one_at_a_time_clockwise_passing_the_seat() -> None:
    hand = TeenPattiHand(
        TeenPattiSpec(),
        [50, 50, 50],
        ScriptedDeck({2: parse_cards("Ah Ad Ac"), 0: parse_cards("2c 3d 4h")}),
    )
    assert hand.cards[0] == parse_cards("2c 3d 4h") and hand.cards[2] == parse_cards("Ah Ad Ac")
    assert deal("As Kd 9c", "2c 2d 5h").cards == [parse_cards("As Kd 9c"), parse_cards("2c 2d 5h")]


def test_blind_player_may_fold_without_looking() -> None:
    hand = deal("As Kd 9c", "2c 2d 5h", "3c 3d 8h")
    play(hand, "fold")
    assert hand.folded[0] and not hand.seen[0] and hand.to_act == 1
    assert hand.view(0).my_cards == (None, None, None)


def test_blind_bet_at_least_stake_seen_bet_at_least_twice() -> None:
    hand = deal("As Kd 9c", "2c 2d 5h", "3c 3d 8h", ante=3)
    assert bet_range(hand) == (3, 97)
    play(hand, "look")
    assert bet_range(hand) == (6, 97)


def test_blind_bet_raises_stake_to_the_bet() -> None:
    hand = deal("As Kd 9c", "2c 2d 5h", "3c 3d 8h")
    play(hand, "bet 5")
    assert hand.stake == 5 and bet_range(hand) == (5, 99)
    play(hand, "bet 5")  # equal to the stake: no change
    assert hand.stake == 5


def test_seen_bet_raises_stake_to_half_the_bet() -> None:
    hand = deal("As Kd 9c", "2c 2d 5h", "3c 3d 8h")
    play(hand, "look", "bet 2")
    assert hand.stake == 1
    play(hand, "look", "bet 7")  # 7 // 2 = 3
    assert hand.stake == 3 and bet_range(hand) == (3, 99)


def test_no_limit_has_no_maximum_but_the_stack() -> None:
    hand = deal("As Kd 9c", "2c 2d 5h", "3c 3d 8h", stacks=[500, 80, 100])
    assert bet_range(hand) == (1, 499)
    play(hand, "bet 300")
    assert hand.stake == 300
    assert bet_range(hand) == (79, 79)  # short of the stake: all-in only


def test_pot_limit_caps_every_bet_at_the_pot() -> None:
    hand = deal("As Kd 9c", "2c 2d 5h", "3c 3d 8h", limit=Limit.POT_LIMIT)
    assert hand.pot_total == 3 and bet_range(hand) == (1, 3)
    with pytest.raises(Exception, match="above the maximum of 3") as error:
        hand.act(Action.bet(4))
    assert getattr(error.value, "code", None) == "amount_too_large"
    play(hand, "bet 3")  # pot 6, stake 3
    play(hand, "look")
    assert bet_range(hand) == (6, 6)
    play(hand, "bet 6")  # pot 12, stake 3
    assert bet_range(hand) == (3, 12)


def test_pot_limit_minimum_allowed_even_above_a_short_pot() -> None:
    # Seat 1's ante was short, so the pot (13) is below a seen minimum of 20.
    hands = ("As Kd 9c", "2c 2d 5h", "3c 3d 8h")
    hand = deal(*hands, stacks=[100, 3, 100], ante=10, limit="pot-limit")
    play(hand, "look")
    assert hand.pot_total == 23 and bet_range(hand) == (20, 23)


# ------------------------------------------------------------------ show


def test_show_only_with_exactly_two_players() -> None:
    hand = deal("As Kd 9c", "2c 2d 5h", "3c 3d 8h")
    assert ActionKind.SHOW not in hand.legal_actions()
    play(hand, "bet 1", "fold")
    assert ActionKind.SHOW in hand.legal_actions()


def test_show_blind_asker_pays_stake_and_looks_only_after_paying() -> None:
    hand = deal("As Kd 9c", "2c 2d 5h")
    play(hand, "bet 4", "look", "bet 8")  # stake 4; seat 1 is seen
    assert hand.view(0).show_cost == 4
    assert hand.view(0).my_cards == (None, None, None)
    play(hand, "show")
    assert shows_paid(hand) == [(0, 4)]
    assert [e.seat for e in hand.events if isinstance(e, HandShown)] == [1, 0]
    assert hand.seen[0] and hand.view(0).my_cards == parse_cards("As Kd 9c")
    assert awards(hand) == [(2 + 4 + 8 + 4, (1,), (18,))]


def test_show_blind_asker_pays_stake_against_a_blind_player_too() -> None:
    hand = deal("Ah Ad 9c", "2c 2d 5h")
    play(hand, "bet 3", "bet 5")  # stake 5, both blind
    play(hand, "show")
    assert hand.results() == (1 + 5, -(1 + 5))
    assert awards(hand) == [(2 + 3 + 5 + 5, (0,), (15,))]


def test_show_seen_may_not_ask_blind_player() -> None:
    hand = deal("As Kd 9c", "2c 2d 5h")
    play(hand, "look")
    assert ActionKind.SHOW not in hand.legal_actions()
    before = pickle.dumps(hand)
    with pytest.raises(Exception, match="blind") as error:
        hand.act(SHOW)
    assert getattr(error.value, "code", None) == "show_against_blind"
    assert pickle.dumps(hand) == before


def test_show_both_seen_costs_twice_the_stake() -> None:
    hand = deal("As Kd 9c", "2c 2d 5h")
    play(hand, "look", "bet 6", "look", "bet 6")  # stake 3
    assert hand.view(0).show_cost == 6
    play(hand, "show")
    assert shows_paid(hand) == [(0, 6)]
    assert awards(hand) == [(2 + 6 + 6 + 6, (1,), (20,))]


def test_show_equal_hands_player_who_did_not_pay_wins() -> None:
    for asker in (0, 1):
        hand = deal("As Kd 9c", "Ah Kc 9d")
        play(hand, "bet 1")
        if asker == 0:
            play(hand, "bet 1")
        play(hand, "show")
        winner = 1 - asker
        assert [a[1] for a in awards(hand)] == [(winner,)]
        assert hand.results()[winner] > 0


def test_show_winner_takes_the_whole_pot_without_equalising() -> None:
    hand = deal("Ah Ad 9c", "2c 3d 5h", "8c 8d 8h")
    play(hand, "bet 1", "look", "bet 40", "fold")  # stake 20
    play(hand, "show")  # blind: pays 20, in for 22 against seat 1's 41
    assert awards(hand) == [(3 + 1 + 40 + 20, (0,), (64,))]


def test_show_paid_all_in_with_side_pot() -> None:
    hand = deal("Ah Ad 9c", "2c 3d 5h", stacks=[5, 100])
    play(hand, "bet 1", "bet 10")  # seat 0 has 3 left, less than the stake of 10
    assert hand.view(0).show_cost == 3
    play(hand, "show")
    # Seat 0 can win only 5 from seat 1; seat 1's other 6, which nobody matched, come back.
    assert returned(hand) == [(1, 6)]
    assert awards(hand) == [(10, (0,), (10,))]
    assert hand.results() == (5, -5)


# ------------------------------------------------------------------ end of the hand


def test_all_but_one_fold_last_player_wins_everything() -> None:
    hand = deal("2c 3d 5h", "As Ad Ac", "Kc Kd Kh")
    play(hand, "bet 10", "fold", "fold")
    assert awards(hand) == [(13, (0,), (13,))]
    assert not any(isinstance(e, HandShown) for e in hand.events)
    assert hand.results() == (2, -1, -1)


def test_all_in_side_pots_among_three_players() -> None:
    # Seat 0 (best hand) all-in for 6, seat 2 (worst) all-in for 30, seat 1 in for 11.
    hand = deal("Ah Ad 9c", "Kc Kd 5h", "2c 7d 9h", stacks=[6, 100, 30])
    play(hand, "bet 5", "bet 10", "bet 29")
    assert hand.is_over  # only seat 1 can still act: every hand is shown
    assert [e.seat for e in hand.events if isinstance(e, HandShown)] == [0, 1, 2]
    # Seat 2's 19 above seat 1's 11 were matched by nobody: returned, not won.
    assert returned(hand) == [(2, 19)]
    assert awards(hand) == [(18, (0,), (18,)), (10, (1,), (10,))]
    assert hand.results() == (12, -1, -11)


def test_all_in_showdown_equal_hands_split_odd_chip_left_of_button() -> None:
    hand = deal("As Kd 9c", "Ah Kc 9d", "2c 3d 5h", stacks=[10, 10, 10])
    play(hand, "bet 9", "bet 9")  # seats 0 and 1 all-in; seat 2 alone can act
    # The tied seats 0 and 1 split both pots; the main pot's odd chip goes to seat 0.
    assert awards(hand) == [(3, (0, 1), (2, 1)), (18, (0, 1), (9, 9))]
    assert hand.results() == (1, 0, -1)


def test_short_ante_goes_all_in_and_can_win_only_its_level() -> None:
    hand = deal("Ah Ad Ac", "2c 3d 5h", "Kc Kd 9h", stacks=[2, 100, 100], ante=5)
    assert hand.all_in[0] and hand.pot_total == 12 and hand.to_act == 1
    play(hand, "bet 5", "fold")  # seat 1 is the only one left who can act
    assert hand.is_over
    # Seat 1's side pot holds seat 2's folded chips above seat 0's 2 (won) and seat
    # 1's own above seat 2's 5, which nobody matched (returned).
    assert returned(hand) == [(1, 5)]
    assert awards(hand) == [(6, (0,), (6,)), (6, (1,), (6,))]


def test_a_bet_nobody_called_is_returned_to_its_bettor_not_won() -> None:
    # RULES.md, Common: "A bet that nobody called is returned to its bettor, not won."
    # Seat 1 is all-in for 6; seat 0 put in 41, and only 6 of them could be matched.
    hand = deal("2c 3d 5h", "Ah Ad 9c", stacks=[100, 6])
    play(hand, "bet 40")
    assert hand.to_act == 1
    play(hand, "bet 5")
    assert hand.is_over
    assert returned(hand) == [(0, 35)]
    assert awards(hand) == [(12, (1,), (12,))]
    assert hand.results() == (-6, 6)
    # The excess comes back before the hands are shown, as an uncalled bet does in 3x4.
    kinds = [type(e).__name__ for e in hand.events]
    assert kinds.index("BetReturned") < kinds.index("HandShown")
    # The history still replays to the same events.
    assert replay(to_json(hand)).events == hand.events


def test_chips_folded_at_the_level_of_a_lone_pot_are_won_and_only_the_rest_returned() -> None:
    # Seat 2 (all-in for 4) caps the pots; seat 1 folds after 21, seat 0 put in 31.
    hand = deal("2c 3d 5h", "Kc Kd 9h", "Ah Ad 9c", stacks=[100, 100, 4])
    play(hand, "bet 10", "bet 20", "bet 3", "bet 20", "fold")
    assert hand.is_over
    # Of seat 0's pot above 4, seat 1's 17 folded chips and seat 0's own up to 21 are won;
    # seat 0's 10 above seat 1's 21 were matched by nobody.
    assert returned(hand) == [(0, 10)]
    assert awards(hand) == [(12, (2,), (12,)), (34, (0,), (34,))]
    assert sum(hand.results()) == 0


def showdown_winner(*hands: str) -> int:
    """Seat 0 goes all-in, so every hand is shown at once; who wins the main pot."""
    hand = deal(*hands, stacks=[10] * len(hands))
    play(hand, "bet 9")
    assert hand.is_over and all(hand.revealed)
    main = next(e for e in hand.events if isinstance(e, PotAwarded))
    assert len(main.winners) == 1
    return main.winners[0]


def test_k_a_2_is_not_a_straight_at_showdown() -> None:
    # K-A-2 is only ace high, so a pair of threes beats it.
    assert showdown_winner("Kc Ad 2h", "3c 3d 4h") == 1
    assert showdown_winner("Kc Ad 2h", "Ks Qd 3h") == 0  # ace high beats king high
    shown = hand_shown(deal("Kc Ad 2h", "3c 3d 4h", stacks=[10, 10]), "bet 9")[0]
    assert shown.seat == 0
    assert evaluate.teen_patti(shown.cards).category is TeenPattiCategory.HIGH_CARD
    assert shown.description == evaluate.teen_patti(shown.cards).description


def test_a_2_3_is_the_best_straight_at_showdown() -> None:
    assert showdown_winner("Ac 2d 3h", "Ks Qd Ah") == 0
    assert showdown_winner("Ks Qd Ah", "Ac 2d 3h") == 1
    assert showdown_winner("2c 3d 4h", "Ac 2d Kh") == 0  # 4-3-2 is the lowest straight


def test_trail_beats_straight_flush_beats_straight_beats_flush_beats_pair() -> None:
    order = ["2c 2d 2h", "4s 5s 6s", "7c 8d 9h", "Ad Jd 5d", "Kc Kh Qs", "Ah Kd Jc"]
    for better, worse in itertools.pairwise(order):
        assert showdown_winner(worse, better) == 1, (better, worse)
        assert showdown_winner(better, worse) == 0, (better, worse)


def hand_shown(hand: TeenPattiHand, *moves: str) -> list[HandShown]:
    play(hand, *moves)
    return [e for e in hand.events if isinstance(e, HandShown)]


def test_hand_over_when_everyone_is_all_in_from_the_ante() -> None:
    hand = deal("As Kd 9c", "Qh Qd 2c", stacks=[1, 1])
    assert hand.is_over and hand.to_act is None
    assert hand.results() == (-1, 1)


def test_an_empty_stack_is_not_dealt_in() -> None:
    with pytest.raises(InvalidSpec) as error:
        TeenPattiHand(TeenPattiSpec(), [100, 0, 100], deck_for("As Kd 9c", "Qh Qd 2c"))
    assert error.value.code == "bad_stack"


# ------------------------------------------------------------------ views, events, replay


def test_view_carries_stake_minimums_and_blind_or_seen() -> None:
    hand = deal("As Kd 9c", "2c 2d 5h", "3c 3d 8h", ante=2)
    play(hand, "bet 3", "look")
    view = hand.view(2)
    assert view.stake == 3 and view.blind_min == 3 and view.seen_min == 6
    assert view.seen == (False, True, False)
    assert view.limit == "no-limit" and view.sideshow is None
    assert view.show_cost is None and view.all_in == (False, False, False)


def test_view_shows_others_cards_only_after_a_show() -> None:
    hand = deal("As Kd 9c", "2c 2d 5h")
    play(hand, "look", "bet 2", "look")
    assert hand.view(0).cards[1] == (None, None, None)
    play(hand, "show")
    for viewer in (0, 1, None):
        assert hand.view(viewer).cards == (parse_cards("As Kd 9c"), parse_cards("2c 2d 5h"))


def test_folded_hand_stays_hidden_from_others() -> None:
    hand = deal("As Kd 9c", "2c 2d 5h", "3c 3d 8h")
    play(hand, "look", "fold", "bet 1", "bet 9", "show")
    assert hand.view(1).cards[0] == (None, None, None)
    assert hand.view(0).cards[0] == parse_cards("As Kd 9c")


def test_events_round_trip_through_dicts() -> None:
    hand = deal("As Kd 9c", "2c 2d 5h", "3c 3d 8h", sideshow=True)
    play(hand, "look", "bet 2", "look", "bet 2", "look", "sideshow", "accept", "bet 2", "show")
    assert hand.is_over
    streams: list[list[Event]] = [list(hand.events)]
    streams += [hand.events_for(seat) for seat in (0, 1, 2, None)]
    for stream in streams:
        for event in stream:
            assert event_from_dict(event_to_dict(event)) == event
    assert isinstance(hand.events[-1], HandEnded)


def test_replay_of_actions_on_same_deck_gives_same_events() -> None:
    for seed in range(20):
        deck = Deck(random.Random(seed))
        order = deck.order()
        hand = TeenPattiHand(TeenPattiSpec(ante=2, sideshow=True), [60, 40, 80, 30], deck)
        rng = random.Random(seed)
        while not hand.is_over:
            legal = list(hand.legal_actions())
            choice = rng.choice(legal)
            low, high = choice.min_amount, choice.max_amount
            amount = None if low is None or high is None else rng.randint(low, min(high, low + 6))
            hand.act(Action(choice.kind, amount))
        fresh = Deck.from_order(order)
        again = TeenPattiHand(hand.spec, hand.starting_stacks, fresh, **hand.setup())
        for seat, action in hand.actions:
            again.act(action, seat)
        assert again.events == hand.events
        scripted = ScriptedDeck({s: cards for s, cards in enumerate(hand.cards) if cards})
        third = TeenPattiHand(hand.spec, hand.starting_stacks, scripted)
        for seat, action in hand.actions:
            third.act(action, seat)
        assert third.events == hand.events


def test_registered_as_teen_patti() -> None:
    info = get_game("teenpatti")
    assert (info.name, info.title, info.min_players, info.max_players) == (
        "teen-patti",
        "3 Card Poker (Teen Patti)",
        2,
        10,
    )
    hand = new_hand("teen-patti", [20, 20, 20], seed=1, options={"ante": 2, "sideshow": True})
    assert isinstance(hand, TeenPattiHand) and hand.pot_total == 6 and hand.setup() == {}
    assert all(isinstance(c, Card) for c in hand.cards[0])
