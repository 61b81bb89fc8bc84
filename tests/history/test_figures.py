"""A hand's play figures (pokerhouse.history.figures), on hands chosen to test each rule."""

from __future__ import annotations

import random

from pokerhouse.cards import Deck
from pokerhouse.engine import Action
from pokerhouse.engine.actions import ActionKind
from pokerhouse.games import new_hand
from pokerhouse.games.casino_holdem import BoxSettled, CasinoHoldemHand, CasinoHoldemSpec
from pokerhouse.history.figures import hand_figures


def test_razz_a_bring_in_alone_is_not_voluntary_completing_is() -> None:
    hand = new_hand("razz", [100, 100, 100], seed=4)
    bringer = hand.to_act
    hand.act(Action(ActionKind.BRING_IN))
    completer = hand.to_act
    hand.act(Action(ActionKind.COMPLETE, hand.legal_actions().actions[-1].min_amount))
    while hand.to_act != bringer:
        hand.act(Action.fold())
    hand.act(Action.fold())
    figures = hand_figures(hand.events)
    assert (figures[bringer].vpip, figures[bringer].pfr) == (0, 0)
    assert (figures[completer].vpip, figures[completer].pfr, figures[completer].aggressive) == (
        1,
        1,
        1,
    )


def test_teen_patti_a_blind_player_who_pays_for_a_show_has_seen() -> None:
    hand = new_hand("teen-patti", [100, 100], seed=1)
    asker = hand.to_act
    hand.act(Action(ActionKind.SHOW))
    assert hand.is_over
    figures = hand_figures(hand.events)
    assert (figures[asker].seen, figures[asker].blind, figures[asker].calls) == (1, 0, 1)
    other = 1 - asker
    assert (figures[other].blind, figures[other].showdown) == (1, 1)


def test_teen_patti_a_bet_that_raises_the_stake_is_aggressive_the_least_is_a_call() -> None:
    hand = new_hand("teen-patti", [100, 100, 100], seed=2)
    first = hand.to_act
    hand.act(Action.bet(4))  # blind, raising the stake from 1 to 4
    second = hand.to_act
    hand.act(Action.bet(4))  # blind, the stake as it is: a call ("chaal")
    figures = hand_figures(hand.events)
    assert (figures[first].aggressive, figures[first].calls) == (1, 0)
    assert (figures[second].aggressive, figures[second].calls) == (0, 1)


def test_casino_holdem_a_box_wins_at_showdown_by_its_ante_and_call_not_its_bonus() -> None:
    """Over many boxes with the AA Bonus bet: won at showdown is the box's own settlement
    above zero, even where the bonus turned the hand's net the other way."""
    spec = CasinoHoldemSpec()
    both_ways = set()
    for seed in range(400):
        hand = CasinoHoldemHand(
            spec, [500], Deck(random.Random(seed)), antes=[spec.min_ante], bonuses=[spec.min_ante]
        )
        hand.act(Action.call())
        box = next(e for e in hand.events if isinstance(e, BoxSettled))
        (figures,) = hand_figures(hand.events)
        assert (figures.called, figures.showdown) == (1, 1)
        assert figures.showdown_won == int(box.net > 0)
        hand_net = hand.stacks[0] - 500
        both_ways.add((box.net > 0, hand_net > 0))
    # Some box lost its Ante and Call while its bonus made the hand a win, or the reverse.
    assert (False, True) in both_ways or (True, False) in both_ways
