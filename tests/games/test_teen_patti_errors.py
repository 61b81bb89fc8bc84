"""Teen Patti's bad input: each refusal has its own code, is not listed, and changes nothing."""

from __future__ import annotations

import pickle
import random

import pytest

from pokerhouse.cards import Deck
from pokerhouse.engine import Action, ActionKind
from pokerhouse.errors import IllegalAction, InvalidAction, InvalidSpec, OutOfTurn, PokerError
from pokerhouse.games import get_game
from pokerhouse.games.teen_patti import TeenPattiHand, TeenPattiSpec


def hand_after(
    *moves: str, players: int = 3, spec: dict[str, object] | None = None
) -> TeenPattiHand:
    hand = TeenPattiHand(
        get_game("teen-patti").spec(**(spec or {})),
        [100] * players,
        Deck(random.Random(5)),
    )
    for move in moves:
        hand.act(Action.parse(move))
    return hand


def listed(hand: TeenPattiHand, action: Action) -> bool:
    legal = hand.legal_actions().get(action.kind)
    if legal is None:
        return False
    if legal.min_amount is None or action.amount is None:
        return legal.min_amount is None and action.amount is None
    assert legal.max_amount is not None
    return legal.min_amount <= action.amount <= legal.max_amount


CASES = [
    # (moves before, action, code, spec options)
    (("look",), "bet 1", "amount_too_small", {}),
    (("bet 3", "look"), "bet 5", "amount_too_small", {}),
    (("bet 3",), "bet 2", "amount_too_small", {}),
    (("bet 1", "bet 1"), "show", "show_needs_two_players", {}),
    (("fold", "look"), "show", "show_against_blind", {}),
    (("look",), "look", "already_seen", {}),
    (("look", "bet 2", "look", "bet 2", "look"), "sideshow", "sideshow_disabled", {}),
    (("look", "bet 2", "look", "bet 2"), "sideshow", "sideshow_needs_seen", {"sideshow": True}),
    (("look", "bet 2", "bet 1", "look"), "sideshow", "sideshow_against_blind", {"sideshow": True}),
    ((), "accept", "no_sideshow", {}),
    ((), "decline", "no_sideshow", {}),
    ((), "check", "action_not_allowed", {}),
    ((), "call", "action_not_allowed", {}),
    ((), "bet 100", "amount_exceeds_stack", {}),
    ((), "bet 4", "amount_too_large", {"limit": "pot-limit"}),
    ((), "bet", "amount_required", {}),
    ((), "look 5", "unexpected_amount", {}),
]


@pytest.mark.parametrize(("moves", "text", "code", "spec"), CASES)
def test_refused_with_its_own_code_unlisted_and_unchanged(
    moves: tuple[str, ...], text: str, code: str, spec: dict[str, object]
) -> None:
    hand = hand_after(*moves, spec=spec)
    action = Action.parse(text)
    assert not listed(hand, action)
    before = pickle.dumps(hand)
    with pytest.raises(PokerError) as error:
        hand.act(action)
    assert error.value.code == code, str(error.value)
    assert pickle.dumps(hand) == before


def test_show_needs_two_players_in_a_three_player_hand() -> None:
    hand = hand_after("bet 1", "bet 1")
    with pytest.raises(IllegalAction, match="exactly two players left, not 3"):
        hand.act(Action(ActionKind.SHOW))


def test_seen_player_may_not_ask_blind_player_for_a_show() -> None:
    hand = hand_after("look", players=2)
    with pytest.raises(IllegalAction, match="blind seat 1") as error:
        hand.act(Action(ActionKind.SHOW))
    assert error.value.code == "show_against_blind"


def test_out_of_turn_and_after_the_end() -> None:
    hand = hand_after(players=2)
    with pytest.raises(OutOfTurn):
        hand.act(Action(ActionKind.LOOK), seat=1)
    hand.act(Action.fold())
    with pytest.raises(IllegalAction) as error:
        hand.act(Action(ActionKind.LOOK))
    assert error.value.code == "hand_over"


def test_not_an_action_is_refused() -> None:
    hand = hand_after()
    before = pickle.dumps(hand)
    with pytest.raises(InvalidAction) as error:
        hand.act("fold")  # type: ignore[arg-type]
    assert error.value.code == "not_an_action"
    assert pickle.dumps(hand) == before


@pytest.mark.parametrize(
    ("options", "code"),
    [
        ({"ante": 0}, "bad_spec"),
        ({"ante": -3}, "bad_spec"),
        ({"ante": 1.5}, "bad_spec"),
        ({"ante": True}, "bad_spec"),
        ({"limit": "fixed-limit"}, "bad_limit"),
        ({"limit": "spread"}, "bad_limit"),
        ({"sideshow": "yes"}, "bad_spec"),
        ({"blinds": 2}, "unknown_option"),
    ],
)
def test_bad_spec_is_refused(options: dict[str, object], code: str) -> None:
    with pytest.raises(InvalidSpec) as error:
        get_game("teen-patti").spec(**options)
    assert error.value.code == code


def test_bad_hand_setup_is_refused() -> None:
    with pytest.raises(InvalidSpec) as error:
        TeenPattiHand(TeenPattiSpec(), [100])
    assert error.value.code == "player_count"
    with pytest.raises(InvalidSpec) as error:
        TeenPattiHand(TeenPattiSpec(), [100] * 11)
    assert error.value.code == "player_count"
    with pytest.raises(InvalidSpec) as error:
        TeenPattiHand(TeenPattiSpec(), [100, -1])
    assert error.value.code == "bad_stack"
    with pytest.raises(InvalidSpec) as error:
        TeenPattiHand(object(), [100, 100])  # type: ignore[arg-type]
    assert error.value.code == "bad_spec"
