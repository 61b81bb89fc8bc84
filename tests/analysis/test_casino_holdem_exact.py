"""The exact engine: its bookkeeping against direct counting and against the advisor.

The full run over every deal takes about a minute, so it is marked slow; the
fast tests check the same machinery on a few flop classes.
"""

from __future__ import annotations

from fractions import Fraction
from math import comb

import numpy as np
import pytest

from pokerhouse.analysis.casino_holdem import COMPLETIONS, AntePays, advise, exact_analysis
from pokerhouse.analysis.casino_holdem.exact import ExactResult, flop_totals, flop_totals_direct
from pokerhouse.analysis.casino_holdem.payouts import Payouts
from pokerhouse.analysis.casino_holdem.symmetry import PAIR_INDEX, flop_classes, subset_rank
from pokerhouse.cards import parse_cards
from pokerhouse.errors import InvalidSpec
from pokerhouse.evaluate import high_value_counts
from pokerhouse.games.casino_holdem.paytables import thresholds

#: The full run's exact figures for the default Ante pay table (see docs/casino-holdem.md).
RECORDED_EV = Fraction(-1363917077, 63213204600)
RECORDED_CALL_RATE = Fraction(13057, 15925)
RECORDED_DEALER_QUALIFIES = Fraction(298171, 393484)


def class_of(flop: str) -> int:
    cards = np.sort(np.array(parse_cards(flop), dtype=np.int64))
    return int(flop_classes().class_of[subset_rank(cards[None, :], 52)[0]])


# Trips (6 symmetries), a monotone flop (6), a paired two-tone flop (2), a rainbow (1).
SAMPLE_FLOPS = ["2c 2d 2h", "Ks 9s 4s", "Jh Jd 5h", "Ac 8d 3h"]


@pytest.mark.parametrize("flop", SAMPLE_FLOPS)
def test_board_class_bookkeeping_matches_direct_counting(flop: str) -> None:
    cls = class_of(flop)
    wanted = np.zeros(len(flop_classes().cards), dtype=bool)
    wanted[cls] = True
    payouts = Payouts.of(AntePays())
    through_boards = flop_totals(payouts, wanted)
    direct = flop_totals_direct(flop_classes().cards[cls], payouts)
    for name in ("payoff", "nq", "nw", "m"):
        assert np.array_equal(getattr(through_boards, name)[cls], getattr(direct, name)[0]), name


@pytest.mark.parametrize("flop", SAMPLE_FLOPS[1:])
def test_exact_totals_match_the_advisor(flop: str) -> None:
    cls = class_of(flop)
    canonical = flop_classes().cards[cls]
    totals = flop_totals_direct(canonical, Payouts.of(AntePays()))
    for hole in ("As Kd", "7c 2d", "Qh Qc", "5s 6s"):
        cards = parse_cards(hole)
        if set(cards) & set(canonical.tolist()):
            continue
        pair = PAIR_INDEX[cards[0], cards[1]]
        advice = advise(cards, [int(c) for c in canonical])
        assert Fraction(int(totals.payoff[0, pair]), COMPLETIONS) == advice.call_ev
        assert int(totals.nq[0, pair]) == advice.outcomes.dealer_not_qualified


def test_exact_on_a_few_flop_classes() -> None:
    ids = [class_of(flop) for flop in SAMPLE_FLOPS]
    result = exact_analysis(flop_class_ids=ids)
    weights = flop_classes().weights[ids]
    assert result.deals == int(weights.sum()) * comb(49, 2)
    assert sum(result.outcomes.values()) == 1
    assert result.outcomes["folded"] == 1 - result.call_rate
    assert result.element_of_risk == result.house_edge / (1 + 2 * result.call_rate)
    # Its decisions are the advisor's.
    for flop in SAMPLE_FLOPS:
        for hole in ("As Kd", "7c 2d", "Qh Qc", "9c 8c", "Td 4c"):
            if set(parse_cards(hole)) & set(parse_cards(flop)):
                continue
            wanted = advise(hole, flop).action == "call"
            assert result.strategy(parse_cards(hole), parse_cards(flop)) == wanted, (hole, flop)


def test_a_high_cap_changes_nothing_and_a_low_cap_costs() -> None:
    ids = [class_of("Ks 9s 4s")]
    base = exact_analysis(flop_class_ids=ids)
    assert exact_analysis(flop_class_ids=ids, max_payout=102).ev == base.ev
    capped = exact_analysis(flop_class_ids=ids, max_payout=3)
    assert capped.ev < base.ev
    richer = exact_analysis(AntePays(flush=4), flop_class_ids=ids)
    assert richer.ev > base.ev and richer.call_rate >= base.call_rate


def test_bad_flop_classes_are_refused() -> None:
    for ids in ([], [-1], [1755]):
        with pytest.raises(InvalidSpec) as error:
            exact_analysis(flop_class_ids=ids)
        assert error.value.code == "bad_flop_class"


def test_dealer_qualification_counted_over_all_seven_card_hands() -> None:
    counts = high_value_counts(7)
    qualifying = int(counts[thresholds().pair_of_fours :].sum())
    assert Fraction(qualifying, comb(52, 7)) == RECORDED_DEALER_QUALIFIES


@pytest.fixture(scope="module")
def full() -> ExactResult:
    return exact_analysis()


@pytest.mark.slow
def test_full_exact_run_matches_the_published_figures(full: ExactResult) -> None:
    assert full.deals == comb(52, 2) * comb(50, 3) == 25_989_600
    assert round(float(full.house_edge) * 100, 2) == 2.16
    assert abs(float(full.call_rate) - 0.82) < 0.005
    assert round(float(full.dealer_qualifies) * 100, 1) == 75.8
    assert (full.ev, full.call_rate, full.dealer_qualifies) == (
        RECORDED_EV,
        RECORDED_CALL_RATE,
        RECORDED_DEALER_QUALIFIES,
    )
    assert sum(full.outcomes.values()) == 1
    assert full.always_call_ev < full.ev


@pytest.mark.slow
def test_simulated_best_play_covers_the_exact_house_edge(full: ExactResult) -> None:
    from pokerhouse.analysis.casino_holdem import simulate

    result = simulate(400_000, full.strategy, seed=2024)
    assert result.house_edge.covers(full.house_edge)
    assert abs(result.call_rate - float(full.call_rate)) < 0.005
