"""The Casino Hold'em bot plays best play: checked against the exact analysis itself."""

from __future__ import annotations

import math
import random
import statistics
from fractions import Fraction

import numpy as np
import pytest

from pokerhouse.analysis.casino_holdem import advise, exact_analysis
from pokerhouse.analysis.casino_holdem.exact import COMPLETIONS, _valid_holes, flop_totals
from pokerhouse.analysis.casino_holdem.payouts import Payouts
from pokerhouse.analysis.casino_holdem.symmetry import PAIRS, flop_classes
from pokerhouse.bots import CasinoHoldemBot, best_play_table, get
from pokerhouse.cards import FULL_DECK, Deck
from pokerhouse.engine import Action
from pokerhouse.games import new_hand
from pokerhouse.games.casino_holdem.paytables import AntePays
from pokerhouse.table import AddChips, SitTogether, Table, TableLimits

#: Every 50th flop class: 36 of the 1,755, all suit patterns and ranks across the range.
SAMPLED_CLASSES = list(range(0, 1755, 50))


def test_the_shipped_table_is_best_play_on_sampled_flop_classes() -> None:
    fresh = exact_analysis(flop_class_ids=SAMPLED_CLASSES).strategy
    shipped = best_play_table()
    assert shipped is not None and shipped.covered.all()
    assert np.array_equal(shipped.calls[SAMPLED_CLASSES], fresh.calls[SAMPLED_CLASSES])


def test_the_bots_return_equals_best_play_and_always_calling_would_not() -> None:
    """Exact expected results over every deal of the sampled flop classes, in antes."""
    payouts = Payouts.of(AntePays(), None)
    wanted = np.zeros(1755, dtype=bool)
    wanted[SAMPLED_CLASSES] = True
    call_ev = flop_totals(payouts, wanted).payoff / (COMPLETIONS * payouts.scale)
    classes = flop_classes()
    rows = np.array(SAMPLED_CLASSES)
    valid = _valid_holes(classes.cards[rows])
    weights = classes.weights[rows][:, None] * valid
    ev = call_ev[rows]

    def expected(calls: np.ndarray) -> float:
        return float((weights * np.where(calls, ev, -1.0)).sum() / weights.sum())

    best = expected(ev > -1)
    # The bot decides from real cards: the canonical flop of each class, each hand.
    bot = CasinoHoldemBot()
    holes = np.repeat(PAIRS[None, :, :], len(rows), axis=0)[valid]
    flops = np.repeat(classes.cards[rows][:, None, :], 1326, axis=1)[valid]
    decided = np.zeros_like(valid)
    table = best_play_table()
    assert table is not None
    decided[valid] = table.decide_many(holes, flops)
    sample = random.Random(3).sample(range(len(holes)), 40)
    for index in sample:  # the bot's own path, through a hand and its view
        assert _bot_calls(bot, holes[index], flops[index]) == bool(decided[valid][index])
    assert abs(expected(decided) - best) <= 0.002
    assert expected(decided) == pytest.approx(best, abs=1e-12)
    assert best - expected(valid) > 0.002  # always calling is measurably worse


def _bot_calls(bot: CasinoHoldemBot, hole: np.ndarray, flop: np.ndarray) -> bool:
    chosen = [FULL_DECK[int(card)] for card in (*hole, *flop)]
    rest = [card for card in FULL_DECK if card not in chosen]
    # One box: box card, dealer card, box card, dealer card, then the flop.
    order = [chosen[0], rest[0], chosen[1], rest[1], *chosen[2:], *rest[2:]]
    hand = new_hand("casino-holdem", [100], deck=Deck.from_order(order))
    return bot.choose(hand.view(0)) == Action.call()


def test_decisions_agree_with_exact_advice_on_random_deals() -> None:
    rng = random.Random(11)
    bot = CasinoHoldemBot()
    for _ in range(40):
        cards = rng.sample(FULL_DECK, 5)
        hole, flop = cards[:2], cards[2:]
        expected = advise(hole, flop).action == "call"
        assert _bot_calls(bot, np.array(hole), np.array(flop)) == expected


def test_a_payout_cap_that_can_bind_switches_to_exact_advice_with_the_cap(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Ante 100, max payout 2,000: a royal flush would win 10,200 but is paid 20 antes.
    spec = {"min_ante": 1, "max_ante": 100, "max_payout": 2000}
    deck = Deck.stacked("Ks 2c Qs 3d  As Js Ts")  # box: Ks Qs on As Js Ts
    hand = new_hand("casino-holdem", [1000], deck=deck, antes=[100], options=spec)
    view = hand.view(0)
    assert view.max_payout == 2000
    capped = advise("Ks Qs", "As Js Ts", max_payout=Fraction(2000, 100))
    assert capped.action == "call"

    def no_table() -> None:
        raise AssertionError("the uncapped table must not decide a capped box")

    monkeypatch.setattr("pokerhouse.bots.casino_holdem.best_play_table", no_table)
    assert CasinoHoldemBot().calls(view) is True
    assert CasinoHoldemBot(exact=True).calls(view) is True


def test_without_the_table_file_the_bot_asks_the_exact_advice(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr("pokerhouse.bots.casino_holdem.best_play_table", lambda: None)
    rng = random.Random(4)
    for _ in range(5):
        cards = rng.sample(FULL_DECK, 5)
        expected = advise(cards[:2], cards[2:]).action == "call"
        assert _bot_calls(CasinoHoldemBot(), np.array(cards[:2]), np.array(cards[2:])) == expected


def test_a_box_that_cannot_afford_the_call_folds() -> None:
    hand = new_hand("casino-holdem", [10], seed=4, antes=[4])
    assert CasinoHoldemBot().choose(hand.view(0)) == Action.fold()


def test_smart_boxes_at_a_table_give_the_house_about_its_published_edge() -> None:
    """Through the table and the engine: the house edge per ante, with a 99.9% interval.

    An integration check (views, bets, the house's account), not a precise one:
    a round's result varies by about 2.6 antes, so 3,000 rounds pin the edge
    only to within about 0.15 antes. The exact checks above carry the precision.
    """
    table = Table("casino-holdem", seats=7, limits=TableLimits(1, 1000), rng=random.Random(5))
    table.apply(SitTogether(tuple((seat, f"box{seat}", 1000) for seat in range(7))))
    bot = get("smart", game="casino-holdem")
    per_round = []
    for _ in range(3000):
        for seat in range(7):
            info = table.seat(seat)
            if info is not None and info.busted:
                table.apply(AddChips(seat, 1000 - info.stack))
        summary = table.play_hand(lambda seat, view: bot.choose(view))
        assert summary.house == summary.hand.house_result  # type: ignore[attr-defined]
        per_round.append(summary.house / len(summary.seats))
    assert table.chips_conserved()
    mean = statistics.fmean(per_round)
    half = 3.29 * statistics.stdev(per_round) / math.sqrt(len(per_round))
    assert mean - half <= 0.0216 <= mean + half
