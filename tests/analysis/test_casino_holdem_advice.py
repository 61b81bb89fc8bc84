"""Advice against brute force: every way the deal can finish, counted one by one."""

from __future__ import annotations

import itertools
import random
from fractions import Fraction

import pytest

from pokerhouse.analysis.casino_holdem import AntePays, advise, call_outcomes
from pokerhouse.analysis.casino_holdem.advice import FLOP_COMPLETIONS
from pokerhouse.analysis.casino_holdem.payouts import Payouts
from pokerhouse.cards import FULL_DECK, Card, parse_cards
from pokerhouse.errors import InvalidCards, InvalidSpec
from pokerhouse.evaluate import high_value
from pokerhouse.games.casino_holdem.paytables import ante_category, dealer_qualifies
from tests.analysis.eval7_oracle import eval7_flop_counts


def brute_force(hole: tuple[Card, ...], board: tuple[Card, ...]) -> tuple[list[int], Fraction]:
    """Outcome counts and total result of calling, with the project's evaluator."""
    unseen = [c for c in FULL_DECK if c not in hole and c not in board]
    pays = AntePays()
    counts = [0, 0, 0, 0]
    total = 0
    for runout in itertools.combinations(unseen, 5 - len(board)):
        full = list(board) + list(runout)
        value = high_value(list(hole) + full)
        odds = pays.odds(ante_category(value))
        rest = [c for c in unseen if c not in runout]
        for dealer in itertools.combinations(rest, 2):
            other = high_value(list(dealer) + full)
            if not dealer_qualifies(other):
                counts[0] += 1
                total += odds
            elif value > other:
                counts[1] += 1
                total += odds + 2
            elif value == other:
                counts[2] += 1
            else:
                counts[3] += 1
                total -= 3
    return counts, Fraction(total)


@pytest.mark.parametrize("seed", range(8))
def test_turn_and_river_known_match_brute_force(seed: int) -> None:
    rng = random.Random(seed)
    cards = parse_cards(rng.sample(range(52), 6 + seed % 2))
    hole, board = cards[:2], cards[2:]
    outcomes = call_outcomes(hole, board)
    counts, total = brute_force(hole, board)
    assert [outcomes.dealer_not_qualified, outcomes.won, outcomes.stand_off, outcomes.lost] == (
        counts
    )
    assert outcomes.total == total


@pytest.mark.parametrize(
    ("hole", "flop"),
    [("As Kd", "Qh 7c 2d"), ("7c 2d", "As Kh 9d"), ("9h 8h", "Th 7h 2c"), ("4c 4d", "4h 4s Ac")],
)
def test_flop_advice_matches_eval7_over_every_way(hole: str, flop: str) -> None:
    advice = advise(hole, flop)
    outcomes = advice.outcomes
    assert outcomes.ways == FLOP_COMPLETIONS == 1_070_190
    expected = eval7_flop_counts(parse_cards(hole), parse_cards(flop))
    assert [outcomes.dealer_not_qualified, outcomes.won, outcomes.stand_off, outcomes.lost] == (
        expected
    )


def test_flop_advice_is_the_sum_over_turn_cards() -> None:
    hole, flop = parse_cards("Jd Td"), parse_cards("9d 2d Ks")
    whole = call_outcomes(hole, flop)
    turns = [c for c in FULL_DECK if c not in hole and c not in flop]
    parts = [call_outcomes(hole, (*flop, turn)) for turn in turns]
    # Each unordered (turn, river) pair is reached once from each of its cards.
    assert sum((p.total for p in parts), Fraction(0)) == 2 * whole.total
    assert sum(p.won for p in parts) == 2 * whole.won
    assert sum(p.lost for p in parts) == 2 * whole.lost


def test_obvious_decisions() -> None:
    assert advise("As Kd", "Qh 7c 2d").action == "call"
    assert advise("7c 2d", "As Kh 9d").action == "fold"
    assert advise("9h 8h", "Th 7h 2c").action == "call"  # straight flush draw
    royal = advise("As Ks", "Qs Js Ts")
    assert royal.outcomes.lost == royal.outcomes.stand_off == 0
    assert royal.call_ev > 100


def test_max_payout_caps_the_value_of_a_royal_flush() -> None:
    # A made royal can neither lose nor tie: every way pays min(102 or 100, 10) antes.
    assert advise("As Ks", "Qs Js Ts", max_payout=10).call_ev == 10
    assert advise("As Ks", "Qs Js Ts", max_payout="5/2").call_ev == Fraction(5, 2)


def test_ante_pay_table_changes_the_value() -> None:
    base = advise("9h 8h", "Th 7h 2c")
    richer = advise("9h 8h", "Th 7h 2c", AntePays(flush=5))
    assert richer.call_ev > base.call_ev
    assert richer.to_dict()["ante_pays"].startswith("royal flush 100:1")


def test_payouts_value_matches_counts() -> None:
    outcomes = call_outcomes(parse_cards("Ac Kc"), parse_cards("Qc 7c 2c 3h 9s"))
    assert outcomes.ways == 990
    value = Payouts.of(AntePays()).value(
        1, won=outcomes.won, lost=outcomes.lost, not_qualified=outcomes.dealer_not_qualified
    )
    assert value == outcomes.total  # a flush: ante 2:1


@pytest.mark.parametrize(
    ("hole", "flop", "code"),
    [
        ("As Ad", "As 7c 2d", "duplicate_card"),
        ("As As", "Kc 7c 2d", "duplicate_card"),
        ("As Kd", "Qh Qh 2d", "duplicate_card"),
        ("As", "Qh 7c 2d", "card_count"),
        ("As Kd 3c", "Qh 7c 2d", "card_count"),
        ("As Kd", "Qh 7c", "card_count"),
        ("As Kd", "Qh 7c 2d 3d", "card_count"),
        ("As Kx", "Qh 7c 2d", "bad_suit"),
    ],
)
def test_bad_cards_are_refused(hole: str, flop: str, code: str) -> None:
    with pytest.raises(InvalidCards) as error:
        advise(hole, flop)
    assert error.value.code == code


def test_bad_max_payout_is_refused() -> None:
    for bad in ("0", "-3", "lots", "1/100001"):
        with pytest.raises(InvalidSpec) as error:
            advise("As Kd", "Qh 7c 2d", max_payout=bad)
        assert error.value.code == "bad_max_payout"


def test_advice_says_how_the_bonus_was_settled() -> None:
    from pokerhouse.analysis.casino_holdem import BonusPays
    from pokerhouse.games.casino_holdem.paytables import BonusCategory

    aces = advise("As Kd", "Ac 7c 2d")
    assert (aces.bonus, aces.bonus_result) == (BonusCategory.PAIR_OF_ACES, 7)
    kings = advise("Ks Kd", "Qc 7c 2d")
    assert (kings.bonus, kings.bonus_result) == (BonusCategory.LOSES, -1)
    flush = advise("As 9s", "Ks 7s 2s", bonus_pays=BonusPays.named("common"))
    assert (flush.bonus, flush.bonus_result) == (BonusCategory.FLUSH, 20)
    assert flush.to_dict()["bonus"]["wins"] is True
