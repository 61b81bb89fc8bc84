"""The simulator: seeded, and its confidence intervals cover the exact figures."""

from __future__ import annotations

import numpy as np
import pytest

from pokerhouse.analysis.casino_holdem import (
    BonusPays,
    StrategyTable,
    advise,
    always_call,
    bonus_return,
    exact_analysis,
    simulate,
)
from pokerhouse.analysis.casino_holdem.simulate import Estimate
from pokerhouse.cards import parse_cards
from pokerhouse.errors import InvalidCards, InvalidSpec


@pytest.mark.parametrize(("hole", "flop"), [("As Kd", "Qh 7c 2d"), ("9h 8h", "Th 7h 2c")])
def test_interval_covers_the_exact_value_of_one_deal(hole: str, flop: str) -> None:
    exact = advise(hole, flop).call_ev
    result = simulate(60_000, always_call, hole=hole, flop=flop, seed=11)
    assert result.result.covers(exact)
    assert result.call_rate == 1.0


@pytest.mark.parametrize("table", ["flat", "common"])
def test_interval_covers_the_exact_bonus_return(table: str) -> None:
    pays = BonusPays.named(table)
    result = simulate(200_000, always_call, bonus_pays=pays, seed=5)
    assert result.bonus.covers(bonus_return(pays).ev)


def test_best_play_on_one_flop_class_covers_its_exact_value() -> None:
    flop = "Ks 9s 4s"
    exact = exact_analysis(flop_class_ids=[_class("Ks 9s 4s")])
    # Simulating the canonical flop itself: the table must decide like the advisor.
    result = simulate(40_000, exact.strategy, flop=flop, seed=3)
    low, high = result.result.interval(0.99)
    assert low < float(exact.ev) < high


def _class(flop: str) -> int:
    from pokerhouse.analysis.casino_holdem.symmetry import flop_classes, subset_rank

    cards = np.sort(np.array(parse_cards(flop), dtype=np.int64))
    return int(flop_classes().class_of[subset_rank(cards[None, :], 52)[0]])


def test_same_seed_same_result_and_plain_callables_work() -> None:
    def fold_small(hole: tuple[object, ...], flop: tuple[object, ...]) -> bool:
        return max(int(card) for card in hole) >= 40  # a queen or better

    first = simulate(3_000, fold_small, seed=9)
    second = simulate(3_000, fold_small, seed=9)
    assert first == second
    assert 0 < first.call_rate < 1
    vectorised = simulate(3_000, always_call, seed=9)
    plain = simulate(3_000, lambda hole, flop: True, seed=9)
    assert vectorised.result == plain.result


def test_strategy_table_save_and_load(tmp_path: object) -> None:
    exact = exact_analysis(flop_class_ids=[_class("Ac 8d 3h")])
    path = f"{tmp_path}/best.npz"
    exact.strategy.save(path)
    loaded = StrategyTable.load(path)
    assert np.array_equal(loaded.calls, exact.strategy.calls)
    assert loaded(parse_cards("As Kd"), parse_cards("Ah 8c 3d")) is True  # same class
    with pytest.raises(InvalidCards) as error:
        loaded(parse_cards("As Kd"), parse_cards("Qh 7c 2d"))
    assert error.value.code == "flop_not_covered"
    with pytest.raises(InvalidSpec) as spec_error:
        StrategyTable.load(f"{tmp_path}/missing.npz")
    assert spec_error.value.code == "bad_strategy_file"


def test_bad_input() -> None:
    with pytest.raises(InvalidSpec):
        simulate(1, always_call)
    with pytest.raises(InvalidCards):
        simulate(10, always_call, hole="As Kd", flop="As 7c 2d")
    with pytest.raises(InvalidCards):
        simulate(10, always_call, flop="As 7c")


def test_estimate_interval() -> None:
    estimate = Estimate.of(total=10.0, squares=30.0, samples=10)
    assert estimate.mean == 1.0
    low, high = estimate.interval()
    assert low < 1.0 < high and estimate.covers(1.2)


@pytest.mark.parametrize("seed", [-4, 1.5, "7"])
def test_a_bad_seed_is_refused_before_any_work(seed: object) -> None:
    with pytest.raises(InvalidSpec) as error:
        simulate(100, always_call, seed=seed)  # type: ignore[arg-type]
    assert error.value.code == "bad_seed"
