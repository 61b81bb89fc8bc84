"""The words a player types at ``pokerhouse play``: each game its own, with costs and errors."""

from __future__ import annotations

import pytest

from pokerhouse.cards import Deck
from pokerhouse.cli.moves import Moves
from pokerhouse.engine import Action, ActionKind
from pokerhouse.engine.hand import Hand, View
from pokerhouse.errors import IllegalAction, InvalidAction, PokerError
from pokerhouse.games import new_hand
from pokerhouse.games.casino_holdem import CasinoHoldemHand, CasinoHoldemSpec
from pokerhouse.games.teen_patti import TeenPattiSpec

#: Internal names a player must never be shown.
ENGINE_NAMES = ("bring_in", "show_hand", "sideshow_", "_amount", "ActionKind")


def view_of(hand: Hand) -> View:
    assert hand.to_act is not None
    return hand.view(hand.to_act)


def casino_box() -> Hand:
    """One box with an ante of 10, deciding after the flop."""
    deck = Deck.stacked("Ah Kd 9c 9d Ac Kh 2s")
    return CasinoHoldemHand(CasinoHoldemSpec(), [100], deck, antes=[10])


def razz_fourth_street() -> Hand:
    """A Razz hand on fourth street, before anyone has bet."""
    hand = new_hand("razz", [100] * 3, seed=1)
    hand.act(Action(ActionKind.BRING_IN))
    hand.act(Action.call())
    hand.act(Action.call())
    assert hand.view(None).street == "fourth"
    return hand


def refusal(moves: Moves, text: str, view: View) -> PokerError:
    with pytest.raises(PokerError) as error:
        moves.parse(text, view)
    return error.value


def test_each_game_offers_only_its_own_words() -> None:
    three_by_four = Moves("3x4").help()
    assert "x or k" in three_by_four and "b N" in three_by_four and "r N" in three_by_four
    for word in ("look", "show", "sideshow", "bring", "hint"):
        assert word not in three_by_four
    teen_patti = Moves("teen-patti").help()
    assert "look at your cards" in teen_patti and "pay for a show" in teen_patti
    assert "check" not in teen_patti and "sideshow" not in teen_patti  # sideshows are off
    casino = Moves("casino-holdem").help()
    assert "hint" in casino and "pays" in casino and "check" not in casino and "b N" not in casino
    razz = Moves("razz").help()
    assert "bring in for 2" in razz and "5 on third and fourth street, 10 after" in razz
    assert "all-in" not in razz  # fixed limit: every bet has its size


def test_teen_patti_with_sideshows_lists_them() -> None:
    help_text = Moves("teen-patti", TeenPattiSpec(sideshow=True)).help()
    assert "ss" in help_text and "y / n" in help_text


def test_what_an_action_costs_is_said_where_it_is_offered() -> None:
    hand = new_hand("3x4", [200, 200], seed=7, options={"ante": 2, "small_bet": 4})
    hand.act(Action.bet(84))
    assert Moves("3x4").offers(view_of(hand)) == "fold | call 84 | raise to 168-198"
    razz = new_hand("razz", [100] * 3, seed=1)
    assert Moves("razz").offers(view_of(razz)) == "bring in 2 | complete to 5"
    teen = new_hand("teen-patti", [100, 100], seed=1)
    assert Moves("teen-patti").offers(view_of(teen)) == "fold | look | bet 1-99 | show 1"
    casino = casino_box()
    assert Moves("casino-holdem").offers(view_of(casino)) == "fold | call 20"


def test_a_call_all_in_says_so() -> None:
    hand = new_hand("3x4", [200, 50], seed=7)
    hand.act(Action.bet(120))
    assert "call 49 (all-in)" in Moves("3x4").offers(view_of(hand))


def test_a_call_may_name_its_cost_or_its_total_but_nothing_else() -> None:
    hand = new_hand("3x4", [200, 200], seed=7, options={"ante": 2, "small_bet": 4})
    hand.act(Action.bet(84))
    moves, view = Moves("3x4"), view_of(hand)
    assert moves.parse("c 84", view) == Action.call()
    assert moves.parse("call", view) == Action.call()
    error = refusal(moves, "c 30", view)
    assert error.code == "wrong_call_amount" and "a call costs 84" in str(error)


def test_in_fixed_limit_a_bare_bet_or_raise_is_the_fixed_amount() -> None:
    hand = razz_fourth_street()
    moves = Moves("razz")
    assert moves.parse("b", view_of(hand)) == Action.bet(5)
    hand.act(moves.parse("b", view_of(hand)))
    assert moves.parse("r", view_of(hand)) == Action.raise_to(10)
    assert moves.parse("raise to 10", view_of(hand)) == Action.raise_to(10)
    limit = new_hand("3x4", [200, 200], seed=3, options={"limit": "fixed-limit", "small_bet": 4})
    assert Moves("3x4", limit.spec).parse("b", view_of(limit)) == Action.bet(4)


def test_at_a_razz_bring_in_c_brings_in_and_b_or_r_completes() -> None:
    hand = new_hand("razz", [100] * 3, seed=1)
    moves, view = Moves("razz"), view_of(hand)
    assert moves.parse("c", view) == Action(ActionKind.BRING_IN)
    assert moves.parse("bring in", view) == Action(ActionKind.BRING_IN)
    assert moves.parse("b", view) == Action(ActionKind.COMPLETE, 5)
    assert moves.parse("r", view) == Action(ActionKind.COMPLETE, 5)
    assert moves.parse("complete", view) == Action(ActionKind.COMPLETE, 5)


def test_no_limit_sizes_need_an_amount_and_all_in_is_the_most() -> None:
    hand = new_hand("3x4", [200, 200], seed=7)
    moves, view = Moves("3x4"), view_of(hand)
    error = refusal(moves, "b", view)
    assert error.code == "amount_required" and "b 2 to b 199" in str(error)
    assert moves.parse("a", view) == Action.bet(199)
    assert moves.parse("all in", view) == Action.bet(199)
    assert moves.parse("x", view) == moves.parse("k", view) == Action.check()
    assert moves.parse("c", view) == Action.check()  # nothing is owed


def test_teen_patti_c_bets_the_least_and_s_pays_for_the_show() -> None:
    hand = new_hand("teen-patti", [100, 100], seed=1)
    moves, view = Moves("teen-patti"), view_of(hand)
    assert moves.parse("c", view) == Action.bet(1)
    assert moves.parse("s", view) == Action(ActionKind.SHOW)
    assert moves.parse("a", view) == Action.bet(99)


@pytest.mark.parametrize(
    ("game", "text", "code", "words"),
    [
        ("3x4", "l", "action_not_allowed", "'l' is not a move at 3x4 Poker"),
        ("3x4", "s", "action_not_allowed", "'s' is not a move at 3x4 Poker"),
        ("3x4", "fly", "unknown_action", "unknown action 'fly'"),
        ("3x4", "r 20", "bet_required", "there is no bet to raise: bet instead (b N)"),
        ("3x4", "b -5", "bad_amount", "must be positive"),
        ("3x4", "f 5", "unexpected_amount", "f takes no amount"),
        ("3x4", "b 20 30", "malformed_action", "one move and at most one amount"),
        ("razz", "k", "action_not_allowed", "you cannot check now: bring in 2 | complete to 5"),
        ("razz", "muck", "action_not_allowed", "'muck' is not a move at Razz"),
        ("teen-patti", "x", "action_not_allowed", "'x' is not a move at 3 Card Poker"),
        ("teen-patti", "ss", "sideshow_disabled", "there are no sideshows at this table"),
        ("teen-patti", "y", "sideshow_disabled", "there are no sideshows at this table"),
        ("casino-holdem", "r 5", "action_not_allowed", "'r' is not a move at Casino Hold'em"),
    ],
)
def test_a_refused_move_is_refused_in_the_words_of_the_game(
    game: str, text: str, code: str, words: str
) -> None:
    hand = casino_box() if game == "casino-holdem" else new_hand(game, [200] * 3, seed=1)
    error = refusal(Moves(game, getattr(hand, "spec", None)), text, view_of(hand))
    assert error.code == code
    assert words in str(error)
    assert not any(name in str(error) for name in ENGINE_NAMES)


def test_teen_patti_reasons_name_the_players_not_seat_numbers() -> None:
    hand = new_hand("teen-patti", [100, 100, 100], seed=2)
    moves, view = Moves("teen-patti"), view_of(hand)
    error = refusal(moves, "s", view)
    assert error.code == "show_needs_two_players"
    hand.act(Action(ActionKind.LOOK))
    error = refusal(moves, "l", view_of(hand))
    assert error.code == "already_seen" and "you have already looked" in str(error)
    heads_up = new_hand("teen-patti", [100, 100], seed=2)
    heads_up.act(Action(ActionKind.LOOK))
    error = moves_error(moves, "s", view_of(heads_up), ["Ann", "Bob"])
    assert error.code == "show_against_blind"
    assert "Ann is blind" in str(error) or "Bob is blind" in str(error)
    assert "seat" not in str(error)


def moves_error(moves: Moves, text: str, view: View, names: list[str]) -> PokerError:
    with pytest.raises((IllegalAction, InvalidAction)) as error:
        moves.parse(text, view, names)
    return error.value
