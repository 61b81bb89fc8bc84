"""Teen Patti's sideshow option: a seen player's private comparison with the previous player."""

from __future__ import annotations

import pickle

import pytest

from pokerhouse.cards import Deck, parse_cards
from pokerhouse.engine import Action, ActionKind
from pokerhouse.engine.events import ActionTaken
from pokerhouse.errors import IllegalAction
from pokerhouse.games.teen_patti import SideshowCompared, TeenPattiHand, TeenPattiSpec

WEAK, MIDDLE, STRONG = "2c 4d 7h", "Tc Td 3h", "As Ah Ad"


def deal(*hands: str, sideshow: bool = True, stacks: list[int] | None = None) -> TeenPattiHand:
    cards = [parse_cards(text) for text in hands]
    deck = Deck.stacked([cards[seat][i] for i in range(3) for seat in range(len(cards))])
    return TeenPattiHand(
        TeenPattiSpec(ante=1, sideshow=sideshow), stacks or [100] * len(hands), deck
    )


def play(hand: TeenPattiHand, *moves: str) -> None:
    for move in moves:
        hand.act(Action.parse(move))


def asked(hand: TeenPattiHand) -> TeenPattiHand:
    """Everyone looks and bets 2; then seat 2 asks seat 1 for a sideshow."""
    play(hand, "look", "bet 2", "look", "bet 2", "look")
    assert ActionKind.SIDESHOW in hand.legal_actions()
    play(hand, "sideshow")
    return hand


def compared(hand: TeenPattiHand) -> SideshowCompared:
    events = [e for e in hand.events if isinstance(e, SideshowCompared)]
    assert len(events) == 1
    return events[0]


def test_sideshow_costs_a_seen_bet_and_the_previous_player_answers() -> None:
    hand = asked(deal(WEAK, MIDDLE, STRONG))
    paid = hand.events[-1]
    assert isinstance(paid, ActionTaken) and (paid.seat, paid.added) == (2, 2)
    assert hand.sideshow == (2, 1) and hand.to_act == 1
    assert hand.legal_actions().kinds == (ActionKind.ACCEPT, ActionKind.DECLINE)
    assert hand.view(0).sideshow == (2, 1)
    assert hand.stake == 1


def test_sideshow_accepted_lower_hand_folds() -> None:
    hand = asked(deal(WEAK, MIDDLE, STRONG))
    play(hand, "accept")
    assert hand.folded == [False, True, False]
    assert compared(hand).loser == 1
    assert hand.to_act == 0  # play continues clockwise from the asker


def test_sideshow_accepted_asker_with_lower_hand_folds() -> None:
    hand = asked(deal(WEAK, STRONG, MIDDLE))
    play(hand, "accept")
    assert hand.folded == [False, False, True] and compared(hand).loser == 2
    assert hand.to_act == 0


def test_sideshow_equal_hands_asker_folds() -> None:
    hand = asked(deal(WEAK, "Kc Qd 9h", "Kd Qh 9s"))
    play(hand, "accept")
    assert hand.folded == [False, False, True] and compared(hand).loser == 2


def test_sideshow_declined_nobody_folds_and_play_continues_from_asker() -> None:
    hand = asked(deal(WEAK, MIDDLE, STRONG))
    play(hand, "decline")
    assert hand.folded == [False, False, False] and hand.sideshow is None
    assert not any(isinstance(e, SideshowCompared) for e in hand.events)
    assert hand.to_act == 0 and hand.pot_total == 3 + 2 + 2 + 2
    assert hand.view(1).cards[2] == (None, None, None)


def test_sideshow_is_private_to_the_two_players() -> None:
    hand = asked(deal(WEAK, MIDDLE, STRONG, "8c 9d 2s"))
    play(hand, "accept")
    event = compared(hand)
    for seat in (1, 2):
        assert event in hand.events_for(seat)
    # Seat 1's view now holds seat 2's cards and the other way round.
    assert hand.view(1).cards[2] == parse_cards(STRONG)
    assert hand.view(2).cards[1] == parse_cards(MIDDLE)
    for outsider in (0, 3, None):
        hidden = [e for e in hand.events_for(outsider) if isinstance(e, SideshowCompared)]
        assert hidden == [
            SideshowCompared(
                asker=2,
                target=1,
                asker_cards=(None, None, None),
                target_cards=(None, None, None),
                loser=1,
            )
        ]
        assert hand.view(outsider).cards[1] == (None, None, None)
        assert hand.view(outsider).cards[2] == (None, None, None)


def test_sideshow_asks_the_previous_active_player_skipping_folded() -> None:
    hand = deal(WEAK, MIDDLE, STRONG, "8c 9d 2s")
    play(hand, "look", "bet 2", "look", "bet 2", "fold", "look")
    assert hand.to_act == 3 and hand.sideshow_target(3) == 1
    play(hand, "sideshow")
    assert hand.sideshow == (3, 1) and hand.to_act == 1


def test_sideshow_needs_previous_player_seen() -> None:
    hand = deal(WEAK, MIDDLE, STRONG)
    play(hand, "look", "bet 2", "bet 1", "look")  # seat 1 stays blind
    assert ActionKind.SIDESHOW not in hand.legal_actions()
    assert_refused(hand, Action(ActionKind.SIDESHOW), "sideshow_against_blind")


def test_sideshow_needs_three_players() -> None:
    hand = deal(WEAK, MIDDLE, STRONG)
    play(hand, "look", "bet 2", "look", "bet 2", "fold")  # seats 0 and 1 are left, both seen
    assert hand.to_act == 0 and ActionKind.SHOW in hand.legal_actions()
    assert_refused(hand, Action(ActionKind.SIDESHOW), "sideshow_needs_three_players")


def test_sideshow_needs_a_seen_asker() -> None:
    hand = deal(WEAK, MIDDLE, STRONG)
    play(hand, "look", "bet 2", "look", "bet 2")
    assert_refused(hand, Action(ActionKind.SIDESHOW), "sideshow_needs_seen")


def test_sideshow_off_by_default() -> None:
    hand = deal(WEAK, MIDDLE, STRONG, sideshow=False)
    play(hand, "look", "bet 2", "look", "bet 2", "look")
    assert_refused(hand, Action(ActionKind.SIDESHOW), "sideshow_disabled")


def test_sideshow_pending_allows_only_accept_or_decline() -> None:
    hand = asked(deal(WEAK, MIDDLE, STRONG))
    for action in (Action.bet(4), Action.fold(), Action(ActionKind.SHOW)):
        assert_refused(hand, action, "sideshow_pending")


def test_sideshow_paid_all_in_still_compares() -> None:
    hand = deal(WEAK, MIDDLE, STRONG, stacks=[100, 100, 2])
    play(hand, "look", "bet 2", "look", "bet 2", "look")
    assert hand.view(2).sideshow_cost == 1
    play(hand, "sideshow", "accept")
    assert hand.all_in[2] and hand.folded[1]
    # Seats 0 and 2 remain, and only seat 0 can still act: everything is shown.
    assert hand.is_over and hand.revealed == [True, False, True]


def assert_refused(hand: TeenPattiHand, action: Action, code: str) -> None:
    assert action.kind not in hand.legal_actions()
    before = pickle.dumps(hand)
    with pytest.raises(IllegalAction) as error:
        hand.act(action)
    assert error.value.code == code
    assert pickle.dumps(hand) == before
