"""Pots: side pots at every all-in level, folded chips, odd chips."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from pokerhouse.engine.pots import Pot, build_pots, split_pot


def test_one_pot_when_everyone_put_in_the_same() -> None:
    assert build_pots([10, 10, 10], [True, True, True]) == [Pot(30, (0, 1, 2))]


def test_a_pot_forms_at_every_all_in_level() -> None:
    pots = build_pots([50, 100, 200, 200], [True] * 4)
    assert pots == [Pot(200, (0, 1, 2, 3)), Pot(150, (1, 2, 3)), Pot(200, (2, 3))]


def test_folded_chips_above_every_live_level_join_the_highest_pot() -> None:
    pots = build_pots([30, 200, 101], [True, True, False])
    assert pots == [Pot(90, (0, 1)), Pot(241, (1,))]


def test_a_pot_only_folded_players_reached_merges_into_the_pot_below() -> None:
    # Seat 2 folded after putting in more than the live all-in seat 0.
    pots = build_pots([40, 40, 90], [True, True, False])
    assert pots == [Pot(170, (0, 1))]


def test_odd_chips_go_one_at_a_time_clockwise_from_left_of_the_button() -> None:
    assert split_pot(10, [3, 1, 2]) == [(1, 4), (2, 3), (3, 3)]


@given(
    st.lists(st.tuples(st.integers(0, 1000), st.booleans()), min_size=2, max_size=10).filter(
        lambda seats: any(alive for _, alive in seats)
    )
)
def test_pots_hold_every_chip_and_only_live_seats_are_eligible(
    seats: list[tuple[int, bool]],
) -> None:
    contributions = [c for c, _ in seats]
    live = [alive for _, alive in seats]
    pots = build_pots(contributions, live)
    assert sum(p.amount for p in pots) == sum(contributions)
    for pot in pots:
        assert pot.eligible and all(live[s] for s in pot.eligible)


@given(st.integers(0, 10_000), st.sets(st.integers(0, 9), min_size=1))
def test_split_pot_shares_add_up_and_differ_by_at_most_one(amount: int, winners: set[int]) -> None:
    shares = [chips for _, chips in split_pot(amount, list(winners))]
    assert sum(shares) == amount and max(shares) - min(shares) <= 1
